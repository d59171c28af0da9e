// What the header says, as plain text computed from the state: what is simulated (line 1), where
// the run is (line 2), and the measurement (M) on a line of its own. The Header component only
// draws these lines; the tests read them without Ink.
import type { Snapshot } from '../sim/types.js';
import { simulatesNothing } from '../sim/stats.js';
import { num } from './format.js';
import { paneName, shortVariant, variantLabel } from './panes.js';
import { DATA_MEMORY_WHAT_IF } from '../sim/refine.js';
import { modelLabel } from './modelMenu.js';
import { isFinished, type ExplorerState } from './state.js';

/** Iterations' worth of completed instances: whole when large, else to one decimal (2.5). */
export function iterationsDone(x: number): string {
  return Number.isInteger(x) || x >= 100 ? String(Math.floor(x)) : x.toFixed(1);
}

/**
 * Whole iterations complete by a snapshot: every line's instance of them done (the fewest done
 * of any line; all of them at the run's end). Rates "so far" divide by these, not by the
 * average of the lines' done counts, which runs ahead of the iterations that really finished;
 * the engine's statistics (Stats.iterationsCompleted) count them the same way.
 */
function completedIterations(s: Snapshot): number {
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

/** The rate so far and what it is over, longest first (the header takes the first that fits):
 *  c/iter is always cycles per complete iteration. */
function throughputSoFar(s: Snapshot): string[] {
  if (simulatesNothing(s.stats)) return ['no throughput: no line has data, nothing simulated', 'no throughput'];
  const n = completedIterations(s);
  if (!(n > 0)) return ['c/iter – (first iteration not complete)', 'c/iter – (none complete)', 'c/iter –'];
  return s.finished
    ? [`${num(rateSoFar(s))} c/iter over all ${n} iterations`, `${num(rateSoFar(s))} c/iter (all ${n})`]
    : [`${num(rateSoFar(s))} c/iter over ${n} complete iter.`, `${num(rateSoFar(s))} c/iter (${n} complete)`];
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

/** `text` in at most `room` columns, its end cut with '…' (at least `min` columns kept). */
function elide(text: string, room: number, min: number): string | null {
  if (text.length <= room) return text;
  return room >= min ? `${text.slice(0, room - 1)}…` : null;
}

/**
 * Line 1: the file, the region, the architecture, the iterations, the model and the variant, in
 * `width` columns. The iterations, the model and the variant are never dropped: the
 * architecture's long name goes first, then the variant's long label, then the file's and the
 * region's names are cut with '…'.
 */
function whatLine(state: ExplorerState, width: number): string {
  const { layout } = state;
  const session = layout.session;
  const file = session.file.split(/[\\/]/).pop() ?? session.file; // the name; the export has the path
  // the worst case of the loads through data, when its pane is shown
  const memory = layout.panes.some((p) => p.spec.memoryThroughData);
  const worst = (short: number) =>
    !memory ? '' : short ? ` | ${DATA_MEMORY_WHAT_IF.short}` : ` beside ${DATA_MEMORY_WHAT_IF.label}`;
  const variant = (short: number) =>
    layout.branches
      ? `${short > 1 ? '' : 'branches: '}jump at line ${session.branches?.branchLine}`
      : `${short > 1 ? '' : 'variant: '}${short ? shortVariant(layout.variants) : variantLabel(layout.variants)}${worst(short)}`;
  // longest first: the architecture's name, then the variant's long label, then the words go
  const tails: [string, string][] = [];
  const o = layout.other;
  const archs = o
    ? [`${session.arch} (${session.archName}) beside ${o.arch} (${o.archName})`, `${session.arch} beside ${o.arch}`]
    : [`${session.arch} (${session.archName})`, session.arch];
  for (const short of [0, 1, 2])
    for (const arch of archs)
      tails.push([arch, ` · ${layout.iterations} iter · ${modelLabel(layout, short > 0)} · ${variant(short)}`]);
  for (const [arch, tail] of tails) {
    const full = `${file} · ${session.region} · ${arch}${tail}`;
    if (full.length <= width) return full;
  }
  // the shortest tail, the file's and the region's names cut with '…' to make room
  const [arch, tail] = tails[tails.length - 1]!;
  const rest = ` · ${arch}${tail}`;
  const room = width - rest.length - 3; // ' · ' between file and region
  const fileRoom = Math.max(4, Math.min(file.length, Math.floor(room / 2)));
  const name = elide(file, fileRoom, 4);
  const region = elide(session.region, room - (name?.length ?? 0), 5);
  if (name !== null && region !== null) return `${name} · ${region}${rest}`;
  return `${arch}${tail}`;
}

/** Line 2's rate: the only pane's, or each pane's named (split panes; a side whose run is over
 *  says so), the first form that fits `room` (the last one otherwise). */
function rateText(state: ExplorerState, room: number): string {
  const { layout } = state;
  if (layout.panes.length === 1) return fitFirst(throughputSoFar(state.snaps[0]!), room);
  const names = layout.panes.map((_, i) => paneName(layout, i));
  const figs = state.snaps.map((s) => {
    const n = completedIterations(s);
    const fig = simulatesNothing(s.stats) ? 'none' : n > 0 ? num(rateSoFar(s)) : '–';
    return { fig, n, done: s.finished && !isFinished(state) ? ' finished' : '' };
  });
  const forms = [
    figs.map((f, i) => `${names[i]}${f.done}: ${f.fig} c/iter (${f.n} complete)`).join(' │ '),
    `c/iter: ${figs.map((f, i) => `${names[i]}${f.done} ${f.fig} (${f.n} complete)`).join(' │ ')}`,
    `c/iter: ${figs.map((f, i) => `${names[i]}${f.done} ${f.fig}`).join(' │ ')}`,
    `c/iter: ${figs.map((f, i) => `${i === 0 ? 'left' : 'right'}${f.done} ${f.fig}`).join(' │ ')}`,
  ];
  return fitFirst(forms, room);
}

/** Lines without figures, warned of first (on a core split: on which core; none: ''). */
function incompleteWarning(layout: ExplorerState['layout']): string {
  const cores = layout.other ? [layout.session, layout.other] : [layout.session];
  const parts = cores.flatMap((c) => {
    const missing = c.lines.filter((l) => l.origin === 'none').length;
    if (!missing) return [];
    return [`${missing} line${missing === 1 ? '' : 's'} without figures${layout.other ? ` on ${c.arch}` : ''}`];
  });
  return parts.length ? `INCOMPLETE: ${parts.join(', ')} (?) · ` : '';
}

export function headerLines(state: ExplorerState, width: number): HeaderLines {
  const { layout } = state;
  const what = whatLine(state, width);
  const totals = state.totals;
  const total = totals.every((t) => t !== null) ? String(Math.max(...totals.map((t) => t!.cycles))) : '…';
  const finished = isFinished(state);
  const status =
    state.busy ?? (finished ? 'finished' : state.playing ? `playing ${state.speed}/s` : `paused (${state.speed}/s)`);
  const warn = incompleteWarning(layout);
  const cycle = `cycle ${state.cycle} of ${total}`;
  const room = width - warn.length - cycle.length - status.length - 6;
  const rate = rateText(state, room);
  // busy: said before the rest, so that it is never cut off
  const where = warn + (state.busy ? `${cycle} · ${state.busy} · ${rate}` : `${cycle} · ${rate} · ${status}`);
  return { what, where, warn: warn !== '' };
}
