import { Box, Text } from 'ink';
import type { LineDetail } from '../../sim/types.js';
import { clip } from '../format.js';
import { detailLines } from '../detailText.js';
import { usePortName } from './PortNameContext.js';
import { wrapText } from '../../report/fit.js';

interface DetailPaneProps {
  width: number;
  height: number;
  line: number;
  detail: LineDetail | null;
  /** where the line's figures come from (SessionLine.figures) */
  figures?: string;
}

export function DetailPane(p: DetailPaneProps) {
  const lines = detailLines(p.line, p.detail, usePortName());
  // the figures' source in full (a corrected line's citations run long): wrapped, not cut
  if (p.figures) lines.splice(1, 0, ...wrapText(`figures: ${p.figures}`, Math.max(20, p.width)).split('\n'));
  const rows = Math.max(1, p.height);
  const shown =
    lines.length > rows
      ? [...lines.slice(0, rows - 1), `… ${lines.length - rows + 1} more (see the export, x)`]
      : lines;
  return (
    <Box flexDirection="column" width={p.width}>
      {shown.map((l, i) => (
        <Text key={i} bold={i === 0}>
          {clip(l, p.width)}
        </Text>
      ))}
    </Box>
  );
}
