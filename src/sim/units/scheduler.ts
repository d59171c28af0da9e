// The scheduler unit: the reservation station and the execution stage (thesis Algorithms 4–6 and
// §3.6). Instances (line, iteration) are numbered g = iteration·n + line; only the ones between the
// oldest unfinished instance (`head`) and the front end live in a ring buffer, so memory does not
// grow with the number of iterations. Each cycle `dispatch` visits, in program order, the waiting
// instances that can change: those not asleep on a dependency (`act`) and those a producer wakes
// (a timing wheel keyed by the cycle a dependency-blocked instance can next change). A visited
// instance whose producers have released asks the port policy for a port per µop and starts when
// every µop has one; `execute` retires the instances that reached their latency. What happens is
// reported to the Recorder; the scheduler never reads the statistics.

import type { CompiledProgram } from '../compiled.js';
import type { Recorder } from '../recorder.js';
import type { FrontEnd } from './frontEnd.js';
import type { Ports } from './ports.js';
import type { PortPolicy } from './portPolicy.js';
import { RENAME_ALWAYS, RENAME_MOVE } from '../refine.js';
import { DIVIDER_BLOCK_BIT } from './divider.js';
import { restoreFields, saveFields, shiftFields, writeFieldsKey } from './state.js';
import type { Fields, KeyAt, KeyWriter, Periods, StatefulUnit } from './state.js';

/** The station's statuses and constants as the hot code reads them: a const enum's members are
 *  numbers in the emitted code, where a module's `const` is a variable V8 loads and checks on every
 *  use (the exported names below are the same values, for the other modules). */
const enum K {
  Loading = 1,
  WaitDep = 2,
  WaitPort = 3,
  Exec = 4,
  Done = 5,
  Never = 0x7fffffff,
  /** DIVIDER_BLOCK_BIT (checked below) */
  DivBlock = 1 << 30,
  /** readyAt's age beyond which the key does not tell ages apart (more than any latency) */
  ReadyAgeCap = 1 << 20,
}

export const ST_LOADING = K.Loading;
export const ST_WAIT_DEP = K.WaitDep;
export const ST_WAIT_PORT = K.WaitPort;
export const ST_EXEC = K.Exec;
export const ST_DONE = K.Done;

if (K.DivBlock !== DIVIDER_BLOCK_BIT) throw new Error('scheduler: K.DivBlock is not DIVIDER_BLOCK_BIT');

/** The per-instance arrays of the ring, indexed by slot g & (cap − 1) (× maxU + µop when perUop). */
export interface SlotArrays {
  /** ST_* */
  status: Uint8Array;
  /** µops loaded */
  loaded: Int32Array;
  /** µops with a port */
  assigned: Int32Array;
  /** per µop: port index, or -1 */
  uopPort: Int32Array;
  /** 1 when the instance is executed at rename (zero idiom, eliminated move): no port, and its
   *  consumers are released in the cycle it starts (refined model) */
  zeroLat: Uint8Array;
  /** per µop: the port the policy assigned at issue, or -1 */
  uopQueue: Int32Array;
  /** cycles it was held back only by its own µops on a port (onePerPort): its start is counted
   *  that many cycles back, as a measured latency includes them */
  selfWait: Int32Array;
  /** cycle it started executing, or -1; with late reads (operandLatency) the cycle its results
   *  count from, which may be before the cycle it got its ports (see startCycle) */
  start: Int32Array;
  /** the cycle since which it has been loaded, port-free and waiting only on producers it reads
   *  late (operandLatency), or -1 */
  readyAt: Int32Array;
  /** bitmask over the instance's pred entries still unresolved this cycle */
  depWait: Int32Array;
  /** bitmask of port indices that blocked it this cycle (DIVIDER_BLOCK_BIT: the divider) */
  portBlock: Int32Array;
  /** next cycle a dependency-blocked instance must be looked at again (its mask cannot change before) */
  nextLook: Int32Array;
  /** its waits are accounted up to (not including) this cycle */
  accounted: Int32Array;
  /** cycles it waited so far (what it adds to the recorder's `had`): the snapshot's statistics
   *  leave out the instances still in flight */
  waited: Int32Array;
  line: Int32Array;
  iteration: Int32Array;
}

/** How a slot's value enters the key, given the instance's status and the key's cycle. */
type SlotKey = 'value' | { omit: string } | ((v: number, status: number, c: number) => number);

interface SlotField {
  bytes: 1 | 4;
  perUop?: true;
  /** the value of a slot not in use, and the value `enter` resets it to (unless `set`) */
  fill: number;
  /** `enter` sets it from the instance */
  set?: true;
  /** how steady.ts moves it: by cycles (a value `except` stays: "none"), by iterations, or not */
  move: 'stays' | 'cycle' | 'iteration';
  except?: number;
  key: SlotKey;
  /** keyed only when this holds (else it keeps its fill value) */
  when?: (rs: Scheduler) => boolean;
}

/** The ring's fields, declared once: enter, allocRing, shift, save, restore and the key use this. */
export const SLOT_FIELDS: { readonly [K in keyof SlotArrays]: SlotField } = {
  status: { bytes: 1, fill: 0, set: true, move: 'stays', key: 'value' },
  loaded: { bytes: 4, fill: 0, move: 'stays', key: 'value' },
  assigned: { bytes: 4, fill: 0, move: 'stays', key: 'value' },
  uopPort: { bytes: 4, perUop: true, fill: -1, move: 'stays', key: 'value' },
  zeroLat: { bytes: 1, fill: 0, set: true, move: 'stays', key: 'value', when: (rs) => rs.renames },
  uopQueue: { bytes: 4, perUop: true, fill: -1, move: 'stays', key: 'value', when: (rs) => rs.atIssue },
  selfWait: { bytes: 4, fill: 0, move: 'stays', key: 'value', when: (rs) => rs.selfBlocks },
  start: { bytes: 4, fill: -1, move: 'cycle', except: -1, key: (v, st, c) => (st === K.Exec && v >= 0 ? c - v : -1) },
  // older than any latency it can shorten, it keys alike (startCycle clamps the start to c − lat + 1)
  readyAt: {
    bytes: 4,
    fill: -1,
    move: 'cycle',
    except: -1,
    key: (v, st, c) => (v < 0 || st === K.Exec || st === K.Done ? -1 : Math.min(c - v, K.ReadyAgeCap)),
    when: (rs) => rs.lateReads,
  },
  depWait: { bytes: 4, fill: 0, move: 'stays', key: 'value' },
  portBlock: { bytes: 4, fill: 0, move: 'stays', key: 'value' },
  // a next look at or before the coming cycle is the same as "look now"
  nextLook: {
    bytes: 4,
    fill: 0,
    move: 'cycle',
    except: K.Never,
    key: (v, st, c) => (st !== K.WaitDep ? 0 : v === K.Never ? -1 : v <= c + 1 ? 0 : v - c),
  },
  accounted: { bytes: 4, fill: 0, move: 'cycle', key: (v, st, c) => (st === K.WaitDep ? v - c : 0) },
  waited: {
    bytes: 4,
    fill: 0,
    move: 'stays',
    key: { omit: "a count no cycle reads: steady.ts moves it as the recorder's counts (by the period's change)" },
  },
  line: { bytes: 4, fill: 0, set: true, move: 'stays', key: { omit: 'g % n' } },
  iteration: { bytes: 4, fill: 0, set: true, move: 'iteration', key: { omit: 'g / n' } },
};
const SLOT_NAMES = Object.keys(SLOT_FIELDS) as (keyof SlotArrays)[];

/** The station's state by name: the ring and the scalars and lists below. */
export interface SchedulerState extends SlotArrays {
  /** oldest unfinished instance */
  head: number;
  /** head as the last cycle began: instances from here on that finished in that cycle were
   *  still executing in it (read by the snapshots, src/sim/snapshot.ts) */
  headBefore: number;
  /** µops in the station (loaded, no port yet) */
  used: number;
  /** instances finished */
  completed: number;
  /** ring size (a power of two) */
  cap: number;
  /** loaded instances that have not started, program order: waiting[0 .. waitingLen) */
  waiting: Int32Array;
  waitingLen: number;
  /** instances executing: executing[0 .. executingLen) */
  executing: Int32Array;
  executingLen: number;
  /** per line: its last instance entered was an eliminated move (moveElimination) */
  lastElim: Uint8Array;
}

/** A list of instances (the first `len` entries) moved and keyed relative to head. */
function instanceList(list: 'waiting' | 'executing', len: 'waitingLen' | 'executingLen') {
  return {
    move: (rs: Scheduler, by: Periods) => {
      const l = rs[list];
      for (let w = 0; w < rs[len]; w++) l[w]! += by.dg;
    },
    key: (rs: Scheduler, at: KeyAt, out: KeyWriter) => {
      const l = rs[list];
      for (let w = 0; w < rs[len]; w++) out.put(l[w]! - at.head);
    },
  };
}

type ScalarState = Omit<SchedulerState, keyof SlotArrays>;
const FIELDS: Fields<Scheduler, ScalarState> = {
  head: { move: { by: 'instance' }, key: (_rs, at, out) => out.put(at.head % at.n) },
  headBefore: { move: { by: 'instance' }, key: { omit: 'read by the snapshots, by no later cycle' } },
  used: { move: 'stays', key: 'value' },
  completed: { move: { by: 'instance' }, key: { omit: 'head and the statuses' } },
  cap: { move: 'stays', key: { omit: 'room, not state' } },
  waiting: instanceList('waiting', 'waitingLen'),
  waitingLen: { move: 'stays', key: 'value' },
  executing: instanceList('executing', 'executingLen'),
  executingLen: { move: 'stays', key: 'value' },
  lastElim: {
    move: 'stays',
    key: (rs, _at, out) => {
      if (rs.renames) for (let i = 0; i < rs.lastElim.length; i++) out.put(rs.lastElim[i]!);
    },
  },
};

/** What the scheduler is built from (parts.ts). */
export interface SchedulerParts {
  /** station size in µops */
  capacity: number;
  /** the what-if without dependencies */
  noDependencies: boolean;
  frontEnd: FrontEnd;
  ports: Ports;
  policy: PortPolicy;
  recorder: Recorder;
}

export class Scheduler implements SchedulerState, StatefulUnit<SchedulerState> {
  head = 0;
  headBefore = 0;
  used = 0;
  completed = 0;
  cap = 0;
  mask = 0;
  status!: Uint8Array;
  loaded!: Int32Array;
  assigned!: Int32Array;
  uopPort!: Int32Array;
  zeroLat!: Uint8Array;
  uopQueue!: Int32Array;
  selfWait!: Int32Array;
  start!: Int32Array;
  readyAt!: Int32Array;
  depWait!: Int32Array;
  portBlock!: Int32Array;
  nextLook!: Int32Array;
  accounted!: Int32Array;
  waited!: Int32Array;
  line!: Int32Array;
  iteration!: Int32Array;
  waiting = new Int32Array(0);
  waitingLen = 0;
  executing = new Int32Array(0);
  executingLen = 0;
  lastElim: Uint8Array;
  /** station size in µops */
  readonly capacity: number;
  /** some line is executed at rename (refined model) */
  readonly renames: boolean;
  /** some line reads a producer late (operandLatency): startCycle and readyAt apply */
  readonly lateReads: boolean;
  /** the port policy assigns ports as µops enter */
  readonly atIssue: boolean;
  /** an instance's µops may block each other on a port (the ports unit's onePerPort rule) */
  readonly selfBlocks: boolean;
  protected readonly noDeps: boolean;
  protected readonly frontEnd: FrontEnd;
  protected readonly ports: Ports;
  protected readonly policy: PortPolicy;
  protected readonly rec: Recorder;
  // ---- derived from the state above (relink rebuilds them) ----
  /** 1 + the last instance entered (instances head .. tail − 1 are in flight) */
  protected tail = 0;
  /** the waiting instances that are not asleep on a dependency, program order; act2: the next
   *  cycle's, filled while this cycle's are visited */
  protected act = new Int32Array(64);
  protected actLen = 0;
  protected act2 = new Int32Array(64);
  /** timing wheel of instances blocked on a dependency, bucket nextLook & wheelMask; an entry is
   *  current when the instance is still ST_WAIT_DEP with that nextLook (else stale) */
  private wheel = new Int32Array(0);
  /** per bucket: entries in it; bucket b is wheel[b·wheelCap .. b·wheelCap + wheelLen[b]) */
  private wheelLen = new Int32Array(0);
  private wheelCap = 16;
  private wheelMask = 0;
  /** instances looked at this cycle besides `act` (woken), sorted; woke[wokeAt .. wokeLen) still to visit */
  protected woke = new Int32Array(64);
  protected wokeLen = 0;
  protected wokeAt = 0;
  /** per slot, 1 when its producers were all found released (they stay released, so the check,
   *  which then has no effect, is not repeated); every loading or port-blocked instance in the
   *  station at a cycle's end has been checked (relink sets it) */
  protected depsOk = new Uint8Array(0);
  /** per slot, the cycle the instance was put in `woke` (no instance twice in a cycle) */
  protected stamp = new Int32Array(0);
  /** per line, 1 when its instances have no dependency to check (no producer, or the run has no
   *  dependencies): depsOk as they enter */
  private readonly depFree: Uint8Array;
  /** per line, 1 for the Jcc of a macro-fused pair (it has no µop and finishes with the line
   *  before it); null when the program has no fused pair */
  readonly fusedAway: Uint8Array | null;

  constructor(
    protected readonly cp: CompiledProgram,
    parts: SchedulerParts,
  ) {
    this.capacity = parts.capacity;
    this.noDeps = parts.noDependencies;
    this.frontEnd = parts.frontEnd;
    this.ports = parts.ports;
    this.policy = parts.policy;
    this.rec = parts.recorder;
    this.renames = cp.anyRenamed;
    this.lateReads = cp.anyLate;
    this.atIssue = parts.policy.atIssue;
    this.selfBlocks = !parts.ports.sharesOwn;
    this.depFree = new Uint8Array(cp.n);
    for (let i = 0; i < cp.n; i++) this.depFree[i] = this.noDeps || cp.predStart[i + 1] === cp.predStart[i] ? 1 : 0;
    // a dependency-blocked instance's next look is at most the longest pred latency ahead
    let maxLat = 1;
    for (let e = 0; e < cp.predLat.length; e++) if (cp.predLat[e]! > maxLat) maxLat = cp.predLat[e]!;
    let w = 8;
    while (w < maxLat + 2) w *= 2;
    this.wheel = new Int32Array(w * this.wheelCap);
    this.wheelLen = new Int32Array(w);
    this.wheelMask = w - 1;
    this.lastElim = new Uint8Array(cp.n);
    this.fusedAway = fusedAwayLines(cp);
    // room for a full station and as many instances executing, so that the ring rarely grows
    // in a run (growing is correct at any time, but V8 re-optimises the loop after it)
    let cap = 64;
    while (cap < 2 * (this.capacity + cp.n) + 2 && cap < 4096) cap *= 2;
    this.allocRing(cap, -1);
  }

  private slots(): Record<keyof SlotArrays, Int32Array | Uint8Array> {
    return this as unknown as Record<keyof SlotArrays, Int32Array | Uint8Array>;
  }

  /** A new ring of `cap` slots, the instances head .. upTo of the old one (if any) moved over:
   *  instance g of the old ring goes to g + dg, its values moved by `by` (steady.ts). */
  private relay(cap: number, upTo: number, by: Periods | null): void {
    const maxU = this.cp.maxU,
      oldMask = this.mask,
      newMask = cap - 1,
      a = this.slots();
    for (const name of SLOT_NAMES) {
      const f = SLOT_FIELDS[name];
      const w = f.perUop ? maxU : 1;
      const arr = f.bytes === 1 ? new Uint8Array(cap * w) : new Int32Array(cap * w);
      if (f.fill !== 0) arr.fill(f.fill);
      const old = this.cap > 0 ? a[name] : null;
      if (old) {
        const dv = by === null || f.move === 'stays' ? 0 : f.move === 'cycle' ? by.dc : by.dk;
        const dg = by?.dg ?? 0;
        // from headBefore: the snapshot reads the instances that finished in the last cycle
        for (let g = Math.min(this.headBefore, this.head); g <= upTo; g++) {
          const from = (g & oldMask) * w,
            to = ((g + dg) & newMask) * w;
          for (let u = 0; u < w; u++) {
            const v = old[from + u]!;
            arr[to + u] = v === f.except ? v : v + dv;
          }
        }
      }
      a[name] = arr;
    }
    this.cap = cap;
    this.mask = newMask;
  }

  private allocRing(cap: number, upTo: number): void {
    const oldMask = this.mask,
      hadRing = this.cap > 0;
    this.relay(cap, upTo, null);
    const wl = this.waiting,
      xl = this.executing;
    this.waiting = new Int32Array(cap);
    this.executing = new Int32Array(cap);
    this.waiting.set(wl.subarray(0, this.waitingLen));
    this.executing.set(xl.subarray(0, this.executingLen));
    const a = this.act,
      a2 = this.act2,
      wk = this.woke;
    this.act = new Int32Array(cap);
    this.act.set(a.subarray(0, this.actLen));
    this.act2 = new Int32Array(cap);
    this.act2.set(a2.subarray(0, Math.min(a2.length, cap)));
    this.woke = new Int32Array(cap);
    this.woke.set(wk.subarray(0, this.wokeLen));
    const st = this.stamp,
      ok = this.depsOk;
    this.stamp = new Int32Array(cap).fill(-1);
    this.depsOk = new Uint8Array(cap);
    if (hadRing)
      for (let g = this.head; g <= upTo; g++) {
        this.stamp[g & this.mask] = st[g & oldMask]!;
        this.depsOk[g & this.mask] = ok[g & oldMask]!;
      }
  }

  /** Instance g (line i, iteration k) enters the station (its first µops are about to load): every
   *  slot field not `set` back to its fill value (test/sim/schedulerState.test.ts checks it). */
  enter(g: number, i: number, k: number): void {
    if (g - this.head + 2 > this.cap) this.allocRing(this.cap * 2, g);
    const s = g & this.mask;
    this.loaded[s] = 0;
    this.assigned[s] = 0;
    this.start[s] = -1;
    this.status[s] = K.Loading;
    this.depWait[s] = 0;
    this.portBlock[s] = 0;
    this.nextLook[s] = 0;
    this.accounted[s] = 0;
    this.waited[s] = 0;
    this.selfWait[s] = 0;
    this.line[s] = i;
    this.iteration[s] = k;
    const maxU = this.cp.maxU;
    // a loop, not TypedArray.fill: for a few elements the builtin call costs more than the stores
    const up = this.uopPort;
    for (let x = s * maxU, end = x + maxU; x < end; x++) up[x] = -1;
    if (this.renames) this.zeroLat[s] = this.atRename(i, k);
    if (this.lateReads) this.readyAt[s] = -1;
    if (this.atIssue) {
      const q = this.uopQueue;
      for (let x = s * maxU, end = x + maxU; x < end; x++) q[x] = -1;
    }
    this.entered(g, s, i);
  }

  /** the instance in slot s is visited from the next dispatch on */
  protected entered(g: number, s: number, i: number): void {
    this.act[this.actLen++] = g;
    this.tail = g + 1;
    this.stamp[s] = -1;
    // a line without producers (or no dependencies at all) has nothing to check
    this.depsOk[s] = this.depFree[i]!;
  }

  /** Is instance (line i, iteration k) executed at rename? A zero idiom always; a move candidate
   *  unless a producer of its source is a move whose last instance was eliminated (the modelling
   *  choice of docs/engine.md: the two registers already share an elimination slot). */
  private atRename(i: number, k: number): number {
    const cp = this.cp;
    const r = cp.renamed[i]!;
    if (r === RENAME_ALWAYS) return 1;
    if (r !== RENAME_MOVE) return 0;
    let elim = 1;
    for (let e = cp.predStart[i]!; e < cp.predStart[i + 1]!; e++) {
      if (cp.predLC[e] && k === 0) continue;
      const j = cp.predLine[e]!;
      if (cp.renamed[j] === RENAME_MOVE && this.lastElim[j] === 1) elim = 0;
    }
    this.lastElim[i] = elim;
    return elim;
  }

  /** `take` more µops of instance g loaded (now `loadedNow` in all) */
  loadUops(g: number, loadedNow: number, take: number): void {
    const s = g & this.mask;
    this.loaded[s] = loadedNow;
    this.used += take;
    if (this.atIssue && this.zeroLat[s] === 0) {
      // each µop gets its port as it enters the station
      const maxU = this.cp.maxU,
        i = this.line[s]!;
      for (let u = loadedNow - take; u < loadedNow; u++) this.uopQueue[s * maxU + u] = this.policy.assign(i, u);
    }
  }

  /** The next cycle a dependency-blocked instance must be looked at: `next`, the earliest release
   *  of its unresolved producers (its mask cannot change before), when the mask holds them all. */
  protected nextLookAfter(next: number, preds: number, c: number): number {
    return preds <= 30 ? next : c + 1;
  }

  /**
   * Algorithm 4's dependency check of the waiting instance in slot `s` (line `i`, iteration `k`)
   * in cycle `c`: true when a producer has not released its result yet — the instance is then
   * marked waiting on those producers (mask, blame, the cycle it must be looked at again) — false
   * when every dependency is resolved.
   */
  protected depBlocked(s: number, i: number, k: number, c: number): boolean {
    const cp = this.cp;
    const { predStart, predLC, predLine, predLat } = cp;
    const e0 = predStart[i]!,
      e1 = predStart[i + 1]!;
    if (e1 <= e0) return false;
    const status = this.status;
    if (status[s] === K.WaitDep) this.settle(s, i, c);
    const n = cp.n,
      head = this.head,
      mask = this.mask,
      start = this.start,
      zeroLat = this.zeroLat;
    const zl = this.renames,
      late = this.lateReads;
    const rec = this.rec;
    let waitMask = 0;
    let early = false;
    let next = K.Never;
    const kn = k * n;
    for (let e = e0; e < e1; e++) {
      let pg: number;
      if (predLC[e]) {
        if (k === 0) continue;
        pg = kn - n + predLine[e]!;
      } else pg = kn + predLine[e]!;
      if (pg < head) continue; // finished long ago
      const ps = pg & mask;
      const st = start[ps]!;
      const rel = st < 0 ? K.Never : zl && zeroLat[ps] === 1 ? st : st + predLat[e]!;
      if (rel > c) {
        const b = e - e0;
        waitMask |= 1 << (b < 30 ? b : 30);
        if (rel < next) next = rel;
        rec.onDepWait(e, predLine[e]!, 1);
        if (late && cp.predLate[e] === 0) early = true;
      }
    }
    if (waitMask === 0) return false;
    // waiting only for producers it reads late: ready from now, once fully loaded (until then it
    // is looked at every cycle, so that the cycle it is loaded in is the one it is ready from)
    if (late && !early && this.readyAt[s]! < 0) {
      if (this.loaded[s] === cp.uops[i]) this.readyAt[s] = c;
      else next = c + 1;
    }
    rec.onWait(i, 1);
    this.waited[s]!++;
    this.depWait[s] = waitMask;
    this.portBlock[s] = 0;
    status[s] = K.WaitDep;
    this.accounted[s] = c + 1;
    // the mask changes only when a producer releases: at `next`, or earlier when a producer that
    // has not started yet starts (wake() lowers it then)
    this.nextLook[s] = this.nextLookAfter(next, e1 - e0, c);
    return true;
  }

  /**
   * Algorithms 4 and 5 (+ §3.6) in cycle c: the instances in `act` (not asleep on a dependency)
   * merged in program order with those whose wheel bucket is c (put into `woke` by wakeDue(c),
   * which the core calls first) and those a producer starting in this cycle wakes for this cycle
   * (executed at rename: released at once) — exactly the waiting instances whose nextLook ≤ c —
   * each visited once.
   */
  dispatch(c: number): void {
    const a = this.act,
      aLen = this.actLen,
      out = this.act2;
    // the arrays as locals: nothing below reallocates them (the ring grows only in enter())
    const {
      line,
      iteration,
      depsOk,
      depWait,
      nextLook,
      stamp,
      zeroLat,
      loaded,
      uopPort,
      uopQueue,
      assigned,
      policy,
      ports,
      rec,
    } = this;
    const mask = this.mask,
      renames = this.renames,
      maxU = this.cp.maxU,
      uops = this.cp.uops;
    let ai = 0,
      o = 0;
    // woke[wa .. wLen) still to visit, as locals: wake() (an instance started) may insert into
    // woke, so wokeAt/wokeLen are written before each start and wLen read back after it
    const woke = this.woke;
    let wa = this.wokeAt,
      wLen = this.wokeLen;
    for (;;) {
      let g: number;
      if (wa < wLen && (ai >= aLen || woke[wa]! < a[ai]!)) g = woke[wa++]!;
      else if (ai < aLen) g = a[ai++]!;
      else break;
      const s = g & mask;
      const i = line[s]!;
      if (depsOk[s] === 0 && this.depBlocked(s, i, iteration[s]!, c)) {
        // a look again next cycle (the eager accounting, or a producer released then) stays in
        // `act` (visited next cycle, as from the wheel; no wake can lower it below that); the
        // stamp makes an older wheel entry for that cycle stale
        const nx = nextLook[s]!;
        if (nx === c + 1) {
          out[o++] = g;
          stamp[s] = c + 1;
        } else if (nx !== K.Never) this.file(g, nx);
        continue;
      }
      depsOk[s] = 1;
      depWait[s] = 0;
      if (renames && zeroLat[s] === 1) {
        this.wokeAt = wa;
        this.wokeLen = wLen;
        if (!this.startAtRename(g, s, i, c)) out[o++] = g;
        wLen = this.wokeLen;
        continue;
      }
      // a port per loaded µop that has none, from the port policy
      const ld = loaded[s]!;
      let ok = ld === uops[i]!;
      let blocked = 0;
      for (let u = 0, x = s * maxU; u < ld; u++, x++) {
        if (uopPort[x]! >= 0) continue;
        const p = policy.dispatch(g, i, u, uopQueue[x]!, c);
        if (p < 0) {
          ok = false;
          blocked |= ports.lastBlocked;
          continue;
        }
        uopPort[x] = p;
        assigned[s]!++;
        rec.onAssigned(i, p);
        this.used--; // a µop leaves the station when it gets its port
      }
      if (ok) {
        this.wokeAt = wa;
        this.wokeLen = wLen;
        this.begin(g, s, i, c);
        wLen = this.wokeLen;
        continue;
      }
      this.holdBack(g, s, i, blocked, ld === uops[i]!);
      out[o++] = g;
    }
    this.act2 = a;
    this.act = out;
    this.actLen = o;
    this.wokeLen = 0;
  }

  /** The wheel's bucket of cycle c, its current entries into `woke` in program order (a phase of
   *  its own before dispatch(c): V8 then inlines it into the core's cycle, not into the walk). */
  wakeDue(c: number): void {
    const mask = this.mask,
      head = this.head;
    const { status, nextLook, stamp } = this;
    const bk = c & this.wheelMask;
    const wheel = this.wheel;
    const b0 = bk * this.wheelCap,
      b1 = b0 + this.wheelLen[bk]!;
    const woke = this.woke;
    let wl = 0;
    for (let b = b0; b < b1; b++) {
      const g = wheel[b]!;
      if (g < head) continue;
      const s = g & mask;
      if (status[s] !== K.WaitDep || nextLook[s] !== c || stamp[s] === c) continue; // stale entry
      stamp[s] = c;
      let x = wl++;
      while (x > 0 && woke[x - 1]! > g) {
        woke[x] = woke[x - 1]!;
        x--;
      }
      woke[x] = g;
    }
    this.wheelLen[bk] = 0;
    this.wokeLen = wl;
    this.wokeAt = 0;
  }

  /** An instance executed at rename starts in cycle c once all its µops are loaded: no port; done
   *  in the cycle it starts, its consumers released then. False: still loading. */
  protected startAtRename(g: number, s: number, i: number, c: number): boolean {
    this.portBlock[s] = 0;
    const ld = this.loaded[s]!;
    if (ld === this.cp.uops[i]!) {
      this.start[s] = c;
      this.status[s] = K.Done;
      this.completed++;
      this.used -= ld;
      this.wake(g, i, this.iteration[s]!, c);
      return true;
    }
    this.status[s] = K.Loading;
    this.rec.onWait(i, 1);
    this.waited[s]!++;
    return false;
  }

  /** Instance g (slot s, line i) has all its ports in cycle c: it executes from this cycle — or,
   *  when only its own µops held it back (selfWait), from as many cycles earlier: a measured
   *  latency already includes an instruction's µops queueing on one port (the thesis's reason,
   *  §3.3, for its rule that an instruction never blocks itself). */
  protected begin(g: number, s: number, i: number, c: number): void {
    this.portBlock[s] = 0;
    // a port that held it back resets readyAt: startCycle is then c
    this.start[s] = (this.lateReads ? this.startCycle(s, i, this.iteration[s]!, c) : c) - this.selfWait[s]!;
    this.status[s] = K.Exec;
    this.executing[this.executingLen++] = g;
    this.wake(g, i, this.iteration[s]!, c);
  }

  /** Instance g (slot s, line i) stays this cycle: blocked by the ports in `blocked` (blamed), or
   *  still loading (`loadedAll` false). Held back only by its own µops (onePerPort), it neither
   *  waits nor blames: the cycle counts as executing (begin). */
  protected holdBack(g: number, s: number, i: number, blocked: number, loadedAll: boolean): void {
    this.portBlock[s] = blocked;
    if (this.lateReads) this.readyAt[s] = -1;
    if (blocked !== 0) {
      this.status[s] = K.WaitPort;
      if (this.selfBlocks && loadedAll && this.ports.heldOnlyBy(g, blocked)) {
        this.selfWait[s]!++;
        return;
      }
      this.ports.blameBlockers(g, i, blocked);
    } else this.status[s] = K.Loading;
    this.rec.onWait(i, 1);
    this.waited[s]!++;
  }

  /** The waits so far (`waited`) of each instance from `first` to the newest in flight. */
  waitsFrom(first: number): Int32Array {
    const out = new Int32Array(Math.max(0, this.tail - first));
    for (let x = 0; x < out.length; x++) out[x] = this.waited[(first + x) & this.mask]!;
    return out;
  }

  /** After a steady-state move by m periods of dg instances (the slots moved with their
   *  instances): the waits of the instances from headBefore (`o` before head, as when `w` was
   *  taken) to the newest as the run would have them. `w[r + o]`: what one period adds to the
   *  waits of the instance r places from the oldest in flight; the instance at place r after one
   *  period is the one at r + dg before it, so after m periods it has that one's waits (none when
   *  it was not in flight yet) plus one period's at each place it passed through. */
  growWaits(w: Int32Array, o: number, m: number, dg: number): void {
    const first = this.head - o;
    const before = this.waitsFrom(first);
    const len = before.length - o;
    for (let r = -o; r < len; r++) {
      let v = r + m * dg < len ? before[r + m * dg + o]! : 0;
      for (let j = 0, x = r; j < m && x < len; j++, x += dg) v += w[x + o] ?? 0;
      this.waited[(first + r + o) & this.mask] = v;
    }
  }

  /** file instance g in the wheel under cycle t (the bucket grows when full) */
  private file(g: number, t: number): void {
    const b = t & this.wheelMask;
    const len = this.wheelLen[b]!;
    if (len === this.wheelCap) {
      const W = this.wheelMask + 1,
        cap = this.wheelCap * 2;
      const w = new Int32Array(W * cap);
      for (let x = 0; x < W; x++)
        w.set(this.wheel.subarray(x * this.wheelCap, x * this.wheelCap + this.wheelLen[x]!), x * cap);
      this.wheel = w;
      this.wheelCap = cap;
    }
    this.wheel[b * this.wheelCap + len] = g;
    this.wheelLen[b] = len + 1;
  }

  /** `waiting` brought up to date (the loaded instances that have not started, program order). */
  syncWaiting(): void {
    let len = 0;
    for (let g = this.head; g < this.tail; g++) if (this.status[g & this.mask]! < K.Exec) this.waiting[len++] = g;
    this.waitingLen = len;
  }

  /** After restore or shift, with the core at cycle c, rebuild `act` and the wheel from the state
   *  (they are derived from it: status and nextLook of the waiting instances). */
  relink(c: number): void {
    const fe = this.frontEnd;
    this.tail = fe.isLoaded(fe.next) ? fe.next + 1 : fe.next;
    this.wheelLen.fill(0);
    if (this.act.length < this.cap) {
      this.act = new Int32Array(this.cap);
      this.act2 = new Int32Array(this.cap);
      this.woke = new Int32Array(this.cap);
    }
    if (this.stamp.length !== this.cap) {
      this.stamp = new Int32Array(this.cap);
      this.depsOk = new Uint8Array(this.cap);
    }
    this.stamp.fill(-1);
    this.syncWaiting();
    let o = 0;
    for (let w = 0; w < this.waitingLen; w++) {
      const g = this.waiting[w]!;
      const s = g & this.mask;
      const nx = this.nextLook[s]!;
      this.depsOk[s] = this.status[s] === K.WaitDep ? 0 : 1;
      if (this.status[s] === K.WaitDep && nx > c + 1) {
        if (nx !== K.Never) this.file(g, nx);
      } else this.act[o++] = g;
    }
    this.actLen = o;
    this.wokeLen = 0;
  }

  /** Account the cycles [accounted, upTo) an instance spent blocked on the producers of its mask. */
  protected settle(s: number, i: number, upTo: number): void {
    const d = upTo - this.accounted[s]!;
    if (d <= 0) return;
    const { predStart, predLine } = this.cp;
    const e0 = predStart[i]!,
      e1 = predStart[i + 1]!;
    const m = this.depWait[s]!;
    const rec = this.rec;
    rec.onWait(i, d);
    this.waited[s]! += d;
    for (let e = e0; e < e1; e++) {
      if ((m & (1 << (e - e0))) === 0) continue;
      rec.onDepWait(e, predLine[e]!, d);
    }
    this.accounted[s] = upTo;
  }

  /** The instance in slot s (line i, iteration k) that has all its ports in cycle c, waiting only
   *  for `readyAt` and its producers: the cycle its results count from. A producer it reads late
   *  (predLate: its latency less the read advance is below 0) holds it back only until that
   *  producer starts — the engine cannot start an instance before a producer whose start it does
   *  not know yet — while the real core has run the load part already; the results then count
   *  from when the instance was ready but for those producers, or from each such producer's start
   *  plus its latency less the advance, whichever is later, never before c − latency + 1 (it
   *  finishes no earlier than the cycle it got its ports). A producer no longer in flight, or a
   *  port that blocked it (readyAt −1), keeps c. */
  protected startCycle(s: number, i: number, k: number, c: number): number {
    const cp = this.cp;
    if (cp.lateReads[i] === 0) return c;
    const ready = this.readyAt[s]!;
    this.readyAt[s] = -1;
    if (ready < 0) return c;
    const { predStart, predLC, predLine, predEff, predLate } = cp;
    const n = cp.n,
      kn = k * n;
    let eff = ready;
    for (let e = predStart[i]!, e1 = predStart[i + 1]!; e < e1; e++) {
      if (predLate[e] === 0) continue;
      let pg: number;
      if (predLC[e]) {
        if (k === 0) continue;
        pg = kn - n + predLine[e]!;
      } else pg = kn + predLine[e]!;
      if (pg < this.head) return c;
      const ps = pg & this.mask;
      const st = this.start[ps]!;
      if (st < 0) return c;
      const t = this.renames && this.zeroLat[ps] === 1 ? st : st + predEff[e]!;
      if (t > eff) eff = t;
    }
    const lowest = c - cp.lat[i]! + 1;
    return eff > c ? c : eff < lowest ? lowest : eff;
  }

  /** Instance g (line i, iteration k) started in cycle c: its waiting consumers look again at its release. */
  protected wake(g: number, i: number, k: number, c: number): void {
    const cp = this.cp;
    const n = cp.n;
    const { succStart, succPred, predLC, predOwner, predLat } = cp;
    // FrontEnd.isLoaded, its state as locals (the front end does not move during dispatch)
    const fe = this.frontEnd,
      feNext = fe.next,
      feLoaded = fe.loaded > 0;
    const mask = this.mask,
      status = this.status,
      nextLook = this.nextLook;
    const atRename = this.renames && this.zeroLat[g & mask] === 1;
    // released from its start (c, or earlier: cycles held back by its own µops, late reads)
    const st = this.start[g & mask]!;
    const kn = k * n;
    for (let q = succStart[i]!, q1 = succStart[i + 1]!; q < q1; q++) {
      const e = succPred[q]!;
      const cg = (predLC[e] ? kn + n : kn) + predOwner[e]!;
      if (cg <= g || cg > feNext || (cg === feNext && !feLoaded)) continue;
      const s2 = cg & mask;
      if (status[s2] !== K.WaitDep) continue;
      const rel = atRename ? st : st + predLat[e]!;
      if (rel < nextLook[s2]!) {
        nextLook[s2] = rel;
        this.woken(cg, s2, rel, c);
      }
    }
  }

  /** Consumer cg (slot s) of an instance that started in cycle c can change at `rel`: filed in the
   *  wheel, or (released in this cycle: executed at rename) visited later in this cycle's walk. */
  protected woken(cg: number, s: number, rel: number, c: number): void {
    if (rel > c) {
      this.file(cg, rel);
      return;
    }
    if (this.stamp[s] === c) return;
    this.stamp[s] = c;
    const wk = this.woke;
    let x = this.wokeLen++;
    while (x > this.wokeAt && wk[x - 1]! > cg) {
      wk[x] = wk[x - 1]!;
      x--;
    }
    wk[x] = cg;
  }

  /** Bring the wait counters up to date as of cycle c (dependency waits are accounted lazily). */
  flush(c: number): void {
    this.syncWaiting();
    for (let w = 0; w < this.waitingLen; w++) {
      const g = this.waiting[w]!;
      const s = g & this.mask;
      if (this.status[s] === K.WaitDep) this.settle(s, this.line[s]!, c + 1);
    }
  }

  /** Algorithm 6: advance executing instances in cycle c, finish those that reached their latency. */
  execute(c: number): void {
    const lat = this.cp.lat;
    const xl = this.executing,
      len = this.executingLen;
    const mask = this.mask,
      line = this.line,
      start = this.start,
      status = this.status;
    const away = this.fusedAway;
    let keep = 0,
      done = 0;
    for (let x = 0; x < len; x++) {
      const g = xl[x]!;
      const s = g & mask;
      const i = line[s]!;
      // (the Jcc of a fused pair is looked at below)
      if (c - start[s]! + 1 >= lat[i]! && (away === null || away[i] === 0)) {
        status[s] = K.Done;
        done++;
      } else xl[keep++] = g;
    }
    if (away !== null) {
      // a macro-fused pair is one µop: its Jcc (no µop of its own, started as it entered) is done
      // when the first half is (and its own latency, which releases its consumers, has passed:
      // a done instance has released every result)
      const len2 = keep;
      keep = 0;
      for (let x = 0; x < len2; x++) {
        const g = xl[x]!;
        const s = g & mask;
        const i = line[s]!;
        // (a first half before head is done; its slot may have been reused as the ring grew)
        const mateDone = g - 1 < this.head || status[(g - 1) & mask] === K.Done;
        if (away[i] === 1 && c - start[s]! + 1 >= lat[i]! && mateDone) {
          status[s] = K.Done;
          done++;
        } else xl[keep++] = g;
      }
    }
    this.executingLen = keep;
    this.completed += done;
    const upTo = this.frontEnd.next;
    let h = this.head;
    this.headBefore = h;
    while (h < upTo && status[h & mask] === K.Done) h++;
    this.head = h;
  }

  /** the last instance in flight (partly loaded included) */
  private last(): number {
    const fe = this.frontEnd;
    return fe.loaded > 0 ? fe.next : fe.next - 1;
  }

  /** Move forward by whole periods (steady.ts): the ring re-laid for the new instance numbers. */
  shift(by: Periods): void {
    this.syncWaiting();
    this.relay(this.cap, Math.min(this.frontEnd.next, this.frontEnd.N - 1), by);
    shiftFields(this, FIELDS, by);
  }

  /** The station's part of the steady-state key: the scalars, then per instance in flight its
   *  status and (unless done) its declared slot fields. */
  writeKey(at: KeyAt, out: KeyWriter): void {
    this.syncWaiting();
    writeFieldsKey(this, FIELDS, at, out);
    const keyed = SLOT_NAMES.filter((name) => {
      const f = SLOT_FIELDS[name];
      return name !== 'status' && typeof f.key !== 'object' && (f.when === undefined || f.when(this));
    });
    const arrays = keyed.map((name) => this.slots()[name]);
    const fields = keyed.map((name) => SLOT_FIELDS[name]);
    const maxU = this.cp.maxU,
      c = at.cycle,
      mask = this.mask;
    for (let g = this.head, last = this.last(); g <= last; g++) {
      const s = g & mask;
      const st = this.status[s]!;
      out.put(st);
      if (st === K.Done) continue;
      for (let f = 0; f < fields.length; f++) {
        const fd = fields[f]!,
          arr = arrays[f]!,
          key = fd.key;
        const w = fd.perUop ? maxU : 1;
        for (let u = 0; u < w; u++) {
          const v = arr[s * w + u]!;
          out.put(key === 'value' ? v : (key as (v: number, st: number, c: number) => number)(v, st, c));
        }
      }
    }
  }

  save(): SchedulerState {
    this.syncWaiting();
    const st = saveFields(this, FIELDS) as SchedulerState;
    const a = this.slots();
    for (const name of SLOT_NAMES) (st as unknown as Record<string, unknown>)[name] = a[name].slice();
    return st;
  }

  restore(st: SchedulerState): void {
    restoreFields(this, FIELDS, st);
    const a = this.slots();
    for (const name of SLOT_NAMES) a[name] = st[name].slice();
    this.mask = this.cap - 1;
  }
}

/** Per line, 1 for the Jcc of a macro-fused pair; null when no pair fused. */
function fusedAwayLines(cp: CompiledProgram): Uint8Array | null {
  const fw = cp.fusedWithNext;
  if (!fw.includes(1)) return null;
  const away = new Uint8Array(cp.n);
  for (let i = 1; i < cp.n; i++) away[i] = fw[i - 1]!;
  return away;
}
