// The program as the core reads it: µops as port bitmasks, latencies, the divider µop, and the
// dependencies grouped per consumer line and distinct producer (line, previous iteration or not),
// with the reverse lists for waking consumers. Built once per engine; pure.

import type { MachineParams, SimDep, SimInstruction, SimProgram } from './types.js';
import type { MechanismSet } from './mechanisms.js';
import { refinePlan } from './refine.js';
import type { MemoryDep } from './refine.js';
import { frontEndPlan } from './frontEndPlan.js';
import { queuesOf } from './units/queues.js';
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
export const NOT_SIMULATED: ReadonlySet<string> = new Set(['deps', 'predDeps', 'memDeps', 'portsRemoved']);

/** JSON of typed arrays, non-finite numbers and -0 that keeps them apart from anything else. */
export function exactJson(_k: string, v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return { typed: v.constructor.name, v: Array.from(v as unknown as ArrayLike<number>) };
  if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)))
    return { number: Object.is(v, -0) ? '-0' : String(v) };
  return v;
}

/** Static, precomputed view of the program. */
export class CompiledProgram {
  readonly n: number;
  readonly P: number;
  readonly portIds: number[];
  readonly maxU: number;
  readonly uops: Int32Array;
  readonly uopMask: Int32Array; // n*maxU: bitmask over port indices
  readonly uopSingle: Int32Array; // n*maxU: the port index when the µop may use only one port, else -1
  /** n*maxU: cycles the µop holds the port it takes (0 or 1: that cycle only; SimInstruction.portHold) */
  readonly uopHold: Int32Array;
  /** some µop holds its port more than one cycle */
  readonly anyHold: boolean;
  readonly lat: Int32Array;
  readonly div: Int32Array;
  readonly divUop: Int32Array; // which µop uses the divider (-1 none)
  readonly divPort: number; // port index of the divider (-1 if absent)
  /** per instruction: the port index its divider µop blocks (the machine's divider port, or the
   *  port of a division none of whose µops may use it, e.g. ADL-P's integer DIV on p1); -1: none */
  readonly divPortOf: Int32Array;
  // distinct predecessors per consumer line, grouped: predStart[i]..predStart[i+1]
  readonly predStart: Int32Array;
  readonly predLine: Int32Array;
  readonly predLC: Uint8Array;
  readonly predLat: Int32Array;
  /** per pred entry: the producer's latency less the consumer's read advance (operandLatency on:
   *  a register read late, such as a load-op form's register operand read after its load; may be
   *  negative); equal to predLat for every other entry */
  readonly predEff: Int32Array;
  /** per pred entry: 1 when it is read late (predEff < its latency; operandLatency on) */
  readonly predLate: Uint8Array;
  /** per line: 1 when some pred entry of it is read late */
  readonly lateReads: Uint8Array;
  /** some line reads a producer late (operandLatency on) */
  readonly anyLate: boolean;
  /** per pred entry: the dependency indices of program.deps it stands for */
  readonly predDeps: number[][];
  readonly totalUops: number;
  // per producer line: the pred entries (of consumer lines) it stands for
  readonly succStart: Int32Array;
  readonly succPred: Int32Array; // pred entry index e (consumer line = predOwner[e])
  readonly predOwner: Int32Array; // consumer line of pred entry e
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

  /** the names of the core's scheduler queues, then of its non-scheduling queues (empty: one
   *  station); the statistics' queue counters are in this order */
  readonly queueNames: string[];

  constructor(program: SimProgram, machine: MachineParams, mechanisms?: Partial<MechanismSet>) {
    const sq = queuesOf(machine);
    this.queueNames = sq ? [...sq.queues.map((q) => q.name), ...sq.nonScheduling.map((x) => x.name)] : [];
    const plan = refinePlan(program, mechanisms);
    const ins = program.instructions;
    const n = ins.length;
    this.n = n;
    this.deps = plan ? plan.deps : program.deps;
    this.renamed = plan ? plan.renamed : new Uint8Array(n);
    this.anyRenamed = this.renamed.some((r) => r !== 0);
    this.memDeps = plan ? plan.memDeps : [];
    this.portsRemoved = plan ? plan.portsRemoved : [];
    const base = plan ? plan.uops : ins.map((x) => x.uops);
    const fusion = macroFusion(ins, base, mechanisms?.macroFusion === true);
    this.fusedWithNext = fusion.fusedWithNext;
    this.portIds = portIdsOf(machine, base);
    this.P = this.portIds.length;
    const u = uopTables(ins, fusion.uops, this.portIds, machine.dividerPort);
    this.maxU = u.maxU;
    this.uops = u.uops;
    this.uopMask = u.uopMask;
    this.uopSingle = u.uopSingle;
    this.uopHold = u.uopHold;
    this.anyHold = u.uopHold.some((h) => h > 1);
    this.lat = u.lat;
    this.div = u.div;
    this.divUop = u.divUop;
    this.divPort = u.divPort;
    this.divPortOf = u.divPortOf;
    this.totalUops = u.totalUops;
    const d = dependencyTables(
      ins,
      this.deps,
      fusion.internal,
      plan ? plan.memFrom : this.deps.length,
      plan?.memDeps ?? [],
      mechanisms?.operandLatency === true,
    );
    this.predStart = d.predStart;
    this.predLine = d.predLine;
    this.predLC = d.predLC;
    this.predLat = d.predLat;
    this.predEff = d.predEff;
    this.predLate = d.predLate;
    this.lateReads = d.lateReads;
    this.anyLate = d.lateReads.some((x) => x !== 0);
    this.predDeps = d.predDeps;
    this.predOwner = d.predOwner;
    this.succStart = d.succStart;
    this.succPred = d.succPred;
    const f = fusedDomain(ins, this.uops, this.fusedWithNext, mechanisms);
    this.fused = f.fused;
    this.maxF = f.maxF;
    this.fusedCum = f.fusedCum;
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
      fields.push([k, k === 'frontEnd' ? ((v as FrontEndLimits | null)?.plan ?? null) : v]);
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

/** Macro-fusion: the pair becomes one µop on the first line, on the Jcc's ports (a load of the
 *  first half stays its own unfused µop); the Jcc has no µop; its flag dependency on the first
 *  half is internal to the pair. The µops per line after fusion and that internal dependency. */
function macroFusion(
  ins: SimInstruction[],
  base: number[][][],
  on: boolean,
): { fusedWithNext: Uint8Array; uops: number[][][]; internal: ((d: SimDep) => boolean) | null } {
  const n = ins.length;
  const fw = new Uint8Array(n);
  if (!on) return { fusedWithNext: fw, uops: base, internal: null };
  for (let i = 1; i < n; i++) {
    const a = ins[i - 1]!,
      b = ins[i]!;
    if (!b.refined?.macroFusion.fusesWithPrevious || !a.refined || fw[i - 2]) continue;
    const branch = base[i]!.filter((u) => u.length > 0);
    if (branch.length === 0) continue; // no data for the Jcc: nothing to fuse onto
    fw[i - 1] = 1;
  }
  if (!fw.some((x) => x === 1)) return { fusedWithNext: fw, uops: base, internal: null };
  const uops = ins.map((x, i) => {
    if (fw[i]) {
      const loads = new Set(x.refined!.memory?.loadUops ?? []);
      return [...base[i]!.filter((_, u) => loads.has(u)), ...base[i + 1]!.filter((u) => u.length > 0)];
    }
    return i > 0 && fw[i - 1] ? [] : base[i]!;
  });
  return { fusedWithNext: fw, uops, internal: (d) => d.to === d.from + 1 && !d.loopCarried && fw[d.from] === 1 };
}

/** The machine's ports, and the ports a µop names that the machine does not list (they still
 *  need a slot), sorted. */
function portIdsOf(machine: MachineParams, uops: number[][][]): number[] {
  const ids = [...machine.ports].sort((a, b) => a - b);
  for (const xu of uops) for (const u of xu) for (const p of u) if (!ids.includes(p)) ids.push(p);
  ids.sort((a, b) => a - b);
  if (ids.length > 30) throw new Error('too many ports for the engine (max 30)');
  return ids;
}

/** Per line: its µops as port masks, latency and divider use. */
function uopTables(ins: SimInstruction[], uopLists: number[][][], portIds: number[], dividerPort: number) {
  const n = ins.length;
  const pidx = new Map<number, number>();
  portIds.forEach((p, k) => {
    pidx.set(p, k);
  });
  let maxU = 1;
  // a µop that names no port cannot be placed: it is treated as not using a port
  const uopsOf = uopLists.map((x) => x.filter((u) => u.length > 0));
  for (const u of uopsOf) maxU = Math.max(maxU, u.length);
  const t = {
    maxU,
    uops: new Int32Array(n),
    uopMask: new Int32Array(n * maxU),
    uopSingle: new Int32Array(n * maxU).fill(-1),
    uopHold: new Int32Array(n * maxU),
    lat: new Int32Array(n),
    div: new Int32Array(n),
    divUop: new Int32Array(n).fill(-1),
    divPort: pidx.get(dividerPort) ?? -1,
    divPortOf: new Int32Array(n).fill(-1),
    totalUops: 0,
  };
  ins.forEach((x, i) => {
    const xu = uopsOf[i]!;
    t.uops[i] = xu.length;
    t.totalUops += xu.length;
    // a hold names its µops' port set: a µop whose ports another rule changed holds nothing
    const holds = (x.portHold ?? []).map((h) => ({
      m: h.ports.reduce((m, p) => (pidx.has(p) ? m | (1 << pidx.get(p)!) : m), 0),
      cycles: h.cycles,
    }));
    xu.forEach((ports, u) => {
      let m = 0;
      for (const p of ports) m |= 1 << (pidx.get(p) as number);
      t.uopMask[i * maxU + u] = m;
      for (const h of holds) if (h.m === m) t.uopHold[i * maxU + u] = int32(h.cycles, 'port hold cycles');
    });
    t.lat[i] = int32(Math.max(1, x.latency), 'latency');
    if (x.divCycles > 0) dividerOf(t, i, xu.length, x.divCycles);
  });
  for (let x = 0; x < n * maxU; x++) {
    const m = t.uopMask[x]!;
    if (m !== 0 && (m & (m - 1)) === 0) t.uopSingle[x] = 31 - Math.clz32(m);
  }
  return t;
}

/** §3.6: the µop of line i (of `count`) that uses the divider port exclusively; else, when the
 *  data places the division elsewhere, its first single-port µop (the divider is behind that port:
 *  Golden Cove's integer division is `3*p1`); else the first µop that may use the divider port. A
 *  µop of several ports holds the divider only when it runs on the divider's port, so a single-port
 *  µop comes first: the divider is then never passed by for another port. */
function dividerOf(
  t: { maxU: number; uopMask: Int32Array; div: Int32Array; divUop: Int32Array; divPort: number; divPortOf: Int32Array },
  i: number,
  count: number,
  cycles: number,
): void {
  t.div[i] = int32(cycles, 'divider cycles');
  const maskOf = (u: number): number => t.uopMask[i * t.maxU + u]!;
  const find = (f: (m: number) => boolean): number => {
    for (let u = 0; u < count; u++) if (f(maskOf(u))) return u;
    return -1;
  };
  let port = t.divPort;
  const bit = 1 << port;
  let k = port < 0 ? -1 : find((m) => m === bit);
  if (k < 0) {
    k = find((m) => m !== 0 && (m & (m - 1)) === 0);
    if (k >= 0) port = Math.log2(maskOf(k));
  }
  if (k < 0 && port >= 0) k = find((m) => (m & bit) !== 0);
  t.divUop[i] = k;
  t.divPortOf[i] = port;
  if (k < 0) t.div[i] = 0;
}

/** The latency of dependency `d` as its consumer sees it: the producer's latency for the resource
 *  (at most its own latency, at least 1), and, with `operandLatency`, the consumer's read advance
 *  for that resource (`SimInstruction.readAdvance`: a load-op form reads its register operand only
 *  after the load). `gate` is when the consumer may start after the producer started (never
 *  before it), `eff` when the late read lets the result follow (docs/engine.md, "Per-operand
 *  latencies"). SUACA's model has one latency per written resource: no read advance. */
function depLatency(ins: SimInstruction[], d: SimDep, operandLatency: boolean): { gate: number; eff: number } {
  const prod = ins[d.from]!;
  const own = Math.max(1, prod.latency);
  const byRes = prod.latencyByResource[d.resource];
  const l = Math.min(own, Math.max(1, byRes === undefined ? own : byRes));
  const early = operandLatency ? (ins[d.to]!.readAdvance?.[d.resource] ?? 0) : 0;
  if (early <= 0) return { gate: l, eff: l };
  return { gate: Math.max(0, l - early), eff: l - early };
}

/** The dependencies grouped by consumer and distinct producer instance (line, loop-carried), with
 *  the reverse lists for waking consumers. */
function dependencyTables(
  ins: SimInstruction[],
  deps: SimDep[],
  internal: ((d: SimDep) => boolean) | null,
  memFrom: number,
  memDeps: MemoryDep[],
  operandLatency: boolean,
) {
  const n = ins.length;
  const groups: { line: number; lc: boolean; lat: number; eff: number; deps: number[] }[][] = Array.from(
    { length: n },
    () => [],
  );
  deps.forEach((d, di) => {
    if (internal?.(d)) return;
    if (d.from < 0 || d.from >= n || d.to < 0 || d.to >= n) return;
    // an in-iteration dependency on a later (or the same) line can only mean the previous iteration
    const lc = d.loopCarried || d.from >= d.to;
    const l =
      di >= memFrom
        ? { gate: memDeps[di - memFrom]!.latency, eff: memDeps[di - memFrom]!.latency }
        : depLatency(ins, d, operandLatency);
    const list = groups[d.to]!;
    let g = list.find((x) => x.line === d.from && x.lc === lc);
    if (!g) {
      g = { line: d.from, lc, lat: 0, eff: Number.NEGATIVE_INFINITY, deps: [] };
      list.push(g);
    }
    g.lat = Math.max(g.lat, l.gate);
    g.eff = Math.max(g.eff, l.eff);
    g.deps.push(di);
  });
  let E = 0;
  for (const l of groups) E += l.length;
  const t = {
    predStart: new Int32Array(n + 1),
    predLine: new Int32Array(E),
    predLC: new Uint8Array(E),
    predLat: new Int32Array(E),
    predEff: new Int32Array(E),
    predLate: new Uint8Array(E),
    lateReads: new Uint8Array(n),
    predDeps: [] as number[][],
    predOwner: new Int32Array(E),
    succStart: new Int32Array(n + 1),
    succPred: new Int32Array(E),
  };
  let e = 0;
  groups.forEach((list, i) => {
    t.predStart[i] = e;
    list.sort((a, b) => (a.lc === b.lc ? a.line - b.line : a.lc ? -1 : 1));
    for (const g of list) {
      t.predLine[e] = g.line;
      t.predLC[e] = g.lc ? 1 : 0;
      t.predLat[e] = int32(g.lat, 'latency');
      t.predEff[e] = g.eff;
      if (g.eff < g.lat) {
        t.predLate[e] = 1;
        t.lateReads[i] = 1;
      }
      t.predDeps.push(g.deps);
      e++;
    }
  });
  t.predStart[n] = e;
  for (let i = 0; i < n; i++) for (let x = t.predStart[i]!; x < t.predStart[i + 1]!; x++) t.predOwner[x] = i;
  const byProd: number[][] = Array.from({ length: n }, () => []);
  for (let x = 0; x < E; x++) byProd[t.predLine[x]!]!.push(x);
  let q = 0;
  byProd.forEach((list, j) => {
    t.succStart[j] = q;
    for (const x of list) t.succPred[q++] = x;
  });
  t.succStart[n] = q;
  return t;
}

/** Fused-domain µops per line and how a line's unfused µops ride on them: the first (unfused −
 *  fused) fused µops carry two unfused ones (load + operation, store-address + store-data; the last
 *  carries any rest), the others one; fused µops beyond the unfused ones (e.g. a NOP, no port)
 *  carry none. */
function fusedDomain(
  ins: SimInstruction[],
  uops: Int32Array,
  fusedWithNext: Uint8Array,
  mechanisms: Partial<MechanismSet> | undefined,
) {
  const n = ins.length;
  const fused = new Int32Array(n);
  let maxF = 1;
  for (let i = 0; i < n; i++) {
    const u = uops[i]!;
    let f = u;
    const facts = ins[i]!.refined?.microFusion;
    if (mechanisms?.microFusion) {
      f = facts === undefined ? u : i > 0 && fusedWithNext[i - 1] ? 0 : facts.fusedUops;
    } else if (mechanisms?.frontEnd && facts !== undefined && !(i > 0 && fusedWithNext[i - 1])) {
      // no micro-fusion, but the fused domain is counted (the front end): every unfused µop is a
      // slot, and an instruction the reorder buffer executes (a zero idiom) still takes its one
      f = Math.max(u, facts.fusedUops);
    }
    fused[i] = f;
    if (f > maxF) maxF = f;
  }
  const fusedCum = new Int32Array(n * maxF);
  for (let i = 0; i < n; i++) {
    const u = uops[i]!,
      f = fused[i]!;
    const extra = Math.max(0, u - f);
    for (let k = 0; k < f; k++) fusedCum[i * maxF + k] = k === f - 1 ? u : Math.min(u, k + 1 + Math.min(extra, k + 1));
  }
  return { fused, maxF, fusedCum };
}
