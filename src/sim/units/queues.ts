// The scheduler queues of a core that has several (AMD's Zen) instead of one unified reservation
// station: each queue holds the µops (or macro-ops) steered to it and issues them only to its own
// ports. As a µop is loaded, the queue is chosen by the record's steering rule ('even':
// round-robin over the queues that feed one of its ports, in record order, whatever their
// occupancy); the front end loads in order and stops as soon as the queue the next op is steered
// to is full (or has taken its ops for the cycle), even when the others are empty. A
// non-scheduling queue in front of queues takes the ops steered to them while they are full (they
// cannot issue from there) and moves them on in order as room appears. With the unit 'macro-op'
// an instruction is one entry (in each queue its µops were steered to) that leaves when its last
// µop in that queue has a port.
//
// The unit is the core's port policy (units/portPolicy.ts) on such a core: the scheduler keeps,
// per µop, what `assign` gave it (the queue, or with ports chosen at issue the port; +IN_NSQ
// while it waits in a non-scheduling queue) and asks `dispatch` for a port, which is Algorithm 5
// over the ports of the µop's queue. A core whose record has no queues keeps the one station
// (the scheduler's `used` and `capacity`, SUACA's policies): bit for bit the thesis's model.

import type { CompiledProgram } from '../compiled.js';
import type { Recorder } from '../recorder.js';
import type { MachineParams, QueueParams } from '../types.js';
import type { Ports } from './ports.js';
import type { PortPolicy, PortPolicyState } from './portPolicy.js';
import type { Scheduler } from './scheduler.js';
import { restoreFields, saveFields, shiftFields, writeFieldsKey } from './state.js';
import type { Fields, KeyAt, KeyWriter, Periods } from './state.js';

/** added to what a µop was assigned while it waits in a non-scheduling queue */
const IN_NSQ = 32;

interface QueuesState {
  /** per queue: entries in use */
  used: Int32Array;
  /** per queue: ops the front end sent into it this cycle */
  sent: Int32Array;
  /** per eligible set of queues: the next one's position in it */
  turn: Int32Array;
  /** per µop of the instance being loaded: what it was assigned (kept while it loads in parts) */
  plan: Int32Array;
  /** per non-scheduling queue: entries in use, and where its oldest is in its ring */
  nsqUsed: Int32Array;
  nsqHead: Int32Array;
  /** the rings of the non-scheduling queues (nsqOff[k] ..): instance, and µop (−1: the whole
   *  macro-op) */
  nsqG: Int32Array;
  nsqU: Int32Array;
  /** per port index: µops assigned to it and not dispatched yet (ports chosen at issue) */
  queued: Int32Array;
  /** the queue that stopped the front end in the last cycle (−1: none) */
  stalled: number;
}

/** The machine's scheduler queues when they are more than one station (several queues, a
 *  non-scheduling queue, a dispatch limit, or macro-op entries); null: the unified station of
 *  `rsSize` µops (a record with one plain queue is that station). */
export function queuesOf(machine: MachineParams): QueueParams | null {
  const sq = machine.schedulers;
  if (sq === undefined) return null;
  const one = sq.queues.length === 1 && sq.nonScheduling.length === 0 && sq.unit === 'uop';
  return one && sq.queues[0]!.dispatchPerCycle === null ? null : sq;
}

/** A queue's figures and occupancy as a snapshot shows them. */
interface QueueView {
  name: string;
  size: number;
  used: number;
  /** the queues a non-scheduling queue feeds (absent: a scheduling queue) */
  feeds?: string[];
}

const FIELDS: Fields<Queues, QueuesState> = {
  used: { move: 'stays', key: 'value' },
  sent: { move: 'stays', key: { omit: 'cleared by newCycle before it is read' } },
  turn: { move: 'stays', key: 'value' },
  plan: { move: 'stays', key: 'value' },
  nsqUsed: { move: 'stays', key: 'value' },
  nsqHead: { move: 'stays', key: { omit: 'where a ring starts: the entries are keyed in order' } },
  nsqG: {
    move: (q, by) => q.eachEntry((x) => (q.nsqG[x]! += by.dg)),
    key: (q, at, out) => q.eachEntry((x) => out.put(q.nsqG[x]! - at.head)),
  },
  nsqU: {
    move: 'stays',
    key: (q, _at, out) => q.eachEntry((x) => out.put(q.nsqU[x]!)),
  },
  queued: { move: 'stays', key: 'value' },
  stalled: { move: 'stays', key: { omit: "the snapshot's figure: newCycle clears it" } },
};

/** The eligible sets of queues (each once, in record order) of every µop and, for a macro-op, of
 *  the whole line; whether some µop with a port is steered to no queue. */
function eligibleSets(
  cp: CompiledProgram,
  qMask: Int32Array,
): { uopSet: Int32Array; lineSet: Int32Array; setStart: Int32Array; setQ: Int32Array; unsteered: boolean } {
  const Q = qMask.length;
  const sets: number[] = [];
  const setOf = (qbits: number): number => {
    if (qbits === 0) return -1;
    let e = sets.indexOf(qbits);
    if (e < 0) e = sets.push(qbits) - 1;
    return e;
  };
  const queuesOf = (m: number): number => {
    let bits = 0;
    for (let k = 0; k < Q; k++) if ((qMask[k]! & m) !== 0) bits |= 1 << k;
    return bits;
  };
  const uopSet = new Int32Array(cp.n * cp.maxU).fill(-1);
  const lineSet = new Int32Array(cp.n).fill(-1);
  for (let i = 0; i < cp.n; i++) {
    // executed at rename (a zero idiom, a move-elimination candidate): not steered
    if (cp.renamed[i] !== 0) continue;
    let all = -1;
    for (let u = 0; u < cp.uops[i]!; u++) {
      const bits = queuesOf(cp.uopMask[i * cp.maxU + u]!);
      uopSet[i * cp.maxU + u] = setOf(bits);
      all &= bits;
    }
    if (cp.uops[i]! > 0) lineSet[i] = setOf(all);
  }
  let unsteered = false;
  for (let i = 0; i < cp.n; i++)
    for (let u = 0; u < cp.uops[i]!; u++) if (uopSet[i * cp.maxU + u]! < 0) unsteered = true;
  const setStart = new Int32Array(sets.length + 1);
  const flat: number[] = [];
  sets.forEach((bits, e) => {
    for (let k = 0; k < Q; k++) if ((bits & (1 << k)) !== 0) flat.push(k);
    setStart[e + 1] = flat.length;
  });
  return { uopSet, lineSet, setStart, setQ: Int32Array.from(flat), unsteered };
}

export class Queues implements QueuesState, PortPolicy {
  readonly atIssue = true;
  used: Int32Array;
  sent: Int32Array;
  turn: Int32Array;
  plan: Int32Array;
  nsqUsed: Int32Array;
  nsqHead: Int32Array;
  nsqG: Int32Array;
  nsqU: Int32Array;
  queued: Int32Array;
  stalled = -1;
  /** queues */
  readonly Q: number;
  readonly names: string[];
  readonly size: Int32Array;
  /** per queue: ops per cycle (0: no limit) */
  private readonly limit: Int32Array;
  /** per queue: its ports (bits over port indices) */
  private readonly qMask: Int32Array;
  /** per port index: its queue (−1: a port no queue names) */
  private readonly portQueue: Int32Array;
  /** per queue: the non-scheduling queue in front of it, or −1 */
  private readonly nsqOf: Int32Array;
  readonly nsqNames: string[];
  readonly nsqFeeds: string[][];
  readonly nsqSize: Int32Array;
  private readonly nsqOff: Int32Array;
  /** eligible sets: queues setQ[setStart[e] .. setStart[e + 1]) in record order */
  private readonly setStart: Int32Array;
  private readonly setQ: Int32Array;
  /** per µop (line × maxU): its eligible set, or −1 (no queue feeds its ports, or it is not
   *  steered: executed at rename) */
  private readonly uopSet: Int32Array;
  /** per line: the set of queues that feed every one of its µops (the macro-op's, unit
   *  'macro-op'), or −1 */
  private readonly lineSet: Int32Array;
  private readonly macro: boolean;
  readonly steering: 'even';
  readonly unit: 'macro-op' | 'uop';
  private readonly portsAtIssue: boolean;
  private readonly maxU: number;
  private readonly uopMask: Int32Array;
  private rs: Scheduler | null = null;
  /** scratch for take's rollback */
  private readonly undo: Int32Array[];
  /** the queues this take's µops took new entries in (reported once it succeeds) */
  private readonly took: Int32Array;
  private tookLen = 0;

  constructor(
    private readonly cp: CompiledProgram,
    params: QueueParams,
    private readonly ports: Ports,
    private readonly rec: Recorder,
    opts: { portsAtIssue: boolean; noDispatchLimit: boolean; sizes: number[]; nsqSizes: number[] },
  ) {
    const Q = params.queues.length;
    this.Q = Q;
    this.names = params.queues.map((q) => q.name);
    this.size = Int32Array.from(opts.sizes);
    this.limit = Int32Array.from(params.queues, (q) => (opts.noDispatchLimit ? 0 : (q.dispatchPerCycle ?? 0)));
    this.qMask = new Int32Array(Q);
    this.portQueue = new Int32Array(cp.P).fill(-1);
    params.queues.forEach((q, k) => {
      for (const port of q.ports) {
        const p = cp.portIds.indexOf(port);
        if (p < 0) continue;
        this.qMask[k]! |= 1 << p;
        this.portQueue[p] = k;
      }
    });
    const K = params.nonScheduling.length;
    this.nsqOf = new Int32Array(Q).fill(-1);
    this.nsqNames = params.nonScheduling.map((x) => x.name);
    this.nsqFeeds = params.nonScheduling.map((x) => x.queues.map((q) => this.names[q]!));
    this.nsqSize = Int32Array.from(opts.nsqSizes);
    this.nsqOff = new Int32Array(K + 1);
    params.nonScheduling.forEach((x, k) => {
      for (const q of x.queues) this.nsqOf[q] = k;
      this.nsqOff[k + 1] = this.nsqOff[k]! + this.nsqSize[k]!;
    });
    this.macro = params.unit === 'macro-op';
    this.steering = params.steering;
    this.unit = params.unit;
    this.portsAtIssue = opts.portsAtIssue;
    this.maxU = cp.maxU;
    this.uopMask = cp.uopMask;
    const sets = eligibleSets(cp, this.qMask);
    this.uopSet = sets.uopSet;
    this.lineSet = sets.lineSet;
    this.setStart = sets.setStart;
    this.setQ = sets.setQ;
    // dispatch reads the port order unless every µop's port is chosen at issue
    ports.orderKeyed = !opts.portsAtIssue || sets.unsteered;
    this.used = new Int32Array(Q);
    this.sent = new Int32Array(Q);
    this.turn = new Int32Array(sets.setStart.length - 1);
    this.plan = new Int32Array(Math.max(1, cp.maxU)).fill(-1);
    this.nsqUsed = new Int32Array(K);
    this.nsqHead = new Int32Array(K);
    this.nsqG = new Int32Array(this.nsqOff[K]!);
    this.nsqU = new Int32Array(this.nsqOff[K]!);
    this.queued = new Int32Array(opts.portsAtIssue ? cp.P : 0);
    this.undo = [this.used, this.sent, this.turn, this.nsqUsed, this.queued].map((a) => new Int32Array(a.length));
    this.took = new Int32Array(Math.max(1, cp.maxU));
  }

  /** the scheduler whose µops this unit steers (read when a macro-op leaves and when a waiting
   *  op moves from a non-scheduling queue into its queue) */
  bind(rs: Scheduler): void {
    this.rs = rs;
  }

  /** x (a queue, or a port chosen at issue) → its queue */
  private queueOf(x: number): number {
    return this.portsAtIssue ? this.portQueue[x]! : x;
  }

  /** calls f with each live entry's ring position, oldest first per queue */
  eachEntry(f: (x: number) => void): void {
    for (let k = 0; k < this.nsqUsed.length; k++) {
      const off = this.nsqOff[k]!,
        size = this.nsqSize[k]!;
      for (let j = 0; j < this.nsqUsed[k]!; j++) f(off + ((this.nsqHead[k]! + j) % size));
    }
  }

  /** A new cycle, before the front end loads: the non-scheduling queues move their oldest ops on
   *  while the queue each is bound for has room; each queue's occupancy is recorded. */
  newCycle(): void {
    this.sent.fill(0);
    this.stalled = -1;
    for (let k = 0; k < this.nsqUsed.length; k++) this.promote(k);
    for (let q = 0; q < this.Q; q++) this.rec.onQueueFill(q, this.used[q]!);
    for (let k = 0; k < this.nsqUsed.length; k++) this.rec.onQueueFill(this.Q + k, this.nsqUsed[k]!);
  }

  private promote(k: number): void {
    const rs = this.rs!;
    const off = this.nsqOff[k]!,
      size = this.nsqSize[k]!,
      maxU = this.maxU;
    while (this.nsqUsed[k]! > 0) {
      const x = off + this.nsqHead[k]!;
      const g = this.nsqG[x]!,
        u = this.nsqU[x]!;
      const s = (g & rs.mask) * maxU;
      const uq = rs.uopQueue;
      // the queue it is bound for: that of its (first) µop still marked
      let q = -1;
      for (let v = u < 0 ? 0 : u, end = u < 0 ? maxU : u + 1; v < end; v++)
        if (uq[s + v]! >= IN_NSQ) {
          q = this.queueOf(uq[s + v]! - IN_NSQ);
          break;
        }
      if (q >= 0) {
        if (this.used[q]! >= this.size[q]!) return;
        this.used[q]!++;
        for (let v = u < 0 ? 0 : u, end = u < 0 ? maxU : u + 1; v < end; v++) {
          const a = uq[s + v]!;
          if (a >= IN_NSQ && this.queueOf(a - IN_NSQ) === q) uq[s + v] = a - IN_NSQ;
        }
      }
      this.nsqHead[k] = (this.nsqHead[k]! + 1) % size;
      this.nsqUsed[k]!--;
    }
  }

  /**
   * The front end would load µops from .. to − 1 of instance g (line i): each is steered to its
   * queue and takes an entry there (or in the non-scheduling queue in front of it); false, with
   * nothing taken and `stalled` set, when one of them does not fit: the front end stops there.
   */
  take(g: number, i: number, from: number, to: number): boolean {
    const arrays = [this.used, this.sent, this.turn, this.nsqUsed, this.queued];
    for (let a = 0; a < arrays.length; a++) this.undo[a]!.set(arrays[a]!);
    this.tookLen = 0;
    for (let u = from; u < to; u++) {
      const q = this.steer(g, i, u, from);
      if (q >= 0) {
        for (let a = 0; a < arrays.length; a++) arrays[a]!.set(this.undo[a]!);
        this.stalled = q;
        this.rec.onQueueStall(q);
        return false;
      }
    }
    for (let t = 0; t < this.tookLen; t++) this.rec.onQueueSteered(this.took[t]!);
    return true;
  }

  /** µop u of instance g (line i) steered, its plan set; −1, or the queue that has no room.
   *  µops before `from` were loaded in earlier cycles (their assignment is the scheduler's). */
  private steer(g: number, i: number, u: number, from: number): number {
    const maxU = this.maxU;
    const plan = this.plan;
    const e = this.uopSet[i * maxU + u]!;
    if (e < 0) {
      plan[u] = -1;
      return -1;
    }
    let q: number;
    // an earlier µop of the same macro-op whose entry in q this one shares (−1: none)
    let mate = -1;
    const le = this.lineSet[i]!;
    if (this.macro && le >= 0) {
      // one macro-op: every µop in the queue its first was steered to, one entry
      if (u > 0) {
        mate = 0;
        q = this.queueOf(this.assignedOf(g, 0, from) % IN_NSQ);
      } else q = this.next(le);
    } else {
      q = this.next(e);
      if (this.macro)
        for (let v = 0; v < u && mate < 0; v++) {
          const a = this.assignedOf(g, v, from);
          if (a >= 0 && this.queueOf(a % IN_NSQ) === q) mate = v;
        }
    }
    let inNsq = false;
    if (mate < 0) {
      const lim = this.limit[q]!;
      if (lim > 0 && this.sent[q]! >= lim) return q;
      const k = this.nsqOf[q]!;
      // in order: behind the ops already waiting in front of it
      if (this.used[q]! < this.size[q]! && (k < 0 || this.nsqUsed[k] === 0)) this.used[q]!++;
      else if (k >= 0 && this.nsqUsed[k]! < this.nsqSize[k]!) {
        const x = this.nsqOff[k]! + ((this.nsqHead[k]! + this.nsqUsed[k]!) % this.nsqSize[k]!);
        this.nsqG[x] = g;
        this.nsqU[x] = this.macro ? -1 : u;
        this.nsqUsed[k]!++;
        inNsq = true;
      } else return q;
      this.sent[q]!++;
      this.took[this.tookLen++] = q;
    } else inNsq = this.assignedOf(g, mate, from) >= IN_NSQ;
    const x = this.portsAtIssue ? this.portAtIssue(i, u, q) : q;
    plan[u] = inNsq ? x + IN_NSQ : x;
    return -1;
  }

  /** what µop v of instance g was assigned: this call's plan, or (loaded in an earlier cycle) the
   *  scheduler's, which a move out of a non-scheduling queue has updated */
  private assignedOf(g: number, v: number, from: number): number {
    if (v >= from) return this.plan[v]!;
    const rs = this.rs!;
    return rs.uopQueue[(g & rs.mask) * this.maxU + v]!;
  }

  /** the next queue of eligible set e ('even': round-robin in record order) */
  private next(e: number): number {
    const s0 = this.setStart[e]!,
      len = this.setStart[e + 1]! - s0;
    const t = this.turn[e]!;
    this.turn[e] = t + 1 === len ? 0 : t + 1;
    return this.setQ[s0 + t]!;
  }

  /** ports chosen at issue: among the µop's ports in queue q, the one with the fewest µops
   *  assigned and not dispatched, ties to the lower port (as AssignedAtIssue) */
  private portAtIssue(i: number, u: number, q: number): number {
    const m = this.uopMask[i * this.maxU + u]! & this.qMask[q]!;
    let best = -1,
      bestQ = 0;
    for (let r = m; r !== 0; r &= r - 1) {
      const p = 31 - Math.clz32(r & -r);
      const qp = this.queued[p]!;
      if (best < 0 || qp < bestQ) {
        best = p;
        bestQ = qp;
      }
    }
    this.queued[best]!++;
    return best;
  }

  /** µop u of line i enters the station: what `take` steered it to */
  assign(_i: number, u: number): number {
    return this.plan[u]!;
  }

  /** µop u of instance g (line i), assigned `x`, asks for a port in cycle c: one of its queue's
   *  ports (Algorithm 5 among them, or the port chosen at issue); none while it waits in a
   *  non-scheduling queue. Its entry leaves the queue with its port (a macro-op's with its last). */
  dispatch(g: number, i: number, u: number, x: number, c: number): number {
    const ports = this.ports;
    if (x >= IN_NSQ) {
      ports.lastBlocked = 0;
      return -1;
    }
    let p: number;
    if (x < 0) p = ports.choose(g, i, u, c);
    else if (this.portsAtIssue) {
      const cp = this.cp;
      const isDivUop = cp.div[i]! > 0 && cp.divUop[i] === u;
      if (!isDivUop && (ports.heldByOthers(g) & (1 << x)) !== 0) {
        ports.lastBlocked = 1 << x;
        return -1;
      }
      p = ports.takePort(g, i, u, x, c);
      if (p >= 0) this.queued[p]!--;
    } else p = this.chooseIn(g, i, u, c, this.qMask[x]!);
    if (p >= 0 && x >= 0) this.leave(g, u, this.queueOf(x));
    return p;
  }

  /** Algorithm 5 among the ports `among` (the µop's queue's): the least used free port the µop
   *  may use, in port order, taken (the divider's rule through Ports.takePort); then, where an
   *  instruction's own µops share a port (SUACA's rule), a port only it holds. −1 and
   *  Ports.lastBlocked when none. (Ports.choose over all its ports stays as the thesis has it.) */
  private chooseIn(g: number, i: number, u: number, c: number, among: number): number {
    const ports = this.ports;
    const m = this.uopMask[i * this.maxU + u]! & among;
    const order = ports.order;
    let blocked = 0;
    for (let q = 0; q < ports.P; q++) {
      const p = order[q]!;
      if ((m & (1 << p)) === 0 || ports.count[p]! >= ports.cap) continue;
      const t = ports.takePort(g, i, u, p, c);
      if (t >= 0) return t;
      blocked |= ports.lastBlocked;
    }
    for (let q = 0; q < ports.P; q++) {
      const p = order[q]!;
      if ((m & (1 << p)) === 0 || ports.count[p]! < ports.cap) continue;
      const t = ports.takePort(g, i, u, p, c);
      if (t >= 0) return t;
      blocked |= ports.lastBlocked;
    }
    ports.lastBlocked = blocked;
    return -1;
  }

  /** µop u of instance g took its port: its entry in queue q leaves (a macro-op's once no other
   *  µop of it in q waits for a port) */
  private leave(g: number, u: number, q: number): void {
    if (this.macro) {
      const rs = this.rs!;
      const maxU = this.maxU,
        s = (g & rs.mask) * maxU;
      const uq = rs.uopQueue,
        up = rs.uopPort;
      for (let v = 0; v < maxU; v++)
        if (v !== u && up[s + v]! < 0 && uq[s + v]! >= 0 && this.queueOf(uq[s + v]! % IN_NSQ) === q) return;
    }
    this.used[q]!--;
  }

  /** the queues (a non-scheduling queue's name while it waits there) in which instance g holds
   *  entries this cycle: its loaded µops without a port, each queue once, in µop order */
  holding(g: number): string[] {
    const rs = this.rs!;
    const s = (g & rs.mask) * this.maxU;
    const out: string[] = [];
    for (let u = 0; u < rs.loaded[g & rs.mask]!; u++) {
      const a = rs.uopQueue[s + u]!;
      if (a < 0 || rs.uopPort[s + u]! >= 0) continue;
      const q = this.queueOf(a % IN_NSQ);
      const name = a >= IN_NSQ ? this.nsqNames[this.nsqOf[q]!]! : this.names[q]!;
      if (!out.includes(name)) out.push(name);
    }
    return out;
  }

  /** the queues and the non-scheduling queues as the snapshot shows them */
  view(): QueueView[] {
    const out: QueueView[] = this.names.map((name, q) => ({ name, size: this.size[q]!, used: this.used[q]! }));
    for (let k = 0; k < this.nsqNames.length; k++)
      out.push({ name: this.nsqNames[k]!, size: this.nsqSize[k]!, used: this.nsqUsed[k]!, feeds: this.nsqFeeds[k]! });
    return out;
  }

  shift(by: Periods): void {
    shiftFields(this, FIELDS, by);
  }
  save(): PortPolicyState {
    return saveFields(this, FIELDS) as unknown as PortPolicyState;
  }
  restore(s: PortPolicyState): void {
    restoreFields(this, FIELDS, s as unknown as QueuesState);
  }
  writeKey(at: KeyAt, out: KeyWriter): void {
    writeFieldsKey(this, FIELDS, at, out);
  }
}
