// The ports unit: which instances hold each port this cycle, each port's use so far, and the ways
// a µop takes a port — thesis Algorithm 5 (`choose`: the least used free port the µop may use, ties
// to the lower port number), its shortcuts, and a given port (`takePort`). Which of them a µop asks
// for is the port policy's business (units/portPolicy.ts). Blocked instances blame the holders here
// (`blameBlockers`), through the Recorder. Whether a port held by the instance's own µop is free for
// its next µop is the factory's choice (`sharesOwn`): yes in SUACA's model (thesis §3.3, an
// instruction never blocks itself), no under the refined model's onePerPort, where a port takes
// at most `cap` µops per cycle whoever holds them (docs/engine.md says why).

import type { CompiledProgram } from '../compiled.js';
import type { Recorder } from '../recorder.js';
import { DIVIDER_BLOCK_BIT } from './divider.js';
import type { Divider } from './divider.js';
import { restoreFields, saveFields, shiftFields, writeFieldsKey } from './state.js';
import type { Fields, KeyAt, KeyWriter, Periods, StatefulUnit } from './state.js';

/** Port capacity for "infinitely usable": more µops than a cycle can ever put on one port (the
 *  holders of a port are kept in an array), and a small integer, so that the per-cycle code only
 *  ever compares small integers (an Infinity here would make V8 deoptimise it). */
const UNLIMITED_PORT_CAP = 0x3fffffff;

/** `count < cap` for a whole count is `count < ceil(cap)`; capped at UNLIMITED_PORT_CAP. */
function portCapOf(cap: number): number {
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
  /** per port index: cycles after this one a µop that holds it several cycles keeps it (0: none) */
  busyLeft: Int32Array;
  /** per port index: the instance that keeps it (while busyLeft > 0) */
  busyBy: Int32Array;
}

const FIELDS: Fields<Ports, PortsState> = {
  usage: {
    move: 'stays',
    key: { omit: "a counter: steady.ts moves it with the recorder's and compares it (the order must not change)" },
  },
  order: {
    move: 'stays',
    key: (p, _at, out) => {
      if (p.orderKeyed) for (let q = 0; q < p.P; q++) out.put(p.order[q]!);
    },
  },
  count: { move: 'stays', key: { omit: 'the holders of the last cycle: newCycle() clears them before any is read' } },
  hold: {
    move: (p, by) => {
      for (let q = 0; q < p.P; q++) for (let h = 0; h < p.count[q]!; h++) p.hold[q * p.holdCap + h]! += by.dg;
    },
    key: { omit: 'as count' },
  },
  holdCap: { move: 'stays', key: { omit: 'room, not state' } },
  busyLeft: {
    move: 'stays',
    // zero unless some µop holds its port: nothing to key on the other programs (all of Intel's)
    key: (p, _at, out) => {
      if (p.holds) for (let q = 0; q < p.P; q++) out.put(p.busyLeft[q]!);
    },
  },
  busyBy: {
    move: (p, by) => {
      for (let q = 0; q < p.P; q++) if (p.busyLeft[q]! > 0) p.busyBy[q]! += by.dg;
    },
    key: (p, at, out) => {
      if (p.holds) for (let q = 0; q < p.P; q++) if (p.busyLeft[q]! > 0) out.put(p.busyBy[q]! - at.head);
    },
  },
};

export class Ports implements PortsState, StatefulUnit<PortsState> {
  readonly P: number;
  /** µops each port takes per cycle (UNLIMITED_PORT_CAP: infinitely usable ports) */
  readonly cap: number;
  usage: Float64Array;
  order: Int32Array;
  /** orderPos[p]: where port index p is in order */
  orderPos: Int32Array;
  count: Int32Array;
  hold: Int32Array;
  busyLeft: Int32Array;
  busyBy: Int32Array;
  /** some µop holds its port several cycles (CompiledProgram.anyHold) and ports are limited */
  readonly holds: boolean;
  /** the program line of each holder in `hold` (derived: hold[x] % n) */
  private holdLine: Int32Array;
  holdCap = 4;
  /** the ports (bits; DIVIDER_BLOCK_BIT: the divider) that made the last `choose` fail */
  lastBlocked = 0;
  /** ports (bits) that took as many µops as they can this cycle */
  full = 0;
  /** the port order is part of the steady-state key (the port policy reads it) */
  orderKeyed = true;
  /** the instance that took a port last this cycle (-1: none): an instance visited once per cycle
   *  holds a port this cycle only if it is this one */
  lastTaker = -1;
  /** the blame of the blocked masks met so far this cycle (up to BLAME_CACHE masks; holder lines
   *  and ports, in blame order): a blocked port is full and keeps its holders for the rest of the
   *  cycle, so another instance (holding none) blocked by the same ports blames the same holders.
   *  Entry k: mask bcMasks[k], pairs bcLine/bcPort[bcFrom[k] .. bcFrom[k + 1]); bcN entries. */
  bcN = 0;
  readonly bcMasks = new Int32Array(BLAME_CACHE);
  readonly bcFrom = new Int32Array(BLAME_CACHE + 1);
  /** per entry: the instances that blamed its holders again this cycle (reported by endCycle) */
  private readonly bcHits = new Int32Array(BLAME_CACHE);
  private bcLen = 0;
  private bcFill = false;
  private bcLine: Int32Array;
  private bcPort: Int32Array;
  /** instances blamed already for the current blocked instance: blamed[0 .. blamedLen) */
  private blamed: Int32Array;
  private blamedLen = 0;

  /** a port held only by instance g's own µops is free for g's next µop (thesis §3.3) */
  readonly sharesOwn: boolean;

  constructor(
    private readonly cp: CompiledProgram,
    cap: number,
    private readonly divider: Divider,
    private readonly rec: Recorder,
    sharesOwn = true,
  ) {
    this.sharesOwn = sharesOwn;
    const P = cp.P;
    this.P = P;
    this.cap = portCapOf(cap);
    this.usage = new Float64Array(P);
    this.order = new Int32Array(P);
    for (let k = 0; k < P; k++) this.order[k] = k;
    this.orderPos = new Int32Array(P);
    this.indexOrder();
    this.count = new Int32Array(P);
    this.busyLeft = new Int32Array(P);
    this.busyBy = new Int32Array(P);
    // infinitely usable ports are never held
    this.holds = cp.anyHold && this.cap < UNLIMITED_PORT_CAP;
    this.hold = new Int32Array(P * this.holdCap);
    this.holdLine = new Int32Array(P * this.holdCap);
    // holders of all ports, plus the divider's owner: the most one blocked instance can blame
    this.blamed = new Int32Array(P * this.holdCap + 1);
    this.bcLine = new Int32Array(BLAME_CACHE * (P * this.holdCap + 1));
    this.bcPort = new Int32Array(BLAME_CACHE * (P * this.holdCap + 1));
  }

  /** a new cycle: no port is held */
  newCycle(): void {
    // the cache is emptied below: its entries' hits must have been reported (Core.step does it
    // after dispatch; a driver of the unit alone may not)
    this.endCycle();
    const pc = this.count;
    for (let p = 0, P = this.P; p < P; p++) pc[p] = 0;
    this.full = 0;
    this.lastTaker = -1;
    this.bcN = 0;
    if (this.holds) this.keepHeld();
  }

  /** A port a µop holds several cycles stays full, held by its instance, in the cycles after the
   *  one it took it (LLVM's resource cycles as llvm-mca runs them: docs/engine.md, "Ports held
   *  several cycles"). */
  private keepHeld(): void {
    const left = this.busyLeft;
    for (let p = 0, P = this.P; p < P; p++) {
      if (left[p] === 0) continue;
      left[p]!--;
      const g = this.busyBy[p]!;
      while (this.cap > this.holdCap) this.growHold();
      const base = p * this.holdCap;
      for (let h = 0; h < this.cap; h++) {
        this.hold[base + h] = g;
        this.holdLine[base + h] = g % this.cp.n;
      }
      this.count[p] = this.cap;
      this.full |= 1 << p;
    }
  }

  /** The cycle's dispatch is over: the holders blamed again through the blame cache are reported,
   *  one call per cached mask rather than one per blocked instance (the recorder's counts are whole
   *  by the end of each cycle). */
  endCycle(): void {
    const hits = this.bcHits,
      from = this.bcFrom;
    for (let k = 0, n = this.bcN; k < n; k++) {
      const t = hits[k]!;
      if (t === 0) continue;
      this.rec.onPortsHeld(this.bcLine, this.bcPort, from[k]!, from[k + 1]!, t);
      hits[k] = 0;
    }
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
      if (cnt < this.cap) {
        this.take(g, i, u, sp);
        return sp;
      }
      const base = sp * this.holdCap;
      let own = this.sharesOwn;
      for (let h = 0; h < cnt; h++)
        if (this.hold[base + h] !== g) {
          own = false;
          break;
        }
      if (own) {
        this.take(g, i, u, sp);
        return sp;
      }
      this.lastBlocked = 1 << sp;
      return -1;
    }
    // every port it may use is full and it holds none: blocked by all of them (what the loops
    // below find, without walking the ports; a division's µop takes them, for the divider)
    if (!isDiv && (m & ~this.full) === 0 && (this.lastTaker !== g || !this.sharesOwn)) {
      this.lastBlocked = m;
      return -1;
    }
    const P = cp.P;
    const div = this.divider;
    let blocked = 0;
    for (let q = 0; q < P; q++) {
      const p = this.order[q]!;
      if ((m & (1 << p)) === 0) continue;
      if (isDiv && p === cp.divPortOf[i] && div.blocks(g, c)) {
        blocked |= DIVIDER_BLOCK_BIT;
        continue;
      }
      if (this.count[p]! < this.cap) {
        this.take(g, i, u, p);
        if (isDiv && p === cp.divPortOf[i]) {
          div.occupy(g, c, cp.div[i]!);
          this.rec.onDivider(i, cp.div[i]!);
        }
        return p;
      }
      blocked |= 1 << p;
    }
    // an instruction never blocks itself (thesis §3.3): a port held by its own µop is fine
    for (let q = 0; q < P && this.sharesOwn; q++) {
      const p = this.order[q]!;
      if ((m & (1 << p)) === 0) continue;
      if (isDiv && p === cp.divPortOf[i] && div.blocks(g, c)) continue;
      const cnt = this.count[p]!;
      const base = p * this.holdCap;
      let own = cnt > 0;
      for (let h = 0; h < cnt; h++)
        if (this.hold[base + h] !== g) {
          own = false;
          break;
        }
      if (own) {
        this.take(g, i, u, p);
        return p;
      }
    }
    this.lastBlocked = blocked;
    return -1;
  }

  /** `choose` for a µop (not the divider's) of instance g (line i) when `free`, its ports that are
   *  not full, is not empty: the first of them in port order, taken (what `choose` finds, without
   *  its other cases; small enough for V8 to inline into the scheduler's walk) */
  takeFree(g: number, i: number, u: number, free: number): number {
    const order = this.order;
    let q = 0;
    while ((free & (1 << order[q]!)) === 0) q++;
    const p = order[q]!;
    this.take(g, i, u, p);
    return p;
  }

  /** The ports (bits) that refuse a µop of instance g this cycle: full and, where an instance's
   *  own µops share a port, held by other instances than g (an instance visited once per cycle
   *  holds a port only if it took the last one). A µop (not the divider's) whose ports are all
   *  among them is refused, as `choose` and `takePort` would find. */
  heldByOthers(g: number): number {
    return this.lastTaker === g && this.sharesOwn ? 0 : this.full;
  }

  /** Every port of `blocked` (no divider) is held by instance g alone this cycle. */
  heldOnlyBy(g: number, blocked: number): boolean {
    if ((blocked & DIVIDER_BLOCK_BIT) !== 0 || this.lastTaker !== g) return false;
    const hc = this.holdCap;
    for (let m = blocked; m !== 0; m &= m - 1) {
      const p = 31 - Math.clz32(m & -m);
      const cnt = this.count[p]!;
      if (cnt === 0) return false;
      for (let h = 0; h < cnt; h++) if (this.hold[p * hc + h] !== g) return false;
    }
    return true;
  }

  /** µop u of instance g (line i) takes port index p in cycle c when p is free or (sharesOwn) held
   *  only by g itself (and, for the divider's µop on its port, the divider is free); -1 (and lastBlocked)
   *  when it is not. */
  takePort(g: number, i: number, u: number, p: number, c: number): number {
    const cp = this.cp;
    const isDiv = cp.div[i]! > 0 && cp.divUop[i] === u && p === cp.divPortOf[i];
    if (isDiv && this.divider.blocks(g, c)) {
      this.lastBlocked = DIVIDER_BLOCK_BIT;
      return -1;
    }
    const cnt = this.count[p]!;
    let free = cnt < this.cap;
    if (!free && this.sharesOwn) {
      const base = p * this.holdCap;
      free = true;
      for (let h = 0; h < cnt; h++)
        if (this.hold[base + h] !== g) {
          free = false;
          break;
        }
    }
    if (!free) {
      this.lastBlocked = 1 << p;
      return -1;
    }
    this.take(g, i, u, p);
    if (isDiv) {
      this.divider.occupy(g, c, cp.div[i]!);
      this.rec.onDivider(i, cp.div[i]!);
    }
    return p;
  }

  /** Instance g (line i) could not start because of the ports (and divider) in `blocked`: blame
   *  each holder once (thesis §2.2). */
  blameBlockers(g: number, i: number, blocked: number): void {
    this.bcFill = false;
    if ((blocked & DIVIDER_BLOCK_BIT) === 0 && this.lastTaker !== g) {
      const k = this.cachedBlame(blocked);
      if (k >= 0) {
        this.rec.onPortsWaited(i, this.bcPort, this.bcFrom[k]!, this.bcFrom[k + 1]!);
        this.bcHits[k]!++;
        return;
      }
      this.fillBlame(blocked);
    }
    this.blameHolders(g, i, blocked);
  }

  /** blameBlockers' lookup: each holder of the blocked ports (and the divider's owner) once */
  private blameHolders(g: number, i: number, blocked: number): void {
    this.blamedLen = 0;
    // the blocked ports in index order (lowest set bit first)
    const hc = this.holdCap,
      hold = this.hold,
      holdLine = this.holdLine,
      count = this.count;
    for (let m = blocked & ~DIVIDER_BLOCK_BIT; m !== 0; m &= m - 1) {
      const p = 31 - Math.clz32(m & -m);
      const base = p * hc;
      for (let h = 0, cnt = count[p]!; h < cnt; h++) this.blame(hold[base + h]!, holdLine[base + h]!, g, i, p);
    }
    const owner = this.divider.owner;
    if ((blocked & DIVIDER_BLOCK_BIT) !== 0 && owner >= 0)
      this.blame(owner, owner % this.cp.n, g, i, this.cp.divPortOf[i]!);
    if (this.bcFill) {
      this.bcFill = false;
      this.bcFrom[++this.bcN] = this.bcLen;
    }
  }

  /** the blame cache's entry of blocked mask `m` this cycle, or -1 */
  protected cachedBlame(m: number): number {
    const ms = this.bcMasks;
    for (let k = 0; k < this.bcN; k++) if (ms[k] === m) return k;
    return -1;
  }

  /** the blame of mask `m` about to be looked up is kept for the rest of the cycle (room allowing) */
  protected fillBlame(m: number): void {
    if (this.bcN < BLAME_CACHE) {
      this.bcFill = true;
      this.bcMasks[this.bcN] = m;
      this.bcLen = this.bcFrom[this.bcN]!;
    }
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
    if (this.bcFill) {
      this.bcLine[this.bcLen] = hl;
      this.bcPort[this.bcLen] = p;
      this.bcLen++;
    }
  }

  /** instances holding port index p this cycle */
  holdersOf(p: number): number[] {
    return Array.from(this.hold.subarray(p * this.holdCap, p * this.holdCap + this.count[p]!));
  }

  /** µop u of instance g (line i) takes port index p */
  private take(g: number, i: number, u: number, p: number): void {
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
    if (this.holds) this.holdFrom(g, i, u, p);
  }

  /** µop u of instance g (line i) took port index p: it keeps it the cycles after this one that
   *  its figures say (apart from take, which stays small enough for V8 to inline) */
  private holdFrom(g: number, i: number, u: number, p: number): void {
    const h = this.cp.uopHold[i * this.cp.maxU + u]!;
    if (h > 1) {
      this.busyLeft[p] = h - 1;
      this.busyBy[p] = g;
    }
  }

  /** twice the room for each port's holders (take() stays small enough for V8 to inline it) */
  private growHold(): void {
    const P = this.P,
      hc = this.holdCap * 2;
    const h = new Int32Array(P * hc),
      hl = new Int32Array(P * hc);
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
      this.bcLine = new Int32Array(BLAME_CACHE * need);
      this.bcPort = new Int32Array(BLAME_CACHE * need);
      this.bcN = 0;
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
      order[q] = o;
      pos[o] = q;
      q++;
    }
    order[q] = p;
    pos[p] = q;
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

  shift(by: Periods): void {
    shiftFields(this, FIELDS, by);
  }
  save(): PortsState {
    return saveFields(this, FIELDS);
  }
  writeKey(at: KeyAt, out: KeyWriter): void {
    writeFieldsKey(this, FIELDS, at, out);
  }

  restore(s: PortsState): void {
    restoreFields(this, FIELDS, s);
    const n = this.cp.n;
    this.holdLine = new Int32Array(this.hold.length);
    for (let x = 0; x < this.hold.length; x++) this.holdLine[x] = this.hold[x]! % n;
    this.indexOrder();
    this.sizeBlamed();
  }
}
