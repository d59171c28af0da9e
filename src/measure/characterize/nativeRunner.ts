// The host as a Runner: each benchmark runs in the measurement harness of `uopscope measure`
// (assets/measure/harness.c: a sandboxed child, core cycles from perf or the calibrated TSC) as
// its "loop" variant — the body once, closed by dec r15; jnz, 1000 and 2000 iterations — so the
// code stays in the first-level caches (the unrolled variant's ×200 copies of a block of a few
// hundred instructions would measure instruction fetch from L2), several times; the lowest of the runs' 10th percentiles is kept
// and the highest beside it, so a shared machine's noise shows as spread instead of being
// averaged in.

import { cyclesOf, notMeasurable, runHarness } from '../harness.js';
import { COUNTER } from './x86.js';
import type { Bench, Runner, Timing } from './runner.js';

interface NativeOptions {
  /** timed repetitions per harness run (default 30) */
  repetitions?: number;
  /** harness runs per benchmark (default 5) */
  runs?: number;
  cacheDir?: string;
}

export class NativeRunner implements Runner {
  readonly kind = 'host' as const;
  readonly loopBranch = true;
  runsDone = 0;
  constructor(private readonly o: NativeOptions = {}) {}

  run(b: Bench): Timing {
    const runs: number[] = [];
    const n = this.o.runs ?? 5;
    for (let k = 0; k < n; k++) {
      this.runsDone++;
      const r = runHarness(b.code, {
        counter: COUNTER,
        repetitions: this.o.repetitions ?? 30,
        ...(b.startValues ? { startValues: b.startValues } : {}),
        ...(this.o.cacheDir !== undefined ? { cacheDir: this.o.cacheDir } : {}),
      });
      if (!r.ok) return { cycles: NaN, high: NaN, runs, failed: notMeasurable(r) };
      // the longer run no slower than the shorter one is noise (another guest took the core in
      // the shorter run), not a figure: a benchmark's body costs at least a cycle
      const c = cyclesOf(r, r.loop.p10);
      if (c > 0) runs.push(c);
    }
    if (runs.length === 0)
      return {
        cycles: NaN,
        high: NaN,
        runs,
        failed: `in each of ${n} runs the longer length was no slower than the shorter one (noise)`,
      };
    return { cycles: Math.min(...runs), high: Math.max(...runs), runs };
  }
}
