// The engine's entry points (SUACA's model, thesis ch. 3). Pure: no I/O, no terminal, deterministic.
//
//   const program = buildSimProgram(region.instructions, graph, resolved);
//   const machine = machineParams(machineModel);
//   const result  = simulate(program, machine, { iterations: 200, variant: BASELINE });
//   const engine  = createEngine(program, machine, { iterations: 200, variant: BASELINE });
//   engine.step(); engine.seek(120); engine.runToEnd();

export type * from './types.js';
export { BASELINE } from './types.js';
export { buildSimProgram, machineParams, expandPorts } from './program.js';
export { createEngine, runKey, runVariantOf, simulate } from './engine.js';
export { stateName } from './snapshot.js';
export type { EngineOptions } from './engine.js';
export {
  VARIANT_SWITCHES,
  allVariants,
  variantKey,
  variantLabel,
  withSwitches,
} from './variants.js';
export {
  engineOptionsOf,
  jobKey,
  sharingIdenticalRuns,
  simulateWhatIfs,
  whatIfJobs,
  whatIfVariants,
} from './whatIf.js';
export type {
  MechanismEffect,
  Simulate,
  VariantFigures,
  WhatIfJob,
  WhatIfRequest,
} from './whatIf.js';
export { buildBranchPrograms } from './branches.js';
export { frontEndLimitsOf, fusedPairsOf } from './engine.js';
export type { BranchPrograms } from './branches.js';
export { DEFAULT_MODEL, PROGRESS_CYCLES } from './core.js';
export type { ModelOptions } from './core.js';
export {
  DEFAULT_MODEL_NAME,
  MECHANISMS,
  MECHANISM_INFO,
  REFINED_MECHANISMS,
  REFINED_OFF,
  SUACA_MECHANISMS,
  mechanismsOf,
  resolveMechanisms,
  withMechanism,
} from './mechanisms.js';
export type { Mechanism, MechanismSet } from './mechanisms.js';
