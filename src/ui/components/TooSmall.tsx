import { Box, Text } from 'ink';
import { wrapWords } from '../format.js';

/** Instead of panes drawn over each other: what size the screen needs (the keys still work). */
export function TooSmall(p: { columns: number; rows: number; least: { columns: number; rows: number } }) {
  const text = `terminal too small: need at least ${p.least.columns}×${p.least.rows} (this one is ${p.columns}×${p.rows}); enlarge it, or q quits`;
  const rows = wrapWords(text, Math.max(1, p.columns)).slice(0, Math.max(1, p.rows - 1));
  return (
    <Box flexDirection="column">
      {rows.map((r, i) => (
        <Text key={i}>{r}</Text>
      ))}
    </Box>
  );
}
