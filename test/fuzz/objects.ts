// Builders of object files from their parts (ELF64/ELF32, PE/COFF objects and images, Mach-O,
// universal files), used by the hostile-input tests and by the structure-aware fuzzer: every
// count, offset, size and index is a parameter, so a test or the fuzzer can make sections that
// overlap, lie outside the file, string tables without a terminating NUL, absurd indices, …
// The layouts follow the formats' specifications (ELF gABI, Microsoft PE/COFF, Apple's
// <mach-o/loader.h> and <mach-o/fat.h>) as src/disasm/formats reads them.

/** `L: add rax, rbx; dec rcx; jnz L` — one small loop (8 bytes) */
export const LOOP = Uint8Array.from([0x48, 0x01, 0xd8, 0x48, 0xff, 0xc9, 0x75, 0xf8]);

/** `n` bytes of code: the loop repeated (so every 8 bytes hold one backward branch) */
export function loopCode(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = LOOP[i % LOOP.length]!;
  return b;
}

class Out {
  b: Buffer;
  constructor(size: number) {
    this.b = Buffer.alloc(size);
  }
  u8(o: number, v: number) {
    if (o >= 0 && o < this.b.length) this.b[o] = v & 0xff;
  }
  u16(o: number, v: number) {
    if (o >= 0 && o + 2 <= this.b.length) this.b.writeUInt16LE(v & 0xffff, o);
  }
  u32(o: number, v: number) {
    if (o >= 0 && o + 4 <= this.b.length) this.b.writeUInt32LE(v >>> 0, o);
  }
  u32be(o: number, v: number) {
    if (o >= 0 && o + 4 <= this.b.length) this.b.writeUInt32BE(v >>> 0, o);
  }
  u64(o: number, v: number | bigint) {
    if (o >= 0 && o + 8 <= this.b.length) this.b.writeBigUInt64LE(BigInt.asUintN(64, BigInt(v)), o);
  }
  str(o: number, s: string, max = Infinity) {
    const t = Buffer.from(s, 'latin1').subarray(0, max);
    if (o >= 0) t.copy(this.b, o, 0, Math.max(0, Math.min(t.length, this.b.length - o)));
  }
  set(o: number, d: Uint8Array) {
    if (o >= 0 && o < this.b.length) this.b.set(d.subarray(0, this.b.length - o), o);
  }
}

export interface ElfSection {
  name?: number;
  type?: number;
  flags?: number;
  addr?: number;
  offset: number;
  size: number;
  link?: number;
  entsize?: number;
}
export interface ElfSpec {
  bits?: 32 | 64;
  /** bytes placed right after the ELF header (offset 64, or 52 for ELF32) */
  body: Uint8Array;
  /** sections after the null section; offsets are file offsets */
  sections: ElfSection[];
  /** section-name string table text (defaults to "\0.text\0.shstrtab\0"); its index is shstrndx */
  shstrtab?: string;
  shstrndx?: number;
  /** override e_shnum (absurd counts) */
  shnum?: number;
  machine?: number;
}

/** An ELF relocatable object: header, body, section-name string table, section headers. */
export function elf(spec: ElfSpec): Uint8Array {
  const is64 = (spec.bits ?? 64) === 64;
  const eh = is64 ? 64 : 52;
  const shent = is64 ? 64 : 40;
  const strtab = spec.shstrtab ?? '\0.text\0.shstrtab\0';
  const strOff = eh + spec.body.length;
  const shoff = strOff + strtab.length;
  const secs: ElfSection[] = [
    { offset: 0, size: 0, type: 0 },
    ...spec.sections,
    { name: 7, type: 3, flags: 0, offset: strOff, size: strtab.length },
  ];
  const o = new Out(shoff + secs.length * shent);
  o.b.set([0x7f, 0x45, 0x4c, 0x46, is64 ? 2 : 1, 1, 1], 0);
  o.u16(16, 1);
  o.u16(18, spec.machine ?? (is64 ? 62 : 3));
  o.u32(20, 1);
  if (is64) {
    o.u64(0x28, shoff);
    o.u16(0x34, eh);
    o.u16(0x3a, shent);
    o.u16(0x3c, spec.shnum ?? secs.length);
    o.u16(0x3e, spec.shstrndx ?? secs.length - 1);
  } else {
    o.u32(0x20, shoff);
    o.u16(0x28, eh);
    o.u16(0x2e, shent);
    o.u16(0x30, spec.shnum ?? secs.length);
    o.u16(0x32, spec.shstrndx ?? secs.length - 1);
  }
  o.set(eh, spec.body);
  o.str(strOff, strtab);
  secs.forEach((s, i) => {
    const h = shoff + i * shent;
    o.u32(h, s.name ?? 1);
    o.u32(h + 4, s.type ?? 1);
    if (is64) {
      o.u64(h + 8, s.flags ?? 6);
      o.u64(h + 0x10, s.addr ?? 0);
      o.u64(h + 0x18, s.offset);
      o.u64(h + 0x20, s.size);
      o.u32(h + 0x28, s.link ?? 0);
      o.u64(h + 0x38, s.entsize ?? 0);
    } else {
      o.u32(h + 8, s.flags ?? 6);
      o.u32(h + 0xc, s.addr ?? 0);
      o.u32(h + 0x10, s.offset);
      o.u32(h + 0x14, s.size);
      o.u32(h + 0x18, s.link ?? 0);
      o.u32(h + 0x24, s.entsize ?? 0);
    }
  });
  return new Uint8Array(o.b);
}

export interface CoffSection {
  name?: string;
  vsize?: number;
  vaddr?: number;
  rawSize: number;
  rawPtr: number;
  chars?: number;
}
export interface CoffSymbol {
  name: string | number;
  value: number;
  section: number;
  storage?: number;
  aux?: number;
}
export interface CoffSpec {
  /** a PE image (MZ stub, PE signature, optional header) instead of an object */
  image?: boolean;
  /** bytes placed after the headers; `rawPtr`s are file offsets (see coffBodyOffset) */
  body: Uint8Array;
  sections: CoffSection[];
  symbols?: CoffSymbol[];
  /** the string table after the symbols (its 4-byte size field included in the text's length) */
  strings?: string;
  nsec?: number;
  nsym?: number;
  machine?: number;
}

/** Offset of the body in a COFF built by coff() with `nsec` sections. */
export function coffBodyOffset(nsec: number, image = false): number {
  return (image ? 0x80 + 4 + 20 + 240 : 20) + nsec * 40;
}

export function coff(spec: CoffSpec): Uint8Array {
  const image = spec.image ?? false;
  const coffAt = image ? 0x84 : 0;
  const optSize = image ? 240 : 0;
  const secTable = coffAt + 20 + optSize;
  const body = coffBodyOffset(spec.sections.length, image);
  const syms = spec.symbols ?? [];
  const symPtr = body + spec.body.length;
  const strings = spec.strings ?? '';
  const o = new Out(symPtr + syms.length * 18 + 4 + strings.length);
  if (image) {
    o.str(0, 'MZ');
    o.u32(0x3c, 0x80);
    o.str(0x80, 'PE\0\0');
  }
  o.u16(coffAt, spec.machine ?? 0x8664);
  o.u16(coffAt + 2, spec.nsec ?? spec.sections.length);
  o.u32(coffAt + 8, syms.length || spec.nsym ? symPtr : 0);
  o.u32(coffAt + 12, spec.nsym ?? syms.length);
  o.u16(coffAt + 16, optSize);
  if (image) {
    o.u16(coffAt + 20, 0x20b);
    o.u64(coffAt + 20 + 24, 0x140000000);
  }
  spec.sections.forEach((s, i) => {
    const h = secTable + i * 40;
    o.str(h, s.name ?? '.text', 8);
    o.u32(h + 8, s.vsize ?? s.rawSize);
    o.u32(h + 12, s.vaddr ?? 0x1000);
    o.u32(h + 16, s.rawSize);
    o.u32(h + 20, s.rawPtr);
    o.u32(h + 36, s.chars ?? 0x60000020);
  });
  o.set(body, spec.body);
  syms.forEach((s, i) => {
    const h = symPtr + i * 18;
    if (typeof s.name === 'string') o.str(h, s.name, 8);
    else o.u32(h + 4, s.name);
    o.u32(h + 8, s.value);
    o.u16(h + 12, s.section);
    o.u8(h + 16, s.storage ?? 2);
    o.u8(h + 17, s.aux ?? 0);
  });
  o.u32(symPtr + syms.length * 18, 4 + strings.length);
  o.str(symPtr + syms.length * 18 + 4, strings);
  return new Uint8Array(o.b);
}

export interface MachoSection {
  sect?: string;
  seg?: string;
  addr?: number;
  size: number;
  offset: number;
  flags?: number;
}
export interface MachoSymbol {
  strx: number;
  type?: number;
  sect?: number;
  value: number;
}
export interface MachoSpec {
  bits?: 32 | 64;
  body: Uint8Array;
  sections: MachoSection[];
  symbols?: MachoSymbol[];
  strings?: string;
  ncmds?: number;
  nsects?: number;
  cputype?: number;
  /** extra bytes of load commands (e.g. a command of size 0) after the segment */
  extraCommands?: Uint8Array;
}

/** Offset of the body in a Mach-O built by macho() with `nsect` sections. */
export function machoBodyOffset(nsect: number, bits: 32 | 64 = 64, extra = 0): number {
  return (bits === 64 ? 32 + 72 + nsect * 80 : 28 + 56 + nsect * 68) + 24 + extra;
}

export function macho(spec: MachoSpec): Uint8Array {
  const is64 = (spec.bits ?? 64) === 64;
  const hdr = is64 ? 32 : 28;
  const segSize = (is64 ? 72 : 56) + spec.sections.length * (is64 ? 80 : 68);
  const extra = spec.extraCommands ?? new Uint8Array();
  const body = hdr + segSize + 24 + extra.length;
  const syms = spec.symbols ?? [];
  const ent = is64 ? 16 : 12;
  const symoff = body + spec.body.length;
  const stroff = symoff + syms.length * ent;
  const strings = spec.strings ?? '';
  const o = new Out(stroff + strings.length);
  o.u32(0, is64 ? 0xfeedfacf : 0xfeedface);
  o.u32(4, spec.cputype ?? (is64 ? 0x01000007 : 7));
  o.u32(8, 3);
  o.u32(12, 1);
  o.u32(16, spec.ncmds ?? (extra.length ? 3 : 2));
  o.u32(20, segSize + 24 + extra.length);
  let c = hdr;
  o.u32(c, is64 ? 0x19 : 0x1);
  o.u32(c + 4, segSize);
  o.u32(c + (is64 ? 64 : 48), spec.nsects ?? spec.sections.length);
  spec.sections.forEach((s, i) => {
    const h = c + (is64 ? 72 : 56) + i * (is64 ? 80 : 68);
    o.str(h, s.sect ?? '__text', 16);
    o.str(h + 16, s.seg ?? '__TEXT', 16);
    if (is64) {
      o.u64(h + 32, s.addr ?? 0);
      o.u64(h + 40, s.size);
      o.u32(h + 48, s.offset);
      o.u32(h + 64, s.flags ?? 0x80000400);
    } else {
      o.u32(h + 32, s.addr ?? 0);
      o.u32(h + 36, s.size);
      o.u32(h + 40, s.offset);
      o.u32(h + 56, s.flags ?? 0x80000400);
    }
  });
  c += segSize;
  o.u32(c, 0x2);
  o.u32(c + 4, 24);
  o.u32(c + 8, symoff);
  o.u32(c + 12, syms.length);
  o.u32(c + 16, stroff);
  o.u32(c + 20, strings.length);
  o.set(c + 24, extra);
  o.set(body, spec.body);
  syms.forEach((s, i) => {
    const h = symoff + i * ent;
    o.u32(h, s.strx);
    o.u8(h + 4, s.type ?? 0x0f);
    o.u8(h + 5, s.sect ?? 1);
    if (is64) o.u64(h + 8, s.value);
    else o.u32(h + 8, s.value);
  });
  o.str(stroff, strings);
  return new Uint8Array(o.b);
}

export interface FatSlice {
  cputype: number;
  offset: number;
  size: number;
}

/** A universal file: the big-endian fat header, then `data` (slices' offsets are file offsets). */
export function universal(slices: FatSlice[], data: Uint8Array, dataAt: number, nfat?: number): Uint8Array {
  const o = new Out(Math.max(8 + slices.length * 20, dataAt + data.length));
  o.u32be(0, 0xcafebabe);
  o.u32be(4, nfat ?? slices.length);
  slices.forEach((s, i) => {
    const h = 8 + i * 20;
    o.u32be(h, s.cputype);
    o.u32be(h + 4, 3);
    o.u32be(h + 8, s.offset);
    o.u32be(h + 12, s.size);
    o.u32be(h + 16, 12);
  });
  o.set(dataAt, data);
  return new Uint8Array(o.b);
}
