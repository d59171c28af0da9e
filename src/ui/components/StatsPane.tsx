import { Box, Text } from 'ink';
import type { Stats } from '../../sim/types.js';
import { clip, count, firstFitting, fit, fitLeft, num, numFit } from '../format.js';
import { scrollStart } from '../layout.js';
import { iterationsDone } from '../header.js';
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
  const fixed = 4 + 5 + 6 + 7; // line, µops, wait, caused
  const room = p.width - fixed;
  const asmW = Math.max(8, Math.min(28, room - p.ports.length * 5));
  const fitPorts = Math.max(0, Math.floor((room - asmW) / 5));
  // when not every port fits, the unused ones go first, then the last ones; the title says which
  const used = (x: number) => (st.portTotals[String(x)] ?? 0) > 0;
  const order = [...p.ports.filter(used), ...p.ports.filter((x) => !used(x))];
  const keep = new Set(order.slice(0, fitPorts));
  const shownPorts = p.ports.filter((x) => keep.has(x));
  const hiddenPorts = p.ports.filter((x) => !keep.has(x));
  const head = `${'ln'.padStart(3)} ${fit('instruction', asmW)}${'µops'.padStart(5)}${'wait'.padStart(6)}${'caused'.padStart(7)}${shownPorts.map((x) => `p${x}`.padStart(5)).join('')}`;
  const rows = Math.max(1, p.height - 3);
  const sel = Math.max(
    0,
    st.lines.findIndex((l) => l.line === p.selectedLine),
  );
  const start = scrollStart(sel, st.lines.length, rows);
  const shown = st.lines.slice(start, start + rows);
  const tp = simulatesNothing(st) ? 'no throughput (nothing simulated)' : `${num(st.blockThroughput)} c/iter`;
  const hiddenUsed = hiddenPorts.filter(used);
  const hidden =
    hiddenPorts.length === 0
      ? ''
      : hiddenUsed.length === 0
        ? ` · ${hiddenPorts.length} unused port${hiddenPorts.length === 1 ? '' : 's'} hidden`
        : ` · hidden: ${hiddenUsed.map((x) => `p${x}`).join(' ')}${hiddenPorts.length > hiddenUsed.length ? ` +${hiddenPorts.length - hiddenUsed.length} unused` : ''}`;
  const totals = `${tp} · ${num(st.uopsPerCycle)} µops/c · ${st.totalUops} µops/iter${hidden}`;
  // a number is never cut: fewer decimals, or 1.2k, in its column (cell: one space + figure)
  const cell = (x: number, w: number) => ` ${numFit(x, w - 1)}`.padStart(w);
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>
        {clip(
          p.width >= 70
            ? `Statistics (per iteration done: ${iterationsDone(st.iterationsCompleted)}) ${totals}`
            : firstFitting(p.width, [
                `Stats: ${tp} over ${iterationsDone(st.iterationsCompleted)} iter.${hidden}`,
                `Stats: ${tp}${hidden}`,
                `Stats${hidden}`,
              ]),
          p.width,
        )}
      </Text>
      <Text underline>{clip(head, p.width)}</Text>
      {shown.map((l) => (
        <Text key={l.line} inverse={l.line === p.selectedLine} wrap="truncate-end">
          {fitLeft(String(l.line), 3)} {fit(`${l.unknown ? '? ' : ''}${l.asm}`, asmW)}
          {` ${count(l.uops, 4)}`.padStart(5)}
          {cell(l.hadToWait, 6)}
          {cell(l.causedToWait, 7)}
          {shownPorts.map((x) => (l.ports[String(x)] ? cell(l.ports[String(x)]!, 5) : ''.padStart(5))).join('')}
        </Text>
      ))}
      <Text wrap="truncate-end">
        {fit('', 3)} {fit('total', asmW)}
        {` ${count(st.totalUops, 4)}`.padStart(5)}
        {''.padStart(13)}
        {shownPorts.map((x) => cell(st.portTotals[String(x)] ?? 0, 5)).join('')}
      </Text>
    </Box>
  );
}
