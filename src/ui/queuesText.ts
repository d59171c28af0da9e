// The scheduler queues of a core that has several (AMD's Zen) as the Reservation pane and the
// export write them: the stall line and each queue's occupancy, from the engine's snapshot
// (Snapshot.queues; the engine decides, this only words it). A core with one station has no
// `queues` and keeps the station's own lines.
import type { QueuesSnapshot } from '../sim/types.js';

type QueueFill = QueuesSnapshot['list'][number];

/** A queue's occupancy as `INT1 24/24` (a non-scheduling queue the same: its name says which). */
export function queueChip(q: QueueFill): string {
  return `${q.name} ${q.used}/${q.size}`;
}

/** The other scheduling queues of the stalled one's size, summed up: `3 other queues 5/24`, or
 *  with a range when they differ (`3 other queues 0–5/24`); '' when it has none. */
function othersOf(q: QueuesSnapshot, stalled: QueueFill): string {
  const others = q.list.filter((x) => x !== stalled && x.feeds === undefined && x.size === stalled.size);
  if (others.length === 0) return '';
  const lo = Math.min(...others.map((x) => x.used));
  const hi = Math.max(...others.map((x) => x.used));
  const used = lo === hi ? `${lo}` : `${lo}–${hi}`;
  return `, ${others.length} other queue${others.length === 1 ? '' : 's'} ${used}/${stalled.size}`;
}

/**
 * Whether the front end stopped this cycle and on which queue, longest first: the queue it
 * stopped on with its entries at the end of the cycle (`full` when every entry is taken; else it
 * had no room when the op came, or had taken its ops for the cycle, and dispatch freed some), and
 * the other queues of its size. Each form is a shorter wording of the same facts.
 */
export function stallForms(q: QueuesSnapshot): string[] {
  if (q.stalledOn === null) return ['dispatch: no queue stopped it this cycle', 'dispatch: not stalled'];
  const s = q.list.find((x) => x.name === q.stalledOn && x.feeds === undefined);
  if (!s) return [`dispatch stalled: ${q.stalledOn} queue had no room`];
  const fill = `${s.used}/${s.size}`;
  const what = s.used >= s.size ? `full (${fill})` : `had no room (${fill} now)`;
  const nsq = q.list.find((x) => x.feeds?.includes(s.name));
  const behind = nsq ? ` and ${nsq.name} ${nsq.used}/${nsq.size}` : '';
  const others = othersOf(q, s);
  return [
    `dispatch stalled: ${s.name} queue ${what}${behind}${others}`,
    `dispatch stalled: ${s.name} ${what}${behind}${others}`,
    `stalled: ${s.name} ${what}${behind}`,
    `stalled: ${s.name} ${fill}`,
  ];
}

/**
 * The queues' occupancy in rows of at most `width` columns and `maxRows` rows, in record order.
 * When they do not all fit, the last row ends with `… N more` and the hidden ones are the least
 * telling: the queue the front end stopped on and the queues holding entries are kept first.
 */
export function queueChipRows(q: QueuesSnapshot, width: number, maxRows: number): string[] {
  const chips = q.list.map(queueChip);
  const rowsOf = (shown: boolean[], tail: string): string[] => {
    const rows: string[] = [];
    let cur = '';
    const parts = chips.filter((_, k) => shown[k]);
    if (tail) parts.push(tail);
    for (const c of parts) {
      if (cur && cur.length + 2 + c.length > width) {
        rows.push(cur);
        cur = c;
      } else cur = cur ? `${cur}  ${c}` : c;
    }
    if (cur) rows.push(cur);
    return rows;
  };
  const all = q.list.map(() => true);
  const whole = rowsOf(all, '');
  if (whole.length <= maxRows) return whole;
  // hide the least telling first: empty queues from the end, then the others from the end
  const rank = q.list.map((x, k) => (x.name === q.stalledOn ? 2 : x.used > 0 ? 1 : 0) * 1000 + (1000 - k));
  const order = q.list.map((_, k) => k).sort((a, b) => rank[a]! - rank[b]!);
  const shown = [...all];
  for (const k of order) {
    shown[k] = false;
    const hidden = shown.filter((x) => !x).length;
    const rows = rowsOf(shown, `… ${hidden} more`);
    if (rows.length <= maxRows) return rows;
  }
  return [`… ${q.list.length} queues`];
}

/** The queues' title: how the core's scheduler is organised and what its entries count. */
export function queuesTitleForms(q: QueuesSnapshot, inFlight: number): string[] {
  const sched = q.list.filter((x) => x.feeds === undefined).length;
  const unit = q.unit === 'macro-op' ? 'macro-op entries' : 'µop entries';
  return [
    `Scheduler: ${sched} queues (${unit}, steering ${q.steering}), ${inFlight} in flight`,
    `Scheduler: ${sched} queues, ${inFlight} in flight`,
    `${sched} queues, ${inFlight} in flight`,
  ];
}
