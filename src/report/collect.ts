// Runs the simulations a report needs and assembles its ReportModel (pure; no I/O).

import {
  SUACA_MECHANISMS,
  type MechanismSet,
  frontEndLimitsOf,
  fusedPairsOf,
  sharingIdenticalRuns,
  simulateWhatIfs,
  type Simulate,
  type WhatIfRequest,
} from '../sim/index.js';
import type { MachineParams, SimProgram, SimResult } from '../sim/types.js';
import { DATA_MEMORY_WHAT_IF, dataMemoryPairs, mechanismNotes, withDataMemoryDeps } from '../sim/refine.js';
import { UserError } from '../errors.js';
import { portLabel } from '../data/ports.js';
import type { FigureOrigin } from '../data/types.js';
import type { CitedLine, MechanismEffect, ReportModel, Section, UnknownInstruction } from './model.js';

/** The main analysis's variant (--pf, --ip, --nd and the knobs), --fast, --all-variants, and: */
export interface ReportRequest extends WhatIfRequest {
  /** line for the §2.6 detail analysis */
  detail?: number;
}

interface ReportSubject {
  program: SimProgram;
  params: MachineParams;
  archName?: string;
  /** how the architecture the user named became this core (a compiler's name, the host's core) */
  archNote?: string;
  unknown: UnknownInstruction[];
  /** where each line's figures come from, by line number */
  origins: FigureOrigin[];
  /** each line's address, by line number */
  addresses?: number[];
  /** the lines whose figures a public source corrected (src/report/listing.ts citedLines) */
  cited?: CitedLine[];
  /** what the prediction leaves out (src/report/caveats.ts) */
  caveats?: string[];
  source?: { file: string; region: string };
  /** the two sides of the first conditional jump; undefined: not asked; null: there is none */
  branch?: { branchLine: number; choice?: string; left: SimProgram; right: SimProgram } | null;
}

/** All the simulations of one report: main, what-ifs, combinations, branch sides, detail (by
 *  default each distinct run once: sharingIdenticalRuns). */
export function collectReport(
  subject: ReportSubject,
  req: ReportRequest,
  sim: Simulate = sharingIdenticalRuns(),
): ReportModel {
  const { params } = subject;
  if (req.detail !== undefined && !subject.program.instructions.some((i) => i.line === req.detail)) {
    const n = subject.program.instructions.length;
    throw new UserError(`--detail ${req.detail}: no such line in the region; give a line from 0 to ${n - 1}`);
  }
  const main = runSection(subject.program, params, req, sim);
  const pairs = dataMemoryPairs(subject.program);
  if (pairs.length > 0 && !req.fast) {
    const cfg = { iterations: req.iterations, variant: { ...req.variant } };
    const opts = { model: { mechanisms: { ...(req.mechanisms ?? SUACA_MECHANISMS) } } };
    const r = sim(withDataMemoryDeps(subject.program, pairs), params, cfg, opts);
    main.section.memoryThroughData = {
      pairs: pairs.map((p) => ({
        store: subject.program.instructions[p.store]!.line,
        load: subject.program.instructions[p.load]!.line,
      })),
      figures: {
        variant: cfg.variant,
        cycles: r.stats.cycles,
        blockThroughput: r.stats.blockThroughput,
        uopsPerCycle: r.stats.uopsPerCycle,
      },
    };
  }
  const model: ReportModel = {
    arch: params.arch,
    ...(subject.archName !== undefined ? { archName: subject.archName } : {}),
    ...(subject.archNote !== undefined ? { archNote: subject.archNote } : {}),
    iterations: req.iterations,
    variant: { ...req.variant },
    model: {
      mechanisms: { ...(req.mechanisms ?? SUACA_MECHANISMS) },
      effects: main.effects,
      ...notesOf(subject.program, params, req.mechanisms),
    },
    ports: [...params.ports],
    dividerPort: params.dividerPort,
    ...(params.portNames ? { portNames: [...params.portNames] } : {}),
    ...(subject.source ? { source: subject.source } : {}),
    main: main.section,
    unknown: subject.unknown,
    origins: [...subject.origins],
    ...(subject.addresses ? { addresses: [...subject.addresses] } : {}),
    ...(subject.cited?.length ? { cited: subject.cited.map((c) => ({ ...c })) } : {}),
    ...(subject.caveats?.length ? { caveats: [...subject.caveats] } : {}),
  };
  if (subject.branch !== undefined) {
    const side = (program: SimProgram): Section => {
      const r = runSection(program, params, { ...req, allVariants: false, mechanismEffects: false }, sim);
      const d = req.detail === undefined ? undefined : r.result.details.find((x) => x.line === req.detail);
      return d ? { ...r.section, detail: d } : r.section;
    };
    model.branch =
      subject.branch === null
        ? null
        : {
            branchLine: subject.branch.branchLine,
            ...(subject.branch.choice ? { choice: subject.branch.choice } : {}),
            left: side(subject.branch.left),
            right: side(subject.branch.right),
          };
  }
  if (req.detail !== undefined) {
    const d = main.result.details.find((x) => x.line === req.detail);
    if (d) model.detail = d;
  }
  return model;
}

const SOURCE_TEXT: Record<string, string> = {
  LSD: 'the loop stream detector',
  DSB: 'the µop cache',
  MITE: 'the legacy decoders',
  'DSB+MITE': 'the µop cache and, for the 32-byte windows it cannot hold, the legacy decoders',
};

function notesOf(program: SimProgram, params: MachineParams, m: MechanismSet | undefined): { notes?: string[] } {
  const notes = modelNotesOf(program, params, m);
  return notes.length ? { notes } : {};
}

/** The model's notes on `program` with the mechanisms `m`, as the report prints them (and the
 *  explorer shows them): what the mechanisms did and what could not be modelled on this core. */
export function modelNotesOf(program: SimProgram, params: MachineParams, m: MechanismSet | undefined): string[] {
  return [
    ...frontEndNotes(program, params, m),
    ...schedulerNotes(params),
    ...mechanismNotes(program, m),
    ...dividerNotes(program),
    ...zeroUopNotes(program),
    ...dataMemoryNotes(program),
  ];
}

/** A core with several scheduler queues (Zen): its queues, and what the what-ifs do on them
 *  (docs/engine.md, "Scheduler queues"), where an Intel core has one station. */
function schedulerNotes(params: MachineParams): string[] {
  const sq = params.schedulers;
  if (!sq || (sq.queues.length === 1 && sq.nonScheduling.length === 0 && sq.unit === 'uop')) return [];
  const total = sq.queues.reduce((a, q) => a + q.size, 0);
  const queues = sq.queues.map((q) => `${q.name} ${q.size}`).join(', ');
  const nsq = sq.nonScheduling.map(
    (x) => `; ${x.name} ${x.size} in front of ${x.queues.map((k) => sq.queues[k]!.name).join(' ')}`,
  );
  const pipe = portLabel(params.dividerPort, params.ports, params.portNames);
  return [
    `scheduler: ${sq.queues.length} queues of ${sq.unit === 'macro-op' ? 'macro-op' : 'µop'} entries (${queues}${nsq.join('')}), steering ${sq.steering}: a queue issues to its own pipes only, and dispatch stops when the queue the next op is steered to is full (a steering stall), whatever room the others have`,
    `what-ifs on the queues: the station size (--rs-size) is their total (${total}) and scales every queue; the perfect front end loads up to ${total} per cycle past the queues' dispatch limits, each queue's room still bounding it; infinitely usable ports apply to every queue's pipes; the divider stays the one behind ${pipe}`,
  ];
}

/** The loop's load-store pairs through data: each load that may read the previous iteration's
 *  store, as only the data can tell (the what-if's worst case is in the report's figures). */
function dataMemoryNotes(program: SimProgram): string[] {
  const ins = program.instructions;
  const at = (i: number): string => `line ${ins[i]!.line} (${ins[i]!.asm})`;
  return dataMemoryPairs(program).map(
    (p) =>
      `memory through data: ${p.store === p.load ? `${at(p.load)} loads from and stores to the same address expression` : `${at(p.load)} loads from the address expression ${at(p.store)} stores to`}, whose registers change with the data: whether it reads the previous iteration's store depends on the data (not modelled; the what-if "${DATA_MEMORY_WHAT_IF.label}" is the worst case)`,
  );
}

/** The lines whose source's model gives them no µops, with the work the figures give them
 *  instead, one note per kind of work. */
function zeroUopNotes(program: SimProgram): string[] {
  const groups = new Map<string, { model: string; given: string; lines: string[] }>();
  for (const x of program.instructions) {
    if (!x.zeroUops) continue;
    const key = `${x.zeroUops.model}\n${x.zeroUops.given}`;
    const g = groups.get(key) ?? { ...x.zeroUops, lines: [] };
    g.lines.push(`${x.line} (${x.asm})`);
    groups.set(key, g);
  }
  return [...groups.values()].map(
    (g) =>
      `figures: ${g.model} gives ${g.lines.length > 1 ? `lines ${g.lines.join(', ')} no µops; each gets` : `line ${g.lines[0]} no µops; it gets`} ${g.given}`,
  );
}

/** The divisions whose figures leave the divider idle (in every model: the divider is SUACA's). */
function dividerNotes(program: SimProgram): string[] {
  return program.instructions
    .filter((x) => x.noDivider)
    .map((x) => `divider: not modelled for line ${x.line} (${x.asm}): ${x.noDivider!.why}`);
}

/** The notes that say a part of the model is not modelled on the core: what, why, and the two as
 *  the report's header says them. */
export function notModelledOf(notes: readonly string[]): { what: string; why: string; text: string }[] {
  return notes.flatMap((n) => {
    const f = /^front end: (.*) not modelled: (.*)$/.exec(n);
    if (f) return [{ what: `the front end's ${f[1]}`, why: f[2]!, text: `the front end's ${f[1]} (${f[2]})` }];
    const d = /^divider: not modelled for (line [^(]*\(.*\)): (.*)$/.exec(n);
    return d ? [{ what: `the divider, ${d[1]}`, why: d[2]!, text: `the divider, ${d[1]}: ${d[2]}` }] : [];
  });
}

/** What the front end's mechanisms did (macro-fused pairs, where the loop is delivered from) and,
 *  before anything else, the limits it could not apply for want of a figure. */
function frontEndNotes(program: SimProgram, params: MachineParams, m: MechanismSet | undefined): string[] {
  const out: string[] = [];
  const ins = program.instructions;
  if (m?.macroFusion) {
    const pairs = fusedPairsOf(program, params, { model: { mechanisms: m } });
    if (pairs.length)
      out.push(
        `macro-fusion: ${pairs.map((i) => `lines ${ins[i]!.line}+${ins[i + 1]!.line} (${ins[i]!.asm} + ${ins[i + 1]!.asm})`).join(', ')} one µop each`,
      );
  }
  if (m?.frontEnd) {
    const fe = frontEndLimitsOf(program, params, { model: { mechanisms: m } });
    if (fe) {
      for (const x of fe.notApplied) out.push(`front end: ${x.limit} not modelled: ${x.why}`);
      if (fe.plan)
        out.push(
          `front end: the loop is delivered by ${SOURCE_TEXT[fe.plan.source] ?? fe.plan.source} (${fe.applied.map((a) => `${a.limit} ${a.value === true ? 'applies' : a.value === false ? 'does not apply' : String(a.value)}`).join(', ')})`,
        );
    }
  }
  return out;
}

/** One program's main run plus its what-if runs and (optionally) the 8 combinations (src/sim). */
function runSection(
  program: SimProgram,
  params: MachineParams,
  req: ReportRequest,
  sim: Simulate = sharingIdenticalRuns(),
): { section: Section; result: SimResult; effects: MechanismEffect[] | null } {
  const r = simulateWhatIfs(program, params, req, sim);
  return {
    section: { stats: r.main.stats, whatIf: r.whatIf, combinations: r.combinations },
    result: r.main,
    effects: r.mechanismEffects,
  };
}
