// Glue between the stages and the explorer: a loaded region + an architecture → the plain
// ExplorerSession the UI reads (engine factories, branch sides). Reads data files; the UI does not.
import { basename } from 'node:path';
import { branchPaths, buildDependencyGraph, dependencyGraphOfPath, type LoadedRegion } from '../disasm/index.js';
import { listMachines, loadArchData, loadMachine, resolveInstructions, unknownLines } from '../data/index.js';
import { buildSimProgram, createEngine, machineParams } from '../sim/index.js';
import type { SimProgram, Variant } from '../sim/types.js';
import { workerOffload } from './offload.js';
import type { ArchChoice, ExplorerSession } from '../ui/types.js';

export interface SessionOptions {
  uopsXml?: string;
  /** what to do with instructions without data: skip them (IACA's X) or count them as one ALU µop */
  fallback?: 'skip' | 'alu';
  /** compute run lengths and divergences on the UI thread instead of a worker */
  inThread?: boolean;
}

export async function buildExplorerSession(loaded: LoadedRegion, arch: string, opts: SessionOptions = {}): Promise<ExplorerSession> {
  const model = loadMachine(arch);
  const data = await loadArchData(model.arch, opts.uopsXml ? { uopsXml: opts.uopsXml } : {});
  const instrs = loaded.instructions;
  const resolved = resolveInstructions(instrs, data, { fallback: opts.fallback ?? 'skip' });
  const graph = buildDependencyGraph(instrs, { loop: true });
  const program = buildSimProgram(instrs, graph, resolved, model);
  const params = machineParams(model);
  const paths = branchPaths(instrs);
  const unknown = unknownLines(resolved);
  const notes: string[] = [`data: ${data.source.kind} (${data.source.forms} forms)`];
  if (unknown.length) notes.push(`no data for line${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} (marked X, ${opts.fallback === 'alu' ? 'counted as one ALU µop' : 'not simulated'})`);
  let branches: ExplorerSession['branches'] = null;
  const programs: { main: SimProgram; left?: SimProgram; right?: SimProgram } = { main: program };
  if (paths) {
    const side = (label: string, lines: number[]) => {
      const g = dependencyGraphOfPath(instrs, lines, { loop: true });
      const p = buildSimProgram(instrs, g, resolved, model, { lines });
      return { p, source: { label, lines, makeEngine: (variant: Variant, iterations: number) => createEngine(p, params, { iterations, variant }) } };
    };
    const left = side('fall-through', paths.left);
    const right = side('taken', paths.right);
    programs.left = left.p;
    programs.right = right.p;
    branches = { branchLine: paths.branchLine, paths: [left.source, right.source] };
  }
  return {
    file: basename(loaded.file),
    region: loaded.region.name,
    arch: model.arch,
    archName: model.name,
    ports: params.ports,
    lines: instrs.map((i) => ({ line: i.line, asm: i.intel })),
    makeEngine: (variant, iterations) => createEngine(program, params, { iterations, variant }),
    branches,
    notes,
    ...(opts.inThread ? {} : { offload: workerOffload(programs, params) }),
  };
}

export function archChoices(): ArchChoice[] {
  return listMachines().map((m) => ({ arch: m.arch, name: m.name }));
}
