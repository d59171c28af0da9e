// Steady state, exactly: a loop's schedule becomes periodic. At an iteration boundary (a cycle
// in which the oldest unfinished instance, `head`, passed a multiple of the loop's length; of
// every KEY_STRIDE-th iteration) the
// core's state relative to `head` and the cycle — every in-flight instance's status, µops, ports,
// start, waits; the station, the front end, the divider, the port order — is written as a key.
// When a key repeats (head moved by whole iterations) and one more period confirms it exactly,
// the rest of the run up to the last period before the front end reaches the end of the program
// repeats that period: every counter (they are integer counts) grows by the period's change times
// the number of periods, the core is moved forward by as many periods, and only the tail is
// simulated. Port use counts are compared, not keyed: a port that is used more per period than
// another must already be ahead of it by more than the other's use in one period, so that every
// comparison the port order makes comes out the same in every later period (else: no skip yet).
// With ports assigned at issue (the refined model's portChoice) the dispatch never reads the port
// order (Ports.orderKeyed false), so neither the order nor that separation is required.
// A run whose state never repeats is simulated in full. Results are bit-identical to the full
// simulation (test/sim/steady.test.ts).

import { type Core, type CoreState, type Progress, PROGRESS_MASK } from './core.js';
import { KeyWriter } from './units/state.js';
import { COUNTER_NAMES } from './recorder.js';
import type { CounterName } from './recorder.js';
/** keys remembered before giving up (a run whose state does not repeat within so many boundaries,
 *  or is not confirmed within four times as many, is simulated in full; bounds memory and time) */
const MAX_KEYS = 20_000;
/** keys are written at the boundaries of every KEY_STRIDE-th iteration only. Writing one costs
 *  about as much as simulating an iteration (it lists every instance in flight), so keying every
 *  boundary would make runs too short to repeat (a default report's 200 iterations) slower than
 *  simulating them in full. Still exact: in the periodic regime the sampled boundaries repeat
 *  too, every lcm(KEY_STRIDE, period) iterations (then a multiple of the period is skipped), so a
 *  repetition is found at most KEY_STRIDE periods later than with every boundary keyed. */
const KEY_STRIDE = 8;

/** the counters a period changes, by name: the recorder's, and the ports' use (it orders them) */
type Counters = Record<CounterName | 'usage', Float64Array>;
const COUNTERS: readonly (CounterName | 'usage')[] = [...COUNTER_NAMES, 'usage'];

function counters(core: Core): Counters {
  return { ...core.recorder.counters(), usage: core.ports.usage };
}

function copyCounters(core: Core): Counters {
  const c = counters(core);
  for (const name of COUNTERS) c[name] = c[name].slice();
  return c;
}

/** The core's state relative to its head and cycle, as integers (behaviourally equal states get
 *  equal keys): every unit's declared part (Core.writeKey). Returns the key's length in buf.k. */
function writeKey(core: Core, buf: KeyWriter): number {
  buf.x = 0;
  core.writeKey(buf);
  return buf.x;
}

function hashKey(k: Int32Array, len: number): number {
  let h = 0x811c9dc5 | 0;
  for (let x = 0; x < len; x++) h = Math.imul(h ^ k[x]!, 0x01000193);
  return (h ^ len) >>> 0;
}

/** Every pair of ports that grows at different rates can no longer swap places (see the top). */
function portsSeparated(u0: Float64Array, u1: Float64Array): boolean {
  const P = u0.length;
  for (let a = 0; a < P; a++) {
    const da = u1[a]! - u0[a]!;
    for (let b = 0; b < P; b++) {
      if (a === b) continue;
      const db = u1[b]! - u0[b]!;
      if (da > db && !(u0[a]! > u1[b]!)) return false;
    }
  }
  return true;
}

/** Move the core forward by m periods of dc cycles and dg instances; counters grow by m·delta.
 *  Each unit moves its own state (Core.shift). */
function shift(
  core: Core,
  m: number,
  dc: number,
  dg: number,
  delta: Counters,
  dUops: number,
  dWaits: WaitsDelta,
): void {
  const D = m * dg;
  core.shift({ dg: D, dc: m * dc, dk: D / core.cp.n });
  core.recorder.uopsAssigned += m * dUops;
  // the waits of the instances in flight grow as the recorder's: by what one period added to each
  core.scheduler.growWaits(dWaits.w, dWaits.o, m, dg);
  const cs = counters(core);
  for (const name of COUNTERS) {
    const a = cs[name],
      d = delta[name];
    for (let x = 0; x < a.length; x++) a[x]! += m * d[x]!;
  }
  // the port order by the use so moved (unchanged where the dispatch reads it: portsSeparated)
  core.ports.reorder();
}

/** A confirmed period: the core's state at its start, and what one period changes. */
export interface SteadyPeriod {
  start: CoreState;
  /** cycle of `start` (the end of the period that confirmed it) */
  cycle: number;
  dc: number;
  dg: number;
  delta: Counters;
  dUops: number;
  dWaits: WaitsDelta;
  /** periods that may be skipped from `start` (the front end stays before the program's end) */
  periods: number;
}

/** Put the core (any run of the same program and config) at `target` when the period covers it:
 *  its start moved by whole periods, then fewer than a period's cycles simulated. */
export function seekPeriodic(core: Core, period: SteadyPeriod, target: number): boolean {
  if (target < period.cycle) return false;
  const j = Math.min(period.periods, Math.floor((target - period.cycle) / period.dc));
  core.restore(period.start);
  if (j > 0) shift(core, j, period.dc, period.dg, period.delta, period.dUops, period.dWaits);
  while (core.cycle < target && !core.finished) core.step();
  return true;
}

/** A repeated key being confirmed: the state at the start of its period, and the period's size. */
interface Candidate {
  key: Int32Array;
  cycle: number;
  head: number;
  dc: number;
  dg: number;
  counters: Counters;
  uops: number;
  /** the instances in flight's waits (inFlightWaits) */
  waits: Int32Array;
}

/** Per instance from the scheduler's headBefore (`o` places before the oldest in flight) to the
 *  newest: the cycles of waiting one period added to the instance at that place. */
interface WaitsDelta {
  w: Int32Array;
  o: number;
}

const inFlightWaits = (core: Core): Int32Array => core.scheduler.waitsFrom(core.scheduler.head);

/** A confirmed period found at `cycle` (its end), without the core's state (saved only when asked). */
type FoundPeriod = Omit<SteadyPeriod, 'start'>;

/** What the search says at a boundary: look on, stop looking (no period will be skipped), or skip. */
const SEARCHING = 0;
const STOPPED = 1;
type SearchResult = typeof SEARCHING | typeof STOPPED | FoundPeriod;

/** The search for a period, one iteration boundary at a time: the keys seen, and a
 *  candidate period waiting for one more period to confirm it (see the top). */
class PeriodSearch {
  /** key hash → [cycle, head] of its last boundary */
  private readonly seen = new Map<number, [number, number]>();
  private readonly buf = new KeyWriter();
  private boundaries = 0;
  private cand: Candidate | null = null;

  constructor(private readonly core: Core) {}

  /** At an iteration boundary, in cycle c. */
  atBoundary(c: number): SearchResult {
    const core = this.core,
      rs = core.scheduler,
      n = core.cp.n;
    // an instance of the first iteration still in flight sees no loop-carried producers: not yet
    if (rs.head < n) return SEARCHING;
    if (core.frontEnd.frontier() >= core.N) return STOPPED;
    const cand = this.cand;
    if (cand !== null && rs.head < cand.head + cand.dg) return SEARCHING;
    if (++this.boundaries > 4 * MAX_KEYS) return STOPPED;
    // keys only at every KEY_STRIDE-th iteration (see KEY_STRIDE); a candidate's confirmation
    // falls on such a boundary (its head moved by a multiple of KEY_STRIDE iterations)
    const sampled = Math.floor(rs.head / n) % KEY_STRIDE === 0;
    if (cand === null && !sampled) return SEARCHING;
    const len = writeKey(core, this.buf);
    if (cand !== null) {
      if (this.confirms(cand, c, len)) return this.found(cand, c);
      this.cand = null; // not confirmed: look for another repetition
      if (!sampled) return SEARCHING;
    }
    this.remember(c, len);
    return this.seen.size > MAX_KEYS ? STOPPED : SEARCHING;
  }

  /** The key just written (len long) repeats the candidate's exactly one period later, and the
   *  ports' order can no longer change (when the dispatch reads it). */
  private confirms(cand: Candidate, c: number, len: number): boolean {
    const core = this.core,
      key = this.buf.k;
    let same = core.scheduler.head === cand.head + cand.dg && c === cand.cycle + cand.dc && len === cand.key.length;
    for (let x = 0; same && x < len; x++) same = key[x] === cand.key[x];
    return same && (!core.ports.orderKeyed || portsSeparated(cand.counters.usage, core.ports.usage));
  }

  /** The confirmed period ending in cycle c, or STOPPED when not one whole period is left before
   *  the front end reaches the program's end. */
  private found(cand: Candidate, c: number): FoundPeriod | typeof STOPPED {
    const core = this.core;
    const m = Math.floor((core.N - 1 - core.frontEnd.frontier()) / cand.dg);
    if (m < 1) return STOPPED;
    const now = counters(core);
    const delta = copyCounters(core);
    for (const name of COUNTERS) {
      const a = now[name],
        b = cand.counters[name],
        d = delta[name];
      for (let x = 0; x < a.length; x++) d[x] = a[x]! - b[x]!;
    }
    const dUops = core.recorder.uopsAssigned - cand.uops;
    // what the period added to the waits of the instance now at each place (it stood dg places
    // further a period ago, or was not in flight yet)
    const rs = core.scheduler;
    const o = rs.head - rs.headBefore;
    const w = rs.waitsFrom(rs.headBefore);
    for (let x = 0; x < w.length; x++) w[x]! -= cand.waits[x - o + cand.dg] ?? 0;
    const dWaits = { w, o };
    return { cycle: c, dc: cand.dc, dg: cand.dg, delta, dUops, dWaits, periods: m };
  }

  /** Remember the key just written (len long); when it was seen before, whole iterations ago,
   *  the state may repeat from there: a candidate period. */
  private remember(c: number, len: number): void {
    const core = this.core,
      head = core.scheduler.head,
      key = this.buf.k;
    const h = hashKey(key, len);
    const prev = this.seen.get(h);
    this.seen.set(h, [c, head]);
    if (prev === undefined) return;
    const dg = head - prev[1];
    if (dg > 0 && dg % core.cp.n === 0) {
      this.cand = {
        key: key.slice(0, len),
        cycle: c,
        head,
        dc: c - prev[0],
        dg,
        counters: copyCounters(core),
        uops: core.recorder.uopsAssigned,
        waits: inFlightWaits(core),
      };
    }
  }
}

/** Skip the confirmed period's repetitions: the core moved forward by them. Returns the cycles skipped. */
function skipPeriods(core: Core, p: FoundPeriod, onPeriod?: (p: SteadyPeriod) => void): number {
  // the end of the confirmed period: its last cycle (port holders, µops loaded) is the
  // last cycle of every later period too, which the start of the first one is not
  if (onPeriod) onPeriod({ start: core.save(), ...p });
  shift(core, p.periods, p.dc, p.dg, p.delta, p.dUops, p.dWaits);
  return p.periods * p.dc;
}

/**
 * Run the core to its end, skipping the periodic part of the run (see the top); returns the cycles
 * skipped. Same guard as Core.runToEnd: an error after 1,000,000 cycles without an instance completing.
 */
export function runToEndSteady(core: Core, onPeriod?: (p: SteadyPeriod) => void, onProgress?: Progress): number {
  const n = core.cp.n;
  const rs = core.scheduler;
  let lastCompleted = rs.completed;
  let lastProgress = core.cycle;
  // the search runs at iteration boundaries only, until it finds a period or gives up
  let detecting = core.iterations >= 4;
  const search = new PeriodSearch(core);
  let nextBoundary = (Math.floor(rs.head / n) + 1) * n;
  let skipped = 0;
  while (!core.finished) {
    core.step();
    const c = core.cycle,
      done = rs.completed;
    if (done !== lastCompleted) {
      lastCompleted = done;
      lastProgress = c;
    }
    if (c - lastProgress > 1_000_000) throw new Error('engine made no progress for 1,000,000 cycles');
    if (onProgress !== undefined && (c & PROGRESS_MASK) === 0) onProgress(done, core.N);
    if (!detecting || rs.head < nextBoundary) continue;
    nextBoundary = (Math.floor(rs.head / n) + 1) * n;
    const found = search.atBoundary(c);
    if (found === SEARCHING) continue;
    detecting = false;
    if (found === STOPPED) continue;
    skipped = skipPeriods(core, found, onPeriod);
    lastProgress = core.cycle;
    lastCompleted = rs.completed;
  }
  return skipped;
}
