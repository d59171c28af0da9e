import { Box, Text } from 'ink';
import type { MechanismSet } from '../../sim/mechanisms.js';
import { mechanismLabel } from '../../sim/mechanisms.js';
import { MODEL_ROWS, modelRowText } from '../modelMenu.js';
import { clip } from '../format.js';
import { tint } from '../theme.js';
import { scrollStart } from '../layout.js';
import { useKeyContext, type KeyRouter } from '../hooks/useExplorer.js';

export interface ModelPickerProps {
  mechanisms: MechanismSet;
  compareModel: boolean;
  /** the highlighted row (the explorer's state: every key of a burst moves it) */
  index: number;
  height: number;
  width: number;
  color: boolean;
  router: KeyRouter;
}

/** The model's switches (↑/↓, enter toggles; esc closes); the keys are the MODEL_KEYS table's. */
export function ModelPicker(p: ModelPickerProps) {
  useKeyContext(p.router, 'model', true);
  const rows = Math.max(3, p.height - 1);
  const start = scrollStart(p.index, MODEL_ROWS.length, rows);
  return (
    <Box flexDirection="column">
      <Text bold>{clip(`Model: ${mechanismLabel(p.mechanisms)} (↑/↓, enter toggles, esc closes) — the cycle is kept`, p.width)}</Text>
      {MODEL_ROWS.slice(start, start + rows).map((row, k) => {
        const i = start + k;
        const label = `${i === p.index ? '❯' : ' '} ${modelRowText(row, p.mechanisms, p.compareModel)}`;
        return <Text key={i} color={i === p.index ? tint(p.color, 'blue') : undefined}>{clip(label, p.width)}</Text>;
      })}
    </Box>
  );
}
