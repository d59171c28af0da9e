// PE/COFF reader: PE images (exe, dll; PE32 and PE32+) and COFF objects (.obj) for x86 and
// x86-64: code sections and the COFF symbol table (mingw keeps it in executables too).
import { UserError } from '../../errors.js';
import { ByteReader } from '../bytes.js';
import type { ImageSection, ImageSymbol } from '../types.js';
import type { BinaryImage } from './image.js';

const MACHINE_AMD64 = 0x8664;
const MACHINE_I386 = 0x14c;
const PE_MACHINES: Record<number, string> = {
  0xaa64: 'ARM64',
  0x1c0: 'ARM',
  0x1c4: 'ARM Thumb-2',
  0x200: 'IA-64',
  0x5064: 'RISC-V 64',
};

export function isMz(d: Uint8Array): boolean {
  return d.length >= 2 && d[0] === 0x4d && d[1] === 0x5a;
}

/** A COFF object starts with its machine field; accept it only if the header is plausible. */
export function isCoffObject(d: Uint8Array): boolean {
  if (d.length < 20) return false;
  const machine = d[0]! | (d[1]! << 8);
  const known = machine === MACHINE_AMD64 || machine === MACHINE_I386 || machine in PE_MACHINES;
  const nsec = d[2]! | (d[3]! << 8);
  const optSize = d[16]! | (d[17]! << 8);
  return known && nsec > 0 && nsec < 1000 && optSize === 0;
}

export function readPe(data: Uint8Array, file: string): BinaryImage {
  const r = new ByteReader(data, file);
  let coff = 0;
  let image = false;
  if (isMz(data)) {
    const peOff = r.u32(0x3c, 'e_lfanew');
    if (r.u32(peOff, 'PE signature') !== 0x00004550) {
      throw new UserError(
        `${file}: MZ executable without a PE header (a DOS program or a corrupted file); uopscope reads PE/COFF, ELF and Mach-O`,
      );
    }
    coff = peOff + 4;
    image = true;
  }
  const machine = r.u16(coff, 'COFF machine');
  if (machine !== MACHINE_AMD64 && machine !== MACHINE_I386) {
    throw new UserError(
      `${file}: PE/COFF file for ${PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`}, not x86; uopscope analyses x86-64 and 32-bit x86 code only`,
    );
  }
  const bitness = machine === MACHINE_AMD64 ? 64 : 32;
  const nsec = r.u16(coff + 2, 'NumberOfSections');
  const symPtr = r.u32(coff + 8, 'PointerToSymbolTable');
  const nsym = r.u32(coff + 12, 'NumberOfSymbols');
  const optSize = r.u16(coff + 16, 'SizeOfOptionalHeader');
  const opt = coff + 20;
  let imageBase = 0;
  if (image) {
    const magic = r.u16(opt, 'optional header magic');
    if (magic === 0x20b) imageBase = r.u64(opt + 24, 'ImageBase');
    else if (magic === 0x10b) imageBase = r.u32(opt + 28, 'ImageBase');
    else
      throw new UserError(
        `${file}: corrupted PE optional header (magic 0x${magic.toString(16)}); rebuild or re-copy the binary`,
      );
  }
  const strTab = symPtr && nsym ? symPtr + nsym * 18 : 0;
  const longName = (off: number): string => (strTab ? r.cstring(strTab + off, 1024, 'COFF string table') : `/${off}`);

  const secTable = opt + optSize;
  r.check(secTable, nsec * 40, 'section table');
  const sections: ImageSection[] = [];
  const names: string[] = [];
  const bases: number[] = [];
  for (let i = 0; i < nsec; i++) {
    const o = secTable + i * 40;
    let name = r.fixedString(o, 8, 'section name');
    if (name.startsWith('/') && /^\/\d+$/.test(name)) name = longName(Number(name.slice(1)));
    const vsize = r.u32(o + 8);
    const vaddr = r.u32(o + 12);
    const rawSize = r.u32(o + 16);
    const rawPtr = r.u32(o + 20);
    const chars = r.u32(o + 36);
    const address = image ? imageBase + vaddr : 0;
    names.push(name);
    bases.push(address);
    const IMAGE_SCN_CNT_CODE = 0x20;
    const IMAGE_SCN_MEM_EXECUTE = 0x20000000;
    if (chars & (IMAGE_SCN_CNT_CODE | IMAGE_SCN_MEM_EXECUTE) && rawSize > 0) {
      const size = image && vsize > 0 ? Math.min(vsize, rawSize) : rawSize;
      // an object file's section alignment: IMAGE_SCN_ALIGN_*, 2^(n-1) bytes (none given: 16)
      const alignBits = (chars >>> 20) & 0xf;
      const align = alignBits === 0 || alignBits > 14 ? 16 : 2 ** (alignBits - 1);
      sections.push({
        name,
        address,
        data: r.bytes(rawPtr, size, `section ${name}`),
        executable: true,
        ...(image ? {} : { placement: { align } }),
      });
    }
  }

  const symbols = coffSymbols(r, { symPtr, nsym, nsec }, { names, bases }, longName);
  if (sections.length === 0)
    throw new UserError(`${file}: PE/COFF file has no code section; pass a binary that contains code`);
  return { format: 'pe', bitness, machine: bitness === 64 ? 'x86-64' : 'i386', sections, symbols };
}

/** The code symbols of the COFF symbol table, at their sections' addresses. */
function coffSymbols(
  r: ByteReader,
  { symPtr, nsym, nsec }: { symPtr: number; nsym: number; nsec: number },
  { names, bases }: { names: string[]; bases: number[] },
  longName: (off: number) => string,
): ImageSymbol[] {
  const symbols: ImageSymbol[] = [];
  if (!symPtr || !nsym) return symbols;
  r.check(symPtr, nsym * 18, 'COFF symbol table');
  for (let i = 0; i < nsym; i++) {
    const o = symPtr + i * 18;
    const value = r.u32(o + 8);
    const secNum = r.u16(o + 12);
    const storage = r.u8(o + 16);
    const aux = r.u8(o + 17);
    const isInline = r.u32(o) !== 0;
    const name = isInline ? r.fixedString(o, 8) : longName(r.u32(o + 4));
    i += aux;
    // external (2), static (3) or label (6) symbols in a real section; skip section symbols (aux > 0 on statics)
    if (secNum === 0 || secNum > nsec || !(storage === 2 || storage === 3 || storage === 6)) continue;
    if (storage === 3 && aux > 0) continue;
    if (!name || name.startsWith('.')) continue;
    symbols.push({ name, address: bases[secNum - 1]! + value, size: null, section: names[secNum - 1] ?? null });
  }
  return symbols;
}
