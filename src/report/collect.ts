// Runs the simulations a report needs and assembles its ReportModel (pure; no I/O).

import { SUACA_MECHANISMS, simulate, simulateWhatIfs, type Simulate, type WhatIfRequest } from '../sim/index.js';
import type { MachineParams, SimProgram, SimResult } from '../sim/types.js';
import { mechanismNotes } from '../sim/refine.js';
import { UserError } from '../errors.js';
import type { FigureOrigin } from '../data/types.js';
import type { MechanismEffect, ReportModel, Section, UnknownInstruction } from './model.js';

export type { Simulate };

/** The main analysis's variant (--pf, --ip, --nd and the knobs), --fast, --all-variants, and: */
export interface ReportRequest extends WhatIfRequest {
  /** line for the §2.6 detail analysis */
  detail?: number;
}

export interface ReportSubject {
  program: SimProgram;
  params: MachineParams;
  archName?: string;
  unknown: UnknownInstruction[];
  /** where each line's figures come from, by line number */
  origins: FigureOrigin[];
  source?: { file: string; region: string };
  /** the two sides of the first conditional jump; undefined: not asked; null: there is none */
  branch?: { branchLine: number; left: SimProgram; right: SimProgram } | null;
}

/** All the simulations of one report: main, what-ifs, combinations, branch sides, detail. */
export function collectReport(subject: ReportSubject, req: ReportRequest, sim: Simulate = simulate): ReportModel {
  const { params } = subject;
  if (req.detail !== undefined && !subject.program.instructions.some((i) => i.line === req.detail)) {
    const n = subject.program.instructions.length;
    throw new UserError(`--detail ${req.detail}: no such line in the region; give a line from 0 to ${n - 1}`);
  }
  const main = runSection(subject.program, params, req, sim);
  const model: ReportModel = {
    arch: params.arch,
    ...(subject.archName !== undefined ? { archName: subject.archName } : {}),
    iterations: req.iterations,
    variant: { ...req.variant },
    model: { mechanisms: { ...(req.mechanisms ?? SUACA_MECHANISMS) }, effects: main.effects, ...notesOf(subject.program, req) },
    ports: [...params.ports],
    dividerPort: params.dividerPort,
    ...(subject.source ? { source: subject.source } : {}),
    main: main.section,
    unknown: subject.unknown,
    origins: [...subject.origins],
  };
  if (subject.branch !== undefined) {
    const side = (program: SimProgram): Section => {
      const r = runSection(program, params, { ...req, allVariants: false, mechanismEffects: false }, sim);
      const d = req.detail === undefined ? undefined : r.result.details.find((x) => x.line === req.detail);
      return d ? { ...r.section, detail: d } : r.section;
    };
    model.branch = subject.branch === null ? null : {
      branchLine: subject.branch.branchLine,
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

function notesOf(program: SimProgram, req: ReportRequest): { notes?: string[] } {
  const notes = mechanismNotes(program, req.mechanisms);
  return notes.length ? { notes } : {};
}

/** One program's main run plus its what-if runs and (optionally) the 8 combinations (src/sim). */
export function runSection(program: SimProgram, params: MachineParams, req: ReportRequest, sim: Simulate = simulate): { section: Section; result: SimResult; effects: MechanismEffect[] | null } {
  const r = simulateWhatIfs(program, params, req, sim);
  return { section: { stats: r.main.stats, whatIf: r.whatIf, combinations: r.combinations }, result: r.main, effects: r.mechanismEffects };
}
