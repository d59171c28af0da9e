// The interactive explorer (Ink). Plain data and callbacks in, frames out.
export { Explorer } from './components/Explorer.js';
export { RegionPicker } from './components/RegionPicker.js';
export { exportText } from './exportText.js';
export { colorEnabled } from './theme.js';
export type { ExplorerProps, ExplorerSession, BranchPathSource, ArchChoice } from './types.js';
