import { Box, Text } from 'ink';
import type { MechanismSet } from '../../sim/mechanisms.js';
import { mechanismLabel } from '../../sim/mechanisms.js';
import { MODEL_ROWS, modelRowText, type ModelView } from '../modelMenu.js';
import { clip, wrapWords } from '../format.js';
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
  height: number;
  width: number;
}

/** The notes below the rows, wrapped to `width`, in at most `rows` lines (the last one says how
 *  many lines did not fit and where they all are). */
function modelNoteLines(notes: readonly string[], width: number, rows: number): string[] {
  const all = notes.flatMap((n) => wrapWords(`note: ${n}`, width - 2).map((l, i) => (i === 0 ? l : `  ${l}`)));
  if (all.length <= rows) return all;
  const keep = Math.max(0, rows - 1);
  return [...all.slice(0, keep), `… ${all.length - keep} more note lines: the export (x) has them all`];
}

/** The model's switches (↑/↓, enter toggles; esc closes) and the model's notes on this core (as
 *  the report prints them); the keys are the MODEL_KEYS table's. */
export function ModelPicker(p: ModelPickerProps) {
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
