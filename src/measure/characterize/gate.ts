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

/** The session's floor for the canary: the lowest reading that many others confirm — the lowest
 *  1 % window of readings holding at least a quarter as many (two at least) as the fullest one.
 *  An idle core reads the same figure again and again (3.98 cycles on this Zen 4 guest, to the
 *  counter's step); a stray low reading is the calibration's error, not the core — the readings
 *  are TSC ticks over the add chain's ticks per cycle, and a calibration slowed by contention makes
 *  the canary read low (2.33 … 3.86 beside an idle 3.98), which, taken as the floor, would make
 *  every later sample look shared. */
export class CanaryFloor {
  /** readings by half-percent bin: how many, and the lowest */
  private readonly bins = new Map<number, { n: number; min: number }>();
  floor = Infinity;
  observe(readings: readonly number[]): void {
    for (const r of readings) {
      if (!(Number.isFinite(r) && r > 0)) continue;
      const b = Math.floor(Math.log(r) / BIN);
      const e = this.bins.get(b);
      if (e) {
        e.n++;
        e.min = Math.min(e.min, r);
      } else this.bins.set(b, { n: 1, min: r });
    }
    const n = (b: number): number => this.bins.get(b)?.n ?? 0;
    const keys = [...this.bins.keys()].sort((p, q) => p - q);
    const window = (b: number): number => n(b) + n(b + 1);
    const need = Math.max(2, Math.ceil(Math.max(0, ...keys.map(window)) / 4));
    const k = keys.find((b) => window(b) >= need);
    this.floor = k === undefined ? Infinity : this.bins.get(k)!.min;
  }
  quiet(s: Sample): boolean {
    return s.canary.every((r) => quietCanary(r, this.floor));
  }
}

/** Half a percent, as a step of the logarithm: two bins make the 1 % window. */
const BIN = Math.log(1.005);

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
    const top = gate.floor * (1 + CANARY_TOLERANCE);
    const high = samples.filter((s) => s.canary.some((r) => !(r <= top))).length;
    const low = samples.length - quiet.length - high;
    const why = [
      high > 0 &&
        `the contention canary read high around ${high} of ${samples.length} runs (above ${top.toFixed(2)} cycles): the core was shared`,
      low > 0 &&
        `the canary read low around ${low} of ${samples.length} runs (below ${(gate.floor * (1 - CANARY_TOLERANCE)).toFixed(2)} cycles): the cycle calibration ran slow`,
    ].filter((w): w is string => typeof w === 'string');
    return {
      cycles: NaN,
      high: NaN,
      runs,
      kept,
      failed: why.length
        ? `${why.join('; ')}, no figure kept`
        : `in each of ${samples.length} runs the longer length was no slower than the shorter one (noise)`,
    };
  }
  return { cycles: Math.min(...runs), high: Math.max(...runs), runs, kept };
}
