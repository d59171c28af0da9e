// Noise on a shared machine is handled, not averaged in: each harness run (a sample) is timed
// between two readings of the contention canary (src/measure/canary.ts), and a sample is kept only
// when both readings are within the canary's tolerance of the lowest it has given in the session
// (the core was not shared while the sample ran). A benchmark takes samples until it has enough
// quiet ones or its budget of tries is spent; its figure is the lowest quiet sample, its spread
// that of the quiet samples, and the share of samples kept goes with it. Pure: the host runner
// feeds it samples, the tests feed it made-up ones.

import { CANARY_TOLERANCE, quietCanary } from '../canary.js';
import type { Timing } from './runner.js';

/** One harness run of a benchmark: its figure and the canary's readings around it (cycles). */
export interface Sample {
  cycles: number;
  canary: readonly [number, number];
}

/** The session's floor for the canary: the lowest reading that another reading confirms (within
 *  1 %). A lone low reading is the calibration's error, not the core: the readings are TSC ticks
 *  over the add chain's ticks per cycle, and a calibration slowed by contention makes the canary
 *  read low (3.76 beside an idle 3.98 on Zen 4), which would make every later sample look shared. */
export class CanaryFloor {
  private readonly readings: number[] = [];
  floor = Infinity;
  observe(readings: readonly number[]): void {
    for (const r of readings) if (Number.isFinite(r) && r > 0) this.readings.push(r);
    // the lowest readings are all the floor needs: a long run reads the canary millions of times
    this.readings.sort((a, b) => a - b).splice(KEEP);
    const sorted = this.readings;
    const k = sorted.findIndex((r, i) => i + 1 < sorted.length && sorted[i + 1]! <= r * (1 + CONFIRM));
    if (k >= 0) this.floor = sorted[k]!;
  }
  quiet(s: Sample): boolean {
    return s.canary.every((r) => quietCanary(r, this.floor));
  }
}

/** Two readings within this share of each other confirm one another. */
const CONFIRM = 0.01;
const KEEP = 64;

/** Whether a benchmark has enough quiet samples (`want`), or has spent its tries. */
export function enough(samples: readonly Sample[], gate: CanaryFloor, want: number, tries: number): boolean {
  return samples.length >= tries || samples.filter((s) => gate.quiet(s) && s.cycles > 0).length >= want;
}

/** The timing of a benchmark from its samples: the quiet ones only (judged by the session's floor
 *  now, which may have dropped since the first were taken), each run's figure kept. */
export function gatedTiming(samples: readonly Sample[], gate: CanaryFloor): Timing {
  const quiet = samples.filter((s) => gate.quiet(s));
  // the longer run no slower than the shorter one is noise too: a body costs at least a cycle
  const runs = quiet.map((s) => s.cycles).filter((c) => c > 0);
  const kept = { kept: runs.length, tried: samples.length };
  if (runs.length === 0) {
    const high = samples.length - quiet.length;
    return {
      cycles: NaN,
      high: NaN,
      runs,
      kept,
      failed:
        high > 0
          ? `the contention canary read high around ${high} of ${samples.length} runs (above ${(gate.floor * (1 + CANARY_TOLERANCE)).toFixed(2)} cycles): the core was shared, no figure kept`
          : `in each of ${samples.length} runs the longer length was no slower than the shorter one (noise)`,
    };
  }
  return { cycles: Math.min(...runs), high: Math.max(...runs), runs, kept };
}
