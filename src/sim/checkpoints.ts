// Saved states of one run (Core.save), so that a seek restores the nearest one at or before its
// target and simulates only from there, results identical to a replay from cycle 0 (the core is
// deterministic and a saved state is its whole state: test/sim/checkpoints.test.ts).
//
// Memory is bounded by a fixed number of states of three kinds:
// - coarse: spread over the run, at the multiples of an interval; when there are more than
//   `coarseLimit`, the interval doubles and every other one goes (so at most about
//   2·cycles/coarseLimit cycles lie between two of them, however long the run);
// - the tail: the last state a run to the end passed (at most PROGRESS_CYCLES before the end),
//   so that a step back from the end simulates no more than that;
// - fine: laid while a seek simulates toward its target, closer together the closer the seek is
//   (its distance over FINE_PER_SEEK, not under FINE_MIN cycles); past `fineLimit` the one
//   farthest from the newest goes. Repeated steps back from a cycle far from a coarse one thus
//   simulate a coarse interval once, then an eighth of it, and so on.
// Both limits shrink for a program whose state is large (at most STATE_BUDGET bytes of coarse
// states, half as much of fine ones; never fewer than 8 and 4).

import type { Core, CoreState } from './core.js';

const COARSE_MAX = 128;
const FINE_MAX = 32;
const FIRST_INTERVAL = 64;
/** closer than this is not worth a save: saving a state costs about as much as simulating tens
 *  of cycles (it copies every in-flight instance's slot) */
const FINE_MIN = 256;
/** fine states a seek lays over its distance */
const FINE_PER_SEEK = 8;
const STATE_BUDGET = 16 * 1024 * 1024;

/** What a run's checkpoints hand to another engine of the same run (plain data: posted). */
export interface CheckpointSet {
  interval: number;
  coarse: CoreState[];
  tail: CoreState | null;
}

/** Bytes a saved state holds (its arrays; 8 a number). */
function stateBytes(o: unknown): number {
  if (ArrayBuffer.isView(o)) return o.byteLength;
  if (o !== null && typeof o === 'object') {
    let n = 0;
    for (const v of Object.values(o)) n += stateBytes(v);
    return n;
  }
  return 8;
}

const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x));

/** The smallest power of two ≥ x (x ≥ 1). */
const pow2 = (x: number) => 2 ** Math.ceil(Math.log2(x));

export class Checkpoints {
  /** sorted by cycle; the first is cycle 0 */
  private coarse: CoreState[];
  private fine: CoreState[] = [];
  private tail: CoreState | null = null;
  private interval = FIRST_INTERVAL;
  /** the fine states' spacing for the seek under way (0: none) */
  private fineEvery = 0;
  private readonly coarseLimit: number;
  private readonly fineLimit: number;

  constructor(start: CoreState) {
    this.coarse = [start];
    const bytes = Math.max(1, stateBytes(start));
    this.coarseLimit = clamp(Math.floor(STATE_BUDGET / bytes), 8, COARSE_MAX);
    this.fineLimit = clamp(Math.floor(STATE_BUDGET / 2 / bytes), 4, FINE_MAX);
  }

  /** The states kept, for tests and the bound: coarse, fine and the tail. */
  get size(): { coarse: number; fine: number; tail: number; coarseLimit: number; fineLimit: number } {
    const { coarseLimit, fineLimit } = this;
    return { coarse: this.coarse.length, fine: this.fine.length, tail: this.tail ? 1 : 0, coarseLimit, fineLimit };
  }

  /** A seek is about to simulate from cycle `from` to `target`: fine states along the way. */
  aim(from: number, target: number): void {
    const d = target - from;
    this.fineEvery = d > FINE_MIN ? Math.max(FINE_MIN, pow2(d / FINE_PER_SEEK)) : 0;
  }

  /** The core (this run's) has just simulated a cycle. */
  passed(core: Core): void {
    const c = core.cycle;
    if (c % this.interval === 0) this.addCoarse(core.save());
    else if (this.fineEvery > 0 && c % this.fineEvery === 0) this.addFine(core.save());
  }

  /** A run to the end of this run passed `core`'s cycle (every PROGRESS_CYCLES): kept as the tail,
   *  and as a coarse state where one belongs. */
  passedFar(core: Core): void {
    const st = core.save();
    this.tail = st;
    if (st.cycle % this.interval === 0) this.addCoarse(st);
  }

  /** The state to start from for `target`: the latest at or before it. */
  nearest(target: number): CoreState {
    let lo = 0,
      hi = this.coarse.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.coarse[mid]!.cycle <= target) lo = mid;
      else hi = mid - 1;
    }
    let best = this.coarse[lo]!;
    for (const st of this.fine) if (st.cycle <= target && st.cycle > best.cycle) best = st;
    const t = this.tail;
    if (t !== null && t.cycle <= target && t.cycle > best.cycle) best = t;
    return best;
  }

  /** What another engine of the same run may take over (the coarse states and the tail). */
  exported(): CheckpointSet {
    return { interval: this.interval, coarse: this.coarse.slice(), tail: this.tail };
  }

  /** Takes over another engine's checkpoints of the same run. */
  merge(other: CheckpointSet): void {
    this.interval = Math.max(this.interval, other.interval);
    for (const st of other.coarse) this.addCoarse(st);
    this.thin();
    if (other.tail !== null && (this.tail === null || other.tail.cycle > this.tail.cycle)) this.tail = other.tail;
  }

  private addCoarse(st: CoreState): void {
    if (st.cycle % this.interval !== 0) return;
    const cs = this.coarse;
    let i = cs.length;
    while (i > 0 && cs[i - 1]!.cycle > st.cycle) i--;
    if (i > 0 && cs[i - 1]!.cycle === st.cycle) return;
    cs.splice(i, 0, st);
    if (cs.length > this.coarseLimit) this.thin();
  }

  /** Doubles the interval until the coarse states fit, each time every other one going. */
  private thin(): void {
    this.coarse = this.coarse.filter((st) => st.cycle % this.interval === 0);
    while (this.coarse.length > this.coarseLimit) {
      this.interval *= 2;
      this.coarse = this.coarse.filter((st) => st.cycle % this.interval === 0);
    }
  }

  private addFine(st: CoreState): void {
    const fs = this.fine;
    if (fs.some((x) => x.cycle === st.cycle)) return;
    fs.push(st);
    if (fs.length <= this.fineLimit) return;
    let far = 0;
    for (let i = 1; i < fs.length; i++)
      if (Math.abs(fs[i]!.cycle - st.cycle) > Math.abs(fs[far]!.cycle - st.cycle)) far = i;
    fs.splice(far, 1);
  }
}
