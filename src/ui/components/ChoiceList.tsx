import { Box, Text } from 'ink';
import { clip } from '../format.js';
import { useTint } from './ThemeContext.js';
import { scrollStart } from '../layout.js';

interface ChoiceListProps {
  /** the heading line */
  title: string;
  /** how many entries, and the text of entry i (asked only for the rows shown) */
  count: number;
  label(i: number): string;
  /** React key of entry i (default: i) */
  keyOf?(i: number): string | number;
  /** the highlighted entry */
  index: number;
  /** entry rows available (the window scrolls to keep `index` in it) */
  rows: number;
  width: number;
  /** said when there is no entry */
  empty?: string;
}

/** A heading and a scrolled list with one entry highlighted (❯): the pickers' common look. A list
 *  longer than its rows gives its last row to how many entries are not shown. */
export function ChoiceList(p: ChoiceListProps) {
  const tint = useTint();
  const overflow = p.count > p.rows;
  const rows = overflow ? Math.max(1, p.rows - 1) : p.rows;
  const start = scrollStart(p.index, p.count, rows);
  const shown = Math.max(0, Math.min(rows, p.count - start));
  const below = p.count - start - shown;
  const more = !overflow
    ? null
    : below > 0
      ? `  … ${below} more${start > 0 ? ` (${start} above)` : ''}`
      : `  … ${start} above`;
  return (
    <Box flexDirection="column">
      <Text bold>{clip(p.title, p.width)}</Text>
      {p.count === 0 && p.empty ? <Text>{clip(p.empty, p.width)}</Text> : null}
      {Array.from({ length: shown }, (_, k) => {
        const i = start + k;
        return (
          <Text key={p.keyOf ? p.keyOf(i) : i} color={i === p.index ? tint('blue') : undefined}>
            {clip(`${i === p.index ? '❯' : ' '} ${p.label(i)}`, p.width)}
          </Text>
        );
      })}
      {more ? <Text dimColor>{clip(more, p.width)}</Text> : null}
    </Box>
  );
}
