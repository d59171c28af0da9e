// The contention canary of the native timing runs (bench/measure/validate.ts, the measured table
// of tools/measure/table.ts): 16 independent adds, unrolled, timed by the measure harness. On an
// idle Zen 4 core they take 4.00 cycles per iteration (four ALUs); another guest's work on the
// same physical core slows them, so a timed run with the canary above the gate before or after
// it is dropped and retried. The canary sees contention for the integer ALUs; a loop bound by
// loads, stores or the FP pipes can be slowed by a sibling the canary does not see.
import { cyclesOf, runHarness } from '../../src/measure/harness.js';

/** the canary's figure on an idle Zen 4 core, and how far above it a run still counts as quiet */
export const CANARY_IDLE = 4.0;
export const CANARY_GATE = 4.08;

// add r, r8 on eight registers, twice (the loop variant would add the harness's dec/jnz)
const CANARY = Buffer.from(
  ['4c01c0', '4c01c3', '4c01c1', '4c01c2', '4c01c6', '4c01c7', '4d01c1', '4d01c2'].join('').repeat(2),
  'hex',
);

/** The canary's cycles per iteration now (its unrolled variant, 10th percentile). */
export function canary(repetitions = 200): number {
  const r = runHarness(CANARY, { counter: 15, repetitions });
  if (!r.ok) throw new Error(`the canary did not run: ${JSON.stringify(r)}`);
  return cyclesOf(r, r.unrolled.p10);
}

/** Whether both canaries of a round are at or under the gate. */
export const quiet = (before: number, after: number): boolean => before <= CANARY_GATE && after <= CANARY_GATE;
