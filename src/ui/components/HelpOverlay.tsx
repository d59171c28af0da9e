import { Box, Text } from 'ink';
import { ARCH_KEYS, EXPLORER_KEYS, GLOBAL_KEYS, HELP_KEYS, MODEL_KEYS, NOTATIONS, PROMPT_KEYS } from '../keys.js';
import { clip } from '../format.js';

export interface HelpOverlayProps {
  width: number;
  height: number;
  page: number;
}

/** Every line of the help: the keys (from the key tables), then the notations of the screen. */
export function helpLines(): string[] {
  const keyW = 16;
  const row = (k: string, what: string) => `${k.padEnd(keyW)} ${what}`;
  return [
    ...EXPLORER_KEYS.map((b) => row(b.keys, b.help)),
    ...GLOBAL_KEYS.map((b) => row(b.keys, b.help)),
    'In prompts (g, i, x)',
    ...PROMPT_KEYS.map((b) => row(b.keys, b.help)),
    'In the architecture menu',
    ...ARCH_KEYS.map((b) => row(b.keys, b.help)),
    'In the model menu (s)',
    ...MODEL_KEYS.map((b) => row(b.keys, b.help)),
    'In this help',
    ...HELP_KEYS.map((b) => row(b.keys, b.help)),
    'Notation',
    ...NOTATIONS.map(([k, what]) => row(k, what)),
  ];
}

/** How the help is laid out in `width` × `height`: two columns when wide, pages when short. */
export function helpLayout(width: number, height: number): { rows: number; columns: 1 | 2; pages: number } {
  const rows = Math.max(1, height - 1);
  const n = helpLines().length;
  const columns = n > rows && width >= 140 ? 2 : 1;
  return { rows, columns, pages: Math.max(1, Math.ceil(n / (rows * columns))) };
}

export function HelpOverlay(p: HelpOverlayProps) {
  const { rows, columns, pages } = helpLayout(p.width, p.height);
  const lines = helpLines();
  const page = Math.min(p.page, pages - 1);
  const twoCols = columns === 2;
  const colW = twoCols ? Math.floor((p.width - 2) / 2) : p.width;
  const at = page * rows * columns;
  const first = lines.slice(at, at + rows);
  const second = twoCols ? lines.slice(at + rows, at + 2 * rows) : [];
  const title =
    pages > 1
      ? `Keys and notation, page ${page + 1} of ${pages} (? ${page + 1 < pages ? 'next page' : 'closes'}, esc closes)`
      : 'Keys and notation (? or esc closes)';
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip(title, p.width)}</Text>
      <Box flexDirection="row">
        <Box flexDirection="column" width={colW}>
          {first.map((l, i) => (
            <Text key={i}>{clip(l, colW)}</Text>
          ))}
        </Box>
        {twoCols && (
          <Box flexDirection="column" marginLeft={2} width={colW}>
            {second.map((l, i) => (
              <Text key={i}>{clip(l, colW)}</Text>
            ))}
          </Box>
        )}
      </Box>
    </Box>
  );
}
