// The simulation core: SUACA's scheduler model (thesis ch. 3, Algorithms 3–7 and §3.6) on typed
// arrays. Instances (line, iteration) are numbered g = iteration·n + line; only the ones between
// the oldest unfinished instance and the front end live in a ring buffer, so memory does not grow
// with the number of iterations. Pure and deterministic.

import type { MachineParams, SimConfig, SimProgram } from './types.js';

/** Interpretation choices the thesis leaves open (fixed defaults; tests document why). */
export interface ModelOptions {
  /** when an instance's µops leave the reservation station: when it finishes executing
   *  (Algorithm 6 removes it from the queue) or when it starts */
  rsRelease: 'finish' | 'dispatch';
  /** order among ports of equal use in port_queue (Algorithm 5) */
  tieBreak: 'stable' | 'lru' | 'number' | 'numberDesc';
  /** Algorithm 4 line 5: blame every direct predecessor, or only those not resolved yet */
  blame: 'unresolved' | 'all';
  /** when port_queue is re-sorted: after every assignment or once per cycle */
  resort: 'each' | 'cycle';
}

export const DEFAULT_MODEL: ModelOptions = { rsRelease: 'finish', tieBreak: 'number', blame: 'unresolved', resort: 'each' };

export const ST_NONE = 0;
export const ST_LOADING = 1;
export const ST_WAIT_DEP = 2;
export const ST_WAIT_PORT = 3;
export const ST_EXEC = 4;
export const ST_DONE = 5;

/** Static, precomputed view of the program. */
export class CompiledProgram {
  readonly n: number;
  readonly P: number;
  readonly portIds: number[];
  readonly maxU: number;
  readonly uops: Int32Array;
  readonly uopMask: Int32Array;        // n*maxU: bitmask over port indices
  readonly lat: Int32Array;
  readonly div: Int32Array;
  readonly divUop: Int32Array;         // which µop uses the divider (-1 none)
  readonly divPort: number;            // port index of the divider (-1 if absent)
  // distinct predecessors per consumer line, grouped: predStart[i]..predStart[i+1]
  readonly predStart: Int32Array;
  readonly predLine: Int32Array;
  readonly predLC: Uint8Array;
  readonly predLat: Int32Array;
  /** per pred entry: the dependency indices of program.deps it stands for */
  readonly predDeps: number[][];
  readonly totalUops: number;

  constructor(program: SimProgram, machine: MachineParams) {
    const ins = program.instructions;
    const n = ins.length;
    this.n = n;
    this.portIds = [...machine.ports].sort((a, b) => a - b);
    // ports a µop names that the machine does not list still need a slot
    for (const x of ins) for (const u of x.uops) for (const p of u) if (!this.portIds.includes(p)) this.portIds.push(p);
    this.portIds.sort((a, b) => a - b);
    if (this.portIds.length > 30) throw new Error('too many ports for the engine (max 30)');
    const P = this.portIds.length;
    this.P = P;
    const pidx = new Map<number, number>();
    this.portIds.forEach((p, k) => pidx.set(p, k));
    let maxU = 1;
    // a µop that names no port cannot be placed: it is treated as not using a port
    const uopsOf = ins.map((x) => x.uops.filter((u) => u.length > 0));
    for (const u of uopsOf) maxU = Math.max(maxU, u.length);
    this.maxU = maxU;
    this.uops = new Int32Array(n);
    this.uopMask = new Int32Array(n * maxU);
    this.lat = new Int32Array(n);
    this.div = new Int32Array(n);
    this.divUop = new Int32Array(n).fill(-1);
    this.divPort = pidx.get(machine.dividerPort) ?? -1;
    let total = 0;
    ins.forEach((x, i) => {
      const xu = uopsOf[i]!;
      this.uops[i] = xu.length;
      total += xu.length;
      xu.forEach((ports, u) => {
        let m = 0;
        for (const p of ports) m |= 1 << (pidx.get(p) as number);
        this.uopMask[i * maxU + u] = m;
      });
      this.lat[i] = Math.max(1, x.latency);
      if (x.divCycles > 0 && this.divPort >= 0) {
        this.div[i] = x.divCycles;
        // §3.6: the µop that uses the divider port exclusively; else the first that may use it
        const bit = 1 << this.divPort;
        let k = xu.findIndex((_, u) => this.uopMask[i * maxU + u] === bit);
        if (k < 0) k = xu.findIndex((_, u) => (this.uopMask[i * maxU + u]! & bit) !== 0);
        this.divUop[i] = k;
        if (k < 0) this.div[i] = 0;
      }
    });
    this.totalUops = total;
    // group dependencies by consumer and distinct producer instance (line, loop-carried)
    const groups: { line: number; lc: boolean; lat: number; deps: number[] }[][] = Array.from({ length: n }, () => []);
    program.deps.forEach((d, di) => {
      if (d.from < 0 || d.from >= n || d.to < 0 || d.to >= n) return;
      // an in-iteration dependency on a later (or the same) line can only mean the previous iteration
      const lc = d.loopCarried || d.from >= d.to;
      const prod = ins[d.from]!;
      const own = Math.max(1, prod.latency);
      const byRes = prod.latencyByResource[d.resource];
      const l = Math.min(own, Math.max(1, byRes === undefined ? own : byRes));
      const list = groups[d.to]!;
      let g = list.find((x) => x.line === d.from && x.lc === lc);
      if (!g) { g = { line: d.from, lc, lat: 0, deps: [] }; list.push(g); }
      g.lat = Math.max(g.lat, l);
      g.deps.push(di);
    });
    let E = 0;
    for (const l of groups) E += l.length;
    this.predStart = new Int32Array(n + 1);
    this.predLine = new Int32Array(E);
    this.predLC = new Uint8Array(E);
    this.predLat = new Int32Array(E);
    this.predDeps = [];
    let e = 0;
    groups.forEach((list, i) => {
      this.predStart[i] = e;
      list.sort((a, b) => (a.lc === b.lc ? a.line - b.line : a.lc ? -1 : 1));
      for (const g of list) {
        this.predLine[e] = g.line; this.predLC[e] = g.lc ? 1 : 0; this.predLat[e] = g.lat;
        this.predDeps.push(g.deps);
        e++;
      }
    });
    this.predStart[n] = e;
  }
}

/** Saved state of a Core (for checkpoints). */
export interface CoreState {
  scalars: Float64Array;
  arrays: (Int32Array | Uint8Array | Float64Array)[];
  holders: number[][];
  cap: number;
}

export class Core {
  readonly cp: CompiledProgram;
  readonly iterations: number;
  readonly N: number;
  readonly feWidth: number;
  readonly rsCap: number;
  readonly portCap: number;
  readonly noDeps: boolean;
  readonly model: ModelOptions;

  // dynamic scalars
  cycle = 0;
  head = 0;
  fe = 0;
  feLoaded = 0;
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
  rFreed!: Uint8Array;     // its µops already left the station

  // ports
  usage: Float64Array;
  order: Int32Array;
  portCount: Int32Array;
  holders: number[][];     // instances holding each port this cycle (kept until the next cycle)

  // statistics (counts; divided by iterations when read)
  had: Float64Array;
  caused: Float64Array;
  portUse: Float64Array;   // n*P
  divUse: Float64Array;
  predBlame: Float64Array; // per pred entry: cycles the consumer waited with this producer blamed
  portWas: Float64Array;   // n*P: line delayed with port p blamed
  portCaused: Float64Array;// n*P: line, holding port p, delayed others

  private blamed: number[] = [];

  constructor(program: SimProgram, machine: MachineParams, config: SimConfig, model: ModelOptions = DEFAULT_MODEL, compiled?: CompiledProgram) {
    this.cp = compiled ?? new CompiledProgram(program, machine);
    const v = config.variant;
    this.iterations = Math.max(1, Math.floor(config.iterations));
    this.N = this.cp.n * this.iterations;
    this.rsCap = Math.max(1, v.rsSize ?? machine.rsSize);
    this.feWidth = v.perfectFrontEnd ? this.rsCap : Math.max(1, v.issueWidth ?? machine.issueWidth);
    this.portCap = v.infinitePorts ? Number.POSITIVE_INFINITY : Math.max(1, v.portCapacity ?? 1);
    this.noDeps = v.noDependencies;
    this.model = model;
    const { n, P } = this.cp;
    this.usage = new Float64Array(P);
    this.order = new Int32Array(P);
    for (let k = 0; k < P; k++) this.order[k] = model.tieBreak === 'numberDesc' ? P - 1 - k : k;
    this.portCount = new Int32Array(P);
    this.holders = Array.from({ length: P }, () => []);
    this.had = new Float64Array(n);
    this.caused = new Float64Array(n);
    this.portUse = new Float64Array(n * P);
    this.divUse = new Float64Array(n);
    this.predBlame = new Float64Array(this.cp.predLine.length);
    this.portWas = new Float64Array(n * P);
    this.portCaused = new Float64Array(n * P);
    this.allocRing(64);
  }

  get finished(): boolean { return this.completed >= this.N; }

  private allocRing(cap: number): void {
    const old = this.cap > 0 ? {
      l: this.rLoaded, a: this.rAssigned, u: this.rUopPort, s: this.rStart, st: this.rStatus,
      d: this.rDepWait, p: this.rPortBlock, f: this.rFreed, mask: this.mask,
    } : null;
    const maxU = this.cp.maxU;
    this.rLoaded = new Int32Array(cap);
    this.rAssigned = new Int32Array(cap);
    this.rUopPort = new Int32Array(cap * maxU).fill(-1);
    this.rStart = new Int32Array(cap).fill(-1);
    this.rStatus = new Uint8Array(cap);
    this.rDepWait = new Int32Array(cap);
    this.rPortBlock = new Int32Array(cap);
    this.rFreed = new Uint8Array(cap);
    const newMask = cap - 1;
    if (old) {
      for (let g = this.head; g <= this.fe && g < this.N; g++) {
        const a = g & old.mask, b = g & newMask;
        this.rLoaded[b] = old.l[a]!; this.rAssigned[b] = old.a[a]!; this.rStart[b] = old.s[a]!;
        this.rStatus[b] = old.st[a]!; this.rDepWait[b] = old.d[a]!; this.rPortBlock[b] = old.p[a]!;
        this.rFreed[b] = old.f[a]!;
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
    this.rDepWait[s] = 0; this.rPortBlock[s] = 0; this.rFreed[s] = 0;
    const maxU = this.cp.maxU;
    this.rUopPort.fill(-1, s * maxU, s * maxU + maxU);
  }

  /** Is instance g at least partially loaded (in the station or beyond)? */
  isLoaded(g: number): boolean {
    return g < this.fe || (g === this.fe && this.feLoaded > 0);
  }

  /** Perform one cycle (Algorithm 7). */
  step(): void {
    if (this.finished) return;
    this.cycle++;
    for (let p = 0; p < this.cp.P; p++) { this.portCount[p] = 0; this.holders[p]!.length = 0; }
    if (this.model.resort === 'cycle') for (let p = 0; p < this.cp.P; p++) this.resortPort(p);
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
      const i = g % cp.n;
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
      if (this.feLoaded >= u) { this.fe++; this.feLoaded = 0; } else break;
    }
  }

  /** Algorithms 4 and 5 (+ §3.6): walk the station in program order. */
  private choosePorts(): void {
    const cp = this.cp;
    const n = cp.n;
    const c = this.cycle;
    const maxU = cp.maxU;
    const P = cp.P;
    for (let g = this.head; g < this.fe || (g === this.fe && this.feLoaded > 0); g++) {
      const s = g & this.mask;
      if (this.rStart[s]! >= 0) continue;              // executing or done: nothing to choose
      const i = g % n;
      const k = (g - i) / n;
      this.rPortBlock[s] = 0;
      this.rDepWait[s] = 0;
      // dependencies
      if (!this.noDeps) {
        let waitMask = 0;
        const e0 = cp.predStart[i]!, e1 = cp.predStart[i + 1]!;
        for (let e = e0; e < e1; e++) {
          let pg: number;
          if (cp.predLC[e]) { if (k === 0) continue; pg = (k - 1) * n + cp.predLine[e]!; }
          else pg = k * n + cp.predLine[e]!;
          if (pg < this.head) continue;                 // finished long ago
          const st = this.rStart[pg & this.mask]!;
          if (st < 0 || st + cp.predLat[e]! > c) waitMask |= 1 << Math.min(e - e0, 30);
        }
        if (waitMask !== 0) {
          this.had[i]!++;
          for (let e = e0; e < e1; e++) {
            const unresolved = (waitMask & (1 << Math.min(e - e0, 30))) !== 0;
            if (!unresolved && this.model.blame === 'unresolved') continue;
            if (cp.predLC[e] && k === 0) continue;
            this.caused[cp.predLine[e]!]!++;
            this.predBlame[e]!++;
          }
          this.rDepWait[s] = waitMask;
          this.rStatus[s] = ST_WAIT_DEP;
          continue;
        }
      }
      // ports
      const loaded = this.rLoaded[s]!;
      let ok = loaded === cp.uops[i]!;
      let blocked = 0;
      for (let u = 0; u < loaded; u++) {
        if (this.rUopPort[s * maxU + u]! >= 0) continue;
        const p = this.assign(g, i, u);
        if (p < 0) { ok = false; blocked |= this.lastBlocked; continue; }
        this.rUopPort[s * maxU + u] = p;
        this.rAssigned[s]!++;
        this.portUse[i * P + p]!++;
        this.uopsAssigned++;
      }
      if (ok) {
        this.rStart[s] = c;
        this.rStatus[s] = ST_EXEC;
        if (this.model.rsRelease === 'dispatch') { this.rsUsed -= cp.uops[i]!; this.rFreed[s] = 1; }
        continue;
      }
      this.rPortBlock[s] = blocked;
      this.rStatus[s] = blocked !== 0 ? ST_WAIT_PORT : ST_LOADING;
      if (blocked !== 0) {
        const bl = this.blamed;
        bl.length = 0;
        for (let p = 0; p < P; p++) {
          if ((blocked & (1 << p)) === 0) continue;
          const hs = this.holders[p]!;
          for (let h = 0; h < hs.length; h++) this.blame(hs[h]!, g, i, p, bl);
        }
        if ((blocked & (1 << 30)) !== 0 && this.divOwner >= 0) this.blame(this.divOwner, g, i, cp.divPort, bl);
      }
      this.had[i]!++;
    }
  }

  private blame(holder: number, g: number, i: number, p: number, bl: number[]): void {
    if (holder === g || bl.includes(holder)) return;
    bl.push(holder);
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
    const c = this.cycle;
    const P = cp.P;
    let blocked = 0;
    for (let q = 0; q < P; q++) {
      const p = this.order[q]!;
      if ((m & (1 << p)) === 0) continue;
      if (isDiv && p === cp.divPort && this.divBusyUntil >= c && this.divOwner !== g) { blocked |= 1 << 30; continue; }
      if (this.portCount[p]! < this.portCap) {
        this.take(g, p);
        if (isDiv && p === cp.divPort) {
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
      if (isDiv && p === cp.divPort && this.divBusyUntil >= c && this.divOwner !== g) continue;
      const hs = this.holders[p]!;
      let own = hs.length > 0;
      for (let h = 0; h < hs.length; h++) if (hs[h] !== g) { own = false; break; }
      if (own) { this.take(g, p); return p; }
    }
    this.lastBlocked = blocked;
    return -1;
  }

  private take(g: number, p: number): void {
    this.portCount[p]!++;
    this.holders[p]!.push(g);
    this.usage[p]!++;
    if (this.model.resort === 'each') this.resortPort(p);
  }

  /** keep port_queue sorted by use after port p's use grew */
  private resortPort(p: number): void {
    const order = this.order;
    let q = 0;
    while (order[q] !== p) q++;
    const u = this.usage[p]!;
    const tb = this.model.tieBreak;
    while (q + 1 < order.length) {
      const o = order[q + 1]!;
      const uo = this.usage[o]!;
      const after = tb === 'stable' ? uo < u : tb === 'lru' ? uo <= u : tb === 'number' ? (uo < u || (uo === u && o < p)) : (uo < u || (uo === u && o > p));
      if (!after) break;
      order[q] = o; order[q + 1] = p; q++;
    }
  }

  /** Algorithm 6: advance executing instances, finish those that reached their latency. */
  private execute(): void {
    const cp = this.cp;
    const n = cp.n;
    const c = this.cycle;
    for (let g = this.head; g < this.fe || (g === this.fe && this.feLoaded > 0); g++) {
      const s = g & this.mask;
      const st = this.rStart[s]!;
      if (st < 0 || this.rStatus[s] === ST_DONE) continue;
      const i = g % n;
      if (c - st + 1 >= cp.lat[i]!) {
        this.rStatus[s] = ST_DONE;
        this.completed++;
        if (!this.rFreed[s]) { this.rsUsed -= cp.uops[i]!; this.rFreed[s] = 1; }
      }
    }
    while (this.head < this.fe && this.rStatus[this.head & this.mask] === ST_DONE) this.head++;
  }

  runToEnd(): void {
    // guard against a program that cannot progress (should not happen)
    let idle = 0;
    let lastCompleted = this.completed;
    while (!this.finished) {
      this.step();
      if (this.completed === lastCompleted) { if (++idle > 1_000_000) throw new Error('engine made no progress for 1,000,000 cycles'); }
      else { idle = 0; lastCompleted = this.completed; }
    }
  }

  save(): CoreState {
    const scalars = Float64Array.of(this.cycle, this.head, this.fe, this.feLoaded, this.rsUsed, this.divBusyUntil,
      this.divOwner, this.completed, this.loadedThisCycle, this.uopsAssigned);
    return {
      scalars,
      cap: this.cap,
      arrays: [this.rLoaded, this.rAssigned, this.rUopPort, this.rStart, this.rStatus, this.rDepWait, this.rPortBlock,
        this.rFreed, this.usage, this.order, this.portCount, this.had, this.caused, this.portUse, this.divUse,
        this.predBlame, this.portWas, this.portCaused].map((a) => a.slice()),
      holders: this.holders.map((h) => h.slice()),
    };
  }

  restore(st: CoreState): void {
    const s = st.scalars;
    this.cycle = s[0]!; this.head = s[1]!; this.fe = s[2]!; this.feLoaded = s[3]!; this.rsUsed = s[4]!;
    this.divBusyUntil = s[5]!; this.divOwner = s[6]!; this.completed = s[7]!; this.loadedThisCycle = s[8]!;
    this.uopsAssigned = s[9]!;
    this.cap = st.cap; this.mask = st.cap - 1;
    const a = st.arrays.map((x) => x.slice());
    this.rLoaded = a[0] as Int32Array; this.rAssigned = a[1] as Int32Array; this.rUopPort = a[2] as Int32Array;
    this.rStart = a[3] as Int32Array; this.rStatus = a[4] as Uint8Array; this.rDepWait = a[5] as Int32Array;
    this.rPortBlock = a[6] as Int32Array; this.rFreed = a[7] as Uint8Array; this.usage = a[8] as Float64Array;
    this.order = a[9] as Int32Array; this.portCount = a[10] as Int32Array; this.had = a[11] as Float64Array;
    this.caused = a[12] as Float64Array; this.portUse = a[13] as Float64Array; this.divUse = a[14] as Float64Array;
    this.predBlame = a[15] as Float64Array; this.portWas = a[16] as Float64Array; this.portCaused = a[17] as Float64Array;
    this.holders = st.holders.map((h) => h.slice());
  }
}
