// What `uopscope FILE` prints when stdout is not a terminal: the run's summary and per-line table
// (the same text the explorer's export uses for a pane).
import { BASELINE } from '../sim/types.js';
import type { ExplorerSession } from '../ui/types.js';
import { statsTable } from '../ui/exportText.js';
import { num } from '../ui/format.js';

export function printPlainReport(session: ExplorerSession, iterations: number): string {
  const engine = session.makeEngine(BASELINE, iterations);
  const end = engine.runToEnd();
  const st = end.stats;
  const out = [
    `${session.file} · ${session.region} · ${session.arch} (${session.archName}) · ${iterations} iterations`,
    ...(session.notes ?? []).map((n) => `note: ${n}`),
    `block throughput: ${num(st.blockThroughput)} cycles/iteration (${st.cycles} cycles), ${num(st.uopsPerCycle)} µops/cycle`,
    '',
    ...statsTable(st, session.ports),
    '',
    "(run on a terminal for the interactive explorer; 'uopscope --help' lists the commands)",
  ];
  return `${out.join('\n')}\n`;
}
