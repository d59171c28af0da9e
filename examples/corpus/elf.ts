// Minimal ELF64 reading for the corpus scripts: the executable sections of a relocatable
// object, and the IACA-marked region inside them. (The project's real loader lives in
// src/disasm; this is only what the corpus tooling needs before that is merged.)

export const START_MARKER = Uint8Array.from([0xbb, 0x6f, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90]);
export const END_MARKER = Uint8Array.from([0xbb, 0xde, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90]);

export interface Section {
  name: string;
  offset: number;
  size: number;
  addr: number;
  flags: number;
}

const SHF_EXECINSTR = 0x4;

export function sections(bytes: Uint8Array): Section[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46 || bytes[4] !== 2) {
    throw new Error('not an ELF64 file');
  }
  const shoff = Number(dv.getBigUint64(0x28, true));
  const shentsize = dv.getUint16(0x3a, true);
  const shnum = dv.getUint16(0x3c, true);
  const shstrndx = dv.getUint16(0x3e, true);
  const raw = [];
  for (let i = 0; i < shnum; i++) {
    const b = shoff + i * shentsize;
    raw.push({
      nameOff: dv.getUint32(b, true),
      flags: Number(dv.getBigUint64(b + 8, true)),
      addr: Number(dv.getBigUint64(b + 16, true)),
      offset: Number(dv.getBigUint64(b + 24, true)),
      size: Number(dv.getBigUint64(b + 32, true)),
    });
  }
  const strtab = raw[shstrndx];
  if (!strtab) throw new Error('ELF section-name table missing');
  const name = (off: number) => {
    let e = strtab.offset + off;
    while (bytes[e] !== 0) e++;
    return new TextDecoder().decode(bytes.subarray(strtab.offset + off, e));
  };
  return raw.map((s) => ({ name: name(s.nameOff), offset: s.offset, size: s.size, addr: s.addr, flags: s.flags }));
}

export function textSections(bytes: Uint8Array): Section[] {
  return sections(bytes).filter((s) => (s.flags & SHF_EXECINSTR) !== 0 && s.size > 0);
}

export function indexesOf(hay: Uint8Array, needle: Uint8Array, from = 0, to = hay.length): number[] {
  const out: number[] = [];
  outer: for (let i = from; i + needle.length <= to; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    out.push(i);
  }
  return out;
}

export interface MarkedRegion {
  section: string;
  /** file offset of the first byte after the start marker */
  start: number;
  /** file offset of the end marker's first byte */
  end: number;
  /** section-relative address of `start` (branch targets are section-relative in a .o) */
  startVaddr: number;
  startMarkers: number;
  endMarkers: number;
}

/** The region between the (single) start marker and the next end marker in executable code. */
export function findMarkedRegion(bytes: Uint8Array): MarkedRegion | null {
  for (const s of textSections(bytes)) {
    const starts = indexesOf(bytes, START_MARKER, s.offset, s.offset + s.size);
    if (starts.length === 0) continue;
    const ends = indexesOf(bytes, END_MARKER, s.offset, s.offset + s.size);
    const start = starts[0]! + START_MARKER.length;
    const end = ends.find((e) => e >= start);
    if (end === undefined) return null;
    return {
      section: s.name,
      start,
      end,
      startVaddr: s.addr + (start - s.offset),
      startMarkers: starts.length,
      endMarkers: ends.length,
    };
  }
  return null;
}
