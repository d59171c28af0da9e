import type { ImageSection, ImageSymbol, InputFormat } from '../types.js';

/** What a format reader returns: the code sections and symbols of one x86 image. */
export interface BinaryImage {
  format: InputFormat;
  bitness: 32 | 64;
  machine: string;
  sections: ImageSection[];
  symbols: ImageSymbol[];
}

/**
 * Code sections whose bytes overlap in the file (never in a file a toolchain wrote; a hostile
 * file can have a thousand sections all covering the same bytes) are reduced so that each byte
 * of the file belongs to at most one section: a section that continues another at the same
 * address mapping is merged into it (the union), one that maps bytes already taken to other
 * addresses keeps only its bytes beyond them, or is dropped. Decoding and searching the sections
 * then costs at most the file's size, whatever the section count. Symbols of a merged section
 * follow it to the section that now holds their bytes. Files without overlaps are unchanged
 * (same sections, same order).
 */
export function mergeOverlappingSections(img: BinaryImage): BinaryImage {
  const secs = img.sections;
  if (secs.length < 2) return img;
  interface Item {
    i: number;
    buf: ArrayBufferLike;
    start: number;
    end: number;
    sec: ImageSection;
  }
  const items: Item[] = secs.map((sec, i) => ({
    i,
    buf: sec.data.buffer,
    start: sec.data.byteOffset,
    end: sec.data.byteOffset + sec.data.length,
    sec,
  }));
  const sorted = [...items].sort((a, b) => a.start - b.start || b.end - a.end || a.i - b.i);
  let overlap = false;
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k]!.buf === sorted[k - 1]!.buf && sorted[k]!.start < sorted[k - 1]!.end) {
      overlap = true;
      break;
    }
  }
  if (!overlap) return img;
  const kept: Item[] = [];
  const renamed = new Map<string, string>();
  const lastByBuf = new Map<ArrayBufferLike, Item>();
  for (const it of sorted) {
    const last = lastByBuf.get(it.buf);
    if (!last || it.start >= last.end) {
      kept.push(it);
      lastByBuf.set(it.buf, it);
      continue;
    }
    const sameMapping = it.sec.address - it.start === last.sec.address - last.start;
    if (sameMapping) {
      if (it.end > last.end) {
        const whole = new Uint8Array(it.buf, last.start, it.end - last.start);
        last.sec = { ...last.sec, data: whole };
        last.end = it.end;
      }
      if (it.sec.name !== last.sec.name && !renamed.has(it.sec.name)) renamed.set(it.sec.name, last.sec.name);
      continue;
    }
    if (it.end <= last.end) continue; // every byte already decoded under another address
    const cut = last.end - it.start;
    const rest: Item = {
      ...it,
      start: last.end,
      sec: { ...it.sec, address: it.sec.address + cut, data: new Uint8Array(it.buf, last.end, it.end - last.end) },
    };
    kept.push(rest);
    lastByBuf.set(it.buf, rest);
  }
  kept.sort((a, b) => a.i - b.i);
  const names = new Set(kept.map((k) => k.sec.name));
  const symbols = img.symbols.map((s) => {
    const to = s.section !== null && !names.has(s.section) ? renamed.get(s.section) : undefined;
    return to ? { ...s, section: to } : s;
  });
  return { ...img, sections: kept.map((k) => k.sec), symbols };
}
