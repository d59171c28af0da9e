import { Box, Text } from 'ink';
import type { LineDetail } from '../../sim/types.js';
import { clip, num } from '../format.js';

export interface DetailPaneProps {
  width: number;
  height: number;
  line: number;
  detail: LineDetail | null;
}

/** Thesis §2.6 for the selected line: latencies, delays through dependencies and through ports. */
export function detailLines(line: number, d: LineDetail | null): string[] {
  if (!d) return [`Detail of line ${line}: not on this path`];
  const out = [`Detail of line ${d.line}: ${d.asm}`, `maximum latency ${d.maxLatency}`];
  if (d.latencies.length) {
    out.push('latency of dependencies (cycles): line  from this  to this');
    for (const l of d.latencies) out.push(`  L${l.line}`.padEnd(8) + `${l.fromThis ?? '–'}`.padStart(10) + `${l.toThis ?? '–'}`.padStart(9));
  }
  if (d.dependencyDelays.length) {
    out.push('dependency delays (avg cycles/iter): line  it delayed this  this delayed it');
    for (const x of d.dependencyDelays) out.push(`  L${x.line}`.padEnd(8) + num(x.wasDelayed).padStart(16) + num(x.hasDelayed).padStart(17));
  }
  if (d.portDelays.length) {
    out.push('port delays (avg cycles/iter): port  was delayed  has delayed');
    for (const x of d.portDelays) out.push(`  p${x.port}`.padEnd(8) + num(x.wasDelayed).padStart(12) + num(x.hasDelayed).padStart(13));
  }
  return out;
}

export function DetailPane(p: DetailPaneProps) {
  const lines = detailLines(p.line, p.detail);
  const rows = Math.max(1, p.height);
  const shown = lines.length > rows ? [...lines.slice(0, rows - 1), `… ${lines.length - rows + 1} more (see the export, x)`] : lines;
  return (
    <Box flexDirection="column" width={p.width}>
      {shown.map((l, i) => <Text key={i} bold={i === 0}>{clip(l, p.width)}</Text>)}
    </Box>
  );
}
