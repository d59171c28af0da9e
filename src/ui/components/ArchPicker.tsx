import { Box, Text } from 'ink';
import type { ArchChoice } from '../types.js';
import { clip } from '../format.js';
import { tint } from '../theme.js';
import { scrollStart } from '../layout.js';
import { useKeyContext, type KeyRouter } from '../hooks/useExplorer.js';

export interface ArchPickerProps {
  archs: ArchChoice[];
  current: string;
  /** the highlighted entry (the explorer's state: every key of a burst moves it) */
  index: number;
  height: number;
  width: number;
  color: boolean;
  router: KeyRouter;
}

/** Choose another architecture (↑/↓, enter; esc cancels); the keys are the ARCH_KEYS table's. */
export function ArchPicker(p: ArchPickerProps) {
  useKeyContext(p.router, 'arch', true);
  const rows = Math.max(3, p.height - 1);
  const start = scrollStart(p.index, p.archs.length, rows);
  return (
    <Box flexDirection="column">
      <Text bold>{clip('Switch architecture (↑/↓, enter; esc cancels) — the cycle is kept', p.width)}</Text>
      {p.archs.slice(start, start + rows).map((a, k) => {
        const i = start + k;
        const label = `${i === p.index ? '❯' : ' '} ${a.arch.padEnd(5)} ${a.name}${a.arch === p.current ? ' (current)' : ''}${a.note ? ` — ${a.note}` : ''}`;
        return <Text key={a.arch} color={i === p.index ? tint(p.color, 'blue') : undefined}>{clip(label, p.width)}</Text>;
      })}
    </Box>
  );
}
