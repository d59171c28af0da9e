// The instruction listing of `uopscope disasm` (text and JSON). Columns are a list so that
// later stages can add theirs (µops, ports, latency with --arch) without touching the rest.
import type { DecodedInstruction, LoadedRegion } from '../disasm/types.js';

export interface ListingColumn {
  header: string;
  value: (ins: DecodedInstruction) => string;
  /** right-align (numbers) */
  right?: boolean;
}

const hexAddr = (n: number): string => n.toString(16);
const spacedBytes = (b: string): string => (b.match(/../g) ?? []).join(' ');

export const baseColumns: ListingColumn[] = [
  { header: 'line', value: (i) => String(i.line), right: true },
  { header: 'address', value: (i) => hexAddr(i.address), right: true },
  { header: 'bytes', value: (i) => spacedBytes(i.bytes) },
  { header: 'instruction', value: (i) => i.intel },
];

export const detailColumns: ListingColumn[] = [
  { header: 'signature', value: (i) => i.signature },
  { header: 'reads', value: (i) => [...i.reads, ...i.flagsRead].join(',') || '-' },
  { header: 'writes', value: (i) => [...i.writes, ...i.flagsWritten].join(',') || '-' },
  { header: 'mem', value: (i) => (i.memory ? `${i.memory.read ? 'r' : ''}${i.memory.write ? 'w' : ''}` || 'agen' : '-') },
];

export function regionHeading(r: LoadedRegion): string {
  const sec = r.region.section ? ` in ${r.region.section}` : '';
  return `${r.file} (${r.format}): ${r.region.name}, 0x${hexAddr(r.region.start)}–0x${hexAddr(r.region.end)}${sec}, ${r.instructions.length} instructions`;
}

/** Plain-text table; `columns` defaults to the base and detail columns. */
export function renderListing(r: LoadedRegion, columns: ListingColumn[] = [...baseColumns, ...detailColumns], opts: { att?: boolean } = {}): string {
  const cols = opts.att ? columns.map((c) => (c.header === 'instruction' ? { ...c, value: (i: DecodedInstruction) => i.att } : c)) : columns;
  const rows = r.instructions.map((ins) => cols.map((c) => c.value(ins)));
  const widths = cols.map((c, k) => Math.max(c.header.length, ...rows.map((row) => row[k]!.length)));
  const fmt = (cells: string[]) => cells.map((s, k) => (cols[k]!.right ? s.padStart(widths[k]!) : s.padEnd(widths[k]!))).join('  ').trimEnd();
  return [regionHeading(r), fmt(cols.map((c) => c.header)), ...rows.map(fmt)].join('\n') + '\n';
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
      memory: i.memory ? { base: i.memory.base, index: i.memory.index, scale: i.memory.scale, displacement: i.memory.displacement, size: i.memory.size, read: i.memory.read, write: i.memory.write, segment: i.memory.segment } : null,
      indexed: i.indexed,
      sameReg: i.sameReg,
      zeroIdiom: i.zeroIdiom,
      branch: i.branch,
      prefixes: i.prefixes,
    })),
  };
}
