import { Box, Text, useInput, useStdout } from 'ink';
import SelectInput from 'ink-select-input';

export interface RegionChoice { index: number; label: string }

export interface RegionPickerProps {
  file: string;
  regions: RegionChoice[];
  onPick(index: number): void;
  /** q or esc: 'quit'; Ctrl-C: 'interrupt' */
  onCancel(how: 'quit' | 'interrupt'): void;
}

/** When a file holds several marked regions or candidate loops: choose one (↑/↓, enter; q quits). */
export function RegionPicker(p: RegionPickerProps) {
  const { stdout } = useStdout();
  useInput((input, key) => {
    if (key.ctrl && input === 'c') p.onCancel('interrupt');
    else if (input === 'q' || key.escape) p.onCancel('quit');
  });
  return (
    <Box flexDirection="column">
      <Text bold>{p.file} holds {p.regions.length} regions: pick one (↑/↓, enter; q quits)</Text>
      <SelectInput items={p.regions.map((r) => ({ key: String(r.index), label: r.label, value: r.index }))}
        limit={Math.max(3, (stdout.rows || 24) - 3)}
        onSelect={(it) => p.onPick(it.value)} />
    </Box>
  );
}
