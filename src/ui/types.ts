// What the explorer is given: plain data plus factories and callbacks. The UI never reads files,
// never builds a program and never computes the model: engines come from `makeEngine`, another
// architecture from `loadArch`, and the export is written by `saveExport`.
import type { Engine, EngineRun, Variant } from '../sim/types.js';
import type { VariantSwitch } from '../sim/variants.js';
import type { FigureOrigin } from '../data/types.js';
import type { MechanismSet } from '../sim/mechanisms.js';

/** One instruction of the region, with where its figures come from. */
export interface SessionLine {
  line: number;
  asm: string;
  /** the source of the line's figures ('none': no source has any; the engine left it out) */
  origin?: FigureOrigin;
  /** a short note on the figures: the LLVM record and CPU, or why there are none */
  figures?: string;
}
import type { Divergence } from './compare.js';

/** One side of the first conditional jump (thesis §2.7), ready to simulate. */
interface BranchPathSource {
  label: string; // 'fall-through', 'taken'
  /** original line numbers of the path, in execution order */
  lines: number[];
  makeEngine(variant: Variant, iterations: number, mechanisms?: MechanismSet): Engine;
}

/** Everything about one region on one architecture. */
export interface ExplorerSession {
  /** the input as the user gave it (the header shows its name) */
  file: string;
  region: string;
  arch: string; // 'SKL'
  archName: string; // 'Skylake (client)'
  ports: number[];
  /** the port of the divider pipe (the per-line table's DV column follows it) */
  dividerPort: number;
  /** the ports' names, one per entry of `ports`, on a core whose record names them (AMD's pipes) */
  portNames?: string[];
  /** on a core with several scheduler queues (AMD's Zen): their total entries; the what-ifs act
   *  on the queues, and the variant pane's title says so */
  queueTotal?: number;
  /** the region's instructions (line numbers as in the engine's snapshots) */
  lines: SessionLine[];
  /** where the figures come from, e.g. '17 lines: 15 LLVM 19 model, 2 SUACA thesis' */
  figures?: string;
  /** an engine of the region; `mechanisms`: the model's switches (absent: SUACA's model) */
  makeEngine(variant: Variant, iterations: number, mechanisms?: MechanismSet): Engine;
  /** `choice`: why that jump (the earlier conditional jumps it passes over) */
  branches: { branchLine: number; choice?: string; paths: [BranchPathSource, BranchPathSource] } | null;
  /** when `branches` is null: why there is nothing to compare (default: no conditional jump) */
  noBranches?: string;
  /** the loop's loads that may read the previous iteration's store, as only the data can tell
   *  (src/sim/refine.ts dataMemoryPairs: `store` → `load` by line; absent: the loop has none),
   *  and an engine of the region in which each such load does (the worst case) */
  memoryThroughData?: {
    pairs: { store: number; load: number }[];
    makeEngine(variant: Variant, iterations: number, mechanisms?: MechanismSet): Engine;
  };
  /** one-line notes for the user (unknown instructions, data source) */
  notes?: string[];
  /** the model's notes with these mechanisms, as the report prints them (what the mechanisms
   *  did, and what is not modelled on this core) */
  modelNotes?(mechanisms: MechanismSet): string[];
  /** long computations off the UI thread (a worker); without it they run between frames */
  offload?: Offload;
}

/** Which run a pane shows: a variant of the whole region, or of one side of the branch. */
export interface PaneSpec {
  variant: Variant;
  /** null: the whole region; 0: fall-through side; 1: taken side */
  branch: 0 | 1 | null;
  /** the model's mechanisms (absent: SUACA's model) */
  mechanisms?: MechanismSet;
  /** 1: the other core of a two-core split (PaneLayout.other); absent: the session's core */
  core?: 1;
  /** the worst case of the loads through data (ExplorerSession.memoryThroughData) */
  memoryThroughData?: true;
}

export interface Cancellable<T> {
  promise: Promise<T>;
  cancel(): void;
}

/** The whole run of a pane, as the engine computes it. */
export interface RunTotal {
  cycles: number;
  /** the final statistics' block throughput */
  blockThroughput: number;
  /** the run as the worker's engine computed it: the pane's engine adopts it, so that `G`, the
   *  run's length and far seeks do not simulate it again on the interface thread */
  run?: EngineRun;
}

export interface Offload {
  wholeRun(pane: PaneSpec, iterations: number): Cancellable<RunTotal>;
  divergence(a: PaneSpec, b: PaneSpec, iterations: number): Cancellable<Divergence>;
}

export interface ArchChoice {
  arch: string;
  name: string;
  /** shown beside the name, e.g. that there is no data for it */
  note?: string;
}

export type QuitHow = 'quit' | 'interrupt';

/** A native measurement of the region on this machine (src/cli/explorerMeasure.ts makes it). */
export type MeasureOutcome =
  | { ok: true; cyclesPerIteration: number; method: 'perf' | 'tsc'; variant: 'loop' | 'unrolled' }
  /** a branch inside: each side of the branch comparison (fall-through, taken) as straight-line
   *  code; a side that could not run has null and its reason */
  | { ok: true; sides: MeasuredSideOutcome[]; method: 'perf' | 'tsc'; variant: 'loop' | 'unrolled' }
  | { ok: false; reason: string };

export interface MeasuredSideOutcome {
  label: string;
  cyclesPerIteration: number | null;
  reason?: string;
}

/** What the explorer's measure key runs (in the background: a child process). */
export interface MeasureRunner {
  /** uopscope's name for this host's core, null when it has no model for it */
  hostArch: string | null;
  /** why nothing can be measured at all here (not Linux x86-64), when so */
  unavailable?: string;
  run(): Cancellable<MeasureOutcome>;
}

export interface ExplorerProps {
  session: ExplorerSession;
  iterations: number;
  /** the model the explorer starts with (absent: the default model, src/sim/mechanisms.ts) */
  mechanisms?: MechanismSet;
  /** the same region on another core, shown beside this one from the start (the core split) */
  compareSession?: ExplorerSession;
  archs: ArchChoice[];
  /** builds the same region for another architecture (I/O lives in the caller) */
  loadArch(arch: string): Promise<ExplorerSession>;
  /** writes the export atomically to `path` (as typed at the prompt: relative to the export
   *  directory), returns the path written, with a note when it is not the one typed (an
   *  existing file is never replaced) */
  saveExport(text: string, path: string): Promise<string | { path: string; note: string }>;
  /** the path `x` proposes (shown in its prompt, to accept or change) */
  exportPath?(): string;
  /** colours on/off (off under NO_COLOR); state is always shown by symbols or words too */
  color?: boolean;
  /** fixed terminal size (tests); otherwise stdout's columns/rows, followed on resize */
  size?: { columns: number; rows: number };
  /** called after the user quits, before unmount: 'quit' (q) or 'interrupt' (Ctrl-C, which
   *  ends the program with status 130 as terminal programs do) */
  onQuit?(how: QuitHow): void;
  /** Ctrl-Z: give the terminal back and stop until the shell resumes the program, then call
   *  `resumed` (the screen is drawn again); without it Ctrl-Z does nothing */
  onSuspend?(resumed: () => void): void;
  /** runs the region natively for the measure key (M); without it M says it is not available */
  measure?: MeasureRunner;
}

/** A what-if switch the explorer toggles (names and labels: src/sim/variants.ts). */
export type VariantKey = VariantSwitch;

/** One column of the screen: what it simulates (plain data; its engine is the controller's). */
export interface PaneInfo {
  id: string;
  title: string;
  /** original line numbers this pane simulates, in program order */
  lines: number[];
  spec: PaneSpec;
}

export type TabId = 'program' | 'rs' | 'ports' | 'stats';
export const TABS: { id: TabId; label: string }[] = [
  { id: 'program', label: 'Program' },
  { id: 'rs', label: 'Reservation station' },
  { id: 'ports', label: 'Ports & front end' },
  { id: 'stats', label: 'Statistics' },
];
