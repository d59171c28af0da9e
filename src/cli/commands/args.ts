// The arguments of each command, and the shape of a command module: in one file that both a
// command's declaration (report.ts, …) and its work (reportRun.ts, …) import, so that neither
// imports the other for its types.
import type { Argv } from 'yargs';
import type { InputArgv } from '../regionOptions.js';
import type { ModelArgv } from '../modelOptions.js';
import type { MeasuredArgv } from '../dataOptions.js';
import type { VariantFlag } from '../../sim/variants.js';

/**
 * A command module adds its command(s) to the parser. Add yours to the list in index.ts. Keep the
 * module that declares a command cheap to load (yargs, the option definitions, nothing else):
 * every run of uopscope loads them all. The command's work goes into a separate module that
 * its handler loads with `await import(…)` (see report.ts and reportRun.ts).
 */
export type CommandModule = (y: Argv) => Argv;

/** --pf, --ip, --nd and the other options of `uopscope report`. */
export interface ReportArgs extends ModelArgv, MeasuredArgv, Partial<Record<VariantFlag, boolean>> {
  arch?: string;
  iterations?: number | string;
  portCapacity?: number | string;
  issueWidth?: number | string;
  rsSize?: number | string;
  fast?: boolean;
  allVariants?: boolean;
  branch?: boolean;
  detail?: number | string;
  json?: boolean;
  fallback?: string;
  uopsXml?: string;
  strict?: boolean;
  /** a second core: its report follows, then the two compared */
  compareArch?: string;
}

export interface ExploreArgv extends InputArgv, ModelArgv, MeasuredArgv {
  arch?: string;
  iterations?: string | number;
  uopsXml?: string;
  fallback?: 'skip' | 'alu';
  exportDir?: string;
  /** a second core shown beside the first from the start (the core split) */
  compareArch?: string;
}

export type GraphArgv = InputArgv & { cfg?: string; dg?: string; loop: boolean };

export type RegionsArgv = InputArgv & { json: boolean };

export type DisasmArgv = InputArgv &
  MeasuredArgv & {
    json: boolean;
    att: boolean;
    /** full lines in a terminal too */
    wide?: boolean;
    arch?: string;
    fallback: 'skip' | 'alu';
    uopsXml?: string;
  };

export interface MeasureArgv extends InputArgv, ModelArgv, MeasuredArgv {
  arch?: string;
  iterations?: string | number;
  repetitions?: string | number;
  json?: boolean;
  workingSet?: string;
  fill?: string;
}
