// What the header says, as plain text computed from the state: what is simulated (line 1), where
// the run is (line 2), and the measurement (M) on a line of its own. The Header component only
// draws these lines; the tests read them without Ink.
import type { Snapshot } from '../sim/types.js';
import { mechanismLabel } from '../sim/mechanisms.js';
import { simulatesNothing } from '../sim/stats.js';
import { num } from './format.js';
import { variantLabel } from './panes.js';
import { isFinished, type ExplorerState } from './state.js';

/** Iterations' worth of completed instances: whole when large, else to one decimal (2.5). */
export function iterationsDone(x: number): string {
  return Number.isInteger(x) || x >= 100 ? String(Math.floor(x)) : x.toFixed(1);
}

/**
 * Whole iterations complete by a snapshot: every line's instance of them done (the fewest done
 * of any line; all of them at the run's end). Rates "so far" divide by these, not by the
 * average of the lines' done counts, which runs ahead of the iterations that really finished.
 */
export function completedIterations(s: Snapshot): number {
  if (s.finished) return s.stats.iterations;
  if (s.lineCounts.length === 0) return 0;
  return Math.min(...s.lineCounts.map((l) => l.done));
}

/** Cycles per completed iteration so far (NaN before the first is complete). */
export function rateSoFar(s: Snapshot): number {
  if (s.finished) return s.stats.blockThroughput;
  const n = completedIterations(s);
  return n > 0 ? s.cycle / n : NaN;
}

/** The rate so far and what it is over: the iterations completed, not all of them. */
export function throughputSoFar(s: Snapshot): string {
  if (simulatesNothing(s.stats)) return 'no throughput: no line has data, nothing simulated';
  const n = completedIterations(s);
  if (!(n > 0)) return 'c/iter – (no iteration complete yet)';
  return s.finished
    ? `${num(rateSoFar(s))} c/iter over all ${n} iterations`
    : `${num(rateSoFar(s))} c/iter over ${n} complete iter.`;
}

export interface HeaderLines {
  /** line 1: file, region, architecture, iterations, model, variant */
  what: string;
  /** line 2: the cycle, the rate so far, what runs */
  where: string;
  /** line 2 starts with a warning (lines without figures) */
  warn: boolean;
}

function fitFirst(candidates: string[], width: number): string {
  return candidates.find((c) => c.length <= width) ?? candidates[candidates.length - 1]!;
}

export function headerLines(state: ExplorerState, width: number): HeaderLines {
  const { layout } = state;
  const session = layout.session;
  const file = session.file.split(/[\\/]/).pop() ?? session.file; // the name; the export has the path
  const variants = layout.branches ? `jump at line ${session.branches?.branchLine}` : variantLabel(layout.variants);
  const model = mechanismLabel(layout.mechanisms);
  const tail = ` · ${layout.iterations} iter · ${model} · ${layout.branches ? 'branches' : 'variant'}: ${variants}`;
  const what = fitFirst(
    [
      `${file} · ${session.region} · ${session.arch} (${session.archName})${tail}`,
      `${file} · ${session.region} · ${session.arch}${tail}`,
      `${file} · ${session.arch}${tail}`,
      `${session.arch}${tail}`,
    ],
    width,
  );
  const totals = state.totals;
  const total = totals.every((t) => t !== null) ? String(Math.max(...totals.map((t) => t!.cycles))) : '…';
  const finished = isFinished(state);
  const status =
    state.busy ?? (finished ? 'finished' : state.playing ? `playing ${state.speed}/s` : `paused (${state.speed}/s)`);
  const missing = session.lines.filter((l) => l.origin === 'none').length;
  const warn = missing ? `INCOMPLETE: ${missing} line${missing === 1 ? '' : 's'} without figures (?) · ` : '';
  // split panes: the rate is the left pane's, and says so
  const whose = layout.panes.length > 1 ? `${layout.panes[0]!.title.replace(/ \(.*\)$/, '')}: ` : '';
  const rate = whose + throughputSoFar(state.snaps[0]!);
  // busy: said before the rest, so that it is never cut off
  const where =
    warn +
    (state.busy
      ? `cycle ${state.cycle} of ${total} · ${state.busy} · ${rate}`
      : `cycle ${state.cycle} of ${total} · ${rate} · ${status}`);
  return { what, where, warn: warn !== '' };
}
