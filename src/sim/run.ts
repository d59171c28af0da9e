// Running the baseline and the what-if variants together (what the report prints).

import { simulate } from './engine.js';
import type { EngineOptions } from './engine.js';
import { allVariants, standardVariants, variantKey } from './variants.js';
import { BASELINE } from './types.js';
import type { MachineParams, SimProgram, SimResult, Variant } from './types.js';

export interface VariantsResult {
  baseline: SimResult;
  /** block throughput per variant key ('perfectFrontEnd', 'infinitePorts', 'noDependencies', and
   *  combinations such as 'perfectFrontEnd+noDependencies' when `all` is asked) */
  throughputs: Record<string, number>;
  /** full results per variant key */
  results: Record<string, SimResult>;
}

/**
 * The baseline (with `base` knobs such as portCapacity/issueWidth/rsSize applied) plus the three
 * what-if variants, or all 8 combinations when `all`.
 */
export function simulateVariants(
  program: SimProgram,
  machine: MachineParams,
  iterations: number,
  opts: { all?: boolean; base?: Partial<Variant>; only?: Variant[] } & EngineOptions = {},
): VariantsResult {
  const base: Variant = { ...BASELINE, ...opts.base };
  const baseline = simulate(program, machine, { iterations, variant: base }, opts);
  const list: Variant[] = opts.only ?? (opts.all
    ? allVariants().filter((v) => v.perfectFrontEnd || v.infinitePorts || v.noDependencies)
    : standardVariants().map((s) => s.variant));
  const throughputs: Record<string, number> = {};
  const results: Record<string, SimResult> = {};
  for (const v of list) {
    const variant: Variant = { ...base, perfectFrontEnd: v.perfectFrontEnd || base.perfectFrontEnd,
      infinitePorts: v.infinitePorts || base.infinitePorts, noDependencies: v.noDependencies || base.noDependencies };
    const r = simulate(program, machine, { iterations, variant }, opts);
    const key = variantKey({ perfectFrontEnd: v.perfectFrontEnd, infinitePorts: v.infinitePorts, noDependencies: v.noDependencies });
    throughputs[key] = r.stats.blockThroughput;
    results[key] = r;
  }
  return { baseline, throughputs, results };
}
