import { Box, Text } from 'ink';
import type { Stats } from '../../sim/types.js';
import { clip, fit, fitLeft, num } from '../format.js';
import { scrollStart } from '../layout.js';
import { iterationsDone } from './Header.js';
import { simulatesNothing } from '../../sim/stats.js';

export interface StatsPaneProps {
  width: number;
  height: number;
  stats: Stats;
  ports: number[];
  selectedLine: number | null;
}

/** The thesis's per-line table as of this cycle: µops, had to wait, caused to wait, port use. */
export function StatsPane(p: StatsPaneProps) {
  const st = p.stats;
  const fixed = 4 + 4 + 6 + 7; // line, µops, wait, caused
  const portCols = p.ports.map((x) => `p${x}`);
  const room = p.width - fixed;
  const asmW = Math.max(8, Math.min(28, room - portCols.length * 5));
  const fitPorts = Math.max(0, Math.floor((room - asmW) / 5));
  const shownPorts = portCols.slice(0, fitPorts);
  const head = `${'ln'.padStart(3)} ${fit('instruction', asmW)}${'µops'.padStart(4)}${'wait'.padStart(6)}${'caused'.padStart(7)}${shownPorts.map((x) => x.padStart(5)).join('')}`;
  const rows = Math.max(1, p.height - 3);
  const sel = Math.max(0, st.lines.findIndex((l) => l.line === p.selectedLine));
  const start = scrollStart(sel, st.lines.length, rows);
  const shown = st.lines.slice(start, start + rows);
  const tp = simulatesNothing(st) ? 'no throughput (nothing simulated)' : `${num(st.blockThroughput)} c/iter`;
  const totals = `${tp} · ${num(st.uopsPerCycle)} µops/c · ${st.totalUops} µops/iter${shownPorts.length < portCols.length ? ` · ${portCols.length - shownPorts.length} port columns hidden` : ''}`;
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip(p.width >= 70 ? `Statistics (per iteration done: ${iterationsDone(st.iterationsCompleted)}) ${totals}` : `Stats per iteration done (${iterationsDone(st.iterationsCompleted)}): ${tp}`, p.width)}</Text>
      <Text underline>{clip(head, p.width)}</Text>
      {shown.map((l) => (
        <Text key={l.line} inverse={l.line === p.selectedLine} wrap="truncate-end">
          {fitLeft(String(l.line), 3)} {fit(`${l.unknown ? 'X ' : ''}${l.asm}`, asmW)}{fitLeft(String(l.uops), 4)}{fitLeft(num(l.hadToWait), 6)}{fitLeft(num(l.causedToWait), 7)}
          {p.ports.slice(0, shownPorts.length).map((x) => fitLeft(l.ports[String(x)] ? num(l.ports[String(x)]!) : '', 5)).join('')}
        </Text>
      ))}
      <Text wrap="truncate-end">
        {fit('', 3)} {fit('total', asmW)}{fitLeft(String(st.totalUops), 4)}{fitLeft('', 13)}
        {p.ports.slice(0, shownPorts.length).map((x) => fitLeft(num(st.portTotals[String(x)] ?? 0), 5)).join('')}
      </Text>
    </Box>
  );
}
