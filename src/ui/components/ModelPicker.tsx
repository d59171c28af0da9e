import { Box, Text } from 'ink';
import type { MechanismSet } from '../../sim/mechanisms.js';
import { mechanismLabel } from '../../sim/mechanisms.js';
import { MODEL_ROWS, modelRowText, type ModelView } from '../modelMenu.js';
import { clip, firstFitting, wrapWords } from '../format.js';
import { ChoiceList } from './ChoiceList.js';

interface ModelPickerProps {
  mechanisms: MechanismSet;
  compareModel: boolean;
  /** the branch sides (b) hold the split pane */
  branches: boolean;
  arch: string;
  /** the report's notes for this model on this core, and what is not modelled */
  view: ModelView;
  /** the highlighted row (the explorer's state: every key of a burst moves it) */
  index: number;
  /** the notes' page when they are shown in full (key n), instead of the rows */
  notesPage?: number | null;
  height: number;
  width: number;
}

/** Every line of the notes wrapped to `width`: `note: ` before each, its next lines indented. */
function noteLines(notes: readonly string[], width: number): string[] {
  return notes.flatMap((n) => wrapWords(`note: ${n}`, width - 2).map((l, i) => (i === 0 ? l : `  ${l}`)));
}

/** The notes below the rows, wrapped to `width`, in at most `rows` lines (the last one says how
 *  many lines did not fit and which key shows them all). */
function modelNoteLines(notes: readonly string[], width: number, rows: number): string[] {
  const all = noteLines(notes, width);
  if (all.length <= rows) return all;
  const keep = Math.max(0, rows - 1);
  return [
    ...all.slice(0, keep),
    firstFitting(width, [
      `… ${all.length - keep} more note lines: n shows them all (the export too)`,
      `… ${all.length - keep} more note lines: n shows them all`,
      `… ${all.length - keep} more: n`,
    ]),
  ];
}

/** The notes shown in full (key n in the menu): how many pages of `height - 1` lines they take. */
export function notesLayout(notes: readonly string[], width: number, height: number): { rows: number; pages: number } {
  const rows = Math.max(1, height - 1);
  return { rows, pages: Math.max(1, Math.ceil(noteLines(notes, width).length / rows)) };
}

/** The model's notes on this core in full, a page at a time (→ / ← page; esc goes back to the rows). */
function ModelNotes(p: ModelPickerProps & { page: number }) {
  const { rows, pages } = notesLayout(p.view.notes, p.width, p.height);
  const page = Math.max(0, Math.min(p.page, pages - 1));
  const lines = noteLines(p.view.notes, p.width).slice(page * rows, (page + 1) * rows);
  const what = `Notes on ${p.arch} (${mechanismLabel(p.mechanisms)})`;
  const title =
    pages > 1
      ? firstFitting(p.width, [
          `${what}, page ${page + 1} of ${pages} (→ next, ← back, esc: the menu)`,
          `${what} ${page + 1}/${pages} (→ next, esc: the menu)`,
          `Notes ${page + 1}/${pages}`,
        ])
      : firstFitting(p.width, [`${what} (esc: the menu)`, what, 'Notes']);
  return (
    <Box flexDirection="column">
      <Text bold>{clip(title, p.width)}</Text>
      {lines.length === 0 ? <Text>no notes for this model on this core</Text> : null}
      {lines.map((l, i) => (
        <Text key={i}>{l}</Text>
      ))}
    </Box>
  );
}

/** The model's switches (↑/↓, enter toggles; esc closes) and the model's notes on this core (as
 *  the report prints them); the keys are the MODEL_KEYS table's. */
export function ModelPicker(p: ModelPickerProps) {
  if (p.notesPage !== undefined && p.notesPage !== null) return <ModelNotes {...p} page={p.notesPage} />;
  const ctx = {
    mechanisms: p.mechanisms,
    compare: p.compareModel,
    branches: p.branches,
    arch: p.arch,
    view: p.view,
  };
  const listRows = Math.min(MODEL_ROWS.length, Math.max(3, p.height - 1));
  const notes = modelNoteLines(p.view.notes, p.width, Math.max(0, p.height - 1 - listRows));
  return (
    <Box flexDirection="column">
      <ChoiceList
        title={`Model: ${mechanismLabel(p.mechanisms)} (↑/↓, enter toggles, esc closes) — the cycle is kept`}
        count={MODEL_ROWS.length}
        label={(i) => modelRowText(MODEL_ROWS[i]!, ctx)}
        index={p.index}
        rows={listRows}
        width={p.width}
      />
      {notes.map((l, i) => (
        <Text key={i}>{clip(l, p.width)}</Text>
      ))}
    </Box>
  );
}
