// ELF reader (32- and 64-bit, little-endian x86 only): executable sections and the symbol
// tables (.symtab, else .dynsym). Falls back to executable PT_LOAD segments when a binary has
// no section headers. Every read is bounds-checked by ByteReader.
import { UserError } from '../../errors.js';
import { ByteReader } from '../bytes.js';
import type { ImageSection, ImageSymbol } from '../types.js';
import type { BinaryImage } from './image.js';

const EM_386 = 3;
const EM_X86_64 = 62;
const ELF_MACHINES: Record<number, string> = {
  2: 'SPARC',
  8: 'MIPS',
  20: 'PowerPC',
  21: 'PowerPC64',
  22: 'S390',
  40: 'ARM',
  183: 'AArch64',
  243: 'RISC-V',
  258: 'LoongArch',
};

export function isElf(d: Uint8Array): boolean {
  return d.length >= 4 && d[0] === 0x7f && d[1] === 0x45 && d[2] === 0x4c && d[3] === 0x46;
}

export function readElf(data: Uint8Array, file: string): BinaryImage {
  const head = new ByteReader(data, file);
  const cls = head.u8(4, 'ELF class');
  const enc = head.u8(5, 'ELF data encoding');
  if (cls !== 1 && cls !== 2)
    throw new UserError(`${file}: corrupted ELF header (class ${cls}, expected 1 or 2); rebuild or re-copy the binary`);
  if (enc !== 1 && enc !== 2)
    throw new UserError(`${file}: corrupted ELF header (data encoding ${enc}); rebuild or re-copy the binary`);
  const r = new ByteReader(data, file, enc === 1);
  const is64 = cls === 2;
  const machine = r.u16(18, 'e_machine');
  if (machine !== EM_386 && machine !== EM_X86_64) {
    const name = ELF_MACHINES[machine] ?? `machine ${machine}`;
    throw new UserError(`${file}: ELF file for ${name}, not x86; uopscope analyses x86-64 and 32-bit x86 code only`);
  }
  if (enc !== 1) throw new UserError(`${file}: big-endian ELF cannot hold x86 code; the file is corrupted`);
  const bitness = machine === EM_X86_64 ? 64 : 32;

  const { shs, shstrndx } = sectionHeaders(r, is64, file);
  const ET_REL = 1;
  const relocatable = r.u16(16, 'e_type') === ET_REL;
  const { sections, byIndex } = executableSections(r, shs, shs[shstrndx], relocatable);
  if (relocatable) relocatedTargets(r, shs, sections, byIndex, is64);
  // no section headers: use executable loadable segments
  if (shs.length === 0) sections.push(...executableSegments(r, is64));
  const symbols = elfSymbols(r, shs, is64, byIndex, file);
  if (sections.length === 0)
    throw new UserError(`${file}: ELF file has no executable section; pass a binary that contains code`);
  return { format: is64 ? 'elf64' : 'elf32', bitness, machine: bitness === 64 ? 'x86-64' : 'i386', sections, symbols };
}

interface SectionHeader {
  name: number;
  type: number;
  flags: number;
  addr: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  align: number;
  entsize: number;
}

/** The section headers, and the index of the one holding the sections' names. */
function sectionHeaders(r: ByteReader, is64: boolean, file: string): { shs: SectionHeader[]; shstrndx: number } {
  const shoff = is64 ? r.u64(0x28, 'e_shoff') : r.u32(0x20, 'e_shoff');
  const shentsize = r.u16(is64 ? 0x3a : 0x2e, 'e_shentsize');
  const shnum = r.u16(is64 ? 0x3c : 0x30, 'e_shnum');
  const shstrndx = r.u16(is64 ? 0x3e : 0x32, 'e_shstrndx');
  const shs: SectionHeader[] = [];
  if (shoff === 0 || shnum === 0) return { shs, shstrndx };
  const minEnt = is64 ? 64 : 40;
  if (shentsize < minEnt)
    throw new UserError(
      `${file}: corrupted ELF header (section header size ${shentsize} < ${minEnt}); rebuild or re-copy the binary`,
    );
  r.check(shoff, shnum * shentsize, 'section header table');
  for (let i = 0; i < shnum; i++) {
    const o = shoff + i * shentsize;
    shs.push(
      is64
        ? {
            name: r.u32(o),
            type: r.u32(o + 4),
            flags: r.u64(o + 8, 'sh_flags'),
            addr: r.u64(o + 0x10, 'sh_addr'),
            offset: r.u64(o + 0x18, 'sh_offset'),
            size: r.u64(o + 0x20, 'sh_size'),
            link: r.u32(o + 0x28),
            info: r.u32(o + 0x2c),
            align: r.u64(o + 0x30, 'sh_addralign'),
            entsize: r.u64(o + 0x38, 'sh_entsize'),
          }
        : {
            name: r.u32(o),
            type: r.u32(o + 4),
            flags: r.u32(o + 8),
            addr: r.u32(o + 0xc),
            offset: r.u32(o + 0x10),
            size: r.u32(o + 0x14),
            link: r.u32(o + 0x18),
            info: r.u32(o + 0x1c),
            align: r.u32(o + 0x20),
            entsize: r.u32(o + 0x24),
          },
    );
  }
  return { shs, shstrndx };
}

/** The sections holding code (a relocatable object's with their alignment), and every section's
 *  name by its index (for the symbols). */
function executableSections(
  r: ByteReader,
  shs: SectionHeader[],
  shstr: SectionHeader | undefined,
  relocatable: boolean,
): { sections: ImageSection[]; byIndex: Map<number, string> } {
  const secName = (sh: SectionHeader): string =>
    shstr && shstr.type !== 8 ? r.cstring(shstr.offset + sh.name, 256, 'section name') : '';
  const sections: ImageSection[] = [];
  const byIndex = new Map<number, string>();
  const SHF_EXECINSTR = 4;
  const SHT_NOBITS = 8;
  shs.forEach((sh, i) => {
    const name = secName(sh);
    byIndex.set(i, name);
    if (sh.type !== SHT_NOBITS && sh.type !== 0 && sh.flags & SHF_EXECINSTR) {
      sections.push({
        name,
        address: sh.addr,
        data: r.bytes(sh.offset, sh.size, `section ${name}`),
        executable: true,
        // sh_addralign 0 or 1: no constraint; a power of two beyond a page means nothing more here
        ...(relocatable ? { placement: { align: Math.min(4096, Math.max(1, sh.align)) } } : {}),
      });
      sectionIndex.set(sections.at(-1)!, i);
    }
  });
  return { sections, byIndex };
}

/** Each code section's ELF section index (for the relocations that name it). */
const sectionIndex = new WeakMap<ImageSection, number>();

/** x86-64's R_X86_64_PC32 and R_X86_64_PLT32, i386's R_386_PC32 and R_386_PLT32 (the same
 *  numbers): a PC-relative field, a call's or a jump's target among them. */
const PC_RELATIVE = new Set([2, 4]);

/**
 * A relocatable object's PC-relative relocations of its code sections, as each field's address
 * → the symbol it names (a section symbol as the section's name plus the offset): a call to
 * another function holds 0 in its bytes until the linker writes the target, so the decoded
 * target would be the next instruction.
 */
function relocatedTargets(
  r: ByteReader,
  shs: SectionHeader[],
  sections: ImageSection[],
  byIndex: Map<number, string>,
  is64: boolean,
): void {
  const SHT_RELA = 4;
  const SHT_REL = 9;
  const codeByIndex = new Map<number, ImageSection>();
  for (const s of sections) {
    const i = sectionIndex.get(s);
    if (i !== undefined) codeByIndex.set(i, s);
  }
  for (const rs of shs) {
    if (rs.type !== SHT_RELA && rs.type !== SHT_REL) continue;
    const target = codeByIndex.get(rs.info);
    const symtab = shs[rs.link];
    const strtab = symtab ? shs[symtab.link] : undefined;
    if (!target || !symtab || !strtab) continue;
    const rela = rs.type === SHT_RELA;
    const entsize = is64 ? (rela ? 24 : 16) : rela ? 12 : 8;
    const symsize = is64 ? 24 : 16;
    const count = Math.floor(rs.size / entsize);
    r.check(rs.offset, count * entsize, 'relocation table');
    const map = target.relocatedTargets ?? new Map<number, string>();
    for (let k = 0; k < count; k++) {
      const o = rs.offset + k * entsize;
      const offset = is64 ? r.u64(o, 'r_offset') : r.u32(o);
      const type = is64 ? r.u32(o + 8) : r.u8(o + 4);
      const sym = is64 ? r.u32(o + 12) : r.u32(o + 4) >>> 8;
      if (!PC_RELATIVE.has(type) || sym === 0) continue;
      const so = symtab.offset + sym * symsize;
      if (sym * symsize >= symtab.size) continue;
      const info = is64 ? r.u8(so + 4) : r.u8(so + 12);
      const STT_SECTION = 3;
      let name: string;
      if ((info & 0xf) === STT_SECTION) {
        // a section's symbol: the target is the section plus the addend (beyond the field's -4)
        const shndx = is64 ? r.u16(so + 6) : r.u16(so + 14);
        const addend = rela ? (is64 ? r.i32(o + 16) : r.i32(o + 8)) + 4 : 0;
        const off = addend === 0 ? '' : addend > 0 ? `+0x${addend.toString(16)}` : `-0x${(-addend).toString(16)}`;
        name = `${byIndex.get(shndx) || 'section'}${off}`;
      } else name = r.cstring(strtab.offset + r.u32(so), 1024, 'symbol name');
      if (name) map.set(target.address + offset, name);
    }
    if (map.size > 0) target.relocatedTargets = map;
  }
}

/** The executable PT_LOAD segments, as sections. */
function executableSegments(r: ByteReader, is64: boolean): ImageSection[] {
  const sections: ImageSection[] = [];
  const phoff = is64 ? r.u64(0x20, 'e_phoff') : r.u32(0x1c, 'e_phoff');
  const phentsize = r.u16(is64 ? 0x36 : 0x2a, 'e_phentsize');
  const phnum = r.u16(is64 ? 0x38 : 0x2c, 'e_phnum');
  for (let i = 0; i < phnum; i++) {
    const o = phoff + i * phentsize;
    const type = r.u32(o, 'program header');
    const flags = is64 ? r.u32(o + 4) : r.u32(o + 0x18);
    if (type !== 1 || !(flags & 1)) continue;
    const offset = is64 ? r.u64(o + 8, 'p_offset') : r.u32(o + 4);
    const vaddr = is64 ? r.u64(o + 0x10, 'p_vaddr') : r.u32(o + 8);
    const filesz = is64 ? r.u64(o + 0x20, 'p_filesz') : r.u32(o + 0x10);
    sections.push({
      name: `segment${i}`,
      address: vaddr,
      data: r.bytes(offset, filesz, `segment ${i}`),
      executable: true,
    });
  }
  return sections;
}

/** The code symbols of .symtab, else .dynsym. */
function elfSymbols(
  r: ByteReader,
  shs: SectionHeader[],
  is64: boolean,
  byIndex: Map<number, string>,
  file: string,
): ImageSymbol[] {
  const symbols: ImageSymbol[] = [];
  const SHT_SYMTAB = 2;
  const SHT_DYNSYM = 11;
  const symtab = shs.find((s) => s.type === SHT_SYMTAB) ?? shs.find((s) => s.type === SHT_DYNSYM);
  if (!symtab) return symbols;
  const entsize = is64 ? 24 : 16;
  const strtab = shs[symtab.link];
  if (!strtab)
    throw new UserError(
      `${file}: corrupted ELF symbol table (string table index ${symtab.link}); rebuild or re-copy the binary`,
    );
  const count = Math.floor(symtab.size / entsize);
  r.check(symtab.offset, count * entsize, 'symbol table');
  for (let i = 1; i < count; i++) {
    const o = symtab.offset + i * entsize;
    const nameOff = r.u32(o);
    const info = is64 ? r.u8(o + 4) : r.u8(o + 12);
    const shndx = is64 ? r.u16(o + 6) : r.u16(o + 14);
    const value = is64 ? r.u64(o + 8, 'st_value') : r.u32(o + 4);
    const size = is64 ? r.u64(o + 16, 'st_size') : r.u32(o + 8);
    const type = info & 0xf;
    // STT_NOTYPE(0) and STT_FUNC(2) label code; skip sections (3), files (4), undefined
    if ((type !== 0 && type !== 2) || shndx === 0 || shndx >= 0xff00) continue;
    const name = r.cstring(strtab.offset + nameOff, 1024, 'symbol name');
    if (!name) continue;
    symbols.push({ name, address: value, size: size || null, section: byIndex.get(shndx) ?? null });
  }
  return symbols;
}
