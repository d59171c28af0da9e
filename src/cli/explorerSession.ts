// Glue between the pipeline and the explorer: a loaded region + an architecture → the plain
// ExplorerSession the UI reads (engine factories, branch sides, a worker for long runs). Reads
// data files through src/cli/pipeline.ts; the UI itself does no I/O.
import { buildDependencyGraph, onlyLoopJumps, type LoadedRegion } from '../disasm/index.js';
import { listDataSources, listMachines, loadMachine } from '../data/index.js';
import { parseArch } from './config.js';
import type { MachineModel } from '../data/types.js';
import { createEngine, engineOptionsOf, SUACA_MECHANISMS, type MechanismSet } from '../sim/index.js';
import type { SimProgram, Variant } from '../sim/types.js';
import type { ArchChoice, ExplorerSession, PaneSpec } from '../ui/types.js';
import {
  branchPrograms,
  forArch,
  loopFor,
  withLoop,
  type Analysis,
  type DataOptions,
  type RegionAnalysis,
} from './pipeline.js';
import { queuesOf } from '../sim/units/queues.js';
import { dataMemoryPairs, withDataMemoryDeps } from '../sim/refine.js';
import { SIMULATION_BYTES_PER_LINE, workersThatFit } from './addressSpace.js';
import { workerOffload } from './offload.js';
import { originText } from '../data/origins.js';
import { layersOf } from '../data/resolve.js';
import { originSummary } from '../report/model.js';
import { modelNotesOf } from '../report/collect.js';

interface SessionOptions extends DataOptions {
  /** compute run lengths and divergences on the UI thread instead of a worker */
  inThread?: boolean;
}

/** The architecture-independent half, from an already selected region. */
export function regionAnalysis(region: LoadedRegion): RegionAnalysis {
  return { region, graph: buildDependencyGraph(region.instructions, { loop: true }), loop: true };
}

/** The session of one region on one machine model (load it with loadMachine once, at the edge). */
export async function buildExplorerSession(
  base: RegionAnalysis | LoadedRegion,
  machine: MachineModel,
  opts: SessionOptions = {},
): Promise<ExplorerSession> {
  const ra = 'graph' in base ? base : regionAnalysis(base);
  const { inThread, ...dataOpts } = opts;
  const withLoopEdges = await forArch(ra, machine, dataOpts);
  const { analysisFor, programFor } = programsOf(withLoopEdges);
  const a = withLoopEdges;
  const params = a.params;
  const first = analysisFor(2).branches;
  const notesFor = memoNotes(() => analysisFor(2).a.program, params);
  const engineFor =
    (branch: 0 | 1 | null, memoryThroughData?: true) =>
    (variant: Variant, iterations: number, mechanisms: MechanismSet = SUACA_MECHANISMS) =>
      createEngine(
        programFor({ variant, branch, ...(memoryThroughData ? { memoryThroughData } : {}) }, iterations),
        params,
        { iterations, variant },
        engineOptionsOf(mechanisms),
      );
  const loop = analysisFor(2).a.program;
  const pairs = dataMemoryPairs(loop).map((p) => ({
    store: loop.instructions[p.store]!.line,
    load: loop.instructions[p.load]!.line,
  }));
  return {
    file: a.region.file,
    region: a.region.region.name,
    arch: a.machine.arch,
    archName: a.machine.name,
    ports: params.ports,
    dividerPort: params.dividerPort,
    ...(params.portNames ? { portNames: params.portNames } : {}),
    ...(queuesOf(params) ? { queueTotal: queuesOf(params)!.queues.reduce((a, q) => a + q.size, 0) } : {}),
    lines: sessionLines(a),
    figures: originSummary(a.resolved.map((r) => r.origin)),
    makeEngine: engineFor(null),
    branches: first && {
      branchLine: first.branchLine,
      ...(first.choice ? { choice: first.choice } : {}),
      paths: [
        { label: 'fall-through', lines: first.leftLines, makeEngine: engineFor(0) },
        { label: 'taken', lines: first.rightLines, makeEngine: engineFor(1) },
      ],
    },
    ...(first ? {} : { noBranches: noBranchesReason(a) }),
    ...(pairs.length ? { memoryThroughData: { pairs, makeEngine: engineFor(null, true) } } : {}),
    notes: sessionNotes(a),
    modelNotes: notesFor,
    // on the UI thread too when an address-space limit leaves no room for the worker
    ...(inThread || workersThatFit(1, undefined, a.region.instructions.length * SIMULATION_BYTES_PER_LINE) === 0
      ? {}
      : { offload: workerOffload(programFor, params) }),
  };
}

/** The region's programs by iteration count (a single iteration is the latency analysis: no
 *  loop-carried dependencies, thesis §2.4) and by pane: the loop, one side of its branch, or the
 *  worst case of its loads through data. */
function programsOf(withLoopEdges: Analysis) {
  const byLoop = new Map<boolean, { a: Analysis; branches: ReturnType<typeof branchPrograms> }>();
  const analysisFor = (iterations: number) => {
    const loop = loopFor(iterations);
    let hit = byLoop.get(loop);
    if (!hit) {
      const a = withLoop(withLoopEdges, loop);
      hit = { a, branches: branchPrograms(a) };
      byLoop.set(loop, hit);
    }
    return hit;
  };
  const programFor = (spec: PaneSpec, iterations: number): SimProgram => {
    const { a, branches } = analysisFor(iterations);
    // the worst case of the loads through data: each reads the previous iteration's store
    if (spec.memoryThroughData) return withDataMemoryDeps(a.program, dataMemoryPairs(a.program));
    if (spec.branch === null) return a.program;
    if (!branches) throw new Error('this region has no conditional jump');
    return spec.branch === 0 ? branches.left : branches.right;
  };
  return { analysisFor, programFor };
}

/** The header's notes: the region's own, where the data come from, lines without figures. */
function sessionNotes(a: Analysis): string[] {
  const labels = layersOf(a.data)
    .map((l) => l.label)
    .filter((l) => l !== null);
  const notes: string[] = [
    ...(a.region.region.note ? [a.region.region.note] : []),
    `data: ${labels.join(', then ')} · figures: ${originSummary(a.resolved.map((r) => r.origin))}`,
  ];
  if (a.unknown.length) notes.push(unknownNote(a));
  return notes;
}

/** Each line with where its figures come from (the program pane's source column). */
function sessionLines(a: Analysis): ExplorerSession['lines'] {
  return a.region.instructions.map((i, k) => {
    const r = a.resolved[k]!;
    const figures = r.unknown
      ? (r.why ?? 'no source has figures for it')
      : r.provenance
        ? r.provenance.text
        : `${originText(r.origin)}${r.form ? ` (${r.form.string})` : ''}`;
    return { line: i.line, asm: i.intel, origin: r.origin, figures };
  });
}

/** The explorer's loadArch: a name from the picker → the same region's session on that machine. */
export function sessionLoader(
  base: RegionAnalysis,
  opts: SessionOptions = {},
): (arch: string) => Promise<ExplorerSession> {
  return async (arch) => buildExplorerSession(base, loadMachine(parseArch(arch, 'architecture')), opts);
}

/** The model's notes per set of mechanisms, as the report prints them (on the program of a loop),
 *  each set's computed once. */
function memoNotes(program: () => SimProgram, params: Analysis['params']): (m: MechanismSet) => string[] {
  const memo = new Map<string, string[]>();
  return (m) => {
    const key = JSON.stringify(m);
    let hit = memo.get(key);
    if (!hit) {
      hit = modelNotesOf(program(), params, m);
      memo.set(key, hit);
    }
    return hit;
  };
}

/** The lines without figures, grouped by why (one reason said once: a message cut short for the
 *  screen never joins the text of two lines). */
function unknownNote(a: Analysis): string {
  const byWhy = new Map<string, string[]>();
  for (const u of a.unknown) {
    const why = u.why ?? 'no source';
    byWhy.set(why, [...(byWhy.get(why) ?? []), `${u.line} ${u.asm.split(' ')[0]}`]);
  }
  const groups = [...byWhy].map(([why, ls]) => `line${ls.length === 1 ? '' : 's'} ${ls.join(', ')} (${why})`);
  // what the engine does with them, exactly: they stay in the program and keep their dependencies
  return `no figures for ${groups.join('; ')}: ${a.fallback === 'alu' ? 'each run as one µop on any ALU port, latency 1 (?)' : 'each run as a placeholder without µops or ports; its readers still wait 1 cycle for it (?)'}`;
}

/** Why `b` has nothing to compare: no conditional jump, or only the loop's own (back edge / exit). */
function noBranchesReason(a: Analysis): string {
  const jumps = onlyLoopJumps(a.region.instructions);
  if (jumps.length === 0) return 'no conditional jump in this region: nothing to compare';
  const which = jumps.map((k) => `line ${a.region.instructions[k]!.line}`).join(', ');
  return `no branch inside the loop to compare: the only conditional jump${jumps.length > 1 ? 's' : ''} (${which}) ${jumps.length > 1 ? 'are' : 'is'} the loop's own (back edge or exit)`;
}

/** The machine models for the picker; without --uops-xml, those without data say so. */
export function archChoices(opts: DataOptions = {}): ArchChoice[] {
  const sources = opts.uopsXml ? null : listDataSources(opts.cacheDir ? { cacheDir: opts.cacheDir } : {});
  return listMachines().map((m) => {
    const rows = sources?.filter((r) => r.arch === m.arch) ?? [];
    const none = sources && rows.every((r) => r.kind === 'none');
    const onlyLlvm = sources && !none && rows.every((r) => r.kind === 'llvm' || r.kind === 'none');
    const note = none ? "no data: see 'uopscope data import'" : onlyLlvm ? 'LLVM model only' : undefined;
    return { arch: m.arch, name: m.name, ...(note ? { note } : {}) };
  });
}
