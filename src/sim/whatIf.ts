// The what-if runs of thesis §2.1: one program's main run, the three runs with one more switch
// turned on, and (optionally) all 8 combinations of the switches. `uopscope report` prints these
// (src/report/collect.ts), and the CLI hands their list to its worker threads first.

import { runKey, simulate, type EngineOptions } from './engine.js';
import { allVariants, variantKey, withSwitches } from './variants.js';
import {
  MECHANISMS,
  mechanismKey,
  resolveMechanisms,
  withMechanism,
  type Mechanism,
  type MechanismSet,
} from './mechanisms.js';
import type { MachineParams, SimConfig, SimProgram, SimResult, Variant } from './types.js';

export interface WhatIfRequest {
  iterations: number;
  /** the main run's variant; its knobs (port capacity, issue width, RS size) carry over into every run */
  variant: Variant;
  /** no what-if runs (SUACA's -p) */
  fast?: boolean;
  /** also the 8 combinations of the three switches */
  allVariants?: boolean;
  /** the model's mechanisms (src/sim/mechanisms.ts), for every run; default all off (SUACA's model) */
  mechanisms?: MechanismSet;
  /** run the main variant once per mechanism that is on with that one switched off (default:
   *  unless `fast`) */
  mechanismEffects?: boolean;
  /** with mechanismEffects, also each mechanism that is off switched on (the CLI's --all-variants) */
  allMechanismEffects?: boolean;
}

/** What one mechanism changes: the main run against the run with only that mechanism flipped. */
export interface MechanismEffect {
  mechanism: Mechanism;
  /** whether the main run has it on (then `flipped` is the run without it) */
  on: boolean;
  /** the run with this mechanism flipped */
  flipped: VariantFigures;
  /** block throughput with the mechanism minus without it (cycles per iteration; negative: it saves) */
  delta: number;
}

/** One simulation a request needs: a variant under a set of mechanisms. */
export interface WhatIfJob {
  variant: Variant;
  mechanisms: MechanismSet;
}

/** A stable key of a job: the variant's key, and the mechanisms' when any is on. */
export function jobKey(j: WhatIfJob): string {
  const m = mechanismKey(j.mechanisms);
  return m === 'suaca' ? variantKey(j.variant) : `${variantKey(j.variant)}/${m}`;
}

/** The engine options of a set of mechanisms (every switch named, so all off reaches the engine as
 *  all off: SUACA's model). */
export function engineOptionsOf(mechanisms: MechanismSet): EngineOptions {
  return { model: { mechanisms: { ...mechanisms } } };
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

interface WhatIfRuns {
  /** the main run, in full */
  main: SimResult;
  /** null when `fast` */
  whatIf: WhatIf | null;
  /** all 8 combinations in the order of allVariants(), or null */
  combinations: VariantFigures[] | null;
  /** per mechanism flipped, in the order of MECHANISMS; null when not run */
  mechanismEffects: MechanismEffect[] | null;
}

/** How one simulation is run (default: simulate; the CLI may hand in results it computed at once
 *  in worker threads). `opts.model.mechanisms` is the model's switches. */
export type Simulate = (
  program: SimProgram,
  params: MachineParams,
  config: SimConfig,
  opts?: EngineOptions,
) => SimResult;

/**
 * `sim` (default: simulate) for the runs of one report, run once per distinct engine input (runKey)
 * and the result handed to every later run whose inputs are identical: the run with a mechanism
 * switched off that changes nothing the engine reads on this program (no fused pair for
 * macro-fusion, no zero idiom, no eliminated move, no store→load pair, a front end not modelled on
 * this core) is the main run again, exactly. What reaches `sim` is only the runs whose inputs differ.
 */
export function sharingIdenticalRuns(sim: Simulate = simulate): Simulate {
  // per program and machine: the results by key; the first run's key is computed only when a
  // second run is asked (a report with one run, --fast, computes none)
  interface Runs {
    first: { config: SimConfig; opts: EngineOptions | undefined; result: SimResult } | null;
    byKey: Map<string, SimResult>;
  }
  const byProgram = new WeakMap<SimProgram, WeakMap<MachineParams, Runs>>();
  return (program, params, config, opts) => {
    let byMachine = byProgram.get(program);
    if (!byMachine) {
      byMachine = new WeakMap();
      byProgram.set(program, byMachine);
    }
    const runs = byMachine.get(params);
    if (!runs) {
      const result = sim(program, params, config, opts);
      byMachine.set(params, {
        first: { config: copyConfig(config), opts: copyOptions(opts), result },
        byKey: new Map(),
      });
      return result;
    }
    if (runs.first !== null) {
      runs.byKey.set(runKey(program, params, runs.first.config, runs.first.opts), runs.first.result);
      runs.first = null;
    }
    const key = runKey(program, params, config, opts);
    let r = runs.byKey.get(key);
    if (!r) {
      r = sim(program, params, config, opts);
      runs.byKey.set(key, r);
    }
    return r;
  };
}

/** Copies of what a run was asked with (its key may be computed later). */
function copyConfig(c: SimConfig): SimConfig {
  return { ...c, variant: { ...c.variant } };
}
function copyOptions(o: EngineOptions | undefined): EngineOptions | undefined {
  if (o === undefined) return undefined;
  return {
    ...o,
    ...(o.model
      ? { model: { ...o.model, ...(o.model.mechanisms ? { mechanisms: { ...o.model.mechanisms } } : {}) } }
      : {}),
  };
}

const ONE_MORE: Record<keyof WhatIf, Partial<Variant>> = {
  perfectFrontEnd: { perfectFrontEnd: true },
  infinitePorts: { infinitePorts: true },
  noDependencies: { noDependencies: true },
};

/** Every variant simulateWhatIfs runs for `req` under its mechanisms, the main run's first, each once. */
export function whatIfVariants(req: WhatIfRequest): Variant[] {
  const byKey = new Map<string, Variant>();
  const add = (v: Variant): void => {
    const k = variantKey(v);
    if (!byKey.has(k)) byKey.set(k, v);
  };
  add(req.variant);
  if (!req.fast) for (const sw of Object.values(ONE_MORE)) add(withSwitches(req.variant, sw));
  if (req.allVariants) for (const v of allVariants()) add(withSwitches(req.variant, v));
  return [...byKey.values()];
}

/** The mechanisms flipped one at a time for `req`'s effects (none when not asked). */
function flippedMechanisms(req: WhatIfRequest): Mechanism[] {
  const mech = resolveMechanisms(req.mechanisms);
  if (!(req.mechanismEffects ?? !req.fast)) return [];
  return MECHANISMS.filter((k) => mech[k] || req.allMechanismEffects === true);
}

/** Every simulation simulateWhatIfs runs for `req` (the what-if variants under the request's
 *  mechanisms, then the main variant with each mechanism flipped), the main run's first, each once:
 *  the list the CLI hands to its worker threads. */
export function whatIfJobs(req: WhatIfRequest): WhatIfJob[] {
  const mech = resolveMechanisms(req.mechanisms);
  const jobs: WhatIfJob[] = whatIfVariants(req).map((variant) => ({ variant, mechanisms: { ...mech } }));
  for (const k of flippedMechanisms(req))
    jobs.push({ variant: req.variant, mechanisms: withMechanism(mech, k, !mech[k]) });
  const seen = new Set<string>();
  return jobs.filter((j) => {
    const key = jobKey(j);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The main run plus its what-if runs (and combinations, and the mechanisms' effects); a run asked
 *  twice runs once, and so does (by default: sharingIdenticalRuns) a run whose engine inputs are
 *  those of a run made already. */
export function simulateWhatIfs(
  program: SimProgram,
  params: MachineParams,
  req: WhatIfRequest,
  sim: Simulate = sharingIdenticalRuns(),
): WhatIfRuns {
  const mech: MechanismSet = resolveMechanisms(req.mechanisms);
  const runs = new Map<string, VariantFigures>();
  const once = (j: WhatIfJob): VariantFigures => {
    const k = jobKey(j);
    let f = runs.get(k);
    if (!f) {
      f = figuresOf(
        j.variant,
        sim(program, params, { iterations: req.iterations, variant: j.variant }, engineOptionsOf(j.mechanisms)),
      );
      runs.set(k, f);
    }
    return f;
  };
  const main = sim(program, params, { iterations: req.iterations, variant: req.variant }, engineOptionsOf(mech));
  const mainFigures = figuresOf(req.variant, main);
  runs.set(jobKey({ variant: req.variant, mechanisms: mech }), mainFigures);
  const run = (sw: Partial<Variant>): VariantFigures =>
    once({ variant: withSwitches(req.variant, sw), mechanisms: mech });
  const whatIf: WhatIf | null = req.fast
    ? null
    : {
        perfectFrontEnd: run(ONE_MORE.perfectFrontEnd),
        infinitePorts: run(ONE_MORE.infinitePorts),
        noDependencies: run(ONE_MORE.noDependencies),
      };
  const combinations = req.allVariants
    ? allVariants().map((v) =>
        run({ perfectFrontEnd: v.perfectFrontEnd, infinitePorts: v.infinitePorts, noDependencies: v.noDependencies }),
      )
    : null;
  const flips = flippedMechanisms(req);
  const mechanismEffects: MechanismEffect[] | null =
    flips.length === 0
      ? null
      : flips.map((k) => {
          const flipped = once({ variant: req.variant, mechanisms: withMechanism(mech, k, !mech[k]) });
          const on = mech[k];
          const delta = on
            ? mainFigures.blockThroughput - flipped.blockThroughput
            : flipped.blockThroughput - mainFigures.blockThroughput;
          return { mechanism: k, on, flipped, delta };
        });
  return { main, whatIf, combinations, mechanismEffects };
}

function figuresOf(variant: Variant, r: SimResult): VariantFigures {
  return {
    variant: { ...variant },
    cycles: r.stats.cycles,
    blockThroughput: r.stats.blockThroughput,
    uopsPerCycle: r.stats.uopsPerCycle,
  };
}
