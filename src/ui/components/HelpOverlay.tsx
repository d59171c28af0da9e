import { Box, Text } from 'ink';
import { ARCH_KEYS, EXPLORER_KEYS, NOTATIONS, PROMPT_KEYS } from '../keys.js';
import { clip } from '../format.js';

export interface HelpOverlayProps { width: number; height: number }

/** Every line of the help: the keys (from the key tables), then the notations of the screen. */
export function helpLines(): string[] {
  const keyW = 16;
  const row = (k: string, what: string) => `${k.padEnd(keyW)} ${what}`;
  return [
    ...EXPLORER_KEYS.map((b) => row(b.keys, b.help)),
    row('in prompts', PROMPT_KEYS.filter((b) => b.keys !== 'esc' && b.keys !== 'enter').map((b) => `${b.keys}: ${b.help}`).join('; ')),
    row('in menus', `${ARCH_KEYS[0]!.keys} choose, enter pick, esc cancel`),
    'Notation',
    ...NOTATIONS.map(([k, what]) => row(k, what)),
  ];
}

export function HelpOverlay(p: HelpOverlayProps) {
  const rows = Math.max(1, p.height - 1);
  const lines = helpLines();
  // two columns when the terminal is wide enough and one would not hold every line
  const twoCols = lines.length > rows && p.width >= 140;
  const colW = twoCols ? Math.floor((p.width - 2) / 2) : p.width;
  const first = twoCols ? lines.slice(0, rows) : lines.slice(0, rows);
  const second = twoCols ? lines.slice(rows, 2 * rows) : [];
  const hidden = lines.length - first.length - second.length;
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip(`Keys (? or esc closes)${hidden > 0 ? ` — ${hidden} more lines: make the terminal taller` : ''}`, p.width)}</Text>
      <Box flexDirection="row">
        <Box flexDirection="column" width={colW}>
          {first.map((l, i) => <Text key={i}>{clip(l, colW)}</Text>)}
        </Box>
        {twoCols && (
          <Box flexDirection="column" marginLeft={2} width={colW}>
            {second.map((l, i) => <Text key={i}>{clip(l, colW)}</Text>)}
          </Box>
        )}
      </Box>
    </Box>
  );
}
