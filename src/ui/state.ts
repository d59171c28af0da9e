// The explorer's state as one value of plain data and what every action does to it: a pure
// reducer, testable without rendering and without engines (test/ui/state.test.ts). The engines,
// the snapshot cursors and every slow or background computation belong to the controller
// (src/ui/controller.ts); what they produce (the snapshots of the displayed cycle, a new pane
// layout, a run's length, the divergence) comes in as an action.
import type { Snapshot } from '../sim/types.js';
import type { Divergence } from './compare.js';
import type { PaneLayout } from './panes.js';
import { MODEL_ROWS } from './modelMenu.js';
import { TABS, type RunTotal, type TabId } from './types.js';

/** What a prompt asks for: a cycle, an iteration count, the path of the export, or text to search. */
export type PromptKind = 'goto' | 'iterations' | 'export' | 'search';

export type Overlay =
  | { kind: 'none' }
  /** `page`: which screenful of the help (small terminals page through it with ?) */
  | { kind: 'help'; page: number }
  | { kind: 'detail' }
  /** `compare`: the core to show beside this one (the core split), not a switch */
  | { kind: 'arch'; index: number; compare?: boolean }
  /** the model menu (key s): `index` into MODEL_ROWS; `notes`: the page of the model's notes
   *  shown in full instead of the rows (key n) */
  | { kind: 'model'; index: number; notes?: number }
  /** `fresh`: the text is the proposed value, shown selected: typing replaces it */
  | { kind: 'prompt'; what: PromptKind; text: string; fresh: boolean };

/** `n` looks this many cycles ahead at most (each one is a snapshot). */
export const ISSUE_SEARCH_LIMIT = 5000;

const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/** Longest text a prompt takes (a path; numbers are limited by their parse). */
const PROMPT_MAX = 4096;

export interface ExplorerState {
  /** which panes are shown and what each simulates */
  layout: PaneLayout;
  /** each pane's snapshot of the displayed cycle */
  snaps: Snapshot[];
  /** the displayed cycle */
  cycle: number;
  selected: number; // index into layout.session.lines
  overlay: Overlay;
  tab: TabId;
  playing: boolean;
  speed: number; // cycles per second
  message: string;
  /** what slow work runs now ('loading HSW…'); keys wait for it, Esc cancels it */
  busy: string | null;
  totals: (RunTotal | null)[]; // per pane, once known
  /** the first cycle at which the two panes differ (two panes of the whole region only) */
  divergence: Divergence | undefined;
  /** the architectures the picker lists (its index is into these) */
  archs: string[];
  /** bumped to draw the whole screen again (after the terminal was given back and taken again) */
  redraw: number;
}

export type Action =
  /** the snapshots of a new displayed cycle (the controller's cursors read them) */
  | { type: 'show'; snaps: Snapshot[] }
  /** other panes, at the cycle of `snaps`; `message` says what changed */
  | { type: 'layout'; layout: PaneLayout; snaps: Snapshot[]; message?: string }
  | { type: 'select'; by: number }
  | { type: 'overlay'; overlay: Overlay }
  | { type: 'tab'; to: TabId | 'next' | 'prev' }
  | { type: 'play' }
  | { type: 'speed'; dir: 1 | -1 }
  | { type: 'total'; layout: PaneLayout; pane: number; total: RunTotal }
  | { type: 'divergence'; layout: PaneLayout; divergence: Divergence }
  | { type: 'message'; text: string }
  | { type: 'busy'; label: string | null }
  | { type: 'prompt-open'; what: PromptKind; text: string }
  | { type: 'prompt-type'; text: string }
  | { type: 'prompt-backspace' }
  | { type: 'prompt-keep' }
  | { type: 'arch-move'; by: number }
  | { type: 'model-move'; by: number }
  | { type: 'redraw' };

const cycleOf = (snaps: Snapshot[]) => Math.max(0, ...snaps.map((s) => s.cycle));
export const isFinished = (s: Pick<ExplorerState, 'snaps'>) => s.snaps.every((x) => x.finished);

/** Two panes of the whole region are compared cycle by cycle (not the branch sides). */
export const comparesPanes = (l: PaneLayout) => l.panes.length === 2 && !l.branches;

/** The first state: the layout at the cycle of `snaps`, the first note (missing data, else the
 *  source) shown. */
export function initialState(layout: PaneLayout, snaps: Snapshot[], archs: string[]): ExplorerState {
  const notes = layout.session.notes;
  return {
    layout,
    snaps,
    cycle: cycleOf(snaps),
    selected: 0,
    overlay: { kind: 'none' },
    tab: 'rs',
    playing: false,
    speed: 10,
    message: notes?.find((n) => n.startsWith('no figures')) ?? notes?.[0] ?? '',
    busy: null,
    totals: layout.panes.map(() => null),
    divergence: comparesPanes(layout) ? { kind: 'searching', upTo: 0 } : undefined,
    archs,
    redraw: 0,
  };
}

export function explorerReducer(s: ExplorerState, a: Action): ExplorerState {
  switch (a.type) {
    case 'show': {
      if (a.snaps.length !== s.layout.panes.length) return s;
      const next = { ...s, snaps: a.snaps, cycle: cycleOf(a.snaps) };
      return isFinished(next) ? { ...next, playing: false } : next;
    }
    case 'layout': {
      const lines = a.layout.session.lines.length;
      const next: ExplorerState = {
        ...s,
        layout: a.layout,
        snaps: a.snaps,
        cycle: cycleOf(a.snaps),
        totals: a.layout.panes.map(() => null),
        divergence: comparesPanes(a.layout) ? { kind: 'searching', upTo: 0 } : undefined,
        selected: Math.max(0, Math.min(s.selected, lines - 1)),
      };
      return a.message !== undefined ? { ...next, message: a.message } : next;
    }
    case 'select': {
      const n = s.layout.session.lines.length;
      const selected = Math.max(0, Math.min(n - 1, s.selected + a.by));
      return selected === s.selected ? s : { ...s, selected };
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
      if (isFinished(s)) return { ...s, playing: false, message: 'at the end of the run (← or g to go back)' };
      return { ...s, playing: !s.playing };
    case 'speed': {
      const i = SPEEDS.indexOf(s.speed);
      return { ...s, speed: SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + a.dir))]! };
    }
    case 'total':
      // a run of an earlier layout is not this one's
      if (a.layout !== s.layout) return s;
      return { ...s, totals: s.totals.map((x, k) => (k === a.pane ? a.total : x)) };
    case 'divergence':
      return a.layout === s.layout ? { ...s, divergence: a.divergence } : s;
    case 'message':
      return s.message === a.text ? s : { ...s, message: a.text };
    case 'busy':
      return s.busy === a.label ? s : { ...s, busy: a.label };
    case 'prompt-open':
      return { ...s, overlay: { kind: 'prompt', what: a.what, text: a.text, fresh: true } };
    case 'prompt-type': {
      const o = s.overlay;
      if (o.kind !== 'prompt') return s;
      // everything typed is kept (numbers too): a bad value is refused with a word, never read
      // as another number (1.5 is not 15)
      const typed = a.text.replace(/[\u0000-\u001F\u007F]/g, '');
      if (typed === '') return s;
      // the proposed value is selected: what is typed replaces it
      const text = ((o.fresh ? '' : o.text) + typed).slice(
        0,
        o.what === 'export' ? PROMPT_MAX : o.what === 'search' ? 80 : 12,
      );
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
    case 'redraw':
      return { ...s, redraw: s.redraw + 1 };
  }
}

/** The value a prompt submits, or a message saying what is wrong with it. */
export function parsePrompt(what: PromptKind, text: string): { value: number | string } | { error: string } {
  if (what === 'export') return text.trim() === '' ? { error: 'export: give a file name' } : { value: text.trim() };
  if (what === 'search')
    return text.trim() === '' ? { error: 'search: type part of an instruction (e.g. add)' } : { value: text.trim() };
  const name = what === 'goto' ? 'go to' : 'iterations';
  if (!/^\d+$/.test(text.trim()))
    return {
      error: `${name}: '${text}' is not a whole number (type digits only, e.g. ${what === 'goto' ? '120' : '200'})`,
    };
  const n = Number(text.trim());
  if (what === 'iterations' && n < 1) return { error: 'iterations must be a whole number ≥ 1' };
  return { value: n };
}
