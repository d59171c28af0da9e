// The data stage's entry points (see docs/data.md).
export { loadMachine, listMachines, validateMachine, inheritanceChain, ARCH_ORDER } from './machines.js';
export { loadArchData, type LoadArchOptions } from './archData.js';
export { resolveInstructions, entryLatency, unknownLines, type ResolveOptions, type Fallback } from './resolve.js';
export { listDataSources, type DataSourceRow } from './sources.js';
export { importUopsXml, readIndex, type CacheIndex, type ImportOptions } from './cache.js';
export { parseUopsXmlFile, parseUopsXmlText, type ParsedUops, type ParseOptions } from './uopsXml.js';
export { parsePorts, formatPorts, portUops } from './ports.js';
export { cacheRoot, cacheDir, assetsDir, packageRoot, CACHE_VERSION } from './paths.js';
export { embeddedDir, embeddedFiles } from './embedded.js';
export type * from './types.js';
