// The built-in data sources, in resolution order (each one's rank): an imported uops.info file,
// then the figures uopscope measured for the core, then the embedded thesis and uops.info facts,
// then the LLVM model with cited corrections, then the LLVM model. Importing this module
// registers them; src/data/archData.ts and src/data/sources.ts do.
import { correctionsProvider } from './corrections.js';
import { embeddedProvider } from './embedded.js';
import { llvmProvider } from './llvm.js';
import { measuredProvider } from './measured.js';
import { providerList, registerProvider } from './registry.js';
import { uopsInfoFileProvider } from './uopsInfoFile.js';

for (const p of [uopsInfoFileProvider, measuredProvider, embeddedProvider, correctionsProvider, llvmProvider]) {
  if (!providerList().some((x) => x.id === p.id)) registerProvider(p);
}

export { providerList, registerProvider, unregisterProvider } from './registry.js';
export type { DataSourceRow, FigureLayer, FigureProvider } from './registry.js';
