// The contention canary of the native timing runs (bench/measure/validate.ts, the measured table
// of tools/measure/table.ts), as src/measure/canary.ts defines it for `data measure`: 16
// independent adds, 4.00 cycles per iteration on an idle Zen 4 core. A timed run with the canary
// outside the gate's band before or after it is dropped and retried. The canary sees contention for the
// integer ALUs; a loop bound by loads, stores or the FP pipes can be slowed by a sibling the
// canary does not see.
import { CANARY_IDLE_ZEN4, CANARY_TOLERANCE, canaryReading } from '../../src/measure/canary.js';

/** the canary's figure on an idle Zen 4 core, and how far from it a run still counts as quiet (a
 *  low reading is a slow calibration: quietCanary says why) */
export const CANARY_IDLE = CANARY_IDLE_ZEN4;
export const CANARY_GATE = Number((CANARY_IDLE * (1 + CANARY_TOLERANCE)).toFixed(2));
export const CANARY_LOW = Number((CANARY_IDLE * (1 - CANARY_TOLERANCE)).toFixed(2));

/** The canary's cycles per iteration now (its unrolled variant, 10th percentile). */
export const canary = (repetitions = 200): number => canaryReading({ repetitions });

/** Whether both canaries of a round are within the gate's band. */
export const quiet = (before: number, after: number): boolean =>
  [before, after].every((c) => c >= CANARY_LOW && c <= CANARY_GATE);
