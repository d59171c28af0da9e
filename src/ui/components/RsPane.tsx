import { Box, Text } from 'ink';
import type { Snapshot } from '../../sim/types.js';
import { clip, bar, firstFitting, inst, reason, STATE_COLOR, STATE_SYMBOL, stateWord } from '../format.js';
import { queueChipRows, queuesTitleForms, stallForms } from '../queuesText.js';
import { useTint } from './ThemeContext.js';
import { usePortName } from './PortNameContext.js';
import { DiffCell } from './DiffCell.js';

interface RsPaneProps {
  width: number;
  height: number;
  snapshot: Snapshot;
  selectedLine: number | null;
  /** in a split view: the instances whose entry differs from the other side's (marked ▸) */
  diff?: ReadonlySet<string> | null;
}

/** The reservation station: each entry with its state and why, and the fill level (on a core with
 *  several scheduler queues, the queues: QueuesView). */
export function RsPane(p: RsPaneProps) {
  return p.snapshot.queues ? <QueuesView {...p} queues={p.snapshot.queues} /> : <StationView {...p} />;
}

/** The one unified reservation station (SUACA's model; Intel's cores). */
function StationView(p: RsPaneProps) {
  const s = p.snapshot;
  const rows = Math.max(1, p.height - 1);
  const entries = s.rs;
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
      <EntryRows entries={entries} rows={rows} width={p.width} selectedLine={p.selectedLine} diff={p.diff} />
    </Box>
  );
}

/** The window of entries shown in `rows` rows (one of them for `… more` when they do not all
 *  fit): from the selected line's first entry when it is further down. */
function entryWindow<T extends { line: number }>(entries: T[], rows: number, selectedLine: number | null) {
  const first = selectedLine === null ? -1 : entries.findIndex((e) => e.line === selectedLine);
  const room = entries.length > rows ? Math.max(0, rows - 1) : rows;
  const start = first >= room ? Math.min(first, entries.length - room) : 0;
  return { start, shown: entries.slice(start, start + room) };
}

/**
 * A core with several scheduler queues (Snapshot.queues): the title (how many queues, what an
 * entry is, the steering rule), whether the front end stopped this cycle and on which queue,
 * each queue's occupancy (one row each with a bar when the pane has the rows, else side by side
 * with `… N more` for those that do not fit), then the instances in flight with the queue their
 * waiting µops are in and why they wait.
 */
function QueuesView(p: RsPaneProps & { queues: NonNullable<Snapshot['queues']> }) {
  const tint = useTint();
  const portName = usePortName();
  const s = p.snapshot;
  const q = p.queues;
  const entries = s.rs;
  const width = p.width;
  const title = firstFitting(width, queuesTitleForms(q, entries.length));
  const stall = firstFitting(width, stallForms(q));
  // the queue the front end stopped on: what its oldest entry waits for
  const oldest = q.stalledOn ? entries.find((e) => e.queues?.includes(q.stalledOn!)) : undefined;
  const held = oldest ? entries.filter((e) => e.queues?.includes(q.stalledOn!)).length : 0;
  const head = oldest
    ? clip(`${q.stalledOn} holds ${held}: oldest ${inst(oldest)} ${reason(oldest, portName)}`, width)
    : null;
  const body = Math.max(0, p.height - 2 - (head ? 1 : 0));
  // one row per queue when that leaves rows for entries; else side by side
  const nameW = Math.max(...q.list.map((x) => x.name.length));
  const tall = body >= q.list.length + Math.min(entries.length + 1, 6) && width >= 40;
  const queueRows = tall
    ? q.list.map((x) => queueRow(x, entries, nameW, width))
    : queueChipRows(q, width, Math.max(1, Math.min(3, body - 2)));
  const rows = Math.max(0, body - queueRows.length);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      <Text color={q.stalledOn ? tint('red') : undefined} wrap="truncate-end">
        {stall}
      </Text>
      {head && <Text wrap="truncate-end">{head}</Text>}
      {queueRows.map((r, k) => (
        <Text key={`q${k}`} wrap="truncate-end">
          {r}
        </Text>
      ))}
      <EntryRows
        entries={entries}
        rows={rows}
        width={width}
        selectedLine={p.selectedLine}
        diff={p.diff}
        queueNameWidth={nameW}
      />
    </Box>
  );
}

/**
 * The instances in flight, one row each (state, instruction, µops, why it waits), in the window
 * `entryWindow` chooses, then `… N more` when they do not all fit; with `queueNameWidth` (the
 * longest queue name), a column naming the queue(s) each one's waiting µops are in (at most 9 wide).
 */
function EntryRows(p: {
  entries: Snapshot['rs'];
  rows: number;
  width: number;
  selectedLine: number | null;
  diff: RsPaneProps['diff'];
  queueNameWidth?: number;
}) {
  const tint = useTint();
  const portName = usePortName();
  const { entries, rows, width } = p;
  if (rows <= 0) return null;
  if (entries.length === 0) return <Text>{clip('(empty)', width)}</Text>;
  const { start, shown } = entryWindow(entries, rows, p.selectedLine);
  const nameW = p.queueNameWidth;
  const qw =
    nameW === undefined ? 0 : Math.min(9, Math.max(nameW, ...shown.map((e) => (e.queues ?? []).join('+').length)));
  return (
    <>
      {shown.map((e) => {
        const w = stateWord(e.state);
        const name = ` ${inst(e).padEnd(9)}`;
        const tail = ` ${String(e.uops).padStart(2)}µ `;
        const inQ = nameW !== undefined ? `${clip((e.queues ?? []).join('+'), qw).padEnd(qw)} ` : '';
        const head = `${STATE_SYMBOL[w]}${name}${tail}${inQ}`;
        return (
          <Text key={`${e.line}.${e.iteration}`} inverse={e.line === p.selectedLine} wrap="truncate-end">
            <Text color={tint(STATE_COLOR[w])}>
              {STATE_SYMBOL[w]}
              <DiffCell text={name} differs={p.diff?.has(inst(e)) ?? false} />
              {tail}
            </Text>
            {inQ}
            {clip(reason(e, portName), Math.max(0, width - head.length))}
          </Text>
        );
      })}
      {shown.length < entries.length && (
        <Text>
          {clip(
            start
              ? `… ${start} above, ${entries.length - start - shown.length} below`
              : `… ${entries.length - shown.length} more entries`,
            width,
          )}
        </Text>
      )}
    </>
  );
}

/** One queue on a row of its own: its occupancy, a bar of it, and what its entries are doing
 *  (a non-scheduling queue: the queues it feeds). */
function queueRow(
  x: NonNullable<Snapshot['queues']>['list'][number],
  entries: Snapshot['rs'],
  nameW: number,
  width: number,
) {
  const chip = `${x.name.padEnd(nameW)} ${`${x.used}/${x.size}`.padStart(7)}`;
  const barW = Math.max(0, Math.min(16, width - chip.length - 30));
  let what: string;
  if (x.feeds) what = `in front of ${x.feeds.join(' ')}`;
  else {
    const held = entries.filter((e) => e.queues?.includes(x.name));
    const by = (k: string) => held.filter((e) => stateWord(e.state) === k).length;
    const parts = [
      [by('waiting'), 'waiting'],
      [by('loading'), 'loading'],
      [by('ready'), 'ready'],
    ].filter(([n]) => (n as number) > 0);
    what = parts.length ? parts.map(([n, w]) => `${n} ${w}`).join(', ') : held.length ? `${held.length} in flight` : '';
  }
  return clip(`${chip} ${bar(x.size ? x.used / x.size : 0, barW)} ${what}`.trimEnd(), width);
}
