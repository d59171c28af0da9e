// The explorer's model menu (key s): one row per mechanism of the refined model (names from
// src/sim/mechanisms.ts), the two presets, and whether the split pane compares the current model
// with the other one. Plain data; the ModelPicker component draws it, useExplorer acts on it.
import {
  MECHANISMS,
  MECHANISM_INFO,
  isSuaca,
  mechanismLabel,
  mechanismsOf,
  type Mechanism,
  type MechanismSet,
} from '../sim/mechanisms.js';
import { notModelledOf } from '../report/collect.js';
import type { PaneLayout } from './panes.js';
import { otherModel } from './panes.js';
import type { ExplorerSession } from './types.js';

/** What the menu, the header and the export say about the model on this core: the report's notes
 *  for the mechanisms on, and the mechanisms that are not modelled on this core (with why). */
export interface ModelView {
  notes: string[];
  /** the mechanism, what of it is not modelled and why (from the notes with it switched on) */
  notModelled: { id: Mechanism; what: string; why: string }[];
}

export function modelView(session: ExplorerSession, m: MechanismSet): ModelView {
  const notes = session.modelNotes?.(m) ?? [];
  // asked with the front end on, so that the menu can say so while it is off too
  const withFrontEnd = m.frontEnd ? notes : (session.modelNotes?.({ ...m, frontEnd: true }) ?? []);
  return {
    notes,
    notModelled: notModelledOf(withFrontEnd).map((x) => ({ id: 'frontEnd' as const, ...x })),
  };
}

/** The front end's delivery itself (not one of its limits) is not modelled: switching it does
 *  nothing on this core. */
export function inert(view: ModelView, id: Mechanism): string | null {
  const x = view.notModelled.find((n) => n.id === id && /delivery/.test(n.what));
  return x ? x.why : null;
}

/** The model's name as the header gives it: with what is on but not modelled on this core. */
export function modelLabel(layout: Pick<PaneLayout, 'session' | 'mechanisms'>, short = false): string {
  const m = layout.mechanisms;
  const name = mechanismLabel(m);
  const view = modelView(layout.session, m);
  const off = MECHANISMS.filter((id) => m[id] && inert(view, id) !== null);
  if (off.length === 0) return name;
  const what = off.map((id) => MECHANISM_INFO.find((x) => x.id === id)!.short).join(', ');
  return short ? `${name} (no ${what})` : `${name} (${what} not modelled on ${layout.session.arch})`;
}

type ModelRow =
  | { kind: 'mechanism'; id: Mechanism }
  | { kind: 'preset'; name: 'suaca' | 'refined' }
  | { kind: 'compare' };

/** The menu's rows, in order. */
export const MODEL_ROWS: readonly ModelRow[] = [
  ...MECHANISMS.map((id): ModelRow => ({ kind: 'mechanism', id })),
  { kind: 'preset', name: 'suaca' },
  { kind: 'preset', name: 'refined' },
  { kind: 'compare' },
];

/** What a row depends on: the model, the comparison switch, whether the branch sides (b) have
 *  the split pane, and what is not modelled on this core. */
interface ModelMenuContext {
  mechanisms: MechanismSet;
  compare: boolean;
  branches?: boolean;
  arch?: string;
  view?: ModelView;
}

/** A row as the menu shows it. */
export function modelRowText(row: ModelRow, c: ModelMenuContext): string {
  const m = c.mechanisms;
  const compare = c.compare;
  switch (row.kind) {
    case 'mechanism': {
      const info = MECHANISM_INFO.find((x) => x.id === row.id)!;
      const why = c.view ? inert(c.view, row.id) : null;
      // '-': switched on or off, it does nothing on this core
      if (why !== null) return `[-] ${info.short}: not modelled on ${c.arch ?? 'this core'} (${why})`;
      return `[${m[row.id] ? 'x' : ' '}] ${info.label}`;
    }
    case 'preset': {
      const cur = mechanismLabel(m) === row.name;
      return row.name === 'suaca'
        ? `${cur ? '●' : '○'} SUACA (all off: the thesis's model)`
        : `${cur ? '●' : '○'} refined (the default set)`;
    }
    case 'compare': {
      const other = `${mechanismLabel(otherModel(m))}${isSuaca(m) ? ' (the default set)' : ' (all off)'}`;
      // the branch sides (b) hold the split pane: the comparison waits until b is off
      if (c.branches)
        return `[ ] split pane: compare with ${other} — ${compare ? 'on again' : 'possible'} once b is off`;
      return `[${compare ? 'x' : ' '}] split pane: compare with ${other}`;
    }
  }
}

/** What choosing a row does: the next mechanisms and comparison switch. */
export function applyModelRow(
  row: ModelRow,
  m: MechanismSet,
  compare: boolean,
): { mechanisms: MechanismSet; compareModel: boolean } {
  switch (row.kind) {
    case 'mechanism':
      return { mechanisms: { ...m, [row.id]: !m[row.id] }, compareModel: compare };
    case 'preset':
      return { mechanisms: mechanismsOf(row.name), compareModel: compare };
    case 'compare':
      return { mechanisms: { ...m }, compareModel: !compare };
  }
}
