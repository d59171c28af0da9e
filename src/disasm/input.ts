// loadInput: a file (binary or assembly), --hex or --raw → LoadedInput (sections + symbols).
import { DEFAULT_MAX_INSTRUCTIONS, maxCodeBytes, raiseHint } from './limits.js';
import { readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { extname } from 'node:path';
import { UserError, escapeControls } from '../errors.js';
import { type AsmSyntax, MARKER_PREFIX, assemble } from './assemble.js';
import { isElf, readElf } from './formats/elf.js';
import { mergeOverlappingSections, type BinaryImage } from './formats/image.js';
import { machoKind, readMachoAny } from './formats/macho.js';
import { isCoffObject, isMz, readPe } from './formats/pe.js';
import type { InputOptions, LoadedInput, Region } from './types.js';

const ASM_EXTENSIONS = new Set(['.s', '.S', '.asm']);

function readUserFile(file: string, what: string): Uint8Array {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${file}: no such file; check the path`);
    if (code === 'EACCES') throw new UserError(`${file}: permission denied; make the file readable`);
    throw new UserError(`${file}: cannot open (${code ?? String(e)})`);
  }
  if (st.isDirectory()) throw new UserError(`${file}: is a directory; pass ${what}`);
  if (!st.isFile()) throw new UserError(`${file}: not a regular file; pass ${what}`);
  if (st.size > 1 << 30) throw new UserError(`${file}: larger than 1 GiB; pass the object file that holds the loop`);
  try {
    // a view of the buffer read, not a copy: a large library (libLLVM, 129 MB) was held twice
    const b = readFileSync(file);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (e) {
    throw new UserError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/** Recognises the binary formats by their magic numbers; null when none matches. */
export function readBinary(data: Uint8Array, file: string): BinaryImage | null {
  const img = isElf(data)
    ? readElf(data, file)
    : isMz(data)
      ? readPe(data, file)
      : machoKind(data)
        ? readMachoAny(data, file)
        : isCoffObject(data)
          ? readPe(data, file)
          : null;
  // each byte of the file in at most one code section: work stays bounded by the file's size
  return img && ownBytes(mergeOverlappingSections(img), data.length);
}

/** The sections with copies of their bytes when those are under half the file, so that the
 *  file's buffer can be freed: a large library's (libLLVM: 129 MB for 59 MB of code) was held
 *  to the end otherwise. */
function ownBytes(img: BinaryImage, fileBytes: number): BinaryImage {
  const code = img.sections.reduce((n, s) => n + s.data.length, 0);
  if (code * 2 >= fileBytes) return img;
  return { ...img, sections: img.sections.map((s) => ({ ...s, data: s.data.slice() })) };
}

function parseHex(text: string, where = '--hex'): Uint8Array {
  const clean = text.replace(/0x|\\x|[\s,;:]/gi, '');
  if (clean.length === 0) throw new UserError(`${where}: no machine code given; pass hex bytes such as --hex 4801d8`);
  if (!/^[0-9a-f]*$/i.test(clean)) {
    const bad = /[^0-9a-f]/i.exec(clean)?.[0];
    throw new UserError(`${where}: '${bad}' is not a hex digit; pass bytes as hex such as --hex 4801d8`);
  }
  if (clean.length % 2)
    throw new UserError(`${where}: odd number of hex digits (${clean.length}); every byte needs two digits`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function rawInput(file: string, data: Uint8Array, base: number): LoadedInput {
  return {
    file,
    format: 'raw',
    bitness: 64,
    machine: 'x86-64',
    sections: [{ name: 'raw', address: base, data, executable: true }],
    symbols: [],
    commentRegions: [],
  };
}

function fromImage(file: string, img: BinaryImage, commentRegions: Region[] = []): LoadedInput {
  return {
    file,
    format: img.format,
    bitness: img.bitness,
    machine: img.machine,
    sections: img.sections,
    symbols: img.symbols,
    commentRegions,
  };
}

/** What `-` names: standard input, as llvm-mca reads it. */
const STDIN_NAME = '<stdin>';

/** Largest input read from standard input. */
const STDIN_MAX = 256 << 20;

/**
 * Reads standard input to its end (a pipe or a redirected file), at most STDIN_MAX bytes; a
 * terminal is refused (the user meant to pipe something in).
 */
let stdinRead: Uint8Array | null = null;

function readStdin(what: string, fd = 0, isTTY = Boolean(process.stdin.isTTY)): Uint8Array {
  // read once per process: the explorer command reads the input, then its report reads it again
  if (fd === 0 && stdinRead) return stdinRead;
  if (isTTY)
    throw new UserError(
      `${what}: standard input is a terminal; pipe the input in, e.g. 'gcc -O2 -S -o - kern.c | uopscope report -'`,
    );
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.alloc(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (code === 'EOF') break;
      throw new UserError(`${what}: cannot read standard input (${code ?? String(e)})`);
    }
    if (n === 0) break;
    total += n;
    if (total > STDIN_MAX)
      throw new UserError(
        `${what}: more than ${STDIN_MAX >> 20} MiB on standard input; pass the object file that holds the loop`,
      );
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  const out = new Uint8Array(Buffer.concat(chunks));
  if (fd === 0) stdinRead = out;
  return out;
}

/** The input, named as every heading, note, listing and export shows it: the file name with its
 *  control characters as \xNN (a name is text the user did not necessarily choose). */
export async function loadInput(opts: InputOptions): Promise<LoadedInput> {
  const input = await readInput(opts);
  return { ...input, file: escapeControls(input.file) };
}

async function readInput(opts: InputOptions): Promise<LoadedInput> {
  const given = [opts.file !== undefined, opts.hex !== undefined, opts.raw !== undefined].filter(Boolean).length;
  if (given === 0) throw new UserError('no input: pass a FILE, --hex BYTES or --raw FILE');
  if (given > 1) throw new UserError('more than one input: pass only one of FILE, --hex BYTES, --raw FILE');
  const base = opts.baseAddress ?? 0;
  if (opts.hex === '-' || opts.hex === STDIN_NAME)
    return rawInput(
      STDIN_NAME,
      parseHex(Buffer.from(readStdin('--hex -')).toString('utf8'), '--hex - (standard input)'),
      base,
    );
  if (opts.hex !== undefined) return rawInput('<hex>', parseHex(String(opts.hex)), base);
  if (opts.raw !== undefined) {
    const data = readUserFile(opts.raw, 'a file of raw machine code');
    if (data.length === 0) throw new UserError(`${opts.raw}: empty file; --raw needs machine code bytes`);
    return rawInput(opts.raw, data, base);
  }
  const file = opts.file!;
  if (file === '-' || file === STDIN_NAME) {
    // standard input: a binary (by its magic number), else assembly text (as llvm-mca reads it)
    const data = readStdin('-');
    if (data.length === 0) throw new UserError('-: nothing on standard input; pipe a binary or assembly text in');
    const img = readBinary(data, STDIN_NAME);
    if (img) return fromImage(STDIN_NAME, img);
    if (!looksLikeText(data))
      throw new UserError('-: standard input is neither an x86 binary (ELF, PE/COFF, Mach-O) nor assembly text');
    return loadAssembly(
      STDIN_NAME,
      opts.assembler ?? 'as',
      Buffer.from(data).toString('utf8'),
      opts.syntax,
      opts.maxInstructions,
    );
  }
  const data = readUserFile(file, 'a binary (ELF, PE/COFF, Mach-O) or an assembly file (.s, .S, .asm)');
  if (data.length === 0) throw new UserError(`${file}: empty file; pass a binary or an assembly source`);
  const img = readBinary(data, file);
  if (img) return fromImage(file, img);
  if (ASM_EXTENSIONS.has(extname(file)))
    return loadAssembly(file, opts.assembler ?? 'as', undefined, opts.syntax, opts.maxInstructions);
  const text = looksLikeText(data);
  throw new UserError(
    `${file}: unknown format (${text ? 'a text file' : `starts with ${Array.from(data.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ')}`}): not ELF, PE/COFF or Mach-O${text ? ' and not named .s/.S/.asm' : ''}; pass an x86 binary, an assembly source, or raw machine code with --raw FILE`,
  );
}

/** A binary already in memory (ELF, PE/COFF, Mach-O) as a LoadedInput; UserError otherwise. */
export function inputFromBytes(data: Uint8Array, file: string): LoadedInput {
  if (data.length === 0) throw new UserError(`${file}: empty file; pass a binary or an assembly source`);
  const img = readBinary(data, file);
  if (!img) throw new UserError(`${file}: unknown format: not ELF, PE/COFF or Mach-O; pass an x86 binary`);
  return fromImage(file, img);
}

function looksLikeText(d: Uint8Array): boolean {
  const n = Math.min(d.length, 512);
  for (let i = 0; i < n; i++) {
    const c = d[i]!;
    if (c === 0 || c < 9 || (c > 13 && c < 32)) return false;
  }
  return true;
}

function loadAssembly(
  file: string,
  assembler: 'as' | 'clang',
  text?: string,
  syntax?: AsmSyntax,
  maxInstructions = DEFAULT_MAX_INSTRUCTIONS,
): LoadedInput {
  const { object, markers } = assemble(file, assembler, text, syntax, maxInstructions);
  const img = readBinary(object, file);
  if (!img) throw new UserError(`${file}: the assembler did not produce an object uopscope can read`);
  // all of an assembly file's code is searched for loops: bound it before anything is decoded
  const code = img.sections.filter((s) => s.executable).reduce((n, s) => n + s.data.length, 0);
  if (code > maxCodeBytes(maxInstructions))
    throw new UserError(
      `${file}: the assembled code is ${code.toLocaleString('en-US')} bytes: ${raiseHint(maxInstructions)}`,
    );
  const regions: Region[] = [];
  const sym = (label: string) => img.symbols.find((s) => s.name === label);
  let open: (typeof markers)[number] | null = null;
  for (const m of markers) {
    if (m.begin) {
      if (open)
        throw new UserError(
          `${file}:${m.line}: ${m.kind.toUpperCase()}-BEGIN inside the region opened at line ${open.line}; close it with ${open.kind.toUpperCase()}-END first`,
        );
      open = m;
      continue;
    }
    if (!open)
      throw new UserError(
        `${file}:${m.line}: ${m.kind.toUpperCase()}-END without a matching BEGIN; add '# ${m.kind.toUpperCase()}-BEGIN' before the loop`,
      );
    if (open.kind !== m.kind)
      throw new UserError(
        `${file}:${m.line}: ${m.kind.toUpperCase()}-END closes the ${open.kind.toUpperCase()}-BEGIN of line ${open.line}; use matching markers`,
      );
    const b = sym(open.label);
    const e = sym(m.label);
    if (!b || !e)
      throw new UserError(
        `${file}:${open.line}: marker label lost during assembly; put the marker comments inside a code section`,
      );
    if (b.section !== e.section)
      throw new UserError(
        `${file}:${open.line}: region markers in different sections (${b.section}, ${e.section}); keep BEGIN and END in the same section`,
      );
    const kindName = open.kind === 'llvm-mca' ? 'LLVM-MCA' : 'OSACA';
    regions.push({
      index: 0,
      kind: open.kind,
      name: `${kindName} region${open.name ? ` '${open.name}'` : ''} (lines ${open.line}–${m.line})`,
      start: b.address,
      end: e.address,
      section: b.section ?? undefined,
    });
    open = null;
  }
  if (open)
    throw new UserError(
      `${file}:${open.line}: ${open.kind.toUpperCase()}-BEGIN without a matching END; add '# ${open.kind.toUpperCase()}-END' after the loop`,
    );
  img.symbols = img.symbols.filter((s) => !s.name.startsWith(MARKER_PREFIX));
  return fromImage(file, { ...img, format: 'asm' }, regions);
}
