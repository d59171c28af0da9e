// The scheduler unit: the reservation station and the execution stage (thesis Algorithms 4–6 and
// §3.6). Instances (line, iteration) are numbered g = iteration·n + line; only the ones between the
// oldest unfinished instance (`head`) and the front end live in a ring buffer, so memory does not
// grow with the number of iterations. Each cycle `dispatch` walks the waiting instances in program
// order: an instance whose producers have released asks the ports unit for a port per µop and starts
// when every µop has one; `execute` retires the instances that reached their latency. What happens
// is reported to the recorder; the scheduler never reads the statistics.

import type { CompiledProgram } from '../compiled.js';
import type { BlameRecorder } from '../recorder.js';
import type { FrontEnd } from './frontEnd.js';
import type { Ports } from './ports.js';
import { RENAME_ALWAYS, RENAME_MOVE } from '../refine.js';
import { DIVIDER_BLOCK_BIT } from './divider.js';

/** The station's statuses and constants as the hot code reads them: a const enum's members are
 *  numbers in the emitted code, where a module's `const` is a variable V8 loads and checks on every
 *  use (the exported names below are the same values, for the other modules). */
const enum K {
  Loading = 1, WaitDep = 2, WaitPort = 3, Exec = 4, Done = 5,
  Never = 0x7fffffff,
  /** DIVIDER_BLOCK_BIT (checked below) */
  DivBlock = 1 << 30,
}

export const ST_LOADING = K.Loading;
export const ST_WAIT_DEP = K.WaitDep;
export const ST_WAIT_PORT = K.WaitPort;
export const ST_EXEC = K.Exec;
export const ST_DONE = K.Done;

export const NEVER = K.Never;
if (K.DivBlock !== DIVIDER_BLOCK_BIT) throw new Error('scheduler: K.DivBlock is not DIVIDER_BLOCK_BIT');


/** The station's state by name; the per-instance arrays are indexed by slot g & (cap − 1). */
export interface SchedulerState {
  /** oldest unfinished instance */
  head: number;
  /** µops in the station (loaded, no port yet) */
  used: number;
  /** instances finished */
  completed: number;
  /** ring size (a power of two) */
  cap: number;
  /** per slot: µops loaded */
  loaded: Int32Array;
  /** per slot: µops with a port */
  assigned: Int32Array;
  /** per slot × µop: port index, or -1 */
  uopPort: Int32Array;
  /** per slot: cycle it started executing, or -1 */
  start: Int32Array;
  /** per slot: ST_* */
  status: Uint8Array;
  /** per slot: bitmask over the instance's pred entries still unresolved this cycle */
  depWait: Int32Array;
  /** per slot: bitmask of port indices that blocked it this cycle (DIVIDER_BLOCK_BIT: the divider) */
  portBlock: Int32Array;
  /** per slot: line and iteration */
  line: Int32Array;
  iteration: Int32Array;
  /** per slot: next cycle a dependency-blocked instance must be looked at again (its mask cannot change before) */
  nextLook: Int32Array;
  /** per slot: its waits are accounted up to (not including) this cycle */
  accounted: Int32Array;
  /** loaded instances that have not started, program order: waiting[0 .. waitingLen) */
  waiting: Int32Array;
  waitingLen: number;
  /** instances executing: executing[0 .. executingLen) */
  executing: Int32Array;
  executingLen: number;
  /** per slot: 1 when the instance is executed at rename (zero idiom, eliminated move): no port,
   *  and its consumers are released in the cycle it starts (refined model) */
  zeroLat: Uint8Array;
  /** per slot × µop: the port assigned at issue (portChoice), or -1 */
  uopQueue: Int32Array;
  /** per line: its last instance entered was an eliminated move (moveElimination) */
  lastElim: Uint8Array;
}

export class Scheduler implements SchedulerState {
  head = 0;
  used = 0;
  completed = 0;
  cap = 0;
  mask = 0;
  loaded!: Int32Array;
  assigned!: Int32Array;
  uopPort!: Int32Array;
  start!: Int32Array;
  status!: Uint8Array;
  depWait!: Int32Array;
  portBlock!: Int32Array;
  line!: Int32Array;
  iteration!: Int32Array;
  nextLook!: Int32Array;
  accounted!: Int32Array;
  waiting!: Int32Array;
  waitingLen = 0;
  executing!: Int32Array;
  executingLen = 0;
  zeroLat!: Uint8Array;
  uopQueue!: Int32Array;
  lastElim: Uint8Array;
  /** ports are assigned at issue (refined model's portChoice) */
  private readonly issuePorts: boolean;
  /** the event-driven walk (ModelOptions.scheduler 'events'): `waiting` is then kept up to date
   *  only on demand (syncWaiting), the cycle's visits come from `act` and the wheel */
  readonly events: boolean;
  /** events: 1 + the last instance entered (instances head .. tail − 1 are in flight) */
  private tail = 0;
  /** events: the waiting instances that are not asleep on a dependency, program order */
  private act = new Int32Array(64);
  private actLen = 0;
  private act2 = new Int32Array(64);
  /** events: timing wheel of instances blocked on a dependency, bucket nextLook & wheelMask; an
   *  entry is current when the instance is still ST_WAIT_DEP with that nextLook (else stale) */
  private wheel = new Int32Array(0);
  /** per bucket: entries in it; bucket b is wheel[b·wheelCap .. b·wheelCap + wheelLen[b]) */
  private wheelLen = new Int32Array(0);
  private wheelCap = 16;
  private wheelMask = 0;
  /** events: instances looked at this cycle besides `act` (woken), sorted; woke[wokeAt ..) still to visit */
  private woke = new Int32Array(64);
  private wokeLen = 0;
  private wokeAt = 0;
  /** events: per slot, 1 when its producers were all found released (they stay released, so the
   *  check, which then has no effect, is not repeated); derived: every loading or port-blocked
   *  instance in the station at a cycle's end has been checked (relink sets it) */
  private depsOk = new Uint8Array(0);
  /** events: per slot, the cycle the instance was put in `woke` (no instance twice in a cycle) */
  private stamp = new Int32Array(0);
  /** events: per line, 1 when its instances have no dependency to check (no producer, or the
   *  run has no dependencies): depsOk as they enter */
  private readonly depFree: Uint8Array;
  /** uopQueue is in use (portChoice on) */
  get uopQueueOn(): boolean { return this.issuePorts; }

  constructor(
    private readonly cp: CompiledProgram,
    /** station size in µops */
    readonly capacity: number,
    private readonly noDeps: boolean,
    private readonly lazy: boolean,
    private readonly frontEnd: FrontEnd,
    private readonly ports: Ports,
    private readonly rec: BlameRecorder,
    issuePorts = false,
    events = false,
  ) {
    this.issuePorts = issuePorts;
    this.events = events;
    this.depFree = new Uint8Array(cp.n);
    for (let i = 0; i < cp.n; i++) this.depFree[i] = noDeps || cp.predStart[i + 1] === cp.predStart[i] ? 1 : 0;
    if (events) {
      // a dependency-blocked instance's next look is at most the longest pred latency ahead
      let maxLat = 1;
      for (let e = 0; e < cp.predLat.length; e++) if (cp.predLat[e]! > maxLat) maxLat = cp.predLat[e]!;
      let w = 8;
      while (w < maxLat + 2) w *= 2;
      this.wheel = new Int32Array(w * this.wheelCap);
      this.wheelLen = new Int32Array(w);
      this.wheelMask = w - 1;
    }
    this.lastElim = new Uint8Array(cp.n);
    // room for a full station and as many instances executing, so that the ring rarely grows
    // in a run (growing is correct at any time, but V8 re-optimises the loop after it)
    let cap = 64;
    while (cap < 2 * (capacity + cp.n) + 2 && cap < 4096) cap *= 2;
    this.allocRing(cap, -1);
  }

  private allocRing(cap: number, upTo: number): void {
    const old = this.cap > 0 ? {
      l: this.loaded, a: this.assigned, u: this.uopPort, s: this.start, st: this.status,
      d: this.depWait, p: this.portBlock, n: this.nextLook, ac: this.accounted, li: this.line, it: this.iteration, mask: this.mask,
      z: this.zeroLat, q: this.uopQueue,
    } : null;
    const maxU = this.cp.maxU;
    this.loaded = new Int32Array(cap);
    this.assigned = new Int32Array(cap);
    this.uopPort = new Int32Array(cap * maxU).fill(-1);
    this.start = new Int32Array(cap).fill(-1);
    this.status = new Uint8Array(cap);
    this.depWait = new Int32Array(cap);
    this.portBlock = new Int32Array(cap);
    this.line = new Int32Array(cap);
    this.iteration = new Int32Array(cap);
    this.nextLook = new Int32Array(cap);
    this.accounted = new Int32Array(cap);
    this.zeroLat = new Uint8Array(cap);
    this.uopQueue = new Int32Array(cap * maxU).fill(-1);
    const wl = this.waiting, xl = this.executing;
    this.waiting = new Int32Array(cap);
    this.executing = new Int32Array(cap);
    if (wl) { this.waiting.set(wl.subarray(0, this.waitingLen)); this.executing.set(xl.subarray(0, this.executingLen)); }
    const newMask = cap - 1;
    if (this.events) {
      const a = this.act, a2 = this.act2, wk = this.woke;
      this.act = new Int32Array(cap); this.act.set(a.subarray(0, this.actLen));
      this.act2 = new Int32Array(cap); this.act2.set(a2.subarray(0, Math.min(a2.length, cap)));
      this.woke = new Int32Array(cap); this.woke.set(wk.subarray(0, this.wokeLen));
      const st = this.stamp, ok = this.depsOk;
      this.stamp = new Int32Array(cap).fill(-1);
      this.depsOk = new Uint8Array(cap);
      if (old) for (let g = this.head; g <= upTo; g++) { this.stamp[g & newMask] = st[g & old.mask]!; this.depsOk[g & newMask] = ok[g & old.mask]!; }
    }
    if (old) {
      for (let g = this.head; g <= upTo; g++) {
        const a = g & old.mask, b = g & newMask;
        this.loaded[b] = old.l[a]!; this.assigned[b] = old.a[a]!; this.start[b] = old.s[a]!;
        this.status[b] = old.st[a]!; this.depWait[b] = old.d[a]!; this.portBlock[b] = old.p[a]!;
        this.nextLook[b] = old.n[a]!; this.accounted[b] = old.ac[a]!;
        this.line[b] = old.li[a]!; this.iteration[b] = old.it[a]!; this.zeroLat[b] = old.z[a]!;
        for (let u = 0; u < maxU; u++) { this.uopPort[b * maxU + u] = old.u[a * maxU + u]!; this.uopQueue[b * maxU + u] = old.q[a * maxU + u]!; }
      }
    }
    this.cap = cap;
    this.mask = newMask;
  }

  /** Instance g (line i, iteration k) enters the station (its first µops are about to load). */
  enter(g: number, i: number, k: number): void {
    if (g - this.head + 2 > this.cap) this.allocRing(this.cap * 2, g);
    const s = g & this.mask;
    this.loaded[s] = 0; this.assigned[s] = 0; this.start[s] = -1; this.status[s] = K.Loading;
    this.depWait[s] = 0; this.portBlock[s] = 0; this.nextLook[s] = 0; this.accounted[s] = 0;
    this.line[s] = i; this.iteration[s] = k;
    const maxU = this.cp.maxU;
    // a loop, not TypedArray.fill: for a few elements the builtin call costs more than the stores
    const up = this.uopPort;
    for (let x = s * maxU, end = x + maxU; x < end; x++) up[x] = -1;
    if (this.events) {
      this.act[this.actLen++] = g; this.tail = g + 1; this.stamp[s] = -1;
      // a line without producers (or no dependencies at all) has nothing to check
      this.depsOk[s] = this.depFree[i]!;
    }
    else this.waiting[this.waitingLen++] = g;
    if (this.cp.anyRenamed) this.zeroLat[s] = this.atRename(i, k);
    if (this.issuePorts) { const q = this.uopQueue; for (let x = s * maxU, end = x + maxU; x < end; x++) q[x] = -1; }
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
    if (this.issuePorts && this.zeroLat[s] === 0) {
      // portChoice: each µop gets its port as it enters the station (Ports.assign)
      const maxU = this.cp.maxU, i = this.line[s]!;
      for (let u = loadedNow - take; u < loadedNow; u++) this.uopQueue[s * maxU + u] = this.ports.assign(i, u);
    }
  }

  /**
   * Algorithm 4's dependency check of the waiting instance in slot `s` (line `i`, iteration `k`)
   * in cycle `c`, shared by both walks: true when a producer has not released its result yet —
   * the instance is then marked waiting on those producers (mask, blame, the cycle it must be
   * looked at again) — false when every dependency is resolved.
   */
  private depBlocked(s: number, i: number, k: number, c: number): boolean {
    const cp = this.cp;
    const { predStart, predLC, predLine, predLat } = cp;
    const e0 = predStart[i]!, e1 = predStart[i + 1]!;
    if (e1 <= e0) return false;
    const status = this.status;
    if (status[s] === K.WaitDep) this.settle(s, i, c);
    const n = cp.n, head = this.head, mask = this.mask, start = this.start, zeroLat = this.zeroLat;
    const zl = cp.anyRenamed;                       // some line is executed at rename (refined model)
    // the recorder's counters (Recorder.onDepWait / onWait, written directly)
    const { caused, predBlame, had } = this.rec;
    let waitMask = 0;
    let next = K.Never;
    const kn = k * n;
    for (let e = e0; e < e1; e++) {
      let pg: number;
      if (predLC[e]) { if (k === 0) continue; pg = kn - n + predLine[e]!; }
      else pg = kn + predLine[e]!;
      if (pg < head) continue;                    // finished long ago
      const ps = pg & mask;
      const st = start[ps]!;
      const rel = st < 0 ? K.Never : zl && zeroLat[ps] === 1 ? st : st + predLat[e]!;
      if (rel > c) {
        const b = e - e0;
        waitMask |= 1 << (b < 30 ? b : 30);
        if (rel < next) next = rel;
        caused[predLine[e]!]!++;
        predBlame[e]!++;
      }
    }
    if (waitMask === 0) return false;
    had[i]!++;
    this.depWait[s] = waitMask;
    this.portBlock[s] = 0;
    status[s] = K.WaitDep;
    this.accounted[s] = c + 1;
    // the mask changes only when a producer releases: at `next`, or earlier when a producer that
    // has not started yet starts (wake() lowers it then)
    this.nextLook[s] = this.lazy && e1 - e0 <= 30 ? next : c + 1;
    return true;
  }

  /** Algorithms 4 and 5 (+ §3.6): walk the station in program order in cycle c. */
  dispatch(c: number): void {
    // (small, so that V8 inlines it into the core's cycle: one call per cycle, not two)
    if (this.events) this.dispatchEvents(c);
    else this.dispatchWalk(c);
  }

  /** `dispatch` with the walk over every waiting instance (ModelOptions.scheduler 'walk'). */
  private dispatchWalk(c: number): void {
    const cp = this.cp;
    const maxU = cp.maxU;
    const wl = this.waiting;
    const wLen = this.waitingLen;
    const ports = this.ports;
    const rec = this.rec;
    // the arrays as locals: nothing below reallocates them (the ring grows only in enter(), the
    // port holders, not cached, in the ports unit), and nothing below moves head or the ring's mask
    const mask = this.mask;
    const { nextLook, line, iteration, status, start, depWait, portBlock, loaded, uopPort, assigned, executing, zeroLat } = this;
    const { uops } = cp;
    const zl = cp.anyRenamed;                       // some line is executed at rename (refined model)
    let keep = 0;
    for (let w = 0; w < wLen; w++) {
      const g = wl[w]!;
      wl[keep++] = g;                                 // stays unless it starts below
      const s = g & mask;
      if (nextLook[s]! > c) continue;               // still blocked on the same producers (accounted lazily)
      const i = line[s]!;
      const k = iteration[s]!;
      // dependencies
      if (!this.noDeps && this.depBlocked(s, i, k, c)) continue;
      depWait[s] = 0;
      portBlock[s] = 0;
      const ld = loaded[s]!;
      if (zl && zeroLat[s] === 1) {
        if (ld === uops[i]!) {
          // executed at rename: no port; done in the cycle it starts, its consumers released then
          start[s] = c;
          status[s] = K.Done;
          this.completed++;
          this.used -= ld;
          keep--;
          this.wake(g, i, k, c);
          continue;
        }
        status[s] = K.Loading;
        rec.onWait(i, 1);
        continue;
      }
      // ports
      let ok = ld === uops[i]!;
      let blocked = 0;
      for (let u = 0; u < ld; u++) {
        if (uopPort[s * maxU + u]! >= 0) continue;
        const p = this.issuePorts ? ports.takeAssigned(g, i, u, this.uopQueue[s * maxU + u]!, c) : ports.choose(g, i, u, c);
        if (p < 0) { ok = false; blocked |= ports.lastBlocked; continue; }
        uopPort[s * maxU + u] = p;
        assigned[s]!++;
        rec.onAssigned(i, p);
        this.used--;                                  // a µop leaves the station when it gets its port
      }
      if (ok) {
        start[s] = c;
        status[s] = K.Exec;
        keep--;
        executing[this.executingLen++] = g;
        this.wake(g, i, k, c);
        continue;
      }
      portBlock[s] = blocked;
      status[s] = blocked !== 0 ? K.WaitPort : K.Loading;
      if (blocked !== 0) ports.blameBlockers(g, i, blocked);
      rec.onWait(i, 1);
    }
    this.waitingLen = keep;
  }

  /**
   * The event-driven walk (same effects as `dispatch`'s walk, in the same order): the instances
   * visited in cycle c are those in `act` (not asleep on a dependency) merged in program order with
   * those whose wheel bucket is c and those a producer starting in this cycle wakes for this cycle
   * (executed at rename: released at once); exactly the waiting instances whose nextLook ≤ c, which
   * is what `dispatch`'s walk visits.
   */
  private dispatchEvents(c: number): void {
    const mask = this.mask, head = this.head;
    const { status, nextLook, stamp, depsOk } = this;
    const wmask = this.wheelMask;
    const bk = c & wmask;
    const wheelData = this.wheel;
    const b0 = bk * this.wheelCap, b1 = b0 + this.wheelLen[bk]!;
    const woke = this.woke;
    let wl = 0;
    for (let b = b0; b < b1; b++) {
      const g = wheelData[b]!;
      if (g < head) continue;
      const s = g & mask;
      if (status[s] !== K.WaitDep || nextLook[s] !== c || stamp[s] === c) continue;   // stale entry
      stamp[s] = c;
      let x = wl++;
      while (x > 0 && woke[x - 1]! > g) { woke[x] = woke[x - 1]!; x--; }
      woke[x] = g;
    }
    this.wheelLen[bk] = 0;
    this.wokeLen = wl;
    this.wokeAt = 0;
    const a = this.act, aLen = this.actLen, out = this.act2;
    const cp = this.cp;
    const maxU = cp.maxU, P = cp.P;
    const ports = this.ports;
    const rec = this.rec;
    // the recorder's counters as locals (restore replaces the arrays, never during a cycle)
    const { had, caused, portCaused, portWas } = rec;
    const { line, iteration, start, depWait, portBlock, loaded, uopPort, assigned, zeroLat, uopQueue } = this;
    const { uops, uopMask, div, divUop } = cp;
    const zl = cp.anyRenamed;                       // some line is executed at rename (refined model)
    const issuePorts = this.issuePorts;
    let o = 0, ai = 0;
    // woke[wa .. wLen) still to visit, as locals; wake() (an instance started) may insert into
    // woke: this.wokeAt / wokeLen are written before and read back after each call
    let wa = 0, wLen = wl;
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
        if (nx === c + 1) { out[o++] = g; stamp[s] = c + 1; }
        else if (nx !== K.Never) this.file(g, nx);
        continue;
      }
      depsOk[s] = 1;
      depWait[s] = 0;
      const ld = loaded[s]!;
      if (zl && zeroLat[s] === 1) {
        portBlock[s] = 0;
        if (ld === uops[i]!) {
          start[s] = c;
          status[s] = K.Done;
          this.completed++;
          this.used -= ld;
          this.wokeAt = wa; this.wokeLen = wLen;
          this.wake(g, i, iteration[s]!, c);
          wLen = this.wokeLen;
          continue;
        }
        status[s] = K.Loading;
        had[i]!++;
        out[o++] = g; continue;
      }
      let ok = ld === uops[i]!;
      let blocked = 0;
      // the ports full before this visit are held by other instances (this one holds no port
      // until it takes one here): a µop (not the divider's) whose ports are all among them is
      // refused here, with those ports as the blocking mask, as Ports.choose / takeAssigned would
      const full = ports.lastTaker === g ? 0 : ports.full;
      const du = div[i]! > 0 ? divUop[i]! : -1;
      for (let u = 0, x = s * maxU; u < ld; u++, x++) {
        if (uopPort[x]! >= 0) continue;
        let p: number;
        if (issuePorts) {
          const q = uopQueue[x]!;
          if (u !== du && q >= 0 && (full & (1 << q)) !== 0) { ok = false; blocked |= 1 << q; continue; }
          p = ports.takeAssigned(g, i, u, q, c);
        } else {
          const m = uopMask[i * maxU + u]!;
          if (u !== du) {
            if ((m & ~full) === 0) { ok = false; blocked |= m; continue; }
            // a port of its mask is free now: choose takes the first in port order
            const free = m & ~ports.full;
            p = free !== 0 ? ports.takeFree(g, i, free) : ports.choose(g, i, u, c);
          } else p = ports.choose(g, i, u, c);
        }
        if (p < 0) { ok = false; blocked |= ports.lastBlocked; continue; }
        uopPort[x] = p;
        assigned[s]!++;
        rec.onAssigned(i, p);
        this.used--;
      }
      if (ok) {
        portBlock[s] = 0;
        start[s] = c;
        status[s] = K.Exec;
        this.executing[this.executingLen++] = g;
        this.wokeAt = wa; this.wokeLen = wLen;
        this.wake(g, i, iteration[s]!, c);
        wLen = this.wokeLen;
        continue;
      }
      portBlock[s] = blocked;
      if (blocked !== 0) {
        status[s] = K.WaitPort;
        const k = (blocked & K.DivBlock) === 0 && ports.lastTaker !== g ? ports.cachedBlame(blocked) : -1;
        if (k >= 0) {
          // the holders blamed for this mask earlier in the cycle (Ports.blameBlockers' reuse)
          const bl = ports.bcLine, bp = ports.bcPort;
          for (let y = ports.bcFrom[k]!, end = ports.bcFrom[k + 1]!; y < end; y++) {
            const h = bl[y]!, pt = bp[y]!;
            caused[h]!++;
            portCaused[h * P + pt]!++;
            portWas[i * P + pt]!++;
          }
        } else ports.blameBlockers(g, i, blocked, k === -1 && (blocked & K.DivBlock) === 0 && ports.lastTaker !== g);
      } else status[s] = K.Loading;
      had[i]!++;
      out[o++] = g;
    }
    this.act2 = a;
    this.act = out;
    this.actLen = o;
    this.wokeLen = 0;
  }

  /** events: file instance g in the wheel under cycle t (the bucket grows when full). */
  private file(g: number, t: number): void {
    const b = t & this.wheelMask;
    const len = this.wheelLen[b]!;
    if (len === this.wheelCap) {
      const W = this.wheelMask + 1, cap = this.wheelCap * 2;
      const w = new Int32Array(W * cap);
      for (let x = 0; x < W; x++) w.set(this.wheel.subarray(x * this.wheelCap, x * this.wheelCap + this.wheelLen[x]!), x * cap);
      this.wheel = w;
      this.wheelCap = cap;
    }
    this.wheel[b * this.wheelCap + len] = g;
    this.wheelLen[b] = len + 1;
  }

  /** events: `waiting` brought up to date (the loaded instances that have not started, program order). */
  syncWaiting(): void {
    if (!this.events) return;
    let len = 0;
    for (let g = this.head; g < this.tail; g++) if (this.status[g & this.mask]! < K.Exec) this.waiting[len++] = g;
    this.waitingLen = len;
  }

  /** events: after restore or shift, with the core at cycle c, rebuild `act` and the wheel from the
   *  state (they are derived from it: status and nextLook of the waiting instances). */
  relink(c: number): void {
    if (!this.events) return;
    const fe = this.frontEnd;
    this.tail = fe.isLoaded(fe.next) ? fe.next + 1 : fe.next;
    this.wheelLen.fill(0);
    if (this.act.length < this.cap) { this.act = new Int32Array(this.cap); this.act2 = new Int32Array(this.cap); this.woke = new Int32Array(this.cap); }
    if (this.stamp.length !== this.cap) { this.stamp = new Int32Array(this.cap); this.depsOk = new Uint8Array(this.cap); }
    this.stamp.fill(-1);
    this.syncWaiting();
    let o = 0;
    for (let w = 0; w < this.waitingLen; w++) {
      const g = this.waiting[w]!;
      const s = g & this.mask;
      const nx = this.nextLook[s]!;
      this.depsOk[s] = this.status[s] === K.WaitDep ? 0 : 1;
      if (this.status[s] === K.WaitDep && nx > c + 1) { if (nx !== K.Never) this.file(g, nx); }
      else this.act[o++] = g;
    }
    this.actLen = o;
    this.wokeLen = 0;
  }

  /** Account the cycles [accounted, upTo) an instance spent blocked on the producers of its mask. */
  private settle(s: number, i: number, upTo: number): void {
    const d = upTo - this.accounted[s]!;
    if (d <= 0) return;
    const cp = this.cp;
    const { predStart, predLine } = cp;
    const e0 = predStart[i]!, e1 = predStart[i + 1]!;
    const m = this.depWait[s]!;
    // Recorder.onWait / onDepWait, written directly
    const { had, caused, predBlame } = this.rec;
    had[i]! += d;
    for (let e = e0; e < e1; e++) {
      if ((m & (1 << (e - e0))) === 0) continue;
      caused[predLine[e]!]! += d;
      predBlame[e]! += d;
    }
    this.accounted[s] = upTo;
  }

  /** Instance g (line i, iteration k) started in cycle c: its waiting consumers look again at its release. */
  private wake(g: number, i: number, k: number, c: number): void {
    const cp = this.cp;
    const n = cp.n;
    const { succStart, succPred, predLC, predOwner, predLat } = cp;
    // FrontEnd.isLoaded, its state as locals (the front end does not move during dispatch)
    const fe = this.frontEnd, feNext = fe.next, feLoaded = fe.loaded > 0;
    const mask = this.mask, status = this.status, nextLook = this.nextLook;
    const atRename = cp.anyRenamed && this.zeroLat[g & mask] === 1;
    const kn = k * n;
    for (let q = succStart[i]!, q1 = succStart[i + 1]!; q < q1; q++) {
      const e = succPred[q]!;
      const cg = (predLC[e] ? kn + n : kn) + predOwner[e]!;
      if (cg <= g || cg > feNext || (cg === feNext && !feLoaded)) continue;
      const s2 = cg & mask;
      if (status[s2] !== K.WaitDep) continue;
      const rel = atRename ? c : c + predLat[e]!;
      if (rel < nextLook[s2]!) {
        nextLook[s2] = rel;
        if (this.events) {
          if (rel > c) this.file(cg, rel);
          else if (this.stamp[s2] !== c) {
            // released in this cycle (executed at rename): visited later in this cycle's walk (cg > g)
            this.stamp[s2] = c;
            const wk = this.woke;
            let x = this.wokeLen++;
            while (x > this.wokeAt && wk[x - 1]! > cg) { wk[x] = wk[x - 1]!; x--; }
            wk[x] = cg;
          }
        }
      }
    }
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
    const xl = this.executing, len = this.executingLen;
    const mask = this.mask, line = this.line, start = this.start, status = this.status;
    let keep = 0, done = 0;
    for (let x = 0; x < len; x++) {
      const g = xl[x]!;
      const s = g & mask;
      if (c - start[s]! + 1 >= lat[line[s]!]!) {
        status[s] = K.Done;
        done++;
      } else xl[keep++] = g;
    }
    this.executingLen = keep;
    this.completed += done;
    const upTo = this.frontEnd.next;
    let h = this.head;
    while (h < upTo && status[h & mask] === K.Done) h++;
    this.head = h;
  }

  /** Move forward by dg instances (= dk iterations) and dc cycles (steady.ts): the ring re-laid
   *  for the new instance numbers, up to instance `last`. */
  shift(dg: number, dc: number, dk: number, last: number): void {
    this.syncWaiting();
    const maxU = this.cp.maxU;
    const mask = this.mask, cap = this.cap;
    const rl = new Int32Array(cap), ra = new Int32Array(cap), ru = new Int32Array(cap * maxU).fill(-1);
    const rs = new Int32Array(cap).fill(-1), rst = new Uint8Array(cap), rd = new Int32Array(cap);
    const rp = new Int32Array(cap), rn = new Int32Array(cap), rc = new Int32Array(cap);
    const rli = new Int32Array(cap), rit = new Int32Array(cap);
    const rz = new Uint8Array(cap), rq = new Int32Array(cap * maxU).fill(-1);
    for (let g = this.head; g <= last; g++) {
      const a = g & mask, b = (g + dg) & mask;
      rl[b] = this.loaded[a]!; ra[b] = this.assigned[a]!;
      for (let u = 0; u < maxU; u++) { ru[b * maxU + u] = this.uopPort[a * maxU + u]!; rq[b * maxU + u] = this.uopQueue[a * maxU + u]!; }
      rz[b] = this.zeroLat[a]!;
      const st = this.start[a]!;
      rs[b] = st >= 0 ? st + dc : st;
      rst[b] = this.status[a]!; rd[b] = this.depWait[a]!; rp[b] = this.portBlock[a]!;
      const nx = this.nextLook[a]!;
      rn[b] = nx === K.Never ? K.Never : nx + dc;
      rc[b] = this.accounted[a]! + dc;
      rli[b] = this.line[a]!; rit[b] = this.iteration[a]! + dk;
    }
    this.loaded = rl; this.assigned = ra; this.uopPort = ru; this.start = rs; this.status = rst;
    this.depWait = rd; this.portBlock = rp; this.nextLook = rn; this.accounted = rc; this.line = rli; this.iteration = rit;
    this.zeroLat = rz; this.uopQueue = rq;
    for (let w = 0; w < this.waitingLen; w++) this.waiting[w]! += dg;
    for (let w = 0; w < this.executingLen; w++) this.executing[w]! += dg;
    this.head += dg;
    this.completed += dg;
  }

  save(): SchedulerState {
    this.syncWaiting();
    return {
      head: this.head, used: this.used, completed: this.completed, cap: this.cap,
      loaded: this.loaded.slice(), assigned: this.assigned.slice(), uopPort: this.uopPort.slice(), start: this.start.slice(),
      status: this.status.slice(), depWait: this.depWait.slice(), portBlock: this.portBlock.slice(),
      line: this.line.slice(), iteration: this.iteration.slice(), nextLook: this.nextLook.slice(), accounted: this.accounted.slice(),
      waiting: this.waiting.slice(), waitingLen: this.waitingLen, executing: this.executing.slice(), executingLen: this.executingLen,
      zeroLat: this.zeroLat.slice(), uopQueue: this.uopQueue.slice(), lastElim: this.lastElim.slice(),
    };
  }

  restore(s: SchedulerState): void {
    this.head = s.head; this.used = s.used; this.completed = s.completed; this.cap = s.cap; this.mask = s.cap - 1;
    this.loaded = s.loaded.slice(); this.assigned = s.assigned.slice(); this.uopPort = s.uopPort.slice(); this.start = s.start.slice();
    this.status = s.status.slice(); this.depWait = s.depWait.slice(); this.portBlock = s.portBlock.slice();
    this.line = s.line.slice(); this.iteration = s.iteration.slice(); this.nextLook = s.nextLook.slice(); this.accounted = s.accounted.slice();
    this.waiting = s.waiting.slice(); this.waitingLen = s.waitingLen; this.executing = s.executing.slice(); this.executingLen = s.executingLen;
    this.zeroLat = s.zeroLat.slice(); this.uopQueue = s.uopQueue.slice(); this.lastElim = s.lastElim.slice();
  }
}
