import { Box, Text } from 'ink';
import type { PortSlot, Stats } from '../../sim/types.js';
import { clip, count, firstFitting, fit, num, numFit } from '../format.js';
import { scrollStart } from '../layout.js';
import { iterationsDone } from '../header.js';
import { simulatesNothing } from '../../sim/stats.js';
import type { SplitDiff, StatsKey } from '../splitDiff.js';
import { DiffCell } from './DiffCell.js';
import { usePortName } from './PortNameContext.js';

interface StatsPaneProps {
  width: number;
  height: number;
  stats: Stats;
  ports: number[];
  selectedLine: number | null;
  /** in a split view: the cells whose figures differ from the other side's (marked ▸) */
  diff?: Pick<SplitDiff, 'stats' | 'totals'> | null;
  /** the snapshot's ports: a port that took a µop is in use, though no instance of it is done yet */
  portUops?: readonly Pick<PortSlot, 'port' | 'cumulative'>[];
}

/** A number is never cut: fewer decimals, or 1.2k, in its column (cell: one space + figure). */
const cell = (x: number, w: number) => ` ${numFit(x, w - 1)}`.padStart(w);

/** The thesis's per-line table as of this cycle: µops, had to wait, caused to wait, port use. */
export function StatsPane(p: StatsPaneProps) {
  const portName = usePortName();
  const st = p.stats;
  // line numbers are never cut: the column takes the widest one's digits
  const numW = Math.max(3, String(Math.max(0, ...st.lines.map((l) => l.line))).length);
  const fixed = numW + 1 + 5 + 6 + 7; // line, µops, wait, caused
  const room = p.width - fixed;
  const asmW = Math.max(8, Math.min(28, room - p.ports.length * 5));
  const fitPorts = Math.max(0, Math.floor((room - asmW) / 5));
  // when not every port fits, the unused ones go first, then the last ones; the title says which
  // (in use: took a µop so far, whether or not an instance of it is done)
  const took = new Map(p.portUops?.map((x) => [x.port, x.cumulative]));
  const used = (x: number) => (took.get(x) ?? 0) > 0 || (st.portTotals[String(x)] ?? 0) > 0;
  const order = [...p.ports.filter(used), ...p.ports.filter((x) => !used(x))];
  const keep = new Set(order.slice(0, fitPorts));
  const shownPorts = p.ports.filter((x) => keep.has(x));
  const hiddenPorts = p.ports.filter((x) => !keep.has(x));
  const head = `${'ln'.padStart(numW)} ${fit('instruction', asmW)}${'µops'.padStart(5)}${'wait'.padStart(6)}${'caused'.padStart(7)}${shownPorts.map((x) => portName(x).padStart(5)).join('')}`;
  const rows = Math.max(1, p.height - 3);
  const sel = Math.max(
    0,
    st.lines.findIndex((l) => l.line === p.selectedLine),
  );
  // lines that do not fit are counted on a row of their own (the total includes them)
  const lineRows = st.lines.length > rows ? Math.max(1, rows - 1) : rows;
  const start = scrollStart(sel, st.lines.length, lineRows);
  const shown = st.lines.slice(start, start + lineRows);
  const below = st.lines.length - start - shown.length;
  const moreLines =
    shown.length < st.lines.length
      ? start > 0
        ? `… ${start} more above, ${below} below (in the total)`
        : `… ${below} more line${below === 1 ? '' : 's'} (in the total)`
      : null;
  const tp = simulatesNothing(st) ? 'no throughput (nothing simulated)' : `${num(st.blockThroughput)} c/iter`;
  const title = statsTitle(st, p.width, tp, hiddenPorts.filter(used).map(portName), hiddenPorts.length);
  const marks = p.diff?.stats;
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip(title, p.width)}</Text>
      <Text underline>{clip(head, p.width)}</Text>
      {shown.map((l) => (
        <Text key={l.line} inverse={l.line === p.selectedLine} wrap="truncate-end">
          {String(l.line).padStart(numW)} {fit(`${l.unknown ? '? ' : ''}${l.asm}`, asmW)}
          <StatsCells
            cells={[
              ['uops', ` ${count(l.uops, 4)}`.padStart(5)],
              ['wait', cell(l.hadToWait, 6)],
              ['caused', cell(l.causedToWait, 7)],
              ...shownPorts.map((x): [StatsKey, string] => [
                `p${x}`,
                l.ports[String(x)] ? cell(l.ports[String(x)]!, 5) : ''.padStart(5),
              ]),
            ]}
            marked={marks?.get(l.line)}
          />
        </Text>
      ))}
      {moreLines !== null && <Text>{clip(moreLines, p.width)}</Text>}
      <Text wrap="truncate-end">
        {fit('', numW)} {fit('total', asmW)}
        <StatsCells
          cells={[
            ['uops', ` ${count(st.totalUops, 4)}`.padStart(5)],
            ['wait', ''.padStart(13)],
            // blank: the port took no µop (as a line's cell); –: no iteration complete yet
            ...shownPorts.map((x): [StatsKey, string] => [
              `p${x}`,
              used(x) ? cell(st.portTotals[String(x)] ?? 0, 5) : ''.padStart(5),
            ]),
          ]}
          marked={p.diff?.totals}
        />
      </Text>
    </Box>
  );
}

/** A row's cells, each marked (▸) when its figure differs from the other side's. */
function StatsCells(p: { cells: [StatsKey, string][]; marked: ReadonlySet<StatsKey> | undefined }) {
  return (
    <>
      {p.cells.map(([k, text]) => (
        <DiffCell key={k} text={text} differs={p.marked?.has(k) ?? false} />
      ))}
    </>
  );
}

/** The pane's title, the longest form that fits: the totals, and the ports not shown (`hidden`
 *  of them, `hiddenUsed` in use), always said: by name while they fit, else counted. */
function statsTitle(
  st: StatsPaneProps['stats'],
  width: number,
  tp: string,
  hiddenUsed: string[],
  hidden: number,
): string {
  const unusedHidden = hidden - hiddenUsed.length;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  // the ports not shown, always said: by name while they fit, else counted
  const hiddenForms =
    hidden === 0
      ? ['']
      : [
          ...(hiddenUsed.length > 0
            ? [
                ` · hidden: ${hiddenUsed.join(' ')} (in use)${unusedHidden ? ` + ${unusedHidden} unused` : ''}`,
                ` · ${plural(hidden, 'port')} hidden (${hiddenUsed.length} in use)`,
              ]
            : [` · ${plural(hidden, 'unused port')} hidden`]),
          ` · ${plural(hidden, 'port')} hidden`,
        ];
  const totals = `${tp} · ${num(st.uopsPerCycle)} µops/c · ${st.totalUops} µops/iter`;
  return firstFitting(width, [
    ...(width >= 70
      ? hiddenForms.map(
          (h) => `Statistics (per iteration, ${iterationsDone(st.iterationsCompleted)} complete) ${totals}${h}`,
        )
      : []),
    // the totals (µops/c and µops/iter too) stay while a shorter wording makes room for them
    ...hiddenForms.map((h) => `Stats per iteration (${iterationsDone(st.iterationsCompleted)} complete) ${totals}${h}`),
    ...hiddenForms.map((h) => `Stats per iter. (${iterationsDone(st.iterationsCompleted)} done): ${totals}${h}`),
    ...hiddenForms.map((h) => `Stats per iter.: ${totals}${h}`),
    ...hiddenForms.map((h) => `Stats: ${tp} (${iterationsDone(st.iterationsCompleted)} complete)${h}`),
    ...hiddenForms.map((h) => `Stats: ${tp}${h}`),
    ...hiddenForms.map((h) => `Stats${h}`),
  ]);
}
