// The detail analysis of one line in the layout of thesis §2.6.

import type { LineDetail } from '../sim/types.js';
import { fixed, layoutTable, type Column } from './format.js';
import { portLabel } from '../data/ports.js';

/**
 * "Detailed delay information for instruction: … in line N", its maximum latency, the
 * latencies of its dependencies in both directions, and the delays caused and suffered per
 * dependent line and per blocked port. The thesis reads both delay tables from the other
 * side's point of view: "was delayed" is what the other line (or the other users of the port)
 * suffered from this line, "has delayed" what this line suffered from it (§2.6: line 0 of the
 * branch example "was delayed" 13.5 on port 1 = the delay it caused by holding port 1, "has
 * delayed" 15.1 = the delay it suffered): "was delayed" prints othersDelayedByThis and "has
 * delayed" thisDelayedByPort.
 */
export function renderDetail(
  d: LineDetail,
  machine: { ports: readonly number[]; portNames?: readonly string[] | undefined } = { ports: [] },
): string {
  const n = d.line;
  let out = [
    `Detailed delay information for instruction: ${d.asm} in line ${n}`,
    `Maximum latency: ${d.maxLatency}`,
    'Latencies for dependencies:',
  ];
  const sep = ' || ';
  const latCols: Column[] = [
    { header: ['Line'], align: 'right' },
    { header: [`${n} -> Line`], align: 'right', sep },
    { header: [`Line -> ${n}`], align: 'right', sep },
  ];
  const lat = (v: number | null) => (v === null ? '-' : String(v));
  out = out.concat(
    tableOrNone(
      latCols,
      d.latencies.map((l) => [String(l.line), lat(l.fromThis), lat(l.toThis)]),
      'no dependencies',
    ),
  );
  out.push('Delay caused by dependencies:');
  const depCols: Column[] = [
    { header: ['Line'], align: 'right' },
    { header: ['was delayed'], align: 'right', sep },
    { header: ['has delayed'], align: 'right', sep },
  ];
  out = out.concat(
    tableOrNone(
      depCols,
      d.dependencyDelays.map((l) => [String(l.line), fixed(l.otherDelayedByThis, 1), fixed(l.thisDelayedByOther, 1)]),
      'no dependencies',
    ),
  );
  out.push('Delay caused by blocked ports:');
  const portCols: Column[] = [
    { header: ['Port'], align: 'right' },
    { header: ['was delayed'], align: 'right', sep },
    { header: ['has delayed'], align: 'right', sep },
  ];
  out = out.concat(
    tableOrNone(
      portCols,
      d.portDelays.map((p) => [
        portLabel(p.port, machine.ports, machine.portNames),
        fixed(p.othersDelayedByThis, 1),
        fixed(p.thisDelayedByPort, 1),
      ]),
      'no ports used',
    ),
  );
  return out.join('\n') + '\n';
}

function tableOrNone(cols: Column[], rows: string[][], none: string): string[] {
  return rows.length ? layoutTable(cols, rows) : [`  (${none})`];
}
