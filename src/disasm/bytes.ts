// A small bounds-checked little/big-endian reader over a byte array. Every read outside the
// data throws a UserError naming the file and the structure being read, so a truncated or
// corrupted binary ends in one clear line instead of a RangeError.
import { UserError } from '../errors.js';

/** Names (symbols, sections) read from one file may total this much, plus twice the file's size:
 *  a file can point a million symbols at overlapping long names. */
const NAME_BUDGET = 64 * 2 ** 20;

export class ByteReader {
  private readonly view: DataView;
  /** names already read, by offset: symbols sharing a name share one string */
  private readonly names = new Map<number, string>();
  private nameBytes = 0;

  constructor(
    readonly data: Uint8Array,
    readonly file: string,
    readonly littleEndian = true,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get length(): number {
    return this.data.length;
  }

  /** Throws unless [offset, offset+size) lies inside the data. */
  check(offset: number, size: number, what: string): void {
    if (
      !Number.isSafeInteger(offset) ||
      !Number.isSafeInteger(size) ||
      offset < 0 ||
      size < 0 ||
      offset + size > this.data.length
    ) {
      throw new UserError(
        `${this.file}: truncated or corrupted file: ${what} at offset ${offset} (size ${size}) lies outside the file (${this.data.length} bytes); rebuild or re-copy the binary`,
      );
    }
  }

  u8(o: number, what = 'byte'): number {
    this.check(o, 1, what);
    return this.view.getUint8(o);
  }
  u16(o: number, what = 'field'): number {
    this.check(o, 2, what);
    return this.view.getUint16(o, this.littleEndian);
  }
  u32(o: number, what = 'field'): number {
    this.check(o, 4, what);
    return this.view.getUint32(o, this.littleEndian);
  }
  i32(o: number, what = 'field'): number {
    this.check(o, 4, what);
    return this.view.getInt32(o, this.littleEndian);
  }
  /** 64-bit value as a JS number; values above 2^53 are rejected as corrupt. */
  u64(o: number, what = 'field'): number {
    this.check(o, 8, what);
    const v = this.view.getBigUint64(o, this.littleEndian);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new UserError(
        `${this.file}: corrupted file: ${what} at offset ${o} is implausibly large (0x${v.toString(16)}); rebuild or re-copy the binary`,
      );
    }
    return Number(v);
  }
  bytes(o: number, size: number, what = 'data'): Uint8Array {
    this.check(o, size, what);
    return this.data.subarray(o, o + size);
  }
  /** NUL-terminated string starting at o, at most max bytes (ends at the data's end). */
  cstring(o: number, max = 4096, what = 'string'): string {
    this.check(o, 0, what);
    const key = o * 8192 + Math.min(max, 8191);
    const known = this.names.get(key);
    if (known !== undefined) return known;
    let end = o;
    const limit = Math.min(this.data.length, o + max);
    while (end < limit && this.data[end] !== 0) end++;
    this.nameBytes += end - o;
    if (this.nameBytes > NAME_BUDGET + 2 * this.data.length) {
      throw new UserError(
        `${this.file}: corrupted or hostile file: its ${what}s total more than ${((NAME_BUDGET + 2 * this.data.length) / 2 ** 20).toFixed(0)} MiB of text; rebuild or re-copy the binary`,
      );
    }
    const s = latin1(this.data.subarray(o, end));
    this.names.set(key, s);
    return s;
  }
  /** Fixed-size field padded with NULs. */
  fixedString(o: number, size: number, what = 'name'): string {
    const b = this.bytes(o, size, what);
    let end = b.indexOf(0);
    if (end < 0) end = b.length;
    return latin1(b.subarray(0, end));
  }
}

/** Bytes as Latin-1 text, for names read from a binary (sections, symbols). Control characters
 *  (C0, DEL, C1) become \xNN: a name is printed in listings and messages, and a hostile file
 *  must not be able to send escape sequences to the terminal through it. */
function latin1(b: Uint8Array): string {
  // decoded whole and replaced by one regular expression: flat strings, where one `+=` per byte
  // built ropes of a node per character (100,000 symbols of 1,024 bytes took 3.4 GB)
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength)
    .toString('latin1')
    .replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function hex(n: number): string {
  return `0x${n.toString(16)}`;
}
