// Mach-O reader (32- and 64-bit x86, objects and executables) and universal ("fat") files, of
// which the x86-64 slice is taken (else the i386 one). Code sections are those marked as
// holding instructions; symbols come from LC_SYMTAB (leading '_' kept as written).
import { UserError } from '../../errors.js';
import { ByteReader } from '../bytes.js';
import type { ImageSection, ImageSymbol } from '../types.js';
import type { BinaryImage } from './image.js';

const CPU_X86_64 = 0x01000007;
const CPU_I386 = 7;
const CPU_NAMES: Record<number, string> = {
  0x0100000c: 'arm64',
  12: 'arm',
  18: 'ppc',
  0x01000012: 'ppc64',
  0x0200000c: 'arm64_32',
};
const cpuName = (c: number): string =>
  c === CPU_X86_64 ? 'x86_64' : c === CPU_I386 ? 'i386' : (CPU_NAMES[c] ?? `cputype 0x${c.toString(16)}`);

export function machoKind(d: Uint8Array): 'thin' | 'thin-be' | 'fat' | null {
  if (d.length < 4) return null;
  const le = (d[0]! | (d[1]! << 8) | (d[2]! << 16) | (d[3]! << 24)) >>> 0;
  if (le === 0xfeedfacf || le === 0xfeedface) return 'thin';
  if (le === 0xcffaedfe || le === 0xcefaedfe) return 'thin-be';
  const be = ((d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!) >>> 0;
  if (be === 0xcafebabe || be === 0xcafebabf) return 'fat';
  return null;
}

export function readMachoAny(data: Uint8Array, file: string): BinaryImage {
  const kind = machoKind(data);
  if (kind === 'thin-be')
    throw new UserError(
      `${file}: big-endian Mach-O (PowerPC), not x86; uopscope analyses x86-64 and 32-bit x86 code only`,
    );
  if (kind === 'fat') return readFat(data, file);
  return readMacho(data, file, '');
}

function readFat(data: Uint8Array, file: string): BinaryImage {
  const r = new ByteReader(data, file, false);
  const fat64 = r.u32(0) === 0xcafebabf;
  const n = r.u32(4, 'nfat_arch');
  if (n === 0 || n > 64) {
    throw new UserError(
      `${file}: not a universal Mach-O binary (header claims ${n} slices; a Java class file starts the same way); pass an x86 binary`,
    );
  }
  const entSize = fat64 ? 32 : 20;
  const slices: { cpu: number; offset: number; size: number }[] = [];
  for (let i = 0; i < n; i++) {
    const o = 8 + i * entSize;
    const cpu = r.u32(o, 'fat_arch');
    const offset = fat64 ? r.u64(o + 8, 'fat_arch offset') : r.u32(o + 8, 'fat_arch offset');
    const size = fat64 ? r.u64(o + 16, 'fat_arch size') : r.u32(o + 12, 'fat_arch size');
    slices.push({ cpu, offset, size });
  }
  const pick = slices.find((s) => s.cpu === CPU_X86_64) ?? slices.find((s) => s.cpu === CPU_I386);
  if (!pick) {
    throw new UserError(
      `${file}: universal binary without an x86 slice (has ${slices.map((s) => cpuName(s.cpu)).join(', ')}); pass a binary built for x86_64`,
    );
  }
  const slice = r.bytes(pick.offset, pick.size, `${cpuName(pick.cpu)} slice`);
  if (machoKind(slice) !== 'thin')
    throw new UserError(
      `${file}: the ${cpuName(pick.cpu)} slice of this universal binary is not a Mach-O file; the file is corrupted`,
    );
  return readMacho(slice, file, ` (${cpuName(pick.cpu)} slice of a universal binary)`);
}

/** A code section (its bytes at `[offset, size]`); an object's (`alignAt`: where its header
 *  gives the alignment, log2) moves when linked, by a multiple of that alignment (capped at a
 *  page: beyond, it means nothing more here). */
function machoSection(
  r: ByteReader,
  name: string,
  address: number,
  [offset, size]: [number, number],
  alignAt: number | null,
): ImageSection {
  const placement = alignAt === null ? {} : { placement: { align: 2 ** Math.min(12, r.u32(alignAt)) } };
  return { name, address, data: r.bytes(offset, size, `section ${name}`), executable: true, ...placement };
}

function readMacho(data: Uint8Array, file: string, note: string): BinaryImage {
  const r = new ByteReader(data, file);
  const is64 = r.u32(0) === 0xfeedfacf;
  const cpu = r.u32(4, 'cputype');
  if (cpu !== CPU_X86_64 && cpu !== CPU_I386) {
    throw new UserError(
      `${file}: Mach-O file for ${cpuName(cpu)}, not x86; uopscope analyses x86-64 and 32-bit x86 code only`,
    );
  }
  const ncmds = r.u32(16, 'ncmds');
  const relocatable = r.u32(12, 'filetype') === 1; // MH_OBJECT
  let off = is64 ? 32 : 28;
  const sections: ImageSection[] = [];
  const sectNames: string[] = []; // 1-based section ordinal → name
  const sectAddrs: number[] = [];
  let symtab: { symoff: number; nsyms: number; stroff: number; strsize: number } | null = null;
  if (ncmds > 10000)
    throw new UserError(`${file}: corrupted Mach-O header (${ncmds} load commands); rebuild or re-copy the binary`);
  for (let i = 0; i < ncmds; i++) {
    const cmd = r.u32(off, 'load command');
    const size = r.u32(off + 4, 'load command size');
    if (size < 8)
      throw new UserError(`${file}: corrupted Mach-O load command ${i} (size ${size}); rebuild or re-copy the binary`);
    if (cmd === 0x19 || cmd === 0x1) {
      const seg64 = cmd === 0x19;
      const nsects = r.u32(off + (seg64 ? 64 : 48), 'nsects');
      const first = off + (seg64 ? 72 : 56);
      const secSize = seg64 ? 80 : 68;
      r.check(first, nsects * secSize, 'section headers');
      if (first + nsects * secSize > off + size)
        throw new UserError(
          `${file}: corrupted Mach-O segment (sections overflow load command ${i}); rebuild or re-copy the binary`,
        );
      for (let s = 0; s < nsects; s++) {
        const so = first + s * secSize;
        const sect = r.fixedString(so, 16, 'section name');
        const seg = r.fixedString(so + 16, 16, 'segment name');
        const addr = seg64 ? r.u64(so + 32, 'section addr') : r.u32(so + 32);
        const sz = seg64 ? r.u64(so + 40, 'section size') : r.u32(so + 36);
        const foff = r.u32(so + (seg64 ? 48 : 40));
        const flags = r.u32(so + (seg64 ? 64 : 56));
        const name = `${seg},${sect}`;
        sectNames.push(name);
        sectAddrs.push(addr);
        const zerofill = (flags & 0xff) === 1 || (flags & 0xff) === 0xc;
        const code = (flags & 0x80000000) !== 0 || (flags & 0x400) !== 0;
        if (code && !zerofill && sz > 0)
          sections.push(machoSection(r, name, addr, [foff, sz], relocatable ? so + (seg64 ? 52 : 44) : null));
      }
    } else if (cmd === 0x2) {
      symtab = { symoff: r.u32(off + 8), nsyms: r.u32(off + 12), stroff: r.u32(off + 16), strsize: r.u32(off + 20) };
    }
    off += size;
  }
  const symbols: ImageSymbol[] = [];
  if (symtab) {
    const ent = is64 ? 16 : 12;
    r.check(symtab.symoff, symtab.nsyms * ent, 'symbol table');
    r.check(symtab.stroff, symtab.strsize, 'string table');
    for (let i = 0; i < symtab.nsyms; i++) {
      const o = symtab.symoff + i * ent;
      const strx = r.u32(o);
      const type = r.u8(o + 4);
      const sect = r.u8(o + 5);
      const value = is64 ? r.u64(o + 8, 'n_value') : r.u32(o + 8);
      if (type & 0xe0) continue; // debugging (stab) entry
      if ((type & 0x0e) !== 0x0e || sect === 0) continue; // not defined in a section
      if (strx >= symtab.strsize) continue;
      const name = r.cstring(symtab.stroff + strx, Math.min(1024, symtab.strsize - strx), 'symbol name');
      if (!name) continue;
      symbols.push({ name, address: value, size: null, section: sectNames[sect - 1] ?? null });
    }
  }
  if (sections.length === 0)
    throw new UserError(`${file}: Mach-O file${note} has no code section; pass a binary that contains code`);
  const bitness = cpu === CPU_X86_64 ? 64 : 32;
  return { format: 'macho', bitness, machine: `${bitness === 64 ? 'x86-64' : 'i386'}${note}`, sections, symbols };
}
