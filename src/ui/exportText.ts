// The session as a plain-text report (x): inputs, architecture, variants, the current cycle and its
// snapshot, the summary and per-line table of every pane shown, the detail of the selected line.
import { frontEndLine } from './components/PortsPane.js';
import type { LineDetail, Snapshot } from '../sim/types.js';
import { ORIGIN_LETTER, originLegend } from '../data/types.js';
import { describeDivergence } from './compare.js';
import { detailLines } from './detailText.js';
import { renderDetail } from '../report/detail.js';
import { renderLineTable } from '../report/text.js';
import { dividerForms, fit, inst, num, onPort, portNamer, reason, stateWord, type PortName } from './format.js';
import { inert, modelView } from './modelMenu.js';
import { lineStates } from './lineStates.js';
import { queueChip, stallForms } from './queuesText.js';
import { comparesCores, otherModel, paneSession, variantLabel } from './panes.js';
import { MECHANISM_INFO, mechanismLabel } from '../sim/mechanisms.js';
import { simulatesNothing } from '../sim/stats.js';
import { iterationsDone } from './header.js';
import type { ExplorerState } from './state.js';

function snapshotLines(
  s: Snapshot,
  ls: { line: number; asm: string }[],
  paneLines: number[],
  portName: PortName,
): string[] {
  const out: string[] = [];
  out.push(`cycle ${s.cycle}${s.finished ? ' (finished)' : ''}: ${s.completed} of ${s.total} instances done`);
  out.push('program (W waiting, R ready, E executing, D done, N not loaded):');
  const states = lineStates(s, paneLines);
  const asm = new Map(ls.map((l) => [l.line, l.asm]));
  for (const st of states) {
    out.push(
      `  ${String(st.line).padStart(3)}  ${fit(asm.get(st.line) ?? '', 36)} W${st.waiting} R${st.ready} E${st.executing} D${st.done} N${st.notLoaded}`,
    );
  }
  if (s.queues) {
    const q = s.queues;
    out.push(
      `scheduler queues (${q.unit === 'macro-op' ? 'an entry is a macro-op' : 'an entry is a µop'}, steering ${q.steering}), ${s.rs.length} instances in flight:`,
    );
    out.push(`  ${stallForms(q)[0]}`);
    for (const x of q.list)
      out.push(`  ${queueChip(x)}${x.feeds ? ` (non-scheduling, in front of ${x.feeds.join(' ')})` : ''}`);
    for (const e of s.rs)
      out.push(
        `  ${inst(e).padEnd(10)} ${String(e.uops).padStart(2)} µops  ${(e.queues ?? []).join('+').padEnd(5)} ${entryText(e, portName)}`,
      );
  } else {
    out.push(`reservation station: ${s.rsUsed}/${s.rsCapacity} µops, ${s.rs.length} entries`);
    for (const e of s.rs)
      out.push(`  ${inst(e).padEnd(10)} ${String(e.uops).padStart(2)} µops  ${entryText(e, portName)}`);
  }
  out.push('ports (µop this cycle, µops so far):');
  for (const p of s.ports)
    out.push(
      `  ${portName(p.port)}: ${p.uops.length ? p.uops.map((x) => onPort(x)).join(' ') : '-'}  (${p.cumulative})`,
    );
  out.push(dividerForms(s)[0]!);
  out.push(`ready: ${s.ready.length ? s.ready.map(inst).join(' ') : 'none'}`);
  // the screen's line, whole (source, delivered and issued µops, the IDQ's fill)
  out.push(frontEndLine(s, Number.POSITIVE_INFINITY));
  return out;
}

/** An entry's state and why, the state word said once ('executing, 2 cycles left', not
 *  'executing executing, …'). */
function entryText(e: Snapshot['rs'][number], portName: PortName): string {
  const word = stateWord(e.state);
  const why = reason(e, portName);
  return why === word || why.startsWith(`${word},`) || why.startsWith(`${word} `) ? why : `${word.padEnd(9)} ${why}`;
}

interface ExportExtras {
  details: { title: string; detail: LineDetail | null }[];
  date?: Date;
  /** the measurement (M) as the screen shows it, and why it failed; empty when none is shown */
  measurement?: readonly string[];
}

/** The export's inputs: what was simulated, the model and its notes, the measurement, where. */
function inputLines(state: ExplorerState, extras: ExportExtras): string[] {
  const L = state.layout;
  const s = L.session;
  const sel = s.lines[state.selected];
  const out: string[] = [];
  out.push('== Inputs');
  out.push(`file: ${s.file}`);
  out.push(`region: ${s.region} (${s.lines.length} instructions)`);
  out.push(`architecture: ${s.arch} (${s.archName}), ports ${s.ports.map(portNamer(s)).join(' ')}`);
  if (s.figures) out.push(`figures: ${s.figures}`);
  const missing = s.lines.filter((l) => l.origin === 'none');
  if (missing.length)
    out.push(
      `INCOMPLETE: ${missing.length} line${missing.length === 1 ? '' : 's'} without figures (${missing.map((l) => `line ${l.line}: ${l.figures ?? 'no source'}`).join('; ')}); every throughput leaves them out`,
    );
  out.push(`iterations: ${L.iterations}`);
  // a mechanism the core does not model is neither on nor off: it says so
  const view = modelView(s, L.mechanisms);
  const sw = (id: (typeof MECHANISM_INFO)[number]['id']) =>
    inert(view, id) !== null ? 'not modelled' : L.mechanisms[id] ? 'on' : 'off';
  out.push(`model: ${mechanismLabel(L.mechanisms)} (${MECHANISM_INFO.map((m) => `${m.flag} ${sw(m.id)}`).join(', ')})`);
  for (const m of view.notModelled) out.push(`not modelled on ${s.arch}: ${m.what} (${m.why})`);
  out.push(
    `model comparison: ${L.compareModel && !L.branches ? `on (beside ${mechanismLabel(otherModel(L.mechanisms))})` : 'off'}`,
  );
  out.push(`variants: ${variantLabel(L.variants)}`);
  out.push(`branch comparison: ${L.branches && s.branches ? `on (jump at line ${s.branches.branchLine})` : 'off'}`);
  const o = L.other;
  out.push(
    `core comparison: ${o ? `${comparesCores(L) ? 'on' : 'on once the branch comparison is off'} (beside ${o.arch} (${o.archName}), ports ${o.ports.map(portNamer(o)).join(' ')}${o.figures ? `, figures: ${o.figures}` : ''})` : 'off'}`,
  );
  const md = s.memoryThroughData;
  const pairs = md?.pairs.map((p) => `line ${p.store} → ${p.load}`).join(', ');
  out.push(
    `worst case of the loads through data: ${!md ? 'none in this loop' : L.panes.some((p) => p.spec.memoryThroughData) ? `on (${pairs}: each load reads the previous iteration's store)` : `off (${pairs})`}`,
  );
  for (const n of s.notes ?? []) out.push(`note: ${n}`);
  // the model's notes, as the report prints them
  for (const n of view.notes) out.push(`note: ${n}`);
  for (const m of extras.measurement ?? []) out.push(`measurement (M): ${m}`);
  out.push(`current cycle: ${state.cycle}`);
  out.push(`selected line: ${sel ? `${sel.line} ${sel.asm}${sel.figures ? ` (figures: ${sel.figures})` : ''}` : '-'}`);
  return out;
}

export function exportText(state: ExplorerState, extras: ExportExtras): string {
  const L = state.layout;
  const s = L.session;
  const sel = s.lines[state.selected];
  const out: string[] = [];
  out.push('uopscope explorer session');
  out.push(`date: ${(extras.date ?? new Date()).toISOString()}`);
  out.push('');
  out.push(...inputLines(state, extras));
  if (L.panes.length > 1) out.push(`comparison: ${describeDivergence(state.divergence)}`);
  L.panes.forEach((pane, i) => {
    const snap = state.snaps[i]!;
    const total = state.totals[i];
    // the pane's core: its figures' sources and its ports' names (the core split's right pane
    // runs the other core)
    const s = paneSession(L, pane);
    out.push('');
    out.push(`== Pane: ${pane.title}${comparesCores(L) ? ` (${s.arch}, ${s.archName})` : ''}`);
    if (simulatesNothing(snap.stats)) {
      // nothing simulated: the cycles say nothing about the code, so no throughput
      out.push('no throughput: no line of this pane has data, nothing was simulated');
      if (total !== null && total !== undefined)
        out.push(`whole run: ${total.cycles} cycles (of placeholders, no throughput)`);
    } else {
      out.push(
        snap.stats.iterationsCompleted > 0
          ? `block throughput over the ${iterationsDone(snap.stats.iterationsCompleted)} complete iterations by cycle ${snap.cycle}: ${num(snap.stats.blockThroughput)} cycles/iteration, ${num(snap.stats.uopsPerCycle)} µops/cycle`
          : `block throughput: – (first iteration not complete by cycle ${snap.cycle}), ${num(snap.stats.uopsPerCycle)} µops/cycle`,
      );
      if (total !== null && total !== undefined)
        out.push(`whole run: ${total.cycles} cycles, ${num(total.blockThroughput)} cycles/iteration`);
    }
    out.push('');
    out.push('-- Snapshot');
    for (const l of snapshotLines(snap, s.lines, pane.lines, portNamer(s))) out.push(l);
    out.push('');
    out.push(`-- Sources of the figures (${originLegend(s.lines.flatMap((l) => (l.origin ? [l.origin] : [])))})`);
    for (const l of s.lines)
      if (pane.lines.includes(l.line))
        out.push(
          `  ${String(l.line).padStart(3)}  ${l.origin ? ORIGIN_LETTER[l.origin] : ' '} ${fit(l.asm, 36)} ${l.figures ?? ''}`.trimEnd(),
        );
    out.push('');
    out.push(
      `-- Per-line statistics (per iteration: ${iterationsDone(snap.stats.iterationsCompleted)} of ${L.iterations} complete by this cycle; each line over its instances done)`,
    );
    // the report's table (src/report/text.ts): at the last cycle it is `uopscope report`'s
    // each line's source letter, as the report prints it, when the session knows every line's
    const origins = s.lines.every((l) => l.origin !== undefined) ? s.lines.map((l) => l.origin!) : undefined;
    for (const l of renderLineTable(snap.stats, s.ports, s.dividerPort, origins, s.portNames)) out.push(l);
    out.push(`Total number of Uops: ${snap.stats.totalUops}`);
  });
  extras.details.forEach((d, i) => {
    const core = L.panes[i] ? paneSession(L, L.panes[i]) : s;
    out.push('');
    out.push(`== Detail of the selected line (${d.title})`);
    // the thesis's layout, as `uopscope report --detail` prints it
    out.push(...(d.detail ? renderDetail(d.detail, core).trimEnd().split('\n') : detailLines(sel?.line ?? -1, null)));
  });
  return `${out.join('\n')}\n`;
}
