// Runs the simulations a report needs and assembles its ReportModel (pure; no I/O).

import { allVariants, simulate } from '../sim/index.js';
import type { MachineParams, SimConfig, SimProgram, SimResult, Variant } from '../sim/types.js';
import { UserError } from '../errors.js';
import type { FigureOrigin } from '../data/types.js';
import type { ReportModel, Section, UnknownInstruction, VariantFigures, WhatIf } from './model.js';

export interface ReportRequest {
  iterations: number;
  /** the main analysis's variant (--pf, --ip, --nd) */
  variant: Variant;
  /** skip the three what-if runs (SUACA's -p) */
  fast?: boolean;
  /** also run all 8 combinations of the three switches */
  allVariants?: boolean;
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

/** How a report runs one simulation (default: sim's simulate; the CLI may hand in results it
 *  computed elsewhere, e.g. in worker threads). */
export type Simulate = (program: SimProgram, params: MachineParams, config: SimConfig) => SimResult;

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
    ports: [...params.ports],
    dividerPort: params.dividerPort,
    ...(subject.source ? { source: subject.source } : {}),
    main: main.section,
    unknown: subject.unknown,
    origins: [...subject.origins],
  };
  if (subject.branch !== undefined) {
    const side = (program: SimProgram): Section => {
      const r = runSection(program, params, { ...req, allVariants: false }, sim);
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

/** The variants runSection simulates for `req`, the main analysis's first, each once. */
export function sectionVariants(req: ReportRequest): Variant[] {
  const list: Variant[] = [];
  const key = (v: Variant) => `${+v.perfectFrontEnd}${+v.infinitePorts}${+v.noDependencies}`;
  const seen = new Set<string>();
  const add = (v: Variant): void => { if (!seen.has(key(v))) { seen.add(key(v)); list.push(v); } };
  add(req.variant);
  const withSwitch = (sw: Partial<Variant>): Variant => ({ ...req.variant, ...sw });
  if (!req.fast) for (const sw of WHAT_IF_SWITCHES) add(withSwitch(sw));
  if (req.allVariants) {
    for (const v of allVariants()) add(withSwitch({ perfectFrontEnd: v.perfectFrontEnd, infinitePorts: v.infinitePorts, noDependencies: v.noDependencies }));
  }
  return list;
}

const WHAT_IF_SWITCHES: Partial<Variant>[] = [{ perfectFrontEnd: true }, { infinitePorts: true }, { noDependencies: true }];

/** One program's main run plus its what-if runs and (optionally) the 8 combinations. */
export function runSection(program: SimProgram, params: MachineParams, req: ReportRequest, sim: Simulate = simulate): { section: Section; result: SimResult } {
  const runs = new Map<string, VariantFigures>();
  const key = (v: Variant) => `${+v.perfectFrontEnd}${+v.infinitePorts}${+v.noDependencies}`;
  const result = sim(program, params, { iterations: req.iterations, variant: req.variant });
  runs.set(key(req.variant), figuresOf(req.variant, result));
  const run = (v: Variant): VariantFigures => {
    const known = runs.get(key(v));
    if (known) return known;
    const f = figuresOf(v, sim(program, params, { iterations: req.iterations, variant: v }));
    runs.set(key(v), f);
    return f;
  };
  // the future-work knobs (port capacity, front-end width, RS size) carry over into every run
  const withSwitch = (sw: Partial<Variant>): Variant => ({ ...req.variant, ...sw });
  let whatIf: WhatIf | null = null;
  if (!req.fast) {
    whatIf = {
      perfectFrontEnd: run(withSwitch({ perfectFrontEnd: true })),
      infinitePorts: run(withSwitch({ infinitePorts: true })),
      noDependencies: run(withSwitch({ noDependencies: true })),
    };
  }
  const combinations = req.allVariants
    ? allVariants().map((v) => run(withSwitch({ perfectFrontEnd: v.perfectFrontEnd, infinitePorts: v.infinitePorts, noDependencies: v.noDependencies })))
    : null;
  return { section: { stats: result.stats, whatIf, combinations }, result };
}

function figuresOf(variant: Variant, r: SimResult): VariantFigures {
  return { variant: { ...variant }, cycles: r.stats.cycles, blockThroughput: r.stats.blockThroughput, uopsPerCycle: r.stats.uopsPerCycle };
}
