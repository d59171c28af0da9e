// The one thing the characterization asks of a machine: how many core cycles a block of code
// takes when it runs back to back. Two runners answer it — the host (nativeRunner.ts: the
// measurement harness of `uopscope measure`) and a virtual CPU (virtualCpu.ts: uopscope's own
// engine with known figures) — so the same inference runs on both and the virtual one can check
// it recovers what it was given.

/** One microbenchmark: a straight-line body, run back to back (on the host in a loop, so that
 *  the code stays in the first-level caches). */
export interface Bench {
  /** what it measures, for the record ('lat ADD (R64, R64) op1→op0') */
  name: string;
  code: Uint8Array;
  /** general-purpose registers that start at another value than the harness's pattern */
  startValues?: readonly { number: number; value: bigint }[];
  /** vector registers that start at another value than the harness's zero (a gather's index) */
  vectorStarts?: readonly VectorStart[];
}

/** A vector register's start: lanes of `element` bytes holding 1, 2, 3, … (`ordinal`: a gather's
 *  small in-range indices) or every bit set (`ones`), loaded at the register's width. */
export interface VectorStart {
  number: number;
  lanes: 'ordinal' | 'ones';
  element: 4 | 8;
  width: 'xmm' | 'ymm' | 'zmm';
}

/** What a benchmark's registers start at, when not the harness's defaults. */
export type Starts = Pick<Bench, 'startValues' | 'vectorStarts'>;

/** Core cycles of one execution of a bench's body. */
export interface Timing {
  /** the low figure kept (the lowest of the runs' low percentiles) */
  cycles: number;
  /** the highest of the runs' low percentiles: (high − low) / low is the spread */
  high: number;
  /** each run's low percentile */
  runs: number[];
  /** the body faulted or could not run (then cycles is NaN) */
  failed?: string;
  /** runs kept of those tried (the others were taken while the contention canary read high);
   *  absent for a runner without noise (the virtual CPU) */
  kept?: { kept: number; tried: number };
}

export interface Runner {
  /** 'host' or 'virtual' */
  readonly kind: 'host' | 'virtual';
  /** each execution of the body ends with a taken loop branch (the harness's dec; jnz) */
  readonly loopBranch: boolean;
  run(b: Bench): Timing;
}

/** The spread of a timing, (high − low) / low. */
export function spreadOf(t: Timing): number {
  return t.cycles > 0 ? (t.high - t.cycles) / t.cycles : 0;
}

/** A timing whose runs disagree by more than this is marked inconsistent. */
export const SPREAD_LIMIT = 0.05;
