// The ports unit: which instances hold each port this cycle, each port's use so far, and the port
// choice (thesis Algorithm 5: the least used free port the µop may use, ties to the lower port
// number). The scheduler asks `choose` per µop at dispatch; a different port policy (e.g. ports
// assigned at issue from the queue occupancy) replaces `choose` and keeps the rest.

import type { CompiledProgram } from '../compiled.js';
import type { BlameRecorder } from '../recorder.js';
import { DIVIDER_BLOCK_BIT } from './divider.js';
import type { Divider } from './divider.js';

/** Port capacity for "infinitely usable": more µops than a cycle can ever put on one port (the
 *  holders of a port are kept in an array), and a small integer, so that the per-cycle code only
 *  ever compares small integers (an Infinity here would make V8 deoptimise it). */
export const UNLIMITED_PORT_CAP = 0x3fffffff;

/** `count < cap` for a whole count is `count < ceil(cap)`; capped at UNLIMITED_PORT_CAP. */
export function portCapOf(cap: number): number {
  // `| 0`: a small integer (V8 keeps the field an integer field, not a double)
  return cap >= UNLIMITED_PORT_CAP ? UNLIMITED_PORT_CAP : Number.isNaN(cap) ? cap : Math.ceil(cap) | 0;
}

/** blocked port masks whose blame a cycle keeps (Ports.blameBlockers) */
const BLAME_CACHE = 8;

export interface PortsState {
  /** per port index: µops it took so far */
  usage: Float64Array;
  /** port indices by use (the thesis's port_queue) */
  order: Int32Array;
  /** per port index: holders this cycle */
  count: Int32Array;
  /** holders of port p: hold[p*holdCap .. p*holdCap + count[p]) */
  hold: Int32Array;
  holdCap: number;
  /** per port index: µops assigned to it at issue and not dispatched yet (portChoice) */
  queued: Int32Array;
}

export class Ports {
  readonly P: number;
  /** µops each port takes per cycle (UNLIMITED_PORT_CAP: infinitely usable ports) */
  readonly cap: number;
  usage: Float64Array;
  order: Int32Array;
  /** orderPos[p]: where port index p is in order */
  orderPos: Int32Array;
  count: Int32Array;
  hold: Int32Array;
  /** the program line of each holder in `hold` (derived: hold[x] % n) */
  private holdLine: Int32Array;
  holdCap = 4;
  queued: Int32Array;
  /** the ports (bits; DIVIDER_BLOCK_BIT: the divider) that made the last `choose` fail */
  lastBlocked = 0;
  /** ports (bits) that took as many µops as they can this cycle (read by the scheduler's
   *  event-driven walk, which refuses such a µop itself, as `choose` would) */
  full = 0;
  /** the instance that took a port last this cycle (-1: none): an instance visited once per cycle
   *  holds a port this cycle only if it is this one */
  lastTaker = -1;
  /** the blame of the blocked masks met so far this cycle (up to BLAME_CACHE masks; holder lines
   *  and ports, in blame order): a blocked port is full and keeps its holders for the rest of the
   *  cycle, so another instance (holding none) blocked by the same ports blames the same holders.
   *  Entry k: mask bcMasks[k], pairs bcLine/bcPort[bcFrom[k] .. bcFrom[k + 1]); bcN entries.
   *  (The scheduler's event-driven walk reads them to blame those holders without a call.) */
  bcN = 0;
  /** the blame cache is used (off: every blocked instance's holders are looked up; for the test
   *  that checks the cache changes no statistic) */
  blameCache = true;
  readonly bcMasks = new Int32Array(BLAME_CACHE);
  readonly bcFrom = new Int32Array(BLAME_CACHE + 1);
  private bcLen = 0;
  private bcFill = false;
  bcLine: Int32Array;
  bcPort: Int32Array;
  /** instances blamed already for the current blocked instance: blamed[0 .. blamedLen) */
  private blamed: Int32Array;
  private blamedLen = 0;

  constructor(private readonly cp: CompiledProgram, cap: number, private readonly divider: Divider, private readonly rec: BlameRecorder) {
    const P = cp.P;
    this.P = P;
    this.cap = portCapOf(cap);
    this.usage = new Float64Array(P);
    this.order = new Int32Array(P);
    for (let k = 0; k < P; k++) this.order[k] = k;
    this.orderPos = new Int32Array(P);
    this.indexOrder();
    this.count = new Int32Array(P);
    this.hold = new Int32Array(P * this.holdCap);
    this.holdLine = new Int32Array(P * this.holdCap);
    this.queued = new Int32Array(P);
    // holders of all ports, plus the divider's owner: the most one blocked instance can blame
    this.blamed = new Int32Array(P * this.holdCap + 1);
    this.bcLine = new Int32Array(BLAME_CACHE * (P * this.holdCap + 1));
    this.bcPort = new Int32Array(BLAME_CACHE * (P * this.holdCap + 1));
  }

  /** a new cycle: no port is held */
  newCycle(): void {
    const pc = this.count;
    for (let p = 0, P = this.P; p < P; p++) pc[p] = 0;
    this.full = 0;
    this.lastTaker = -1;
    this.bcN = 0;
  }

  /** Algorithm 5: the port for µop u of instance g (line i) in cycle c, taken; -1 (and
   *  lastBlocked) when none is free. */
  choose(g: number, i: number, u: number, c: number): number {
    const cp = this.cp;
    const m = cp.uopMask[i * cp.maxU + u]!;
    const isDiv = cp.div[i]! > 0 && cp.divUop[i] === u;
    const sp = cp.uopSingle[i * cp.maxU + u]!;
    if (sp >= 0 && !isDiv) {
      // fast path for a µop with one possible port (same outcome as the loops below)
      const cnt = this.count[sp]!;
      if (cnt < this.cap) { this.take(g, i, sp); return sp; }
      const base = sp * this.holdCap;
      let own = true;
      for (let h = 0; h < cnt; h++) if (this.hold[base + h] !== g) { own = false; break; }
      if (own) { this.take(g, i, sp); return sp; }
      this.lastBlocked = 1 << sp;
      return -1;
    }
    // every port it may use is full and it holds none: blocked by all of them (what the loops
    // below find, without walking the ports; a division's µop takes them, for the divider)
    if (!isDiv && (m & ~this.full) === 0 && this.lastTaker !== g) { this.lastBlocked = m; return -1; }
    const P = cp.P;
    const div = this.divider;
    let blocked = 0;
    for (let q = 0; q < P; q++) {
      const p = this.order[q]!;
      if ((m & (1 << p)) === 0) continue;
      if (isDiv && p === cp.divPortOf[i] && div.blocks(g, c)) { blocked |= DIVIDER_BLOCK_BIT; continue; }
      if (this.count[p]! < this.cap) {
        this.take(g, i, p);
        if (isDiv && p === cp.divPortOf[i]) {
          div.occupy(g, c, cp.div[i]!);
          this.rec.onDivider(i, cp.div[i]!);
        }
        return p;
      }
      blocked |= 1 << p;
    }
    // an instruction never blocks itself (thesis §3.3): a port held by its own µop is fine
    for (let q = 0; q < P; q++) {
      const p = this.order[q]!;
      if ((m & (1 << p)) === 0) continue;
      if (isDiv && p === cp.divPortOf[i] && div.blocks(g, c)) continue;
      const cnt = this.count[p]!;
      const base = p * this.holdCap;
      let own = cnt > 0;
      for (let h = 0; h < cnt; h++) if (this.hold[base + h] !== g) { own = false; break; }
      if (own) { this.take(g, i, p); return p; }
    }
    this.lastBlocked = blocked;
    return -1;
  }

  /** `choose` for a µop (not the divider's) of instance g (line i) when `free`, its ports that are
   *  not full, is not empty: the first of them in port order, taken (what `choose` finds, without
   *  its other cases; small enough for V8 to inline into the scheduler's walk) */
  takeFree(g: number, i: number, free: number): number {
    const order = this.order;
    let q = 0;
    while ((free & (1 << order[q]!)) === 0) q++;
    const p = order[q]!;
    this.take(g, i, p);
    return p;
  }

  /** Port choice at issue (refined model's portChoice; uiCA paper, Abel & Reineke 2022, port assignment): µop u
   *  of line i is bound, as it enters the station, to the port with the fewest µops assigned and
   *  not dispatched yet; ties go to the lower port number (docs/engine.md says why). */
  assign(i: number, u: number): number {
    const cp = this.cp;
    const m = cp.uopMask[i * cp.maxU + u]!;
    const q = this.queued;
    let best = -1, bestQ = 0;
    // the mask's ports in index order (lowest set bit first); ties keep the lower port
    for (let r = m; r !== 0; r &= r - 1) {
      const p = 31 - Math.clz32(r & -r);
      const qp = q[p]!;
      if (best < 0 || qp < bestQ) { best = p; bestQ = qp; }
    }
    if (best >= 0) q[best]!++;
    return best;
  }

  /** portChoice: µop u of instance g (line i) dispatches to port p, the one it was assigned at
   *  issue, in cycle c when p is free (the oldest ready µop of each port goes first: the scheduler
   *  walks the station in program order); -1 (and lastBlocked) when it is not. */
  takeAssigned(g: number, i: number, u: number, p: number, c: number): number {
    const cp = this.cp;
    const isDiv = cp.div[i]! > 0 && cp.divUop[i] === u && p === cp.divPortOf[i];
    if (isDiv && this.divider.blocks(g, c)) { this.lastBlocked = DIVIDER_BLOCK_BIT; return -1; }
    const cnt = this.count[p]!;
    let free = cnt < this.cap;
    if (!free) {
      const base = p * this.holdCap;
      free = true;
      for (let h = 0; h < cnt; h++) if (this.hold[base + h] !== g) { free = false; break; }
    }
    if (!free) { this.lastBlocked = 1 << p; return -1; }
    this.take(g, i, p);
    this.queued[p]!--;
    if (isDiv) {
      this.divider.occupy(g, c, cp.div[i]!);
      this.rec.onDivider(i, cp.div[i]!);
    }
    return p;
  }

  /** Instance g (line i) could not start because of the ports (and divider) in `blocked`: blame
   *  each holder once (thesis §2.2). `notCached`: the caller found the mask not in the blame cache
   *  this cycle (not looked up again). */
  blameBlockers(g: number, i: number, blocked: number, notCached = false): void {
    this.bcFill = false;
    if ((blocked & DIVIDER_BLOCK_BIT) === 0 && this.lastTaker !== g) {
      const k = this.blameCache && !notCached ? this.cachedBlame(blocked) : -1;
      if (k >= 0) {
        const rec = this.rec, bl = this.bcLine, bp = this.bcPort;
        for (let x = this.bcFrom[k]!, end = this.bcFrom[k + 1]!; x < end; x++) rec.onPortBlocked(i, bl[x]!, bp[x]!);
        return;
      }
      if (this.blameCache && this.bcN < BLAME_CACHE) {
        this.bcFill = true;
        this.bcMasks[this.bcN] = blocked;
        this.bcLen = this.bcFrom[this.bcN]!;
      }
    }
    this.blamedLen = 0;
    // the blocked ports in index order (lowest set bit first)
    const hc = this.holdCap, hold = this.hold, holdLine = this.holdLine, count = this.count;
    for (let m = blocked & ~DIVIDER_BLOCK_BIT; m !== 0; m &= m - 1) {
      const p = 31 - Math.clz32(m & -m);
      const base = p * hc;
      for (let h = 0, cnt = count[p]!; h < cnt; h++) this.blame(hold[base + h]!, holdLine[base + h]!, g, i, p);
    }
    const owner = this.divider.owner;
    if ((blocked & DIVIDER_BLOCK_BIT) !== 0 && owner >= 0) this.blame(owner, owner % this.cp.n, g, i, this.cp.divPortOf[i]!);
    if (this.bcFill) { this.bcFill = false; this.bcFrom[++this.bcN] = this.bcLen; }
  }

  /** the blame cache's entry of blocked mask `m` this cycle, or -1 */
  cachedBlame(m: number): number {
    const ms = this.bcMasks;
    for (let k = 0; k < this.bcN; k++) if (ms[k] === m) return k;
    return -1;
  }

  /** blame holder (an instance of line hl) of port p for instance g (line i), once per blocked instance */
  private blame(holder: number, hl: number, g: number, i: number, p: number): void {
    if (holder === g) return;
    const bl = this.blamed;
    const len = this.blamedLen;
    for (let x = 0; x < len; x++) if (bl[x] === holder) return;
    bl[len] = holder;
    this.blamedLen = len + 1;
    this.rec.onPortBlocked(i, hl, p);
    if (this.bcFill) { this.bcLine[this.bcLen] = hl; this.bcPort[this.bcLen] = p; this.bcLen++; }
  }

  /** instances holding port index p this cycle */
  holdersOf(p: number): number[] {
    return Array.from(this.hold.subarray(p * this.holdCap, p * this.holdCap + this.count[p]!));
  }

  /** instance g (line i) takes port index p */
  private take(g: number, i: number, p: number): void {
    const cnt = this.count[p]!;
    if (cnt >= this.holdCap) this.growHold();
    const hc = this.holdCap;
    this.hold[p * hc + cnt] = g;
    this.holdLine[p * hc + cnt] = i;
    this.count[p] = cnt + 1;
    if (cnt + 1 >= this.cap) this.full |= 1 << p;
    this.lastTaker = g;
    this.usage[p]!++;
    this.resortPort(p);
  }

  /** twice the room for each port's holders (take() stays small enough for V8 to inline it) */
  private growHold(): void {
    const P = this.P, hc = this.holdCap * 2;
    const h = new Int32Array(P * hc), hl = new Int32Array(P * hc);
    for (let q = 0; q < P; q++) {
      h.set(this.hold.subarray(q * this.holdCap, q * this.holdCap + this.count[q]!), q * hc);
      hl.set(this.holdLine.subarray(q * this.holdCap, q * this.holdCap + this.count[q]!), q * hc);
    }
    this.hold = h;
    this.holdLine = hl;
    this.holdCap = hc;
    this.sizeBlamed();
  }

  /** blamed holds every holder of every port and the divider's owner */
  private sizeBlamed(): void {
    const need = this.P * this.holdCap + 1;
    if (this.blamed.length < need) {
      this.blamed = new Int32Array(need);
      this.bcLine = new Int32Array(BLAME_CACHE * need); this.bcPort = new Int32Array(BLAME_CACHE * need); this.bcN = 0;
    }
  }

  private indexOrder(): void {
    for (let q = 0; q < this.order.length; q++) this.orderPos[this.order[q]!] = q;
  }

  /** keep port_queue sorted by use after port p's use grew; ties: the lower port number first */
  private resortPort(p: number): void {
    const order = this.order;
    const pos = this.orderPos;
    const usage = this.usage;
    let q = pos[p]!;
    const u = usage[p]!;
    const last = order.length - 1;
    while (q < last) {
      const o = order[q + 1]!;
      const uo = usage[o]!;
      const after = uo < u || (uo === u && o < p);
      if (!after) break;
      order[q] = o; pos[o] = q; q++;
    }
    order[q] = p; pos[p] = q;
  }

  /** Sort the port order by use (ties: the lower port first), as the µops taken so far left it:
   *  take() keeps exactly this order, so this moves it only when the use was changed wholesale
   *  (steady.ts moving the run forward by whole periods). */
  reorder(): void {
    const usage = this.usage;
    const sorted = Array.from(this.order).sort((a, b) => usage[a]! - usage[b]! || a - b);
    for (let q = 0; q < sorted.length; q++) this.order[q] = sorted[q]!;
    this.indexOrder();
  }

  /** move forward by dg instances (steady.ts): the holders' numbers */
  shift(dg: number): void {
    for (let p = 0; p < this.P; p++) {
      for (let h = 0; h < this.count[p]!; h++) this.hold[p * this.holdCap + h]! += dg;
    }
  }

  save(): PortsState {
    return { usage: this.usage.slice(), order: this.order.slice(), count: this.count.slice(), hold: this.hold.slice(), holdCap: this.holdCap, queued: this.queued.slice() };
  }

  restore(s: PortsState): void {
    this.usage = s.usage.slice(); this.order = s.order.slice(); this.count = s.count.slice();
    this.hold = s.hold.slice(); this.holdCap = s.holdCap; this.queued = s.queued.slice();
    const n = this.cp.n;
    this.holdLine = new Int32Array(this.hold.length);
    for (let x = 0; x < this.hold.length; x++) this.holdLine[x] = this.hold[x]! % n;
    this.indexOrder();
    this.sizeBlamed();
  }
}
