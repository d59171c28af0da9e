// Branch analysis (thesis §2.7): the two sides of the first conditional jump, simulated as two
// programs that keep the original line numbers.

import type { DecodedInstruction, DependencyGraph } from '../disasm/types.js';
import type { MachineModel, ResolvedInstruction } from '../data/types.js';
import { simulate } from './engine.js';
import type { EngineOptions } from './engine.js';
import { buildSimProgram } from './program.js';
import type { MachineParams, SimConfig, SimProgram, SimResult } from './types.js';

export interface BranchPrograms {
  /** line of the first conditional jump */
  branchLine: number;
  /** fall-through side */
  left: SimProgram;
  /** taken side */
  right: SimProgram;
}

export interface BranchResult {
  branchLine: number;
  left: SimResult;
  right: SimResult;
}

/**
 * The two programs of the branch analysis. `paths` is what src/disasm's `branchPaths` returns,
 * `graphs` the dependency graphs of both paths (src/disasm's `dependencyGraphOfPath`, edges in
 * original line numbers).
 */
export function buildBranchPrograms(
  instrs: DecodedInstruction[],
  paths: { branchLine: number; left: number[]; right: number[] },
  graphs: { left: DependencyGraph; right: DependencyGraph },
  resolved: ResolvedInstruction[],
  machine: MachineModel,
): BranchPrograms {
  return {
    branchLine: paths.branchLine,
    left: buildSimProgram(instrs, graphs.left, resolved, machine, { lines: paths.left }),
    right: buildSimProgram(instrs, graphs.right, resolved, machine, { lines: paths.right }),
  };
}

/** Simulate both sides with the same machine and configuration. */
export function simulateBranches(programs: BranchPrograms, machine: MachineParams, config: SimConfig, opts: EngineOptions = {}): BranchResult {
  return {
    branchLine: programs.branchLine,
    left: simulate(programs.left, machine, config, opts),
    right: simulate(programs.right, machine, config, opts),
  };
}
