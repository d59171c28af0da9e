// The host as a Runner: each benchmark runs in the measurement harness of `uopscope measure`
// (assets/measure/harness.c: a sandboxed child, core cycles from perf or the calibrated TSC) as
// its "loop" variant — the body once, closed by dec r15; jnz, 1000 and 2000 iterations — so the
// code stays in the first-level caches (the unrolled variant's ×200 copies of a block of a few
// hundred instructions would measure instruction fetch from L2). Each run is a sample timed
// between two readings of the contention canary (gate.ts): samples taken while another guest
// shared the core are dropped, not averaged in, and the benchmark runs again until it has enough
// quiet ones; the lowest is kept and the highest beside it (the spread), with the share kept.

import { CANARY, canaryReading } from '../canary.js';
import { cyclesOf, hostHasAvx512, notMeasurable, runHarness } from '../harness.js';
import { CanaryFloor, enough, gatedTiming, type Sample } from './gate.js';
import { COUNTER, stashFor } from './x86.js';
import type { Bench, Runner, Timing, VectorStart } from './runner.js';

interface NativeOptions {
  /** timed repetitions per harness run (default 30) */
  repetitions?: number;
  /** quiet harness runs wanted per benchmark (default 3) */
  runs?: number;
  cacheDir?: string;
}

/** Tries per benchmark: this many times the quiet runs wanted, then it gives what it has. */
const TRIES_PER_RUN = 3;
/** Standalone canary readings at most before the first benchmark (until two confirm a floor). */
const SETTLE_READINGS = 20;
/** Rounds of tries for a benchmark without a quiet run, and the pause between them. */
const ROUNDS = 3;
const PAUSE_MS = 700;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

export class NativeRunner implements Runner {
  readonly kind = 'host' as const;
  readonly loopBranch = true;
  runsDone = 0;
  /** runs dropped because the canary read outside its band around them */
  runsDropped = 0;
  /** the lowest canary reading of the session (cycles per copy) */
  readonly gate = new CanaryFloor();
  private readonly stash = stashFor(hostHasAvx512());
  private settled = false;
  constructor(private readonly o: NativeOptions = {}) {}

  /** Standalone canary readings before the first benchmark, so that the floor the first samples
   *  are judged by is already near the idle core's. */
  private settle(): void {
    this.settled = true;
    const reps = this.o.repetitions ?? 30;
    for (let k = 0; k < SETTLE_READINGS && (k < 3 || this.gate.floor === Infinity); k++)
      this.gate.observe([
        canaryReading({ repetitions: reps, ...(this.o.cacheDir !== undefined ? { cacheDir: this.o.cacheDir } : {}) }),
      ]);
  }

  run(b: Bench): Timing {
    if (!this.settled) this.settle();
    const want = this.o.runs ?? 3;
    const samples: Sample[] = [];
    // a burst of contention can outlast a benchmark's tries: then it waits and tries again, a few
    // rounds, so that its runs spread over a few seconds instead of all falling in the burst
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        if (gatedTiming(samples, this.gate).runs.length > 0) break;
        Atomics.wait(PAUSE, 0, 0, PAUSE_MS);
      }
      const failed = this.tries(b, samples, want, (round + 1) * want * TRIES_PER_RUN);
      if (failed) return failed;
    }
    const t = gatedTiming(samples, this.gate);
    this.runsDropped += samples.length - (t.kept?.kept ?? samples.length);
    return t;
  }

  /** Harness runs until `samples` has `want` quiet ones or `tries` in all; a run that fails
   *  (the body faulted) ends the benchmark, its timing returned. */
  private tries(b: Bench, samples: Sample[], want: number, tries: number): Timing | null {
    while (!enough(samples, this.gate, want, tries)) {
      this.runsDone++;
      const r = runHarness(b.code, {
        counter: COUNTER,
        stash: this.stash,
        canary: CANARY,
        repetitions: this.o.repetitions ?? 30,
        ...(b.startValues ? { startValues: b.startValues } : {}),
        ...(b.vectorStarts?.length ? { layout: b.vectorStarts.map(vectorStartArg) } : {}),
        ...(this.o.cacheDir !== undefined ? { cacheDir: this.o.cacheDir } : {}),
      });
      if (!r.ok) return { cycles: NaN, high: NaN, runs: [], failed: notMeasurable(r) };
      const canary = r.canary ? ([cyclesOf(r, r.canary[0]), cyclesOf(r, r.canary[1])] as const) : ([NaN, NaN] as const);
      this.gate.observe(canary);
      samples.push({ cycles: cyclesOf(r, r.loop.p10), canary });
    }
    return null;
  }
}

/** The harness's V= argument for a vector register's start (assets/measure/harness.c): ordinal
 *  lanes are its `s` fill (lane k = 1 + k), all ones its `c` fill with every bit set. */
function vectorStartArg(v: VectorStart): string {
  const fill = v.lanes === 'ones' ? `c,${v.element},${(1n << BigInt(8 * v.element)) - 1n}` : `s,${v.element},0`;
  return `V=${v.number},${fill},${v.width[0]}`;
}
