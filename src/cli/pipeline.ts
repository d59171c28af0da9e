// The glue every command and the explorer share: input + region options → LoadedRegion (disasm)
// → machine model + uops.info data (data) → resolved instructions → dependency graph →
// SimProgram (sim). Nothing is cached globally; everything returned is plain data. The
// architecture-independent half (region, graph) is kept apart so that switching architecture
// (the explorer does it on the fly) only redoes the cheap part: forArch().

import { UserError } from '../errors.js';
import { refuseRegionOverLimit } from './addressSpace.js';
import { branchPaths, buildDependencyGraph, dependencyGraphOfPath, loadRegion } from '../disasm/index.js';
import type { DependencyGraph, InputOptions, LoadedRegion, RegionSelection } from '../disasm/types.js';
import { loadArchData, loadMachine, resolveInstructions } from '../data/index.js';
import type { ArchData, ArchName, MachineModel, ResolvedInstruction } from '../data/types.js';
import { buildBranchPrograms, buildSimProgram, machineParams, type BranchPrograms } from '../sim/index.js';
import type { MachineParams, SimProgram } from '../sim/types.js';
import type { UnknownInstruction } from '../report/model.js';

export interface DataOptions {
  /** an explicit uops.info instructions.xml (--uops-xml) */
  uopsXml?: string;
  /** where imported data is cached (default: the data stage's) */
  cacheDir?: string;
  /** what to do with instructions without data (default 'skip', as the data stage) */
  fallback?: 'skip' | 'alu';
  /** false: leave out the figures measured by uopscope (--no-measured) */
  measured?: boolean;
}

interface AnalyseOptions extends InputOptions, RegionSelection, DataOptions {
  arch: ArchName;
  /** the dependency graph gets loop-carried edges when the run has more than one iteration
   *  (thesis §2.4: a single iteration is the latency analysis, without them); default true */
  loop?: boolean;
  /** called once the region is decoded, before its figures are looked up (a large region's
   *  progress, RunsProgress.stage) */
  onDecoded?: (lines: number) => void;
}

/** The architecture-independent part: the code and its dependencies. */
export interface RegionAnalysis {
  region: LoadedRegion;
  /** read-after-write dependencies; loop-carried edges when `loop` */
  graph: DependencyGraph;
  loop: boolean;
}

/** Everything that depends on the architecture as well. */
export interface Analysis extends RegionAnalysis {
  machine: MachineModel;
  params: MachineParams;
  data: ArchData;
  resolved: ResolvedInstruction[];
  program: SimProgram;
  /** instructions without data (IACA's X) and the fallback applied */
  unknown: UnknownInstruction[];
  fallback: 'skip' | 'alu';
}

/** Loads the input and selects the region, then builds its dependency graph. */
export async function analyseRegion(
  opts: InputOptions & RegionSelection & { loop?: boolean },
): Promise<RegionAnalysis> {
  const region = await loadRegion(opts);
  const loop = opts.loop ?? true;
  const graph = buildDependencyGraph(region.instructions, { loop });
  return { region, graph, loop };
}

/** The whole pipeline for one architecture. */
export async function analyse(opts: AnalyseOptions): Promise<Analysis> {
  // an unknown architecture is refused before the input is read
  const machine = loadMachine(opts.arch);
  // simulated next: under an address-space limit, refused as soon as its size is known when the
  // limit leaves no room for that
  const base = await analyseRegion({ ...opts, admit: refuseRegionOverLimit });
  opts.onDecoded?.(base.region.instructions.length);
  return forArch(base, machine, opts);
}

/** Rebuilds the architecture-dependent part for `machine`, reusing the region and its graph. */
export async function forArch(
  base: RegionAnalysis,
  machine: MachineModel,
  opts: DataOptions & { data?: ArchData } = {},
): Promise<Analysis> {
  // `data`: the core's figures already loaded (a batch of regions loads them once)
  const data =
    opts.data ??
    (await loadArchData(machine.arch, {
      ...(opts.uopsXml !== undefined ? { uopsXml: opts.uopsXml } : {}),
      ...(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {}),
      ...(opts.measured === false ? { measured: false } : {}),
    }));
  const fallback = opts.fallback ?? 'skip';
  const instrs = base.region.instructions;
  const resolved = resolveInstructions(instrs, data, { fallback, machine });
  checkPorts(resolved, machine, instrs);
  const program = buildSimProgram(instrs, base.graph, resolved, { machine, regionStart: base.region.region.start });
  const unknown: UnknownInstruction[] = resolved
    .filter((r) => r.unknown)
    .map((r) => ({
      line: r.line,
      asm: instrs.find((i) => i.line === r.line)?.intel ?? '?',
      fallback: r.fallback,
      ...(r.why ? { why: r.why } : {}),
    }));
  return {
    region: base.region,
    graph: base.graph,
    loop: base.loop,
    machine,
    params: machineParams(machine),
    data,
    resolved,
    program,
    unknown,
    fallback,
  };
}

/** A µop on a port the machine model does not have would silently run nowhere: refuse the data. */
function checkPorts(
  resolved: ResolvedInstruction[],
  machine: MachineModel,
  instrs: LoadedRegion['instructions'],
): void {
  const known = new Set(machine.ports);
  for (const r of resolved) {
    for (const g of r.ports) {
      const bad = g.ports.find((p) => !known.has(p));
      if (bad === undefined) continue;
      const asm = instrs.find((i) => i.line === r.line)?.intel ?? `line ${r.line}`;
      throw new UserError(
        `${r.form?.string ?? asm} (line ${r.line}) uses port ${bad} on ${machine.arch}, which its machine model does not have (ports ${machine.ports.join(', ')}); check the measurement file`,
      );
    }
  }
}

/** The loop flag a run of `iterations` needs; rebuild the graph with withLoop() when it changes. */
export function loopFor(iterations: number): boolean {
  return iterations > 1;
}

/** The same analysis with the dependency graph built for `loop` (cheap: no I/O). */
export function withLoop(a: Analysis, loop: boolean): Analysis {
  if (a.loop === loop) return a;
  const graph = buildDependencyGraph(a.region.instructions, { loop });
  const program = buildSimProgram(a.region.instructions, graph, a.resolved, {
    machine: a.machine,
    regionStart: a.region.region.start,
  });
  return { ...a, graph, loop, program };
}

/** The engine's program of the region placed `shift` bytes further (its instructions' and its
 *  start's addresses moved): where a relocatable object's code may land once linked. */
export function programAt(a: Analysis, shift: number): SimProgram {
  // copied with their property descriptors: a spread would format each one's AT&T text (a
  // property made on first read, src/disasm/decode.ts), which no placement reads
  const moved = a.region.instructions.map((i) => {
    const m = Object.defineProperties({}, Object.getOwnPropertyDescriptors(i)) as typeof i;
    m.address = i.address + shift;
    return m;
  });
  return buildSimProgram(moved, a.graph, a.resolved, {
    machine: a.machine,
    regionStart: a.region.region.start + shift,
  });
}

/** The two sides of the first conditional jump (src/sim's BranchPrograms), or null when there is none. */
export function branchPrograms(a: Analysis): BranchPrograms | null {
  const instrs = a.region.instructions;
  const paths = branchPaths(instrs);
  if (!paths) return null;
  const graphOf = (lines: number[]) => dependencyGraphOfPath(instrs, lines, { loop: a.loop });
  return buildBranchPrograms(instrs, paths, { left: graphOf(paths.left), right: graphOf(paths.right) }, a.resolved, {
    machine: a.machine,
    regionStart: a.region.region.start,
  });
}
