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
import { otherModel } from './panes.js';

export type ModelRow =
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

/** A row as the menu shows it, for the model `m` and the comparison switch. */
export function modelRowText(row: ModelRow, m: MechanismSet, compare: boolean): string {
  switch (row.kind) {
    case 'mechanism': {
      const info = MECHANISM_INFO.find((x) => x.id === row.id)!;
      return `[${m[row.id] ? 'x' : ' '}] ${info.label}`;
    }
    case 'preset': {
      const cur = mechanismLabel(m) === row.name;
      return row.name === 'suaca'
        ? `${cur ? '●' : '○'} SUACA (all off: the thesis's model)`
        : `${cur ? '●' : '○'} refined (the default set)`;
    }
    case 'compare':
      return `[${compare ? 'x' : ' '}] split pane: compare with ${mechanismLabel(otherModel(m))}${isSuaca(m) ? ' (the default set)' : ' (all off)'}`;
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
