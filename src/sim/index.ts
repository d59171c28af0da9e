// The engine's entry points (SUACA's model, thesis ch. 3). Pure: no I/O, no terminal, deterministic.
//
//   const program = buildSimProgram(region.instructions, graph, resolved);
//   const machine = machineParams(machineModel);
//   const result  = simulate(program, machine, { iterations: 200, variant: BASELINE });
//   const engine  = createEngine(program, machine, { iterations: 200, variant: BASELINE });
//   engine.step(); engine.seek(120); engine.runToEnd();

export type * from './types.js';
export { BASELINE } from './types.js';
export { buildSimProgram, machineParams, expandPorts, simInstruction } from './program.js';
export type { BuildOptions } from './program.js';
export { createEngine, runKey, runVariantOf, simulate } from './engine.js';
export { snapshotOf, stateName } from './snapshot.js';
export { simulatesNothing } from './stats.js';
export type { EngineOptions } from './engine.js';
export {
  VARIANT_SWITCHES,
  allVariants,
  isBaseline,
  variantKey,
  variantLabel,
  variantShortLabel,
  withLimitsBack,
  withSwitches,
} from './variants.js';
export type { SwitchInfo, VariantSwitch } from './variants.js';
export {
  engineOptionsOf,
  flippedMechanisms,
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
  WhatIf,
  WhatIfJob,
  WhatIfRequest,
  WhatIfRuns,
} from './whatIf.js';
export { buildBranchPrograms } from './branches.js';
export { frontEndLimitsOf, fusedPairsOf } from './engine.js';
export type { DeliveryGroup, FrontEndLimit, FrontEndLimits, FrontEndPlan, FrontEndSource } from './frontEndPlan.js';
export type { BranchPrograms } from './branches.js';
export { DEFAULT_MODEL, MAX_INSTANCES, PROGRESS_CYCLES } from './core.js';
export type { Progress } from './core.js';
export type { ModelOptions } from './core.js';
export {
  DEFAULT_MODEL_NAME,
  MECHANISMS,
  MECHANISM_INFO,
  MODEL_NAMES,
  REFINED_MECHANISMS,
  REFINED_OFF,
  SUACA_MECHANISMS,
  isSuaca,
  mechanismInfo,
  mechanismKey,
  mechanismLabel,
  mechanismsOf,
  resolveMechanisms,
  withMechanism,
} from './mechanisms.js';
export type { Mechanism, MechanismInfo, MechanismSet, ModelName } from './mechanisms.js';
