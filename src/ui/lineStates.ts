// Per line of a pane: how many of its instances are not loaded yet, waiting, ready, executing
// or done at a snapshot. The engine counts them (Snapshot.lineCounts); this only picks the pane's lines.
import type { LineCount, Snapshot } from '../sim/types.js';

export type LineState = LineCount;

/** `lines`: the pane's original line numbers in program order; a line the snapshot has no count for is left out. */
export function lineStates(snap: Snapshot, lines: number[]): LineState[] {
  const byLine = new Map(snap.lineCounts.map((x) => [x.line, x]));
  const out: LineState[] = [];
  for (const l of lines) {
    const x = byLine.get(l);
    if (x) out.push(x);
  }
  return out;
}
