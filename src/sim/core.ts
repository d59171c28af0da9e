// The simulation core: SUACA's scheduler model (thesis ch. 3, Algorithms 3–7 and §3.6) on typed
// arrays. Instances (line, iteration) are numbered g = iteration·n + line; only the ones between
// the oldest unfinished instance and the front end live in a ring buffer, so memory does not grow
// with the number of iterations. Pure and deterministic.

import { CompiledProgram } from './compiled.js';
import type { MachineParams, SimConfig, SimProgram } from './types.js';
import type { MechanismSet } from './mechanisms.js';

export { CompiledProgram };

/**
 * How the core runs (the model itself has no options: where the thesis leaves a detail open, the
 * engine does what reproduces its printed tables — µops leave the station when they get their
 * port, port ties go to the lower port number, only unresolved producers are blamed; see
 * docs/engine.md, "Interpretation choices").
 */
export interface ModelOptions {
  /** skip dependency-blocked instances until a producer releases (false: look at every instance
   *  every cycle, as the thesis's pseudo code does; test/sim/random.test.ts checks that the
   *  statistics are the same) */
  lazyWaits?: boolean;
  /** the refined model's mechanisms (src/sim/mechanisms.ts); absent or all off: SUACA's model */
  mechanisms?: Partial<MechanismSet>;
}

export const DEFAULT_MODEL: ModelOptions = {};

export const ST_LOADING = 1;
export const ST_WAIT_DEP = 2;
export const ST_WAIT_PORT = 3;
export const ST_EXEC = 4;
export const ST_DONE = 5;

const NEVER = 0x7fffffff;

/** Port capacity for "infinitely usable": more µops than a cycle can ever put on one port (the
 *  holders of a port are kept in an array), and a small integer, so that the per-cycle code only
 *  ever compares small integers (an Infinity here made V8 throw away its optimised code). */
export const UNLIMITED_PORT_CAP = 0x3fffffff;

/** `count < cap` for a whole count is `count < ceil(cap)`; capped at UNLIMITED_PORT_CAP. */
function portCapOf(cap: number): number {
  return cap >= UNLIMITED_PORT_CAP ? UNLIMITED_PORT_CAP : Number.isNaN(cap) ? cap : Math.ceil(cap);
}
/** instance numbers are used in 32-bit integer arithmetic */
export const MAX_INSTANCES = 0x7ffffff0;

/** Saved state of a Core (for checkpoints). */
export interface CoreState {
  scalars: Float64Array;
  arrays: (Int32Array | Uint8Array | Float64Array)[];
  hold: Int32Array;
  holdCap: number;
  cap: number;
}

export class Core {
  readonly cp: CompiledProgram;
  readonly iterations: number;
  readonly N: number;
  readonly feWidth: number;
  readonly rsCap: number;
  /** µops each port takes per cycle (UNLIMITED_PORT_CAP: infinitely usable ports) */
  readonly portCap: number;
  readonly noDeps: boolean;
  readonly model: ModelOptions;

  // dynamic scalars
  cycle = 0;
  head = 0;
  fe = 0;
  feLoaded = 0;
  feLine = 0;              // fe % n
  feIter = 0;              // fe / n
  rsUsed = 0;
  divBusyUntil = 0;
  divOwner = -1;
  completed = 0;
  loadedThisCycle = 0;
  uopsAssigned = 0;

  // ring
  cap = 0;
  mask = 0;
  rLoaded!: Int32Array;
  rAssigned!: Int32Array;
  rUopPort!: Int32Array;   // cap*maxU: port index or -1
  rStart!: Int32Array;     // cycle it started executing, or -1
  rStatus!: Uint8Array;
  rDepWait!: Int32Array;   // bitmask over the consumer's pred entries still unresolved this cycle
  rPortBlock!: Int32Array; // bitmask of port indices that blocked it this cycle (bit 30: divider)
  rLine!: Int32Array;      // line (index) of the instance in the slot
  rIter!: Int32Array;      // its iteration
  /** next cycle a dependency-blocked instance must be looked at again (its mask cannot change before) */
  rNext!: Int32Array;
  /** its waits are accounted up to (not including) this cycle */
  rAcc!: Int32Array;
  /** loaded instances that have not started, program order */
  wList!: Int32Array;
  wLen = 0;
  /** instances executing */
  xList!: Int32Array;
  xLen = 0;

  // ports
  usage: Float64Array;
  order: Int32Array;
  /** orderPos[p]: where port index p is in order */
  orderPos: Int32Array;
  portCount: Int32Array;
  /** instances holding each port this cycle (kept until the next cycle): port p's are
   *  hold[p*holdCap .. p*holdCap + portCount[p]) */
  hold: Int32Array;
  holdCap = 4;

  // statistics (counts; divided by iterations when read)
  had: Float64Array;
  caused: Float64Array;
  portUse: Float64Array;   // n*P
  divUse: Float64Array;
  predBlame: Float64Array; // per pred entry: cycles the consumer waited with this producer blamed
  portWas: Float64Array;   // n*P: line delayed with port p blamed
  portCaused: Float64Array;// n*P: line, holding port p, delayed others

  /** instances blamed already for the current blocked instance: blamed[0 .. blamedLen) */
  private blamed: Int32Array;
  private blamedLen = 0;
  private readonly lazy: boolean;

  constructor(program: SimProgram, machine: MachineParams, config: SimConfig, model: ModelOptions = DEFAULT_MODEL, compiled?: CompiledProgram) {
    this.cp = compiled ?? new CompiledProgram(program, machine);
    const v = config.variant;
    if (!Number.isFinite(config.iterations) || config.iterations < 1) {
      throw new RangeError(`iterations must be a whole number ≥ 1 (got ${config.iterations})`);
    }
    this.iterations = Math.floor(config.iterations);
    this.N = this.cp.n * this.iterations;
    if (this.N > MAX_INSTANCES) {
      throw new RangeError(`${this.iterations} iterations of ${this.cp.n} instructions exceed the engine's ${MAX_INSTANCES} instances`);
    }
    this.rsCap = Math.max(1, v.rsSize ?? machine.rsSize);
    this.feWidth = v.perfectFrontEnd ? this.rsCap : Math.max(1, v.issueWidth ?? machine.issueWidth);
    this.portCap = portCapOf(v.infinitePorts ? Number.POSITIVE_INFINITY : Math.max(1, v.portCapacity ?? 1));
    this.noDeps = v.noDependencies;
    this.model = model;
    this.lazy = model.lazyWaits !== false;
    const { n, P } = this.cp;
    this.usage = new Float64Array(P);
    this.order = new Int32Array(P);
    for (let k = 0; k < P; k++) this.order[k] = k;
    this.orderPos = new Int32Array(P);
    this.indexOrder();
    this.portCount = new Int32Array(P);
    this.hold = new Int32Array(P * this.holdCap);
    this.had = new Float64Array(n);
    this.caused = new Float64Array(n);
    this.portUse = new Float64Array(n * P);
    this.divUse = new Float64Array(n);
    this.predBlame = new Float64Array(this.cp.predLine.length);
    this.portWas = new Float64Array(n * P);
    this.portCaused = new Float64Array(n * P);
    // holders of all ports, plus the divider's owner: the most one blocked instance can blame
    this.blamed = new Int32Array(P * this.holdCap + 1);
    // room for a full station and as many instances executing, so that the ring rarely grows
    // in a run (growing is correct at any time, but V8 re-optimises the loop after it)
    let cap = 64;
    while (cap < 2 * (this.rsCap + n) + 2 && cap < 4096) cap *= 2;
    this.allocRing(cap);
  }

  get finished(): boolean { return this.completed >= this.N; }

  private allocRing(cap: number): void {
    const old = this.cap > 0 ? {
      l: this.rLoaded, a: this.rAssigned, u: this.rUopPort, s: this.rStart, st: this.rStatus,
      d: this.rDepWait, p: this.rPortBlock, mask: this.mask,
    } : null;
    const maxU = this.cp.maxU;
    this.rLoaded = new Int32Array(cap);
    this.rAssigned = new Int32Array(cap);
    this.rUopPort = new Int32Array(cap * maxU).fill(-1);
    this.rStart = new Int32Array(cap).fill(-1);
    this.rStatus = new Uint8Array(cap);
    this.rDepWait = new Int32Array(cap);
    this.rPortBlock = new Int32Array(cap);
    const on = this.rNext, oa = this.rAcc, ol = this.rLine, oi = this.rIter;
    this.rLine = new Int32Array(cap);
    this.rIter = new Int32Array(cap);
    this.rNext = new Int32Array(cap);
    this.rAcc = new Int32Array(cap);
    const wl = this.wList, xl = this.xList;
    this.wList = new Int32Array(cap);
    this.xList = new Int32Array(cap);
    if (wl) { this.wList.set(wl.subarray(0, this.wLen)); this.xList.set(xl.subarray(0, this.xLen)); }
    const newMask = cap - 1;
    if (old) {
      for (let g = this.head; g <= this.fe && g < this.N; g++) {
        const a = g & old.mask, b = g & newMask;
        this.rLoaded[b] = old.l[a]!; this.rAssigned[b] = old.a[a]!; this.rStart[b] = old.s[a]!;
        this.rStatus[b] = old.st[a]!; this.rDepWait[b] = old.d[a]!; this.rPortBlock[b] = old.p[a]!;
        this.rNext[b] = on[a]!; this.rAcc[b] = oa[a]!;
        this.rLine[b] = ol[a]!; this.rIter[b] = oi[a]!;
        for (let u = 0; u < maxU; u++) this.rUopPort[b * maxU + u] = old.u[a * maxU + u]!;
      }
    }
    this.cap = cap;
    this.mask = newMask;
  }

  private initSlot(g: number): void {
    if (g - this.head + 2 > this.cap) this.allocRing(this.cap * 2);
    const s = g & this.mask;
    this.rLoaded[s] = 0; this.rAssigned[s] = 0; this.rStart[s] = -1; this.rStatus[s] = ST_LOADING;
    this.rDepWait[s] = 0; this.rPortBlock[s] = 0; this.rNext[s] = 0; this.rAcc[s] = 0;
    this.rLine[s] = this.feLine; this.rIter[s] = this.feIter;
    const maxU = this.cp.maxU;
    // a loop, not TypedArray.fill: for a few elements the builtin call costs more than the stores
    const up = this.rUopPort;
    for (let x = s * maxU, end = x + maxU; x < end; x++) up[x] = -1;
    this.wList[this.wLen++] = g;
  }

  /** Is instance g at least partially loaded (in the station or beyond)? */
  isLoaded(g: number): boolean {
    return g < this.fe || (g === this.fe && this.feLoaded > 0);
  }

  /** Perform one cycle (Algorithm 7). */
  step(): void {
    if (this.finished) return;
    this.cycle++;
    const pc = this.portCount;
    for (let p = 0; p < pc.length; p++) pc[p] = 0;
    this.load();
    this.choosePorts();
    this.execute();
  }

  /** Algorithm 3: load µops in program order, up to the issue width and the free station space. */
  private load(): void {
    const cp = this.cp;
    let loadable = Math.min(this.feWidth, this.rsCap - this.rsUsed);
    this.loadedThisCycle = 0;
    while (this.fe < this.N) {
      const g = this.fe;
      const i = this.feLine;
      const u = cp.uops[i]!;
      if (this.feLoaded === 0) {
        if (u > 0 && loadable <= 0) break;
        this.initSlot(g);
      }
      const take = Math.min(u - this.feLoaded, loadable);
      const s = g & this.mask;
      this.rLoaded[s] = this.feLoaded + take;
      this.feLoaded += take;
      this.rsUsed += take;
      loadable -= take;
      this.loadedThisCycle += take;
      if (this.feLoaded >= u) {
        this.fe++; this.feLoaded = 0;
        if (++this.feLine === cp.n) { this.feLine = 0; this.feIter++; }
      } else break;
    }
  }

  /** Algorithms 4 and 5 (+ §3.6): walk the station in program order. */
  private choosePorts(): void {
    const cp = this.cp;
    const n = cp.n;
    const c = this.cycle;
    const maxU = cp.maxU;
    const P = cp.P;
    const wl = this.wList;
    const wLen = this.wLen;
    // the arrays as locals: nothing below reallocates them (the ring grows only in load(), the
    // port holders, not cached, in take()), and nothing below moves head or the ring's mask
    const mask = this.mask, head = this.head;
    const { rNext, rLine, rIter, rStatus, rStart, caused, predBlame, had, rDepWait, rPortBlock, rAcc, rLoaded, rUopPort, rAssigned, portUse, xList } = this;
    const { predStart, predLC, predLine, predLat, uops } = cp;
    let keep = 0;
    for (let w = 0; w < wLen; w++) {
      const g = wl[w]!;
      wl[keep++] = g;                                 // stays unless it starts below
      const s = g & mask;
      if (rNext[s]! > c) continue;               // still blocked on the same producers (accounted lazily)
      const i = rLine[s]!;
      const k = rIter[s]!;
      // dependencies
      if (!this.noDeps) {
        const e0 = predStart[i]!, e1 = predStart[i + 1]!;
        if (e1 > e0) {
          if (rStatus[s] === ST_WAIT_DEP) this.settle(s, i, c);
          let waitMask = 0;
          let next = NEVER;
          for (let e = e0; e < e1; e++) {
            let pg: number;
            if (predLC[e]) { if (k === 0) continue; pg = (k - 1) * n + predLine[e]!; }
            else pg = k * n + predLine[e]!;
            if (pg < head) continue;               // finished long ago
            const st = rStart[pg & mask]!;
            const rel = st < 0 ? NEVER : st + predLat[e]!;
            if (rel > c) {
              waitMask |= 1 << Math.min(e - e0, 30);
              if (rel < next) next = rel;
              caused[predLine[e]!]!++;
              predBlame[e]!++;
            }
          }
          if (waitMask !== 0) {
            had[i]!++;
            rDepWait[s] = waitMask;
            rPortBlock[s] = 0;
            rStatus[s] = ST_WAIT_DEP;
            rAcc[s] = c + 1;
            // the mask changes only when a producer releases: at `next`, or earlier when a producer
            // that has not started yet starts (wake() lowers it then)
            rNext[s] = this.lazy && e1 - e0 <= 30 ? next : c + 1;
            continue;
          }
        }
      }
      rDepWait[s] = 0;
      rPortBlock[s] = 0;
      // ports
      const loaded = rLoaded[s]!;
      let ok = loaded === uops[i]!;
      let blocked = 0;
      for (let u = 0; u < loaded; u++) {
        if (rUopPort[s * maxU + u]! >= 0) continue;
        const p = this.assign(g, i, u);
        if (p < 0) { ok = false; blocked |= this.lastBlocked; continue; }
        rUopPort[s * maxU + u] = p;
        rAssigned[s]!++;
        portUse[i * P + p]!++;
        this.uopsAssigned++;
        this.rsUsed--;                                // a µop leaves the station when it gets its port
      }
      if (ok) {
        rStart[s] = c;
        rStatus[s] = ST_EXEC;
        keep--;
        xList[this.xLen++] = g;
        this.wake(g, i, k, c);
        continue;
      }
      rPortBlock[s] = blocked;
      rStatus[s] = blocked !== 0 ? ST_WAIT_PORT : ST_LOADING;
      if (blocked !== 0) {
        this.blamedLen = 0;
        for (let p = 0; p < P; p++) {
          if ((blocked & (1 << p)) === 0) continue;
          const base = p * this.holdCap;
          for (let h = 0; h < this.portCount[p]!; h++) this.blame(this.hold[base + h]!, g, i, p);
        }
        if ((blocked & (1 << 30)) !== 0 && this.divOwner >= 0) this.blame(this.divOwner, g, i, cp.divPortOf[i]!);
      }
      had[i]!++;
    }
    this.wLen = keep;
  }

  /** Account the cycles [rAcc, upTo) an instance spent blocked on the producers of its mask. */
  private settle(s: number, i: number, upTo: number): void {
    const d = upTo - this.rAcc[s]!;
    if (d <= 0) return;
    const cp = this.cp;
    const e0 = cp.predStart[i]!;
    const m = this.rDepWait[s]!;
    this.had[i]! += d;
    for (let e = e0; e < cp.predStart[i + 1]!; e++) {
      if ((m & (1 << (e - e0))) === 0) continue;
      this.caused[cp.predLine[e]!]! += d;
      this.predBlame[e]! += d;
    }
    this.rAcc[s] = upTo;
  }

  /** Instance g (line i, iteration k) started in cycle c: its waiting consumers look again at its release. */
  private wake(g: number, i: number, k: number, c: number): void {
    const cp = this.cp;
    const n = cp.n;
    for (let q = cp.succStart[i]!; q < cp.succStart[i + 1]!; q++) {
      const e = cp.succPred[q]!;
      const cg = (cp.predLC[e] ? k + 1 : k) * n + cp.predOwner[e]!;
      if (cg <= g || !this.isLoaded(cg)) continue;
      const s2 = cg & this.mask;
      if (this.rStatus[s2] !== ST_WAIT_DEP) continue;
      const rel = c + cp.predLat[e]!;
      if (rel < this.rNext[s2]!) this.rNext[s2] = rel;
    }
  }

  /** Bring the wait counters up to date (dependency waits are accounted lazily). */
  flush(): void {
    const n = this.cp.n;
    for (let w = 0; w < this.wLen; w++) {
      const g = this.wList[w]!;
      const s = g & this.mask;
      if (this.rStatus[s] === ST_WAIT_DEP) this.settle(s, this.rLine[s]!, this.cycle + 1);
    }
  }

  /** blamed holds every holder of every port and the divider's owner */
  private sizeBlamed(): void {
    const need = this.cp.P * this.holdCap + 1;
    if (this.blamed.length < need) this.blamed = new Int32Array(need);
  }

  private blame(holder: number, g: number, i: number, p: number): void {
    if (holder === g) return;
    const bl = this.blamed;
    const len = this.blamedLen;
    for (let x = 0; x < len; x++) if (bl[x] === holder) return;
    bl[len] = holder;
    this.blamedLen = len + 1;
    const hl = holder % this.cp.n;
    const P = this.cp.P;
    this.caused[hl]!++;
    this.portCaused[hl * P + p]!++;
    this.portWas[i * P + p]!++;
  }

  private lastBlocked = 0;

  /** Algorithm 5: the least used free port the µop may use; -1 (and lastBlocked) when none. */
  private assign(g: number, i: number, u: number): number {
    const cp = this.cp;
    const m = cp.uopMask[i * cp.maxU + u]!;
    const isDiv = cp.div[i]! > 0 && cp.divUop[i] === u;
    const sp = cp.uopSingle[i * cp.maxU + u]!;
    if (sp >= 0 && !isDiv) {
      // fast path for a µop with one possible port (same outcome as the loops below)
      const cnt = this.portCount[sp]!;
      if (cnt < this.portCap) { this.take(g, sp); return sp; }
      const base = sp * this.holdCap;
      let own = true;
      for (let h = 0; h < cnt; h++) if (this.hold[base + h] !== g) { own = false; break; }
      if (own) { this.take(g, sp); return sp; }
      this.lastBlocked = 1 << sp;
      return -1;
    }
    const c = this.cycle;
    const P = cp.P;
    let blocked = 0;
    for (let q = 0; q < P; q++) {
      const p = this.order[q]!;
      if ((m & (1 << p)) === 0) continue;
      if (isDiv && p === cp.divPortOf[i] && this.divBusyUntil >= c && this.divOwner !== g) { blocked |= 1 << 30; continue; }
      if (this.portCount[p]! < this.portCap) {
        this.take(g, p);
        if (isDiv && p === cp.divPortOf[i]) {
          this.divBusyUntil = c + cp.div[i]! - 1;
          this.divOwner = g;
          this.divUse[i]! += cp.div[i]!;
        }
        return p;
      }
      blocked |= 1 << p;
    }
    // an instruction never blocks itself (thesis §3.3): a port held by its own µop is fine
    for (let q = 0; q < P; q++) {
      const p = this.order[q]!;
      if ((m & (1 << p)) === 0) continue;
      if (isDiv && p === cp.divPortOf[i] && this.divBusyUntil >= c && this.divOwner !== g) continue;
      const cnt = this.portCount[p]!;
      const base = p * this.holdCap;
      let own = cnt > 0;
      for (let h = 0; h < cnt; h++) if (this.hold[base + h] !== g) { own = false; break; }
      if (own) { this.take(g, p); return p; }
    }
    this.lastBlocked = blocked;
    return -1;
  }

  /** instances holding port index p this cycle */
  holdersOf(p: number): number[] {
    return Array.from(this.hold.subarray(p * this.holdCap, p * this.holdCap + this.portCount[p]!));
  }

  private take(g: number, p: number): void {
    const cnt = this.portCount[p]!;
    if (cnt >= this.holdCap) {
      const P = this.cp.P, hc = this.holdCap * 2;
      const h = new Int32Array(P * hc);
      for (let q = 0; q < P; q++) h.set(this.hold.subarray(q * this.holdCap, q * this.holdCap + this.portCount[q]!), q * hc);
      this.hold = h;
      this.holdCap = hc;
      this.sizeBlamed();
    }
    this.hold[p * this.holdCap + cnt] = g;
    this.portCount[p] = cnt + 1;
    this.usage[p]!++;
    this.resortPort(p);
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

  /** Algorithm 6: advance executing instances, finish those that reached their latency. */
  private execute(): void {
    const cp = this.cp;
    const c = this.cycle;
    const xl = this.xList;
    let keep = 0;
    for (let x = 0; x < this.xLen; x++) {
      const g = xl[x]!;
      const s = g & this.mask;
      const i = this.rLine[s]!;
      if (c - this.rStart[s]! + 1 >= cp.lat[i]!) {
        this.rStatus[s] = ST_DONE;
        this.completed++;
      } else xl[keep++] = g;
    }
    this.xLen = keep;
    while (this.head < this.fe && this.rStatus[this.head & this.mask] === ST_DONE) this.head++;
  }

  runToEnd(): void {
    // guard against a program that cannot progress (should not happen): more than 1,000,000
    // cycles in a row without an instance completing. (Every cycle runs the same property reads
    // and the same comparison: code first reached late in a run made V8 throw away the
    // optimised loop.)
    let lastCompleted = this.completed;
    let lastProgress = this.cycle;
    while (!this.finished) {
      this.step();
      const c = this.cycle, done = this.completed;
      if (done !== lastCompleted) { lastCompleted = done; lastProgress = c; }
      if (c - lastProgress > 1_000_000) throw new Error('engine made no progress for 1,000,000 cycles');
    }
  }

  save(): CoreState {
    const scalars = Float64Array.of(this.cycle, this.head, this.fe, this.feLoaded, this.rsUsed, this.divBusyUntil,
      this.divOwner, this.completed, this.loadedThisCycle, this.uopsAssigned, this.wLen, this.xLen, this.feLine, this.feIter);
    return {
      scalars,
      cap: this.cap,
      arrays: [this.rLoaded, this.rAssigned, this.rUopPort, this.rStart, this.rStatus, this.rDepWait, this.rPortBlock,
        this.usage, this.order, this.portCount, this.had, this.caused, this.portUse, this.divUse,
        this.predBlame, this.portWas, this.portCaused, this.wList, this.xList, this.rNext, this.rAcc, this.rLine, this.rIter].map((a) => a.slice()),
      hold: this.hold.slice(),
      holdCap: this.holdCap,
    };
  }

  restore(st: CoreState): void {
    const s = st.scalars;
    this.cycle = s[0]!; this.head = s[1]!; this.fe = s[2]!; this.feLoaded = s[3]!; this.rsUsed = s[4]!;
    this.divBusyUntil = s[5]!; this.divOwner = s[6]!; this.completed = s[7]!; this.loadedThisCycle = s[8]!;
    this.uopsAssigned = s[9]!; this.wLen = s[10]!; this.xLen = s[11]!;
    this.feLine = s[12]!; this.feIter = s[13]!;
    this.cap = st.cap; this.mask = st.cap - 1;
    const a = st.arrays.map((x) => x.slice());
    this.rLoaded = a[0] as Int32Array; this.rAssigned = a[1] as Int32Array; this.rUopPort = a[2] as Int32Array;
    this.rStart = a[3] as Int32Array; this.rStatus = a[4] as Uint8Array; this.rDepWait = a[5] as Int32Array;
    this.rPortBlock = a[6] as Int32Array; this.usage = a[7] as Float64Array;
    this.order = a[8] as Int32Array; this.portCount = a[9] as Int32Array; this.had = a[10] as Float64Array;
    this.indexOrder();
    this.caused = a[11] as Float64Array; this.portUse = a[12] as Float64Array; this.divUse = a[13] as Float64Array;
    this.predBlame = a[14] as Float64Array; this.portWas = a[15] as Float64Array; this.portCaused = a[16] as Float64Array;
    this.wList = a[17] as Int32Array; this.xList = a[18] as Int32Array;
    this.rNext = a[19] as Int32Array; this.rAcc = a[20] as Int32Array;
    this.rLine = a[21] as Int32Array; this.rIter = a[22] as Int32Array;
    this.hold = st.hold.slice();
    this.holdCap = st.holdCap;
    this.sizeBlamed();
  }
}
