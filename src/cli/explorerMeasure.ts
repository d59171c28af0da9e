// The explorer's measure key (M, src/ui/hooks/useMeasure.ts): the region prepared as
// `uopscope measure` prepares it (src/measure/prepare.ts) and run in the native harness in the
// background (a child process the explorer cancels when it ends). A region with a forward branch
// inside: each side of the branch comparison, as `uopscope measure` does.
import { hostCore } from '../measure/host.js';
import { lineAtOffset, prepareRegion, prepareSide, type PreparedRegion } from '../measure/prepare.js';
import { cyclesOf, notMeasurable, runHarnessAsync, type HarnessResult } from '../measure/harness.js';
import { harnessMemory } from '../measure/layout.js';
import type { LoadedRegion } from '../disasm/types.js';
import { branchPaths } from '../disasm/index.js';
import type { MeasuredSideOutcome, MeasureOutcome, MeasureRunner } from '../ui/types.js';

/** Repetitions of the explorer's measurement: fewer than the command's 200, for a quick answer. */
const EXPLORER_REPETITIONS = 100;

type RunHarness = (p: PreparedRegion) => Promise<HarnessResult>;

/** Runs one prepared region in the harness, with the explorer's repetitions. */
function harnessFor(
  region: LoadedRegion,
  opts: { cacheDir?: string; repetitions?: number },
  signal: AbortSignal,
): RunHarness {
  return (p) => {
    const memory = harnessMemory(
      p.lines.map((line) => region.instructions.find((i) => i.line === line)!),
      p,
      {},
      region.instructions.find((i) => i.line === p.closingBranch),
    );
    return runHarnessAsync(
      memory.code,
      {
        counter: p.counter.number,
        stash: p.stash,
        startValues: memory.startValues,
        layout: memory.args,
        repetitions: opts.repetitions ?? EXPLORER_REPETITIONS,
        ...(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {}),
      },
      signal,
    );
  };
}

function failure(p: PreparedRegion, r: Extract<HarnessResult, { ok: false }>): string {
  const line = lineAtOffset(p, r.offset);
  return notMeasurable(r, line === null ? '' : ` at line ${line}`);
}

/** A region with a branch inside: each side of the branch comparison, one after the other. */
async function measureSides(
  region: LoadedRegion,
  paths: NonNullable<ReturnType<typeof branchPaths>>,
  bitness: 32 | 64,
  harness: RunHarness,
): Promise<MeasureOutcome> {
  const sides: MeasuredSideOutcome[] = [];
  let method: 'perf' | 'tsc' = 'tsc';
  let variant: 'loop' | 'unrolled' = 'unrolled';
  for (const [label, lines] of [
    ['fall-through', paths.left],
    ['taken', paths.right],
  ] as const) {
    const ps = prepareSide(region.instructions, lines, paths.branchLine, bitness);
    if (!ps.ok) {
      sides.push({ label, cyclesPerIteration: null, reason: `not measurable: ${ps.why}` });
      continue;
    }
    const r = await harness(ps.region);
    if (!r.ok) {
      sides.push({ label, cyclesPerIteration: null, reason: failure(ps.region, r) });
      continue;
    }
    method = r.method;
    variant = ps.region.closingBranch !== null ? 'loop' : 'unrolled';
    sides.push({ label, cyclesPerIteration: cyclesOf(r, r[variant].p10) });
  }
  if (sides.every((x) => x.cyclesPerIteration === null))
    return { ok: false, reason: sides.map((x) => `${x.label} side ${x.reason}`).join('; ') };
  return { ok: true, sides, method, variant };
}

async function measureRegion(region: LoadedRegion, harness: RunHarness): Promise<MeasureOutcome> {
  const bitness = region.format === 'elf32' ? 32 : 64;
  const prep = prepareRegion(region.instructions, bitness);
  const paths = !prep.ok && prep.internalBranch !== undefined ? branchPaths(region.instructions) : null;
  if (!prep.ok && !paths) return { ok: false, reason: `not measurable: ${prep.why}` };
  if (prep.ok) {
    const p = prep.region;
    const r = await harness(p);
    if (!r.ok) return { ok: false, reason: failure(p, r) };
    const variant = p.closingBranch !== null ? 'loop' : 'unrolled';
    return { ok: true, cyclesPerIteration: cyclesOf(r, r[variant].p10), method: r.method, variant };
  }
  return measureSides(region, paths!, bitness, harness);
}

export function measureRunner(
  region: LoadedRegion,
  opts: { cacheDir?: string; repetitions?: number } = {},
): MeasureRunner {
  const host = hostCore();
  const base = { hostArch: host?.arch ?? null };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return {
      ...base,
      unavailable: `measuring runs on Linux x86-64 only (this is ${process.platform} ${process.arch})`,
      run: () => ({ promise: Promise.resolve({ ok: false, reason: 'not available' }), cancel: () => {} }),
    };
  }
  return {
    ...base,
    run: () => {
      const abort = new AbortController();
      const promise = measureRegion(region, harnessFor(region, opts, abort.signal));
      return { promise, cancel: () => abort.abort() };
    },
  };
}
