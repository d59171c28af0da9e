// The what-if runs of thesis §2.1: one program's main run, the three runs with one more switch
// turned on, and (optionally) all 8 combinations of the switches. `uopscope report` prints these
// (src/report/collect.ts), and the CLI hands their list to its worker threads first.

import { simulate } from './engine.js';
import { allVariants, variantKey, withSwitches } from './variants.js';
import type { MachineParams, SimConfig, SimProgram, SimResult, Variant } from './types.js';

export interface WhatIfRequest {
  iterations: number;
  /** the main run's variant; its knobs (port capacity, issue width, RS size) carry over into every run */
  variant: Variant;
  /** no what-if runs (SUACA's -p) */
  fast?: boolean;
  /** also the 8 combinations of the three switches */
  allVariants?: boolean;
}

/** One simulation's headline figures. */
export interface VariantFigures {
  variant: Variant;
  cycles: number;
  blockThroughput: number;
  uopsPerCycle: number;
}

/**
 * The three what-if runs, each the main run's variant with one more switch turned on (so with a
 * perfect front end in the main run, the "perfect front-end" figure equals the main one).
 */
export interface WhatIf {
  perfectFrontEnd: VariantFigures;
  infinitePorts: VariantFigures;
  noDependencies: VariantFigures;
}

export interface WhatIfRuns {
  /** the main run, in full */
  main: SimResult;
  /** null when `fast` */
  whatIf: WhatIf | null;
  /** all 8 combinations in the order of allVariants(), or null */
  combinations: VariantFigures[] | null;
}

/** How one simulation is run (default: simulate; the CLI may hand in results it computed at once
 *  in worker threads). */
export type Simulate = (program: SimProgram, params: MachineParams, config: SimConfig) => SimResult;

const ONE_MORE: Record<keyof WhatIf, Partial<Variant>> = {
  perfectFrontEnd: { perfectFrontEnd: true },
  infinitePorts: { infinitePorts: true },
  noDependencies: { noDependencies: true },
};

/** Every variant simulateWhatIfs runs for `req`, the main run's first, each once. */
export function whatIfVariants(req: WhatIfRequest): Variant[] {
  const byKey = new Map<string, Variant>();
  const add = (v: Variant): void => { const k = variantKey(v); if (!byKey.has(k)) byKey.set(k, v); };
  add(req.variant);
  if (!req.fast) for (const sw of Object.values(ONE_MORE)) add(withSwitches(req.variant, sw));
  if (req.allVariants) for (const v of allVariants()) add(withSwitches(req.variant, v));
  return [...byKey.values()];
}

/** The main run plus its what-if runs (and combinations); a variant asked twice runs once. */
export function simulateWhatIfs(program: SimProgram, params: MachineParams, req: WhatIfRequest, sim: Simulate = simulate): WhatIfRuns {
  const runs = new Map<string, VariantFigures>();
  const main = sim(program, params, { iterations: req.iterations, variant: req.variant });
  runs.set(variantKey(req.variant), figuresOf(req.variant, main));
  const run = (sw: Partial<Variant>): VariantFigures => {
    const v = withSwitches(req.variant, sw);
    const k = variantKey(v);
    let f = runs.get(k);
    if (!f) { f = figuresOf(v, sim(program, params, { iterations: req.iterations, variant: v })); runs.set(k, f); }
    return f;
  };
  const whatIf: WhatIf | null = req.fast ? null : {
    perfectFrontEnd: run(ONE_MORE.perfectFrontEnd),
    infinitePorts: run(ONE_MORE.infinitePorts),
    noDependencies: run(ONE_MORE.noDependencies),
  };
  const combinations = req.allVariants
    ? allVariants().map((v) => run({ perfectFrontEnd: v.perfectFrontEnd, infinitePorts: v.infinitePorts, noDependencies: v.noDependencies }))
    : null;
  return { main, whatIf, combinations };
}

function figuresOf(variant: Variant, r: SimResult): VariantFigures {
  return { variant: { ...variant }, cycles: r.stats.cycles, blockThroughput: r.stats.blockThroughput, uopsPerCycle: r.stats.uopsPerCycle };
}
