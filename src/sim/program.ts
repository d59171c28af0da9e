// Building the engine's input (SimProgram, MachineParams) from the earlier stages' outputs.
// Pure: no I/O.

import type { DecodedInstruction, DependencyGraph } from '../disasm/types.js';
import type { CoreSchedulers, MachineModel, PortGroup, ResolvedInstruction } from '../data/types.js';
import { coreFrontEnd, refinedFacts } from '../data/refinedFacts.js';
import { missingDivider } from '../data/divider.js';
import type { MachineParams, QueueParams, SimDep, SimInstruction, SimProgram } from './types.js';

export interface BuildOptions {
  /** keep only these original lines (branch analysis, thesis §2.7); the graph's edges are in
   *  original line numbers and edges touching other lines are dropped */
  lines?: number[];
  /** the core: when given, each instruction gets the refined model's facts (`refined`, from
   *  src/data/refinedFacts.ts); without it none (SUACA's model needs none) */
  machine?: MachineModel;
  /** address of the region's first byte (default: the first instruction's address) */
  regionStart?: number;
}

/** µops of one instruction: one entry per µop, each the sorted ports it may use (order as in the data). */
export function expandPorts(groups: PortGroup[]): number[][] {
  const out: number[][] = [];
  for (const g of groups) {
    const ports = [...g.ports].sort((a, b) => a - b);
    for (let k = 0; k < g.count; k++) out.push(ports.slice());
  }
  return out;
}

/** One SimInstruction from a decoded instruction and the measurement resolved for it. */
function simInstruction(instr: DecodedInstruction, r: ResolvedInstruction | undefined): SimInstruction {
  const uops = r ? expandPorts(r.ports) : [];
  const maxLat = r ? r.maxLatency : 0;
  const latency = uops.length > 0 ? Math.max(1, maxLat) : Math.max(0, maxLat);
  const latencyByResource: Record<string, number> = {};
  if (r) for (const [res, c] of Object.entries(r.latencyByResource)) latencyByResource[res] = c;
  const noDivider = r ? missingDivider(instr.mnemonic, r) : null;
  return {
    line: instr.line,
    asm: instr.intel,
    uops,
    latency,
    latencyByResource,
    divCycles: r ? r.divCycles : 0,
    ...(r?.portHold?.length ? { portHold: r.portHold.map((h) => ({ ports: [...h.ports], cycles: h.cycles })) } : {}),
    unknown: r ? r.unknown : true,
    ...(r?.readAdvance ? { readAdvance: { ...r.readAdvance } } : {}),
    ...(noDivider ? { noDivider } : {}),
    ...(r?.zeroUops ? { zeroUops: { ...r.zeroUops } } : {}),
  };
}

/**
 * The engine's program: one SimInstruction per decoded instruction (or per selected line) and
 * the dependency edges (indices into `instructions`).
 */
export function buildSimProgram(
  instrs: DecodedInstruction[],
  graph: DependencyGraph,
  resolved: ResolvedInstruction[],
  opts: BuildOptions = {},
): SimProgram {
  const byLine = new Map<number, ResolvedInstruction>();
  for (const r of resolved) byLine.set(r.line, r);
  const keep = opts.lines ? new Set(opts.lines) : null;
  const chosen = instrs.filter((i) => keep === null || keep.has(i.line));
  const indexOf = new Map<number, number>();
  chosen.forEach((ins, idx) => {
    indexOf.set(ins.line, idx);
  });
  const instructions = chosen.map((ins) => simInstruction(ins, byLine.get(ins.line)));
  if (opts.machine) {
    // program order of the chosen lines: a branch side's Jcc fuses with the line before it there
    const facts = refinedFacts(
      chosen,
      chosen.map((i) => byLine.get(i.line)),
      instructions.map((i) => i.uops),
      opts.machine,
      opts.regionStart ?? instrs[0]?.address,
    );
    instructions.forEach((ins, k) => {
      ins.refined = facts[k]!;
    });
  }
  const deps: SimDep[] = [];
  const seen = new Set<string>();
  for (const e of graph.edges) {
    const from = indexOf.get(e.from);
    const to = indexOf.get(e.to);
    if (from === undefined || to === undefined) continue;
    const key = `${from}/${to}/${e.resource}/${e.loopCarried ? 1 : 0}`;
    if (seen.has(key)) continue;
    seen.add(key);
    deps.push({ from, to, resource: e.resource, loopCarried: e.loopCarried });
  }
  return { instructions, deps };
}

/** The engine's view of a machine model. */
export function machineParams(machine: MachineModel): MachineParams {
  const ports = [...machine.ports].sort((a, b) => a - b);
  const names = machine.portNames;
  return {
    arch: machine.arch,
    ports,
    ...(names ? { portNames: ports.map((p) => names[machine.ports.indexOf(p)]!) } : {}),
    issueWidth: machine.issueWidth,
    rsSize: machine.rsSize,
    dividerPort: machine.dividerPort,
    ...(machine.frontEnd ? { frontEnd: coreFrontEnd(machine) } : {}),
    ...(machine.schedulers ? { schedulers: queueParams(machine.schedulers) } : {}),
  };
}

/** The record's scheduler queues as the engine reads them (figures without their sources). */
function queueParams(sc: CoreSchedulers): QueueParams {
  const names = sc.queues.map((q) => q.name);
  return {
    queues: sc.queues.map((q) => ({
      name: q.name,
      size: q.size.value,
      ports: [...q.ports],
      dispatchPerCycle: q.dispatchPerCycle?.value ?? null,
    })),
    nonScheduling: (sc.nonScheduling ?? []).map((x) => ({
      name: x.name,
      size: x.size.value,
      queues: x.queues.map((n) => names.indexOf(n)),
    })),
    steering: sc.steering.value,
    unit: sc.unit.value,
  };
}
