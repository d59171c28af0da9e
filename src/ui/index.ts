// The interactive explorer (Ink). Plain data and callbacks in, frames out.
export { Explorer } from './components/Explorer.js';
export { RegionPicker } from './components/RegionPicker.js';
export type { ExplorerProps } from './types.js';
