import { Box, Text } from 'ink';
import {
  ARCH_KEYS,
  DETAIL_KEYS,
  EXPLORER_KEYS,
  GLOBAL_KEYS,
  HELP_KEYS,
  LEGEND,
  MODEL_KEYS,
  NOTES_KEYS,
  PROMPT_KEYS,
  type Binding,
} from '../keys.js';
import { clip, firstFitting, wrapWords } from '../format.js';

interface HelpOverlayProps {
  width: number;
  height: number;
  page: number;
}

/** Columns of the key (or symbol) before its explanation. */
const KEY_W = 16;

/** One row of the help in `w` columns: the key, then its text wrapped below itself (never cut). */
function row(k: string, what: string, w: number): string[] {
  const textW = Math.max(10, w - KEY_W - 1);
  if (k.length > KEY_W) return [...wrapWords(k, w), ...wrapWords(what, textW).map((t) => `${''.padEnd(KEY_W)} ${t}`)];
  return wrapWords(what, textW).map((t, i) => `${(i === 0 ? k : '').padEnd(KEY_W)} ${t}`);
}

/** Every line of the help at `w` columns: the legend first (what the screen shows), then the
 *  keys of every context (from the key tables). */
export function helpLines(w = 80): string[] {
  const keys = (title: string, bs: Binding[]) => [title, ...bs.flatMap((b) => row(b.keys, b.help, w))];
  return [
    ...LEGEND.flatMap((sec) => [sec.title, ...sec.rows.flatMap(([k, what]) => row(k, what, w))]),
    ...keys('Keys', [...EXPLORER_KEYS, ...GLOBAL_KEYS]),
    ...keys('In the detail (enter)', DETAIL_KEYS.slice(0, 1)),
    ...keys('In prompts (g, i, x, /)', PROMPT_KEYS),
    ...keys('In the architecture menu (a)', ARCH_KEYS),
    ...keys('In the model menu (s)', MODEL_KEYS),
    ...keys("In the model's notes (s, then n)", NOTES_KEYS),
    ...keys('In this help', HELP_KEYS),
  ];
}

/** How the help is laid out in `width` × `height`: two columns when wide, pages when short. */
export function helpLayout(width: number, height: number): { rows: number; columns: 1 | 2; pages: number } {
  const rows = Math.max(1, height - 1);
  const columns = helpLines(width).length > rows && width >= 140 ? 2 : 1;
  const n = helpLines(columns === 2 ? Math.floor((width - 2) / 2) : width).length;
  return { rows, columns, pages: Math.max(1, Math.ceil(n / (rows * columns))) };
}

export function HelpOverlay(p: HelpOverlayProps) {
  const { rows, columns, pages } = helpLayout(p.width, p.height);
  const twoCols = columns === 2;
  const colW = twoCols ? Math.floor((p.width - 2) / 2) : p.width;
  const lines = helpLines(colW);
  const page = Math.min(p.page, pages - 1);
  const at = page * rows * columns;
  const first = lines.slice(at, at + rows);
  const second = twoCols ? lines.slice(at + rows, at + 2 * rows) : [];
  const title =
    pages > 1
      ? firstFitting(p.width, [
          `Legend and keys, page ${page + 1} of ${pages} (? or → next, ← back, esc closes)`,
          `Legend and keys ${page + 1}/${pages} (? next, esc closes)`,
          `Legend ${page + 1}/${pages}`,
        ])
      : 'Legend and keys (? or esc closes)';
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip(title, p.width)}</Text>
      <Box flexDirection="row">
        <Box flexDirection="column" width={colW}>
          {first.map((l, i) => (
            <Text key={i}>{l}</Text>
          ))}
        </Box>
        {twoCols && (
          <Box flexDirection="column" marginLeft={2} width={colW}>
            {second.map((l, i) => (
              <Text key={i}>{l}</Text>
            ))}
          </Box>
        )}
      </Box>
    </Box>
  );
}
