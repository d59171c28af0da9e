// The data stage's entry points (see docs/data.md).
export {
  loadMachine,
  listMachines,
  validateMachine,
  inheritanceChain,
  archRank,
  machineByCompilerName,
} from './machines.js';
export { loadArchData, type LoadArchOptions } from './archData.js';
export { resolveInstructions, entryLatency, unknownLines, type ResolveOptions, type Fallback } from './resolve.js';
export { listDataSources, type DataSourceRow } from './sources.js';
export {
  providerList,
  registerProvider,
  unregisterProvider,
  type FigureLayer,
  type FigureProvider,
  type LayerHit,
  type ProviderContext,
} from './providers/index.js';
export {
  registerOrigin,
  unregisterOrigin,
  originList,
  originInfo,
  originLegend,
  originLetter,
  originText,
  hasCapability,
  type Capability,
  type OriginInfo,
} from './origins.js';
export { importUopsXml, readIndex, type CacheIndex, type ImportOptions } from './cache.js';
export { parseUopsXmlFile, parseUopsXmlText, type ParsedUops, type ParseOptions } from './uopsXml.js';
export { parsePorts, formatPorts, portUops } from './ports.js';
export { cacheRoot, cacheDir, assetsDir, packageRoot, CACHE_VERSION } from './paths.js';
export { embeddedDir, embeddedFiles } from './embedded.js';
export type * from './types.js';
