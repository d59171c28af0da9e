// Branch analysis (thesis §2.7): the two sides of the first conditional jump as two programs
// that keep the original line numbers. The report and the explorer both simulate these.

import type { DecodedInstruction, DependencyGraph } from '../disasm/types.js';
import type { ResolvedInstruction } from '../data/types.js';
import { buildSimProgram, type BuildOptions } from './program.js';
import type { SimProgram } from './types.js';

export interface BranchPrograms {
  /** line of the first conditional jump to a later line of the region */
  branchLine: number;
  /** why that jump (src/disasm's branchPaths): the earlier conditional jumps it passes over */
  choice?: string;
  /** fall-through side */
  left: SimProgram;
  /** taken side */
  right: SimProgram;
  /** original line numbers of each side, in execution order */
  leftLines: number[];
  rightLines: number[];
}

/**
 * The two programs of the branch analysis. `paths` is what src/disasm's `branchPaths` returns,
 * `graphs` the dependency graphs of both paths (src/disasm's `dependencyGraphOfPath`, edges in
 * original line numbers).
 */
export function buildBranchPrograms(
  instrs: DecodedInstruction[],
  paths: { branchLine: number; left: number[]; right: number[]; choice?: string },
  graphs: { left: DependencyGraph; right: DependencyGraph },
  resolved: ResolvedInstruction[],
  /** the machine model (and region start) for the refined model's facts, as buildSimProgram */
  facts: Omit<BuildOptions, 'lines'> = {},
): BranchPrograms {
  return {
    branchLine: paths.branchLine,
    ...(paths.choice ? { choice: paths.choice } : {}),
    left: buildSimProgram(instrs, graphs.left, resolved, { ...facts, lines: paths.left }),
    right: buildSimProgram(instrs, graphs.right, resolved, { ...facts, lines: paths.right }),
    leftLines: paths.left,
    rightLines: paths.right,
  };
}
