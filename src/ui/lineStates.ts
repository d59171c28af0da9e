// Per line of a pane: how many of its instances are not loaded yet, waiting, ready, executing
// or done at a snapshot. Read off the snapshot's reservation station and front end (no model).
import type { Snapshot } from '../sim/types.js';
import { stateWord } from './format.js';

export interface LineState {
  line: number;
  notLoaded: number;
  waiting: number;      // loading or waiting on a dependency
  ready: number;        // dependencies resolved, waiting for a port
  executing: number;
  done: number;
}

/** `lines`: the pane's original line numbers in program order; `iterations` of the run. */
export function lineStates(snap: Snapshot, lines: number[], iterations: number): LineState[] {
  const pos = new Map<number, number>();
  lines.forEach((l, i) => pos.set(l, i));
  const out: LineState[] = lines.map((line) => ({ line, notLoaded: 0, waiting: 0, ready: 0, executing: 0, done: 0 }));
  const inRs = new Array<number>(lines.length).fill(0);
  for (const e of snap.rs) {
    const i = pos.get(e.line);
    if (i === undefined) continue;
    const o = out[i]!;
    const w = stateWord(e.state);
    if (w === 'done') continue;
    inRs[i]!++;
    if (w === 'loading' || w === 'waiting') o.waiting++;
    else if (w === 'ready') o.ready++;
    else o.executing++;
  }
  const next = snap.frontEnd.next;
  const k = next ? (pos.get(next.line) ?? 0) : 0;
  for (let i = 0; i < lines.length; i++) {
    let started: number;
    if (!next) started = iterations;
    else {
      started = next.iteration + (i < k ? 1 : 0);
      if (i === k && snap.rs.some((e) => e.line === next.line && e.iteration === next.iteration)) started++;
    }
    started = Math.min(iterations, started);
    const o = out[i]!;
    o.notLoaded = iterations - started;
    o.done = Math.max(0, started - inRs[i]!);
  }
  return out;
}
