// The explorer's state as one value and what every action does to it: a reducer, testable without
// rendering (test/ui/state.test.ts). Engines are read through each pane's PaneCursor (snapshots
// by cycle), so that what the screen shows, the detail and the export all come from the
// displayed cycle. Slow work (an architecture's data, a run to the end) is done by the hook
// (useExplorer) and its result handed in as an action.
import type { LineDetail, Snapshot } from '../sim/types.js';
import { buildPanes } from './panes.js';
import { PaneCursor } from './snapshotCache.js';
import { DEFAULT_MODEL_NAME, mechanismsOf, type MechanismSet } from '../sim/mechanisms.js';
import { MODEL_ROWS } from './modelMenu.js';
import { TABS, type ExplorerSession, type PaneInfo, type RunTotal, type TabId, type VariantKey } from './types.js';

/** What a prompt asks for: a cycle, an iteration count, or the path of the export. */
export type PromptKind = 'goto' | 'iterations' | 'export';

export type Overlay =
  | { kind: 'none' }
  /** `page`: which screenful of the help (small terminals page through it with ?) */
  | { kind: 'help'; page: number }
  | { kind: 'detail' }
  | { kind: 'arch'; index: number }
  /** the model menu (key s): `index` into MODEL_ROWS */
  | { kind: 'model'; index: number }
  /** `fresh`: the text is the proposed value, shown selected: typing replaces it */
  | { kind: 'prompt'; what: PromptKind; text: string; fresh: boolean };

/** `n` looks this many cycles ahead at most (each one is a snapshot). */
export const ISSUE_SEARCH_LIMIT = 5000;

export const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/** Longest text a prompt takes (a path; numbers are limited by their parse). */
const PROMPT_MAX = 4096;

export interface View {
  session: ExplorerSession;
  iterations: number;
  variants: ReadonlySet<VariantKey>;
  branches: boolean;
  /** the model's mechanisms (src/sim/mechanisms.ts) */
  mechanisms: MechanismSet;
  /** the split pane compares the current model with the other one */
  compareModel: boolean;
  panes: PaneInfo[];
  snaps: Snapshot[];
  cycle: number;
}

export interface ExplorerState extends View {
  selected: number;           // index into session.lines
  overlay: Overlay;
  tab: TabId;
  playing: boolean;
  speed: number;              // cycles per second
  message: string;
  busy: string | null;        // 'loading HSW…'
  totals: (RunTotal | null)[];  // per pane, once known
  /** the architectures the picker lists (its index is into these) */
  archs: string[];
}

export type Action =
  | { type: 'seek'; cycle: number }
  | { type: 'step'; by: number }
  | { type: 'select'; by: number }
  | { type: 'rebuild'; patch: Partial<Pick<View, 'session' | 'iterations' | 'variants' | 'branches' | 'mechanisms' | 'compareModel'>>; message?: (v: View, before: View) => string }
  | { type: 'overlay'; overlay: Overlay }
  | { type: 'tab'; to: TabId | 'next' | 'prev' }
  | { type: 'play' }
  | { type: 'speed'; dir: 1 | -1 }
  | { type: 'total'; pane: PaneInfo; total: RunTotal }
  | { type: 'totals'; totals: RunTotal[] }
  | { type: 'message'; text: string }
  | { type: 'busy'; label: string | null }
  | { type: 'prompt-open'; what: PromptKind; text: string }
  | { type: 'prompt-type'; text: string }
  | { type: 'prompt-backspace' }
  | { type: 'prompt-keep' }
  | { type: 'arch-move'; by: number }
  | { type: 'model-move'; by: number };

const cursors = new WeakMap<PaneInfo, PaneCursor>();

/** The snapshot cache of a pane (one per pane, for as long as the pane exists). */
export function cursorOf(p: PaneInfo): PaneCursor {
  let c = cursors.get(p);
  if (!c) { c = new PaneCursor(p.engine); cursors.set(p, c); }
  return c;
}

function seekAll(panes: PaneInfo[], cycle: number): Snapshot[] {
  return panes.map((p) => cursorOf(p).at(cycle));
}

export function makeView(session: ExplorerSession, iterations: number, variants: ReadonlySet<VariantKey>,
  branches: boolean, cycle: number, model: { mechanisms?: MechanismSet; compareModel?: boolean } = {}): View {
  const mechanisms = { ...(model.mechanisms ?? mechanismsOf(DEFAULT_MODEL_NAME)) };
  const compareModel = model.compareModel ?? false;
  const panes = buildPanes(session, { variants, branches, iterations, mechanisms, compareModel });
  const snaps = seekAll(panes, cycle);
  return { session, iterations, variants, branches, mechanisms, compareModel, panes, snaps, cycle: Math.max(0, ...snaps.map((s) => s.cycle)) };
}

/** The first state: the baseline at cycle 0, the first note (missing data, else the source) shown. */
export function initialState(session: ExplorerSession, iterations: number, archs: string[], mechanisms?: MechanismSet): ExplorerState {
  const view = makeView(session, iterations, new Set(), false, 0, mechanisms ? { mechanisms } : {});
  return {
    ...view, selected: 0, overlay: { kind: 'none' }, tab: 'rs', playing: false, speed: 10,
    message: session.notes?.find((n) => n.startsWith('no figures')) ?? session.notes?.[0] ?? '',
    busy: null, totals: view.panes.map(() => null), archs,
  };
}

const finished = (s: View) => s.snaps.every((x) => x.finished);

function seek(s: ExplorerState, cycle: number): ExplorerState {
  const c = Math.max(0, Math.round(cycle));
  const snaps = seekAll(s.panes, c);
  const next = { ...s, snaps, cycle: Math.max(...snaps.map((x) => x.cycle)) };
  return finished(next) ? { ...next, playing: false } : next;
}

export function explorerReducer(s: ExplorerState, a: Action): ExplorerState {
  switch (a.type) {
    case 'seek':
      return Number.isFinite(a.cycle) ? seek(s, a.cycle) : s;
    case 'step':
      if (a.by > 0 && finished(s)) return s.playing ? { ...s, playing: false } : s;
      return seek(s, s.cycle + a.by);
    case 'select': {
      const n = s.session.lines.length;
      const selected = Math.max(0, Math.min(n - 1, s.selected + a.by));
      return selected === s.selected ? s : { ...s, selected };
    }
    case 'rebuild': {
      const p = a.patch;
      const v = makeView(p.session ?? s.session, p.iterations ?? s.iterations, p.variants ?? s.variants, p.branches ?? s.branches, s.cycle,
        { mechanisms: p.mechanisms ?? s.mechanisms, compareModel: p.compareModel ?? s.compareModel });
      const next: ExplorerState = { ...s, ...v, totals: v.panes.map(() => null), selected: Math.min(s.selected, v.session.lines.length - 1) };
      return a.message ? { ...next, message: a.message(v, s) } : next;
    }
    case 'overlay':
      return { ...s, overlay: a.overlay };
    case 'tab': {
      if (a.to !== 'next' && a.to !== 'prev') return { ...s, tab: a.to };
      const i = TABS.findIndex((x) => x.id === s.tab);
      const n = TABS.length;
      return { ...s, tab: TABS[(i + (a.to === 'next' ? 1 : n - 1)) % n]!.id };
    }
    case 'play':
      if (finished(s)) return { ...s, playing: false, message: 'at the end of the run (← or g to go back)' };
      return { ...s, playing: !s.playing };
    case 'speed': {
      const i = SPEEDS.indexOf(s.speed);
      return { ...s, speed: SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + a.dir))]! };
    }
    case 'total': {
      const i = s.panes.indexOf(a.pane);
      if (i < 0) return s;   // a pane of an earlier layout
      return { ...s, totals: s.totals.map((x, k) => (k === i ? a.total : x)) };
    }
    case 'totals':
      return a.totals.length === s.panes.length ? { ...s, totals: a.totals } : s;
    case 'message':
      return s.message === a.text ? s : { ...s, message: a.text };
    case 'busy':
      return { ...s, busy: a.label };
    case 'prompt-open':
      return { ...s, overlay: { kind: 'prompt', what: a.what, text: a.text, fresh: true } };
    case 'prompt-type': {
      const o = s.overlay;
      if (o.kind !== 'prompt') return s;
      const typed = o.what === 'export' ? a.text : a.text.replace(/[^0-9]/g, '');
      if (typed === '') return s;
      // the proposed value is selected: what is typed replaces it
      const text = ((o.fresh ? '' : o.text) + typed).slice(0, o.what === 'export' ? PROMPT_MAX : 12);
      return { ...s, overlay: { ...o, text, fresh: false } };
    }
    case 'prompt-backspace': {
      const o = s.overlay;
      if (o.kind !== 'prompt') return s;
      return { ...s, overlay: { ...o, text: o.text.slice(0, -1), fresh: false } };
    }
    case 'prompt-keep': {
      // → / End: keep the proposed value and edit it
      const o = s.overlay;
      return o.kind === 'prompt' && o.fresh ? { ...s, overlay: { ...o, fresh: false } } : s;
    }
    case 'arch-move': {
      const o = s.overlay;
      if (o.kind !== 'arch' || s.archs.length === 0) return s;
      const index = Math.max(0, Math.min(s.archs.length - 1, o.index + a.by));
      return { ...s, overlay: { ...o, index } };
    }
    case 'model-move': {
      const o = s.overlay;
      if (o.kind !== 'model') return s;
      const index = Math.max(0, Math.min(MODEL_ROWS.length - 1, o.index + a.by));
      return index === o.index ? s : { ...s, overlay: { ...o, index } };
    }
  }
}

/** The value a prompt submits, or a message saying what is wrong with it. */
export function parsePrompt(what: PromptKind, text: string): { value: number | string } | { error: string } {
  if (what === 'export') return text.trim() === '' ? { error: 'export: give a file name' } : { value: text.trim() };
  if (!/^\d+$/.test(text)) return { error: `${what === 'goto' ? 'go to' : 'iterations'}: type a whole number` };
  const n = Number(text);
  if (what === 'iterations' && n < 1) return { error: 'iterations must be a whole number ≥ 1' };
  return { value: n };
}

/**
 * `n`: the first cycle after the displayed one at which a µop of `line` gets a port for an
 * instance that held none the cycle before, read through the pane's cursor (the snapshots the
 * screen shows), at most ISSUE_SEARCH_LIMIT cycles ahead.
 */
export function nextIssue(s: View, line: number): { cycle: number; message: string } {
  const idx = s.panes.findIndex((p) => p.lines.includes(line));
  if (idx < 0) return { cycle: s.cycle, message: `line ${line} is not on this path` };
  const cur = cursorOf(s.panes[idx]!);
  const on = (snap: Snapshot) => new Set(snap.ports.flatMap((p) => p.uops.filter((u) => u.line === line).map((u) => u.iteration)));
  let snap = cur.at(s.cycle);
  let before = on(snap);
  for (let n = 0; ; n++) {
    if (snap.finished) return { cycle: snap.cycle, message: `line ${line} does not issue again` };
    if (n === ISSUE_SEARCH_LIMIT) return { cycle: snap.cycle, message: `line ${line} did not issue within ${n} cycles (n again to go on)` };
    snap = cur.at(snap.cycle + 1);
    const now = on(snap);
    if ([...now].some((it) => !before.has(it))) return { cycle: snap.cycle, message: `line ${line} issues at cycle ${snap.cycle}` };
    before = now;
  }
}

/** The detail (thesis §2.6) of the selected line in every pane, as of the displayed cycle. */
export function detailsAt(s: ExplorerState): { pane: PaneInfo; detail: LineDetail | null }[] {
  const line = s.session.lines[s.selected]?.line;
  return s.panes.map((pane, i) => ({
    pane,
    detail: line !== undefined && pane.lines.includes(line) ? cursorOf(pane).detailAt(s.snaps[i]!.cycle, line) : null,
  }));
}
