// The explorer's measure key (M, src/ui/hooks/useMeasure.ts): the region prepared as
// `uopscope measure` prepares it (src/measure/prepare.ts) and run in the native harness in the
// background (a child process the explorer cancels when it ends). The whole region only: a region
// with a branch inside says to use `uopscope measure`, which measures each side.
import { hostCore } from '../measure/host.js';
import { prepareRegion } from '../measure/prepare.js';
import { cyclesOf, notMeasurable, runHarnessAsync } from '../measure/harness.js';
import { lineAtOffset } from '../measure/prepare.js';
import type { LoadedRegion } from '../disasm/types.js';
import { branchPaths } from '../disasm/index.js';
import type { MeasureOutcome, MeasureRunner } from '../ui/types.js';

/** Repetitions of the explorer's measurement: fewer than the command's 200, for a quick answer. */
export const EXPLORER_REPETITIONS = 100;

export function measureRunner(region: LoadedRegion, opts: { cacheDir?: string; repetitions?: number } = {}): MeasureRunner {
  const host = hostCore();
  const base = { hostArch: host?.arch ?? null };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { ...base, unavailable: `measuring runs on Linux x86-64 only (this is ${process.platform} ${process.arch})`, run: () => ({ promise: Promise.resolve({ ok: false, reason: 'not available' }), cancel: () => {} }) };
  }
  return {
    ...base,
    run: () => {
      const abort = new AbortController();
      const promise = (async (): Promise<MeasureOutcome> => {
        const prep = prepareRegion(region.instructions, region.format === 'elf32' ? 32 : 64);
        if (!prep.ok) {
          return { ok: false, reason: `not measurable: ${prep.why}${prep.internalBranch !== undefined && branchPaths(region.instructions) ? ' (uopscope measure measures each side of this branch)' : ''}` };
        }
        const p = prep.region;
        const r = await runHarnessAsync(p.body, {
          counter: p.counter.number, startValues: p.startValues, repetitions: opts.repetitions ?? EXPLORER_REPETITIONS,
          ...(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {}),
        }, abort.signal);
        if (!r.ok) {
          const line = lineAtOffset(p, r.offset);
          return { ok: false, reason: notMeasurable(r, line === null ? '' : ` at line ${line}`) };
        }
        const variant = p.closingBranch !== null ? 'loop' : 'unrolled';
        return { ok: true, cyclesPerIteration: cyclesOf(r, r[variant].p10), method: r.method, variant };
      })();
      return { promise, cancel: () => abort.abort() };
    },
  };
}
