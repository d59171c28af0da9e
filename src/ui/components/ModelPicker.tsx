import type { MechanismSet } from '../../sim/mechanisms.js';
import { mechanismLabel } from '../../sim/mechanisms.js';
import { MODEL_ROWS, modelRowText } from '../modelMenu.js';
import { ChoiceList } from './ChoiceList.js';

export interface ModelPickerProps {
  mechanisms: MechanismSet;
  compareModel: boolean;
  /** the highlighted row (the explorer's state: every key of a burst moves it) */
  index: number;
  height: number;
  width: number;
}

/** The model's switches (↑/↓, enter toggles; esc closes); the keys are the MODEL_KEYS table's. */
export function ModelPicker(p: ModelPickerProps) {
  return (
    <ChoiceList
      title={`Model: ${mechanismLabel(p.mechanisms)} (↑/↓, enter toggles, esc closes) — the cycle is kept`}
      count={MODEL_ROWS.length}
      label={(i) => modelRowText(MODEL_ROWS[i]!, p.mechanisms, p.compareModel)}
      index={p.index}
      rows={Math.max(3, p.height - 1)}
      width={p.width}
    />
  );
}
