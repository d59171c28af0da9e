// The instruction listing of `uopscope disasm` (text and JSON). Columns are a list so that
// later stages can add theirs (µops, ports, latency with --arch) without touching the rest.
import { originLegend, originLetter } from '../data/origins.js';
import { layersOf } from '../data/resolve.js';
import { originSummary, type CitedLine } from './model.js';
import type { DecodedInstruction, LoadedRegion } from '../disasm/types.js';
import type { ArchData, ResolvedInstruction } from '../data/types.js';
import { formatPorts, formatPortsFor } from '../data/ports.js';

/** How a core names its ports (its record's `ports` and `portNames`). */
type PortNaming = Parameters<typeof formatPortsFor>[1];
import { droppedNote, type FitColumn, fitTable, wrapProse } from './fit.js';

interface ListingColumn extends FitColumn {
  header: string;
  value: (ins: DecodedInstruction) => string;
}

const hexAddr = (n: number): string => n.toString(16);
const spacedBytes = (b: string): string => (b.match(/../g) ?? []).join(' ');

export const baseColumns: ListingColumn[] = [
  { header: 'line', value: (i) => String(i.line), right: true },
  { header: 'address', value: (i) => hexAddr(i.address), right: true },
  { header: 'bytes', value: (i) => spacedBytes(i.bytes), min: 8, rank: 1, drop: 5 },
  { header: 'instruction', value: (i) => i.intel, min: 28, rank: 2 },
];

export const detailColumns: ListingColumn[] = [
  { header: 'signature', value: (i) => i.signature, min: 9, drop: 3 },
  { header: 'reads', value: (i) => [...i.reads, ...i.flagsRead].join(',') || '-', min: 5, drop: 1 },
  { header: 'writes', value: (i) => [...i.writes, ...i.flagsWritten].join(',') || '-', min: 6, drop: 2 },
  {
    header: 'mem',
    drop: 4,
    value: (i) => (i.memory ? `${i.memory.read ? 'r' : ''}${i.memory.write ? 'w' : ''}` || 'agen' : '-'),
  },
];

function regionHeading(r: LoadedRegion): string {
  const sec = r.region.section ? ` in ${r.region.section}` : '';
  return `${r.file} (${r.format}): ${r.region.name}, 0x${hexAddr(r.region.start)}–0x${hexAddr(r.region.end)}${sec}, ${r.instructions.length} instructions`;
}

/** Plain-text table; `columns` defaults to the base and detail columns. `width`: fitted to that
 *  many columns (fit.ts: the text columns narrow, cut with "…"; the heading wraps). */
export function renderListing(
  r: LoadedRegion,
  columns: ListingColumn[] = [...baseColumns, ...detailColumns],
  opts: { att?: boolean; width?: number } = {},
): string {
  const cols = opts.att
    ? columns.map((c) => (c.header === 'instruction' ? { ...c, value: (i: DecodedInstruction) => i.att } : c))
    : columns;
  const rows = [cols.map((c) => c.header), ...r.instructions.map((ins) => cols.map((c) => c.value(ins)))];
  const { lines, dropped } = fitTable(cols, rows, opts.width);
  return (
    [
      ...wrapProse(regionHeading(r), opts.width),
      ...lines,
      ...droppedNote(
        dropped.map((k) => cols[k]!.header),
        opts.width,
      ),
    ].join('\n') + '\n'
  );
}

/** The JSON form: the region and the instructions with the contract's fields. */
export function listingJson(r: LoadedRegion): object {
  return {
    file: r.file,
    format: r.format,
    region: r.region,
    instructions: r.instructions.map((i) => ({
      line: i.line,
      address: i.address,
      bytes: i.bytes,
      intel: i.intel,
      att: i.att,
      mnemonic: i.mnemonic,
      signature: i.signature,
      iform: i.iform,
      operands: i.operands,
      reads: i.reads,
      writes: i.writes,
      flagsRead: i.flagsRead,
      flagsWritten: i.flagsWritten,
      memory: i.memory
        ? {
            base: i.memory.base,
            index: i.memory.index,
            scale: i.memory.scale,
            displacement: i.memory.displacement,
            size: i.memory.size,
            read: i.memory.read,
            write: i.memory.write,
            segment: i.memory.segment,
          }
        : null,
      indexed: i.indexed,
      sameReg: i.sameReg,
      zeroIdiom: i.zeroIdiom,
      branch: i.branch,
      prefixes: i.prefixes,
    })),
  };
}

/** Columns of `disasm --arch A`: where the figures come from (one letter, originLetter), µops,
 *  ports and latency; `?` where an instruction has no figures — then the fallback's figures are
 *  not shown. */
export function dataColumns(resolved: ResolvedInstruction[], machine?: PortNaming): ListingColumn[] {
  const show = (g: ResolvedInstruction['ports']) => (machine ? formatPortsFor(g, machine) : formatPorts(g));
  const byLine = new Map(resolved.map((r) => [r.line, r]));
  const cell = (f: (r: ResolvedInstruction) => string) => (i: DecodedInstruction) => {
    const r = byLine.get(i.line);
    return !r || r.unknown ? originLetter('none') : f(r);
  };
  return [
    { header: 'src', value: (i) => originLetter(byLine.get(i.line)?.origin ?? 'none') },
    { header: 'uops', value: cell((r) => String(r.uops)), right: true },
    {
      header: 'ports',
      value: cell(
        (r) =>
          (r.ports.length ? show(r.ports) : '-') +
          (r.portHold?.length ? ` (held ${holdsText(r.portHold, show)})` : '') +
          (r.variant === 'plain' ? '' : ` (${r.variant})`),
      ),
    },
    { header: 'lat', value: cell((r) => String(r.maxLatency)), right: true },
  ];
}

/** `ALU0123 4 cycles, …`: the port sets whose µop holds its port more than one cycle */
function holdsText(
  holds: NonNullable<ResolvedInstruction['portHold']>,
  show: (g: ResolvedInstruction['ports']) => string,
): string {
  return holds.map((h) => `${show([{ count: 1, ports: h.ports }]).replace(/^1\*/, '')} ${h.cycles} cycles`).join(', ');
}

/** The lines whose figures a public source corrected (origin 'cited'), each with its provenance:
 *  what the footnotes and the JSON's `cited` name. */
export function citedLines(resolved: readonly ResolvedInstruction[]): CitedLine[] {
  return resolved.flatMap((r) =>
    r.origin === 'cited' && r.provenance
      ? [{ line: r.line, text: r.provenance.text, detail: { ...(r.provenance.detail ?? {}) } }]
      : [],
  );
}

/** `C line 0, 2: …` per correction text, each line ending with a newline ('' when none): a
 *  figure a source corrected names its source where the figures are shown (disasm, report). */
export function citedFootnote(cited: readonly CitedLine[]): string {
  const byText = new Map<string, number[]>();
  for (const c of cited) byText.set(c.text, [...(byText.get(c.text) ?? []), c.line]);
  return [...byText]
    .map(
      ([text, lines]) => `${originLetter('cited')} line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}: ${text}\n`,
    )
    .join('');
}

/** One line under the listing: where the figures come from, the unknown lines, the fallback. */
export function dataFootnote(data: ArchData, resolved: ResolvedInstruction[]): string {
  const layers = layersOf(data);
  const named = layers.map((l) => l.describe).filter((d) => d !== null);
  if (!layers.some((l) => l.forms)) named.unshift('no uops.info or thesis data');
  const origins = resolved.map((r) => r.origin);
  const from = `${data.arch}: ${named.join(', then ')}. Figures: ${originSummary(origins)} (src: ${originLegend(origins)})`;
  const cited = citedFootnote(citedLines(resolved));
  const unknown = resolved.filter((r) => r.unknown);
  if (unknown.length === 0) return `${from}; every instruction has figures\n${cited}`;
  const fb = unknown[0]!.fallback === 'alu' ? 'counted as 1 µop on an ALU port, latency 1' : 'skipped (0 µops)';
  const why = unknown.map((r) => `line ${r.line}: ${r.why ?? 'no source has figures'}`).join('; ');
  return (
    `${from}\n${originLetter('none')} = no figures for line${unknown.length > 1 ? 's' : ''} ${unknown.map((r) => r.line).join(', ')} — ${fb} (${why})\n` +
    cited
  );
}

/** The JSON of the resolved figures, per line (added to listingJson's output by `disasm --arch`). */
export function resolvedJson(data: ArchData, resolved: ResolvedInstruction[], machine?: PortNaming): object {
  const show = (g: ResolvedInstruction['ports']) => (machine ? formatPortsFor(g, machine) : formatPorts(g));
  return {
    arch: data.arch,
    source: data.source,
    resolved: resolved.map((r) => ({
      line: r.line,
      form: r.form?.string ?? null,
      rule: r.rule,
      uops: r.uops,
      ports: r.ports.length ? show(r.ports) : '',
      ...(r.portHold?.length
        ? {
            portHold: r.portHold.map((h) => ({
              ports: show([{ count: 1, ports: h.ports }]).replace(/^1\*/, ''),
              cycles: h.cycles,
            })),
          }
        : {}),
      latencyByResource: r.latencyByResource,
      maxLatency: r.maxLatency,
      divCycles: r.divCycles,
      variant: r.variant,
      unknown: r.unknown,
      fallback: r.fallback,
      origin: r.origin,
      ...(r.provenance?.detail ? { [r.origin]: r.provenance.detail } : {}),
      ...(r.why ? { why: r.why } : {}),
    })),
  };
}
