import { Text } from 'ink';
import { DIFF_MARK } from '../splitDiff.js';

/**
 * One cell of a pane's row (inside a <Text>): `text` as it is, or, when its figure differs from
 * the other side's, with the space right before the figure replaced by the mark (▸) and the
 * figure bold and underlined. The cell keeps its width, so the marking cuts nothing; the mark
 * reads without colour (NO_COLOR, a monochrome terminal). A blank cell that differs (the other
 * side has a figure there) carries the mark in its last column.
 */
export function DiffCell({ text, differs }: { text: string; differs: boolean }) {
  if (!differs || text.length === 0) return <>{text}</>;
  const at = text.search(/\S/);
  if (at < 0) return <>{`${text.slice(0, -1)}${DIFF_MARK}`}</>;
  const end = text.trimEnd().length;
  const lead = at > 0 ? `${text.slice(0, at - 1)}${DIFF_MARK}` : '';
  return (
    <>
      {lead}
      <Text bold underline>
        {text.slice(at, end)}
      </Text>
      {text.slice(end)}
    </>
  );
}
