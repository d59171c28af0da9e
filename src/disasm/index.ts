// The disasm stage: bytes → instructions, regions, CFG and dependency graph.
// Its entry points; the shapes they return are in ./types.ts.
import { loadInput } from './input.js';
import { selectRegion } from './regions.js';
import type { InputOptions, LoadedRegion, RegionSelection } from './types.js';

export * from './types.js';
export { loadInput, inputFromBytes } from './input.js';
export {
  defaultRegion,
  listRegions,
  selectRegion,
  decodeChosenRegion,
  resolveRegion,
  functionExtent,
  functionLoops,
} from './regions.js';
export { buildCfg } from './cfg.js';
export { buildDependencyGraph, dependencyGraphOfPath, branchPaths, onlyLoopJumps } from './depgraph.js';

/** loadInput + selectRegion in one call. */
export async function loadRegion(opts: InputOptions & RegionSelection): Promise<LoadedRegion> {
  const input = await loadInput(opts);
  return selectRegion(input, opts);
}
