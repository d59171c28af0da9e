// Which figures of a split view (a variant beside the baseline, the other model, the two sides of
// a branch) differ between its two sides at the displayed cycle, so that the panes can mark them:
// the Program pane's W R E D counts, each port's µop now and µops so far, the divider's line and
// the ready list, the Reservation pane's entries, the Statistics pane's per-line figures and its
// totals. Lines are matched by their numbers (the two sides of a branch share the lines on both
// paths; a line on one side only is not compared), ports by their numbers, station entries by
// their instance (line and iteration).
// Figures are compared as the report rounds them (two decimals), so that a difference below what
// any pane prints is not marked. Plain data, computed once per frame for both sides.
import type { LineCount, PortSlot, RsEntry, Snapshot, Stats } from '../sim/types.js';
import { dividerForms, inst, num, reason, stateWord } from './format.js';

/** Drawn in the column right before a figure that differs from the other side's (it takes the
 *  place of the space there, so nothing moves or is cut); the figure itself is drawn bold. */
export const DIFF_MARK = '▸';

export type CountKey = 'waiting' | 'ready' | 'executing' | 'done';
export const COUNT_KEYS: readonly CountKey[] = ['waiting', 'ready', 'executing', 'done'];

/** A Statistics cell: the line's µops, its wait, what it caused, or a port (`p3`). */
export type StatsKey = 'uops' | 'wait' | 'caused' | `p${number}`;

export interface PortDiff {
  /** the µop on the port this cycle (its instance, how many share it, ready or executing) */
  now: boolean;
  /** µops the port took so far */
  count: boolean;
}

export interface SplitDiff {
  /** line number → the counts of the Program pane that differ */
  program: ReadonlyMap<number, ReadonlySet<CountKey>>;
  /** port number → what of its column differs */
  ports: ReadonlyMap<number, PortDiff>;
  /** the Reservation panes' instances (`L3#2`, either side's) whose entry (state and why) differs
   *  from the other side's, or that are not in flight there */
  rs: ReadonlySet<string>;
  /** the divider's line differs */
  divider: boolean;
  /** the ready list differs */
  ready: boolean;
  /** line number → the Statistics cells that differ */
  stats: ReadonlyMap<number, ReadonlySet<StatsKey>>;
  /** the Statistics pane's total row: µops and the ports' totals */
  totals: ReadonlySet<StatsKey>;
}

/** What differs between two snapshots taken at the same cycle (the two sides of a split). */
export function splitDiff(a: Snapshot, b: Snapshot, opts: { ports: boolean } = { ports: true }): SplitDiff {
  const d: SplitDiff = {
    program: programDiff(a.lineCounts, b.lineCounts),
    ports: opts.ports ? portsDiff(a.ports, b.ports) : new Map(),
    rs: rsDiff(a, b),
    divider: dividerForms(a)[0] !== dividerForms(b)[0],
    ready: a.ready.map(inst).join(' ') !== b.ready.map(inst).join(' '),
    ...statsDiff(a.stats, b.stats, opts.ports),
  };
  return d;
}

/** A station entry as the Reservation pane prints it, but for its µop count (a fixed fact). */
const entryKey = (e: RsEntry): string => `${stateWord(e.state)} ${reason(e)}`;

/** Both sides' instances whose entries differ (one set for both panes, as the other figures);
 *  an instance of a line the other side does not have is not compared. */
function rsDiff(a: Snapshot, b: Snapshot): Set<string> {
  const out = new Set<string>();
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const lines = new Set(y.lineCounts.map((l) => l.line));
    const other = new Map(y.rs.map((e) => [inst(e), entryKey(e)]));
    for (const e of x.rs) if (lines.has(e.line) && other.get(inst(e)) !== entryKey(e)) out.add(inst(e));
  }
  return out;
}

function programDiff(a: readonly LineCount[], b: readonly LineCount[]): Map<number, Set<CountKey>> {
  const other = new Map(b.map((x) => [x.line, x]));
  const out = new Map<number, Set<CountKey>>();
  for (const x of a) {
    const y = other.get(x.line);
    if (!y) continue;
    const keys = new Set(COUNT_KEYS.filter((k) => x[k] !== y[k]));
    if (keys.size > 0) out.set(x.line, keys);
  }
  return out;
}

/** The µop on a port this cycle as the Ports pane names it (first instance, ready or not, how many). */
function nowKey(p: PortSlot): string {
  const first = p.uops[0];
  if (!first) return '·';
  return `${first.waitsForPort ? '○' : ''}L${first.line}#${first.iteration}+${p.uops.length - 1}`;
}

function portsDiff(a: readonly PortSlot[], b: readonly PortSlot[]): Map<number, PortDiff> {
  const other = new Map(b.map((p) => [p.port, p]));
  const out = new Map<number, PortDiff>();
  for (const p of a) {
    const q = other.get(p.port);
    if (!q) continue;
    const d = { now: nowKey(p) !== nowKey(q), count: p.cumulative !== q.cumulative };
    if (d.now || d.count) out.set(p.port, d);
  }
  return out;
}

/** A per-iteration figure as the panes print it at most precisely (blank and 0 alike for ports). */
const shown = (x: number | undefined, blankWhenZero = false): string =>
  x === undefined || (blankWhenZero && !x) ? '' : num(x);

function portKeys(a: Record<string, number>, b: Record<string, number>, blankWhenZero: boolean): StatsKey[] {
  const ports = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...ports]
    .filter((x) => shown(a[x] ?? 0, blankWhenZero) !== shown(b[x] ?? 0, blankWhenZero))
    .map((x) => `p${Number(x)}` as const);
}

function statsDiff(a: Stats, b: Stats, ports: boolean): Pick<SplitDiff, 'stats' | 'totals'> {
  const other = new Map(b.lines.map((l) => [l.line, l]));
  const stats = new Map<number, Set<StatsKey>>();
  for (const l of a.lines) {
    const m = other.get(l.line);
    if (!m) continue;
    const keys = new Set<StatsKey>(ports ? portKeys(l.ports, m.ports, true) : []);
    if (l.uops !== m.uops) keys.add('uops');
    if (shown(l.hadToWait) !== shown(m.hadToWait)) keys.add('wait');
    if (shown(l.causedToWait) !== shown(m.causedToWait)) keys.add('caused');
    if (keys.size > 0) stats.set(l.line, keys);
  }
  const totals = new Set<StatsKey>(ports ? portKeys(a.portTotals, b.portTotals, false) : []);
  if (a.totalUops !== b.totalUops) totals.add('uops');
  return { stats, totals };
}
