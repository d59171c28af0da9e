// The program as the core reads it: µops as port bitmasks, latencies, the divider µop, and the
// dependencies grouped per consumer line and distinct producer (line, previous iteration or not),
// with the reverse lists for waking consumers. Built once per engine; pure.

import type { MachineParams, SimDep, SimProgram } from './types.js';
import type { MechanismSet } from './mechanisms.js';
import { refinePlan } from './refine.js';
import type { MemoryDep } from './refine.js';
import { frontEndPlan } from './frontEndPlan.js';
import type { FrontEndLimits } from './frontEndPlan.js';

/** A figure stored in an Int32Array: checked, never wrapped around (the data layer bounds every
 *  figure far below this, see src/data/limits.ts; this guards the engine's own arithmetic). */
function int32(v: number, what: string): number {
  if (!(v >= 0 && v <= 0x7fffffff)) throw new RangeError(`${what} ${v} does not fit the engine's 32-bit counters`);
  return v;
}

/** Fields of a CompiledProgram that only the report and the explorer's snapshots read: never the
 *  core, its units, the recorder or the statistics simulate() returns (test/sim/runKey.test.ts runs
 *  with them made unreadable). engineKey() leaves them out; of `frontEnd` it keeps the plan. */
export const NOT_SIMULATED: ReadonlySet<string> = new Set(['deps', 'predDeps', 'memDeps', 'portsRemoved', 'fusedWithNext']);

/** JSON of typed arrays, non-finite numbers and -0 that keeps them apart from anything else. */
export function exactJson(_k: string, v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return { typed: v.constructor.name, v: Array.from(v as unknown as ArrayLike<number>) };
  if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) return { number: Object.is(v, -0) ? '-0' : String(v) };
  return v;
}

/** Static, precomputed view of the program. */
export class CompiledProgram {
  readonly n: number;
  readonly P: number;
  readonly portIds: number[];
  readonly maxU: number;
  readonly uops: Int32Array;
  readonly uopMask: Int32Array;        // n*maxU: bitmask over port indices
  readonly uopSingle: Int32Array;      // n*maxU: the port index when the µop may use only one port, else -1
  readonly lat: Int32Array;
  readonly div: Int32Array;
  readonly divUop: Int32Array;         // which µop uses the divider (-1 none)
  readonly divPort: number;            // port index of the divider (-1 if absent)
  /** per instruction: the port index its divider µop blocks (the machine's divider port, or the
   *  port of a division none of whose µops may use it, e.g. ADL-P's integer DIV on p1); -1: none */
  readonly divPortOf: Int32Array;
  // distinct predecessors per consumer line, grouped: predStart[i]..predStart[i+1]
  readonly predStart: Int32Array;
  readonly predLine: Int32Array;
  readonly predLC: Uint8Array;
  readonly predLat: Int32Array;
  /** per pred entry: the dependency indices of program.deps it stands for */
  readonly predDeps: number[][];
  readonly totalUops: number;
  // per producer line: the pred entries (of consumer lines) it stands for
  readonly succStart: Int32Array;
  readonly succPred: Int32Array;     // pred entry index e (consumer line = predOwner[e])
  readonly predOwner: Int32Array;    // consumer line of pred entry e
  /** the dependencies the pred entries stand for (predDeps index them): the program's, or with the
   *  refined model's execution-side mechanisms (refine.ts) those minus broken inputs plus 'MEM' */
  readonly deps: SimDep[];
  /** per line: how it is handled at rename (refine.ts RENAME_*: 0 none, 1 always executed at
   *  rename — no port, no latency —, 2 move-elimination candidate). Such a line keeps its µops in
   *  `uops`, so it still costs its front-end issue slot (the front end's business); the scheduler
   *  starts it without ports and it releases its consumers in the cycle it starts. */
  readonly renamed: Uint8Array;
  /** some line has renamed ≠ 0 */
  readonly anyRenamed: boolean;
  /** the dependencies through memory store-to-load forwarding added (refine.ts), for the report */
  readonly memDeps: MemoryDep[];
  /** the µops whose simple store-address port the load/store port rule removed, for the report */
  readonly portsRemoved: { line: number; uop: number; port: number }[];

  // ---- the refined model's front end (all off: SUACA's model, none of this is read) ----
  /** per line: 1 when it is the first half of a macro-fused pair (mechanism macroFusion on): the
   *  pair is one µop on this line, the Jcc on the next line has none */
  readonly fusedWithNext: Uint8Array;
  /** per line: fused-domain µops it takes at issue (microFusion on: the facts' fusedUops; off:
   *  one per unfused µop) */
  readonly fused: Int32Array;
  /** per line × fused µop f: unfused µops entered once f + 1 of its fused µops issued */
  readonly fusedCum: Int32Array;
  readonly maxF: number;
  /** the front end counts fused-domain µops or has delivery limits (microFusion or frontEnd on) */
  readonly refinedIssue: boolean;
  /** the front end's delivery plan and the limits it applies (frontEnd on; else null) */
  readonly frontEnd: FrontEndLimits | null;

  constructor(program: SimProgram, machine: MachineParams, mechanisms?: Partial<MechanismSet>) {
    const plan = refinePlan(program, mechanisms);
    const ins = program.instructions;
    const n = ins.length;
    this.deps = plan ? plan.deps : program.deps;
    this.renamed = plan ? plan.renamed : new Uint8Array(n);
    this.anyRenamed = this.renamed.some((r) => r !== 0);
    this.memDeps = plan ? plan.memDeps : [];
    this.portsRemoved = plan ? plan.portsRemoved : [];
    // macro-fusion: the pair becomes one µop on the first line, on the Jcc's ports (a
    // load of the first half stays its own unfused µop); the Jcc has no µop; its flag dependency
    // on the first half is internal to the pair
    this.fusedWithNext = new Uint8Array(n);
    const base = plan ? plan.uops : ins.map((x) => x.uops);
    let uopLists = base;
    let internal: ((d: SimDep) => boolean) | null = null;
    if (mechanisms?.macroFusion) {
      for (let i = 1; i < n; i++) {
        const a = ins[i - 1]!, b = ins[i]!;
        if (!b.refined?.macroFusion.fusesWithPrevious || !a.refined || this.fusedWithNext[i - 2]) continue;
        const branch = base[i]!.filter((u) => u.length > 0);
        if (branch.length === 0) continue;     // no data for the Jcc: nothing to fuse onto
        this.fusedWithNext[i - 1] = 1;
      }
      if (this.fusedWithNext.some((x) => x === 1)) {
        uopLists = ins.map((x, i) => {
          if (this.fusedWithNext[i]) {
            const loads = new Set(x.refined!.memory?.loadUops ?? []);
            return [...base[i]!.filter((_, u) => loads.has(u)), ...base[i + 1]!.filter((u) => u.length > 0)];
          }
          return i > 0 && this.fusedWithNext[i - 1] ? [] : base[i]!;
        });
        const fw = this.fusedWithNext;
        internal = (d) => d.to === d.from + 1 && !d.loopCarried && fw[d.from] === 1;
      }
    }
    this.n = n;
    this.portIds = [...machine.ports].sort((a, b) => a - b);
    // ports a µop names that the machine does not list still need a slot
    const insUops = plan ? plan.uops : ins.map((x) => x.uops);
    for (const xu of insUops) for (const u of xu) for (const p of u) if (!this.portIds.includes(p)) this.portIds.push(p);
    this.portIds.sort((a, b) => a - b);
    if (this.portIds.length > 30) throw new Error('too many ports for the engine (max 30)');
    const P = this.portIds.length;
    this.P = P;
    const pidx = new Map<number, number>();
    this.portIds.forEach((p, k) => { pidx.set(p, k); });
    let maxU = 1;
    // a µop that names no port cannot be placed: it is treated as not using a port
    const uopsOf = uopLists.map((x) => x.filter((u) => u.length > 0));
    for (const u of uopsOf) maxU = Math.max(maxU, u.length);
    this.maxU = maxU;
    this.uops = new Int32Array(n);
    this.uopMask = new Int32Array(n * maxU);
    this.lat = new Int32Array(n);
    this.div = new Int32Array(n);
    this.divUop = new Int32Array(n).fill(-1);
    this.divPort = pidx.get(machine.dividerPort) ?? -1;
    this.divPortOf = new Int32Array(n).fill(-1);
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
      this.lat[i] = int32(Math.max(1, x.latency), 'latency');
      if (x.divCycles > 0) {
        this.div[i] = int32(x.divCycles, 'divider cycles');
        // §3.6: the µop that uses the divider port exclusively; else the first that may use it
        let port = this.divPort;
        const bit = 1 << port;
        let k = port < 0 ? -1 : xu.findIndex((_, u) => this.uopMask[i * maxU + u] === bit);
        if (k < 0 && port >= 0) k = xu.findIndex((_, u) => (this.uopMask[i * maxU + u]! & bit) !== 0);
        if (k < 0) {
          // a division none of whose µops may use the machine's divider port (the data places
          // it elsewhere): its divider is behind the port of its first single-port µop
          k = xu.findIndex((_, u) => { const m = this.uopMask[i * maxU + u]!; return m !== 0 && (m & (m - 1)) === 0; });
          port = k < 0 ? -1 : Math.log2(this.uopMask[i * maxU + k]!);
        }
        this.divUop[i] = k;
        this.divPortOf[i] = port;
        if (k < 0) this.div[i] = 0;
      }
    });
    this.totalUops = total;
    this.uopSingle = new Int32Array(n * maxU).fill(-1);
    for (let x = 0; x < n * maxU; x++) {
      const m = this.uopMask[x]!;
      if (m !== 0 && (m & (m - 1)) === 0) this.uopSingle[x] = 31 - Math.clz32(m);
    }
    // group dependencies by consumer and distinct producer instance (line, loop-carried)
    const groups: { line: number; lc: boolean; lat: number; deps: number[] }[][] = Array.from({ length: n }, () => []);
    const memFrom = plan ? plan.memFrom : this.deps.length;
    this.deps.forEach((d, di) => {
      if (internal?.(d)) return;
      if (d.from < 0 || d.from >= n || d.to < 0 || d.to >= n) return;
      // an in-iteration dependency on a later (or the same) line can only mean the previous iteration
      const lc = d.loopCarried || d.from >= d.to;
      const prod = ins[d.from]!;
      const own = Math.max(1, prod.latency);
      const byRes = prod.latencyByResource[d.resource];
      const early = ins[d.to]!.readAdvance?.[d.resource] ?? 0;
      const l = di >= memFrom ? plan!.memDeps[di - memFrom]!.latency
        : Math.max(1, Math.min(own, Math.max(1, byRes === undefined ? own : byRes)) - early);
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
        this.predLine[e] = g.line; this.predLC[e] = g.lc ? 1 : 0; this.predLat[e] = int32(g.lat, 'latency');
        this.predDeps.push(g.deps);
        e++;
      }
    });
    this.predStart[n] = e;
    this.predOwner = new Int32Array(E);
    for (let i = 0; i < n; i++) for (let x = this.predStart[i]!; x < this.predStart[i + 1]!; x++) this.predOwner[x] = i;
    const byProd: number[][] = Array.from({ length: n }, () => []);
    for (let x = 0; x < E; x++) byProd[this.predLine[x]!]!.push(x);
    this.succStart = new Int32Array(n + 1);
    this.succPred = new Int32Array(E);
    let q = 0;
    byProd.forEach((list, j) => { this.succStart[j] = q; for (const x of list) this.succPred[q++] = x; });
    this.succStart[n] = q;
    // fused-domain µops per line and how a line's unfused µops ride on them: the first
    // (unfused − fused) fused µops carry two unfused ones (load + operation, store-address +
    // store-data; the last carries any rest), the others one; fused µops beyond the unfused ones
    // (e.g. a NOP, no port) carry none
    this.fused = new Int32Array(n);
    let maxF = 1;
    for (let i = 0; i < n; i++) {
      const u = this.uops[i]!;
      let f = u;
      const facts = ins[i]!.refined?.microFusion;
      if (mechanisms?.microFusion) {
        f = facts === undefined ? u : i > 0 && this.fusedWithNext[i - 1] ? 0 : facts.fusedUops;
      } else if (mechanisms?.frontEnd && facts !== undefined && !(i > 0 && this.fusedWithNext[i - 1])) {
        // no micro-fusion, but the fused domain is counted (the front end): every unfused µop is a
        // slot, and an instruction the reorder buffer executes (a zero idiom) still takes its one
        f = Math.max(u, facts.fusedUops);
      }
      this.fused[i] = f;
      if (f > maxF) maxF = f;
    }
    this.maxF = maxF;
    this.fusedCum = new Int32Array(n * maxF);
    for (let i = 0; i < n; i++) {
      const u = this.uops[i]!, f = this.fused[i]!;
      const extra = Math.max(0, u - f);
      for (let k = 0; k < f; k++) this.fusedCum[i * maxF + k] = k === f - 1 ? u : Math.min(u, k + 1 + Math.min(extra, k + 1));
    }
    this.refinedIssue = mechanisms?.microFusion === true || mechanisms?.frontEnd === true;
    this.frontEnd = mechanisms?.frontEnd ? frontEndPlan(program, machine, this.fused, this.fusedWithNext) : null;
  }

  /** Everything the simulation reads of this compiled program, as a string: every field (a field
   *  added later is in it unless named in NOT_SIMULATED), the front end's plan. Two programs
   *  compiled from the same program and machine with the same key simulate alike. */
  engineKey(): string {
    const fields: [string, unknown][] = [];
    for (const [k, v] of Object.entries(this)) {
      if (NOT_SIMULATED.has(k)) continue;
      fields.push([k, k === 'frontEnd' ? (v as FrontEndLimits | null)?.plan ?? null : v]);
    }
    return JSON.stringify(fields, exactJson);
  }
}

/**
 * The fewest reservation-station entries the program can run with: the refined front end issues
 * a fused µop only when the station has room for every unfused µop it carries (a micro-fused
 * load and operation enter together), so a station smaller than that never takes the line; the
 * SUACA front end loads µop by µop, so one entry is enough. The line that needs the most.
 */
export function stationNeed(cp: CompiledProgram): { line: number; entries: number } {
  let best = { line: 0, entries: 1 };
  if (!cp.refinedIssue) return best;
  for (let i = 0; i < cp.n; i++) {
    let before = 0;
    for (let k = 0; k < cp.fused[i]!; k++) {
      const after = cp.fusedCum[i * cp.maxF + k]!;
      if (after - before > best.entries) best = { line: i, entries: after - before };
      before = after;
    }
    // an instruction without fused µops (a fused-away Jcc) enters with all its µops at once
    if (cp.fused[i] === 0 && cp.uops[i]! > best.entries) best = { line: i, entries: cp.uops[i]! };
  }
  return best;
}
