import { Box, Text } from 'ink';
import { HELP_LINES } from '../hooks/useKeys.js';
import { clip } from '../format.js';

export interface HelpOverlayProps { width: number; height: number }

export function HelpOverlay(p: HelpOverlayProps) {
  const keyW = 16;
  const rows = Math.max(1, p.height - 1);
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip('Keys (? or esc closes)', p.width)}</Text>
      {HELP_LINES.slice(0, rows).map(([k, what]) => (
        <Text key={k}>{clip(`${k.padEnd(keyW)} ${what}`, p.width)}</Text>
      ))}
    </Box>
  );
}
