import { Box, Text } from 'ink';
import { clip } from '../format.js';
import { useTint } from './ThemeContext.js';
import type { HeaderLines } from '../header.js';

interface HeaderProps {
  width: number;
  /** the header's text (src/ui/header.ts) */
  lines: HeaderLines;
  /** the measurement (M), on a line of its own while there is one */
  measure?: string | null;
}

/** What is simulated, where the run is, and the measurement when there is one. */
export function Header(p: HeaderProps) {
  const tint = useTint();
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold color={tint('cyan')}>
        {clip(p.lines.what, p.width)}
      </Text>
      <Text color={p.lines.warn ? tint('red') : undefined}>{clip(p.lines.where, p.width)}</Text>
      {p.measure ? <Text>{clip(p.measure, p.width)}</Text> : null}
    </Box>
  );
}
