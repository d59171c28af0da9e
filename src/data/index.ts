// The data stage's entry points (see docs/data.md).
export {
  loadMachine,
  listMachines,
} from './machines.js';
export { loadArchData } from './archData.js';
export { resolveInstructions } from './resolve.js';
export { listDataSources } from './sources.js';
export { importUopsXml, type CacheIndex } from './cache.js';
export { cacheRoot } from './paths.js';
export type * from './types.js';
