// Steady state, exactly: a loop's schedule becomes periodic. At every iteration boundary (a cycle
// in which the oldest unfinished instance, `head`, passed a multiple of the loop's length) the
// core's state relative to `head` and the cycle — every in-flight instance's status, µops, ports,
// start, waits; the station, the front end, the divider, the port order — is written as a key.
// When a key repeats (head moved by whole iterations) and one more period confirms it exactly,
// the rest of the run up to the last period before the front end reaches the end of the program
// repeats that period: every counter (they are integer counts) grows by the period's change times
// the number of periods, the core is moved forward by as many periods, and only the tail is
// simulated. Port use counts are compared, not keyed: a port that is used more per period than
// another must already be ahead of it by more than the other's use in one period, so that every
// comparison the port order makes comes out the same in every later period (else: no skip yet).
// A run whose state never repeats is simulated in full. Results are bit-identical to the full
// simulation (test/sim/steady.test.ts).

import type { Core, CoreState } from './core.js';
import { ST_DONE, ST_EXEC, ST_WAIT_DEP } from './core.js';

const NEVER = 0x7fffffff;
/** keys remembered before giving up (a run whose state does not repeat within so many boundaries,
 *  or is not confirmed within four times as many, is simulated in full; bounds memory and time) */
const MAX_KEYS = 20_000;

/** the counters a period changes */
function counters(core: Core): Float64Array[] {
  return [core.had, core.caused, core.portUse, core.divUse, core.predBlame, core.portWas, core.portCaused, core.usage];
}

function copyCounters(core: Core): Float64Array[] {
  return counters(core).map((a) => a.slice());
}

/** The core's state relative to its head and cycle, as integers (behaviourally equal states get
 *  equal keys). Returns the key's length in buf (grown as needed). */
function writeKey(core: Core, buf: { a: Int32Array }): number {
  const cp = core.cp;
  const n = cp.n, maxU = cp.maxU, P = cp.P;
  const head = core.head, c = core.cycle, mask = core.mask;
  const last = core.feLoaded > 0 ? core.fe : core.fe - 1;
  const need = 16 + P + (last - head + 1) * (8 + maxU) + core.wLen + core.xLen;
  if (buf.a.length < need) buf.a = new Int32Array(need * 2);
  const k = buf.a;
  let x = 0;
  k[x++] = head % n; k[x++] = core.fe - head; k[x++] = core.feLoaded; k[x++] = core.rsUsed;
  k[x++] = core.wLen; k[x++] = core.xLen;
  const busy = core.divBusyUntil - c;       // busy in the next cycle when ≥ 1
  k[x++] = busy > 0 ? busy : 0;
  k[x++] = busy > 0 ? core.divOwner - head : 0;
  for (let q = 0; q < P; q++) k[x++] = core.order[q]!;
  for (let g = head; g <= last; g++) {
    const s = g & mask;
    const st = core.rStatus[s]!;
    k[x++] = st;
    if (st === ST_DONE) continue;
    k[x++] = core.rLoaded[s]!;
    k[x++] = core.rAssigned[s]!;
    for (let u = 0; u < maxU; u++) k[x++] = core.rUopPort[s * maxU + u]!;
    const start = core.rStart[s]!;
    k[x++] = st === ST_EXEC && start >= 0 ? c - start : -1;
    k[x++] = core.rDepWait[s]!;
    k[x++] = core.rPortBlock[s]!;
    if (st === ST_WAIT_DEP) {
      // a next look at or before the coming cycle is the same as "look now"
      const nx = core.rNext[s]!;
      k[x++] = nx === NEVER ? -1 : nx <= c + 1 ? 0 : nx - c;
      k[x++] = core.rAcc[s]! - c;
    } else {
      k[x++] = 0; k[x++] = 0;
    }
  }
  for (let w = 0; w < core.wLen; w++) k[x++] = core.wList[w]! - head;
  for (let w = 0; w < core.xLen; w++) k[x++] = core.xList[w]! - head;
  return x;
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

/** Move the core forward by m periods of dc cycles and dg instances; counters grow by m·delta. */
function shift(core: Core, m: number, dc: number, dg: number, delta: Float64Array[], dUops: number): void {
  const D = m * dg, Dc = m * dc, Dk = D / core.cp.n;
  const maxU = core.cp.maxU;
  const mask = core.mask, cap = core.cap;
  const last = Math.min(core.fe, core.N - 1);
  const lo = core.head;
  // the ring, re-laid for the new instance numbers
  const rl = new Int32Array(cap), ra = new Int32Array(cap), ru = new Int32Array(cap * maxU).fill(-1);
  const rs = new Int32Array(cap).fill(-1), rst = new Uint8Array(cap), rd = new Int32Array(cap);
  const rp = new Int32Array(cap), rn = new Int32Array(cap), rc = new Int32Array(cap);
  const rli = new Int32Array(cap), rit = new Int32Array(cap);
  for (let g = lo; g <= last; g++) {
    const a = g & mask, b = (g + D) & mask;
    rl[b] = core.rLoaded[a]!; ra[b] = core.rAssigned[a]!;
    for (let u = 0; u < maxU; u++) ru[b * maxU + u] = core.rUopPort[a * maxU + u]!;
    const st = core.rStart[a]!;
    rs[b] = st >= 0 ? st + Dc : st;
    rst[b] = core.rStatus[a]!; rd[b] = core.rDepWait[a]!; rp[b] = core.rPortBlock[a]!;
    const nx = core.rNext[a]!;
    rn[b] = nx === NEVER ? NEVER : nx + Dc;
    rc[b] = core.rAcc[a]! + Dc;
    rli[b] = core.rLine[a]!; rit[b] = core.rIter[a]! + Dk;
  }
  core.rLoaded = rl; core.rAssigned = ra; core.rUopPort = ru; core.rStart = rs; core.rStatus = rst;
  core.rDepWait = rd; core.rPortBlock = rp; core.rNext = rn; core.rAcc = rc; core.rLine = rli; core.rIter = rit;
  for (let w = 0; w < core.wLen; w++) core.wList[w]! += D;
  for (let w = 0; w < core.xLen; w++) core.xList[w]! += D;
  for (let p = 0; p < core.cp.P; p++) {
    for (let h = 0; h < core.portCount[p]!; h++) core.hold[p * core.holdCap + h]! += D;
  }
  core.cycle += Dc; core.head += D; core.fe += D; core.feIter += Dk; core.completed += D;
  core.divBusyUntil += Dc;
  if (core.divOwner >= 0) core.divOwner += D;
  core.uopsAssigned += m * dUops;
  const cs = counters(core);
  for (let j = 0; j < cs.length; j++) {
    const a = cs[j]!, d = delta[j]!;
    for (let x = 0; x < a.length; x++) a[x]! += m * d[x]!;
  }
}

/** A confirmed period: the core's state at its start, and what one period changes. */
export interface SteadyPeriod {
  start: CoreState;
  /** cycle of `start` (the end of the period that confirmed it) */
  cycle: number;
  dc: number;
  dg: number;
  delta: Float64Array[];
  dUops: number;
  /** periods that may be skipped from `start` (the front end stays before the program's end) */
  periods: number;
}

/** Put the core (any run of the same program and config) at `target` when the period covers it:
 *  its start moved by whole periods, then fewer than a period's cycles simulated. */
export function seekPeriodic(core: Core, period: SteadyPeriod, target: number): boolean {
  if (target < period.cycle) return false;
  const j = Math.min(period.periods, Math.floor((target - period.cycle) / period.dc));
  core.restore(period.start);
  if (j > 0) shift(core, j, period.dc, period.dg, period.delta, period.dUops);
  while (core.cycle < target && !core.finished) core.step();
  return true;
}

/**
 * Run the core to its end, skipping the periodic part of the run (see the top); returns the cycles
 * skipped. Same guard as Core.runToEnd: an error after 1,000,000 cycles without an instance completing.
 */
export function runToEndSteady(core: Core, onPeriod?: (p: SteadyPeriod) => void): number {
  const n = core.cp.n;
  let lastCompleted = core.completed;
  let lastProgress = core.cycle;
  let detecting = core.iterations >= 4;
  const seen = new Map<number, [number, number]>(); // key hash → [cycle, head] of its last boundary
  let boundaries = 0;
  const buf = { a: new Int32Array(1024) };
  let nextBoundary = (Math.floor(core.head / n) + 1) * n;
  // a candidate period being confirmed: state at its start
  let skipped = 0;
  let cand: { key: Int32Array; cycle: number; head: number; dc: number; dg: number; counters: Float64Array[]; uops: number } | null = null;
  while (!core.finished) {
    core.step();
    const c = core.cycle, done = core.completed;
    if (done !== lastCompleted) { lastCompleted = done; lastProgress = c; }
    if (c - lastProgress > 1_000_000) throw new Error('engine made no progress for 1,000,000 cycles');
    if (!detecting || core.head < nextBoundary) continue;
    nextBoundary = (Math.floor(core.head / n) + 1) * n;
    // an instance of the first iteration still in flight sees no loop-carried producers: not yet
    if (core.head < n) continue;
    if (core.fe >= core.N) { detecting = false; continue; }
    const len = writeKey(core, buf);
    const key = buf.a;
    if (cand !== null) {
      if (core.head < cand.head + cand.dg) continue;
      let same = core.head === cand.head + cand.dg && c === cand.cycle + cand.dc && len === cand.key.length;
      for (let x = 0; same && x < len; x++) same = key[x] === cand.key[x];
      if (same && portsSeparated(cand.counters[cand.counters.length - 1]!, core.usage)) {
        const m = Math.floor((core.N - 1 - core.fe) / cand.dg);
        if (m >= 1) {
          const now = counters(core);
          const delta = now.map((a, j) => { const b = cand!.counters[j]!; const d = new Float64Array(a.length); for (let x = 0; x < a.length; x++) d[x] = a[x]! - b[x]!; return d; });
          const dUops = core.uopsAssigned - cand.uops;
          // the end of the confirmed period: its last cycle (port holders, µops loaded) is the
          // last cycle of every later period too, which the start of the first one is not
          if (onPeriod) onPeriod({ start: core.save(), cycle: c, dc: cand.dc, dg: cand.dg, delta, dUops, periods: m });
          shift(core, m, cand.dc, cand.dg, delta, dUops);
          skipped = m * cand.dc;
          lastProgress = core.cycle; lastCompleted = core.completed;
        }
        detecting = false;
        continue;
      }
      cand = null;                                // not confirmed: look for another repetition
    }
    const h = hashKey(key, len);
    const prev = seen.get(h);
    seen.set(h, [c, core.head]);
    if (prev !== undefined) {
      const dg = core.head - prev[1];
      if (dg > 0 && dg % n === 0) {
        cand = { key: key.slice(0, len), cycle: c, head: core.head, dc: c - prev[0], dg, counters: copyCounters(core), uops: core.uopsAssigned };
      }
    }
    if (seen.size > MAX_KEYS || ++boundaries > 4 * MAX_KEYS) detecting = false;
  }
  return skipped;
}
