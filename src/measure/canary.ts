// The contention canary: 16 independent `add r, r8` (eight destinations, twice), a block whose
// speed is set by the core's integer ALUs alone — 4.00 cycles per copy on an idle Zen 4 or
// Skylake core (four ALUs). These guests share physical cores with other guests: when another one
// runs on the sibling thread, the canary slows (read every minute on an idle Zen 4 guest it gave
// 4.03 … 5.30), and a figure timed beside it is not the core's. The measurement harness times it
// just before and just after a sample (its K= parameter); a caller compares the two readings with
// the lowest the canary has given in the session and drops the sample when either reads high.

import { cyclesOf, runHarness } from './harness.js';

/** The canary's bytes: add r8 into rax, rbx, rcx, rdx, rsi, rdi, r9, r10, twice. */
export const CANARY = Uint8Array.from(
  Buffer.from(
    ['4c01c0', '4c01c3', '4c01c1', '4c01c2', '4c01c6', '4c01c7', '4d01c1', '4d01c2'].join('').repeat(2),
    'hex',
  ),
);

/** The canary's figure on an idle Zen 4 core, cycles per copy (four ALUs). */
export const CANARY_IDLE_ZEN4 = 4.0;

/** How far from the floor a canary may read and its sample still count as quiet: 2 % (4.08 on
 *  Zen 4; an idle core reads within 1 % of its lowest, a shared one 10–30 % above). Below counts
 *  too: the canary is in cycles by the same add-chain calibration as the sample, so a canary that
 *  reads low says the calibration ran slow (under contention) and the sample's cycles read low with
 *  it (2.33 to 3.86 were seen beside an idle 3.98). */
export const CANARY_TOLERANCE = 0.02;

/** Whether a canary reading counts as quiet beside `floor`, the session's idle reading. */
export const quietCanary = (reading: number, floor: number): boolean =>
  Number.isFinite(reading) && Math.abs(reading - floor) <= floor * CANARY_TOLERANCE;

/** One standalone reading of the canary, core cycles per copy (its own harness run). */
export function canaryReading(o: { repetitions?: number; cacheDir?: string } = {}): number {
  const r = runHarness(CANARY, {
    counter: 15,
    repetitions: o.repetitions ?? 200,
    ...(o.cacheDir !== undefined ? { cacheDir: o.cacheDir } : {}),
  });
  if (!r.ok) throw new Error(`the canary did not run: ${r.reason}`);
  return cyclesOf(r, r.unrolled.p10);
}
