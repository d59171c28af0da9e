import { Box, Text } from 'ink';
import type { Snapshot } from '../../sim/types.js';
import { clip, bar, firstFitting, inst, reason, STATE_COLOR, STATE_SYMBOL, stateWord } from '../format.js';
import { useTint } from './ThemeContext.js';
import { DiffCell } from './DiffCell.js';

interface RsPaneProps {
  width: number;
  height: number;
  snapshot: Snapshot;
  selectedLine: number | null;
  /** in a split view: the instances whose entry differs from the other side's (marked ▸) */
  diff?: ReadonlySet<string> | null;
}

/** The reservation station: each entry with its state and why, and the fill level. */
export function RsPane(p: RsPaneProps) {
  const tint = useTint();
  const s = p.snapshot;
  const rows = Math.max(1, p.height - 1);
  const entries = s.rs;
  // program order; when the selected line's first entry is further down, the window starts there
  const first = p.selectedLine === null ? -1 : entries.findIndex((e) => e.line === p.selectedLine);
  const room = entries.length > rows ? rows - 1 : rows; // one row for '… more'
  const start = first >= room ? Math.min(first, entries.length - room) : 0;
  const shown = entries.slice(start, start + room);
  // the fill counts µops without a port (a µop leaves the station when it gets one); the list
  // is every instance in flight, executing ones too: the title names both
  const fill = `${s.rsUsed}/${s.rsCapacity}`;
  const n = entries.length;
  const title = `${firstFitting(p.width - 4, [
    `Reservation station ${fill} µops waiting for a port, ${n} in flight`,
    `Reservation station ${fill} µops waiting, ${n} in flight`,
    `Station ${fill} µops waiting, ${n} in flight`,
    `Station ${fill} µops, ${n} in flight`,
    `RS ${fill} µops, ${n} in flight`,
  ])} `;
  const barW = Math.max(0, Math.min(20, p.width - title.length));
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold wrap="truncate-end">
        {title}
        {bar(s.rsCapacity ? s.rsUsed / s.rsCapacity : 0, barW)}
      </Text>
      {entries.length === 0 && <Text>{clip('(empty)', p.width)}</Text>}
      {shown.map((e) => {
        const w = stateWord(e.state);
        const name = ` ${inst(e).padEnd(9)}`;
        const tail = ` ${String(e.uops).padStart(2)}µ `;
        const head = `${STATE_SYMBOL[w]}${name}${tail}`;
        return (
          <Text key={`${e.line}.${e.iteration}`} inverse={e.line === p.selectedLine} wrap="truncate-end">
            <Text color={tint(STATE_COLOR[w])}>
              {STATE_SYMBOL[w]}
              <DiffCell text={name} differs={p.diff?.has(inst(e)) ?? false} />
              {tail}
            </Text>
            {clip(reason(e), Math.max(0, p.width - head.length))}
          </Text>
        );
      })}
      {shown.length < entries.length && (
        <Text>
          {clip(
            start
              ? `… ${start} above, ${entries.length - start - shown.length} below`
              : `… ${entries.length - shown.length} more entries`,
            p.width,
          )}
        </Text>
      )}
    </Box>
  );
}
