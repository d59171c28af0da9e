// Lockstep comparison of two panes: the first cycle at which their snapshots differ.
import type { Engine, Snapshot } from '../sim/types.js';

/** A compact, comparable description of what a snapshot shows (RS, ports, divider, front end). */
export function snapshotKey(s: Snapshot): string {
  const rs = s.rs.map((e) => `${e.line}.${e.iteration}.${e.loaded}.${e.assigned}.${e.state.kind}`).join(',');
  const ports = s.ports.map((p) => p.uops.map((u) => `${u.line}.${u.iteration}`).join('+')).join('|');
  const d = s.divider.busy ? `${s.divider.cyclesLeft}` : '-';
  const fe = s.frontEnd.next
    ? `${s.frontEnd.next.line}.${s.frontEnd.next.iteration}.${s.frontEnd.next.uopsLeft}`
    : 'end';
  return `${s.completed}/${s.finished ? 1 : 0}/${rs}/${ports}/${d}/${fe}/${s.frontEnd.loadedThisCycle}`;
}

export type Divergence =
  | { kind: 'searching'; upTo: number }
  | { kind: 'at'; cycle: number }
  | { kind: 'never'; cycles: number };

/**
 * Steps two fresh engines in lockstep and reports the first cycle whose snapshots differ.
 * Works in slices of `chunk` cycles so a caller can yield between them; `state` carries on.
 */
interface DivergenceScan {
  a: Engine;
  b: Engine;
  cycle: number;
  result: Divergence;
}

export function startScan(a: Engine, b: Engine): DivergenceScan {
  const scan: DivergenceScan = { a, b, cycle: 0, result: { kind: 'searching', upTo: 0 } };
  if (snapshotKey(a.snapshot()) !== snapshotKey(b.snapshot())) scan.result = { kind: 'at', cycle: 0 };
  return scan;
}

export function continueScan(scan: DivergenceScan, chunk: number): Divergence {
  for (let i = 0; i < chunk && scan.result.kind === 'searching'; i++) {
    const sa = scan.a.step();
    const sb = scan.b.step();
    scan.cycle++;
    if (snapshotKey(sa) !== snapshotKey(sb)) scan.result = { kind: 'at', cycle: scan.cycle };
    else if (sa.finished && sb.finished) scan.result = { kind: 'never', cycles: scan.cycle };
    else scan.result = { kind: 'searching', upTo: scan.cycle };
  }
  return scan.result;
}

export function describeDivergence(d: Divergence | undefined): string {
  if (!d) return '';
  switch (d.kind) {
    case 'searching':
      return `diverge: searching (same up to cycle ${d.upTo})`;
    case 'at':
      return `diverge at cycle ${d.cycle}`;
    case 'never':
      return `identical for all ${d.cycles} cycles`;
  }
}
