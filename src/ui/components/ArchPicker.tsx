import { Box, Text, useInput } from 'ink';
import SelectInput from 'ink-select-input';
import type { ArchChoice } from '../types.js';

export interface ArchPickerProps {
  archs: ArchChoice[];
  current: string;
  height: number;
  onPick(arch: string): void;
  onCancel(): void;
}

/** Choose another architecture (↑/↓, enter; esc cancels). */
export function ArchPicker(p: ArchPickerProps) {
  useInput((_i, key) => { if (key.escape) p.onCancel(); });
  const items = p.archs.map((a) => ({ key: a.arch, label: `${a.arch.padEnd(5)} ${a.name}${a.arch === p.current ? ' (current)' : ''}${a.note ? ` — ${a.note}` : ''}`, value: a.arch }));
  const initial = Math.max(0, p.archs.findIndex((a) => a.arch === p.current));
  return (
    <Box flexDirection="column">
      <Text bold>Switch architecture (↑/↓, enter; esc cancels) — the cycle is kept</Text>
      <SelectInput items={items} initialIndex={initial} limit={Math.max(3, p.height - 1)} onSelect={(it) => p.onPick(it.value)} />
    </Box>
  );
}
