// The report in the layout of the SUACA thesis (ch. 2 and 4): headline figures, the per-line
// table with one column per port, the branch sections, the combinations and the unknown list.

import type { LineStats, Stats } from '../sim/types.js';
import { blankIfZero, fixed, layoutTable, wrapText, type Column } from './format.js';
import { renderDetail } from './detail.js';
import { portLabel } from '../data/ports.js';
import { originLegend, originLetter, type FigureOrigin } from '../data/origins.js';
import { isBaseline, variantLabel } from '../sim/variants.js';
import {
  nothingSimulated,
  originSummary,
  type ModelRun,
  type ReportModel,
  type Section,
  type VariantFigures,
} from './model.js';
import { notModelledOf } from './collect.js';
import { DATA_MEMORY_WHAT_IF } from '../sim/refine.js';
import { citedFootnote } from './listing.js';
import { MECHANISMS, isSuaca, mechanismInfo, mechanismLabel } from '../sim/mechanisms.js';

/** The whole text report, ending with a newline. */
export function renderText(model: ReportModel): string {
  const out: string[] = [];
  if (model.source) out.push(`Region: ${model.source.region} in ${model.source.file}`);
  if (model.source?.note) out.push(`(${model.source.note})`);
  if (model.archNote) out.push(...wrapText(`Architecture: ${model.archNote}`, 80, '  ', ''));
  out.push(`Iterations: ${model.iterations}`);
  out.push(`Model: ${mechanismLabel(model.model.mechanisms)}`);
  // a mechanism that is on but could not be applied on this core for want of a figure: said in the
  // header, before any throughput (the notes below say it again with the rest)
  for (const m of notModelledOf(model.model.notes ?? []))
    out.push(...wrapText(`Not modelled on ${model.arch}: ${m.text}`, 80, '  ', ''));
  if (!isBaseline(model.variant)) out.push(`Analysis with: ${variantLabel(model.variant)}`);
  out.push(`Figures: ${originSummary(model.origins)}`);
  for (const c of model.caveats ?? []) out.push(...wrapText(`Note: ${c}`, 80, '  ', ''));
  if (nothingSimulated(model)) {
    out.push('', `Nothing simulated: no line of the region has figures on ${model.arch}.`, '', ...renderUnknown(model));
    return out.join('\n') + '\n';
  }
  if (model.unknown.length) {
    const lines = model.unknown.map((u) => u.line).join(', ');
    out.push(
      `INCOMPLETE: ${model.unknown.length} of ${model.origins.length} lines have no figures on ${model.arch} (line${model.unknown.length === 1 ? '' : 's'} ${lines}); every throughput below leaves them out (list at the end)`,
    );
  }
  out.push('');
  for (const l of renderSection(model, model.main)) out.push(l);
  if (model.main.combinations) out.push('', ...renderCombinations(model.main.combinations));
  out.push('', ...renderMechanisms(model.model));
  if (model.branch === null) {
    out.push(
      '',
      "Branch analysis: the region has no conditional jump inside the loop (none, or only the loop's back edge or exit).",
    );
  } else if (model.branch) {
    out.push(
      '',
      ...wrapText(
        `Branch analysis (line ${model.branch.branchLine}, ${model.branch.choice ?? 'the first conditional jump'}):`,
        80,
        '  ',
        '',
      ),
    );
    // the sides as the explorer and measure name them; the thesis's names beside them
    for (const [name, side] of [
      ["Fall-through branch analysis (the thesis's left branch)", model.branch.left],
      ["Taken branch analysis (the thesis's right branch)", model.branch.right],
    ] as const) {
      out.push('', `${name}:`, ...renderSection(model, side));
      if (side.detail) out.push('', renderDetail(side.detail, model).replace(/\n$/, ''));
    }
  }
  if (model.unknown.length) out.push('', ...renderUnknown(model));
  // what the headline figure is, beside llvm-mca's figure of the same name that users compare it with
  out.push(
    '',
    ...wrapText(
      "Block throughput: cycles per iteration, simulated cycle by cycle over the run (llvm-mca's Block RThroughput is a bound from port pressure alone)",
      80,
      '  ',
      '',
    ),
    `Source: ${originLegend(model.origins)}`,
  );
  // each corrected figure's source, as disasm's footnote gives it
  const footnotes = citedFootnote(model.cited ?? []).split('\n');
  for (const c of footnotes.filter((x) => x)) out.push(...wrapText(c, 80, '  ', ''));
  if (model.detail) out.push('', renderDetail(model.detail, model).replace(/\n$/, ''));
  return out.join('\n') + '\n';
}

/** Headline figures, architecture line, per-line table and µop total of one analysed program. */
function renderSection(
  model: Pick<ReportModel, 'arch' | 'ports' | 'portNames' | 'dividerPort' | 'variant' | 'origins' | 'unknown'>,
  section: Section,
): string[] {
  const s = section.stats;
  const incomplete = model.unknown.length
    ? ` (incomplete: ${model.unknown.length} line${model.unknown.length === 1 ? '' : 's'} without figures)`
    : '';
  const out = [`Block throughput: ${fixed(s.blockThroughput, 2)} cycles${incomplete}`];
  const w = section.whatIf;
  if (w) {
    if (!model.variant.perfectFrontEnd)
      out.push(`Block throughput with perfect front-end: ${fixed(w.perfectFrontEnd.blockThroughput, 2)} cycles`);
    if (!model.variant.infinitePorts)
      out.push(`Block throughput with infinitely usable ports: ${fixed(w.infinitePorts.blockThroughput, 2)} cycles`);
    if (!model.variant.noDependencies)
      out.push(`Block throughput without dependencies: ${fixed(w.noDependencies.blockThroughput, 2)} cycles`);
  }
  const md = section.memoryThroughData;
  if (md)
    out.push(
      `Block throughput if ${DATA_MEMORY_WHAT_IF.label} (worst case, ${md.pairs.map((p) => `line ${p.store} → ${p.load}`).join(', ')}): ${fixed(md.figures.blockThroughput, 2)} cycles`,
    );
  out.push(`Microops per cycle: ${fixed(s.uopsPerCycle, 2)}`);
  if (s.queues) for (const l of renderQueues(s.queues)) out.push(l);
  out.push(`Analysis for architecture: ${model.arch}`);
  for (const l of renderLineTable(s, model.ports, model.dividerPort, model.origins, model.portNames)) out.push(l); // one line per instruction: no spread
  out.push(`Total number of Uops: ${s.totalUops}`);
  return out;
}

/** A core with several scheduler queues: per queue the ops steered into it and the cycles the
 *  front end stopped because the next op did not fit in it (per iteration), its average entries. */
function renderQueues(queues: NonNullable<Stats['queues']>): string[] {
  const rows = queues.map((q) => [q.name, fixed(q.steered, 2), fixed(q.stallCycles, 2), fixed(q.occupancy, 1)]);
  const header = ['Queue', 'steered', 'stalled', 'avg used'];
  const width = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((x, c) => (c === 0 ? x.padEnd(width[c]!) : x.padStart(width[c]!)))
      .join(' | ')
      .trimEnd();
  return [
    'Scheduler queues (per iteration: ops steered in, cycles the front end stopped on it; average entries):',
    line(header),
    ...rows.map(line),
  ];
}

/**
 * The per-line table: Line || Num Uops || had to wait || caused to wait || one column per port
 * (and DV after the divider's port when the divider is used) || asm. Zero is printed blank,
 * a value that only rounds to zero as 0.0 (as the thesis does); each line starts with the source letter of its figures (? for none).
 */
export function renderLineTable(
  stats: Stats,
  ports: number[],
  dividerPort: number,
  origins?: readonly FigureOrigin[],
  portNames?: readonly string[],
): string[] {
  const showDv = stats.dividerUsed || stats.lines.some((l) => l.divider > 0);
  const anyUnknown = !origins && stats.lines.some((l) => l.unknown);
  const portCols: { label: string; value: (l: LineStats) => number }[] = [];
  for (const p of ports) {
    portCols.push({ label: portLabel(p, ports, portNames), value: (l) => l.ports[String(p)] ?? 0 });
    if (showDv && p === dividerPort) portCols.push({ label: 'DV', value: (l) => l.divider });
  }
  const columns: Column[] = [
    { header: ['Line'], align: 'right' },
    { header: ['Num', 'Uops'], align: 'right', sep: ' || ' },
    { header: ['had', 'to wait'], align: 'right', sep: ' || ' },
    { header: ['caused', 'to wait'], align: 'right', sep: ' || ' },
    ...portCols.map((c, i): Column => ({ header: [c.label], align: 'right', sep: i === 0 ? ' || ' : ' | ' })),
    { header: [''], align: 'left', sep: ' || ' },
  ];
  const rows = stats.lines.map((l) => [
    String(l.line),
    String(l.uops),
    blankIfZero(l.hadToWait),
    blankIfZero(l.causedToWait),
    ...portCols.map((c) => blankIfZero(c.value(l))),
    (origins
      ? `${origins[l.line] ? originLetter(origins[l.line]!) : ' '} `
      : anyUnknown
        ? l.unknown
          ? 'X '
          : '  '
        : '') + l.asm,
  ]);
  const first = 4;
  return layoutTable(columns, rows, [{ from: first, to: first + portCols.length - 1, text: 'Used Ports' }]);
}

/** The 8 combinations of perfect front-end / infinite ports / no dependencies (thesis §2.1). */
export function renderCombinations(runs: VariantFigures[]): string[] {
  const yes = (b: boolean) => (b ? 'yes' : '-');
  const columns: Column[] = [
    { header: ['perfect', 'front-end'], align: 'right' },
    { header: ['infinite', 'ports'], align: 'right', sep: ' || ' },
    { header: ['no', 'deps'], align: 'right', sep: ' || ' },
    { header: ['block', 'throughput'], align: 'right', sep: ' || ' },
    { header: ['microops', 'per cycle'], align: 'right', sep: ' || ' },
  ];
  const rows = runs.map((r) => [
    yes(r.variant.perfectFrontEnd),
    yes(r.variant.infinitePorts),
    yes(r.variant.noDependencies),
    fixed(r.blockThroughput, 2),
    fixed(r.uopsPerCycle, 2),
  ]);
  return ['All combinations of the what-if analyses:', ...layoutTable(columns, rows)];
}

/** The model's mechanisms: the block throughput with each one flipped, and what it changes. */
export function renderMechanisms(run: ModelRun): string[] {
  // the section fits 80 columns like the rest of the report (the port table aside)
  const notes = (run.notes ?? []).flatMap((x) => wrapText(x, 80, '        ', '  note: '));
  return [...renderEffects(run), ...notes];
}

function renderEffects(run: ModelRun): string[] {
  const on = MECHANISMS.filter((k) => run.mechanisms[k]);
  if (!run.effects) {
    if (isSuaca(run.mechanisms))
      return wrapText(
        "Mechanisms: none (SUACA's model); --model refined switches them on, --all-variants runs each one switched on",
      );
    return wrapText(
      `Mechanisms on: ${on.map((k) => mechanismInfo(k).flag).join(', ')} (their effects: without --fast)`,
    );
  }
  const anyOff = run.effects.some((e) => !e.on);
  const out = [
    ...wrapText(
      isSuaca(run.mechanisms)
        ? "Mechanisms (none on, SUACA's model): block throughput with each one switched on"
        : `Mechanisms: block throughput with each one switched off${anyOff ? ' (each one that is off: switched on)' : ''}`,
    ),
    '  (change: with it minus without it)',
  ];
  // the change as the printed throughputs differ (3.01 without, 3.00 with: −0.01, not −0.00)
  const hundredths = (x: number): number => Math.round(Number(fixed(x, 2)) * 100);
  const rows = run.effects.map((e) => {
    const d = Number.isFinite(e.delta)
      ? hundredths(e.flipped.blockThroughput + e.delta) - hundredths(e.flipped.blockThroughput)
      : NaN;
    return [
      `${e.on ? 'without' : 'with'} ${mechanismInfo(e.mechanism).flag}:`,
      `${fixed(e.flipped.blockThroughput, 2)} cycles`,
      Number.isFinite(d)
        ? `(change ${d > 0 ? '+' : d < 0 ? '−' : '±'}${fixed(Math.abs(d) / 100, 2)})`
        : `(change ${fixed(e.delta, 2)})`,
    ];
  });
  const w0 = Math.max(...rows.map((r) => r[0]!.length));
  const w1 = Math.max(...rows.map((r) => r[1]!.length));
  for (const r of rows) out.push(`  ${r[0]!.padEnd(w0)} ${r[1]!.padStart(w1)} ${r[2]}`);
  const off = MECHANISMS.filter((k) => !run.mechanisms[k] && !run.effects!.some((e) => e.mechanism === k));
  if (off.length && !isSuaca(run.mechanisms))
    out.push(
      ...wrapText(
        `off: ${off.map((k) => mechanismInfo(k).flag).join(', ')} (--all-variants runs each one switched on)`,
        80,
        '    ',
        '  ',
      ),
    );
  return out;
}

function renderUnknown(model: ReportModel): string[] {
  const out = [`${originLetter('none')} - no figures for this instruction on ${model.arch}:`];
  for (const u of model.unknown) {
    const how =
      u.fallback === 'alu'
        ? 'counted as 1 µop on any ALU port, latency 1'
        : u.fallback === 'skip'
          ? "skipped (no µop; dependants still wait the engine's minimum of 1 cycle)"
          : 'no fallback';
    out.push(`  line ${u.line}: ${u.asm} — ${u.why ?? 'no source has figures for it'}; ${how}`);
  }
  return out;
}
