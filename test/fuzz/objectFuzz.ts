// Structure-aware fuzzing of the binary readers (ELF 32/64, PE/COFF objects and images, Mach-O
// 32/64, universal files): each case is built from its parts (test/fuzz/objects.ts) with drawn
// counts, offsets, sizes and indices — sections that overlap or lie outside the file, string
// tables without a NUL, absurd section/symbol/command/slice counts and indices — then run through
// the disasm stage as `uopscope regions/disasm/graph` do. Every case must end in a result or a
// one-line UserError, with the code decoded at most once per byte of the file and time and
// memory within bounds proportional to the input's size.
import { UserError } from '../../src/errors.js';
import {
  branchPaths,
  buildCfg,
  buildDependencyGraph,
  inputFromBytes,
  listRegions,
  selectRegion,
} from '../../src/disasm/index.js';
import { IACA_END, IACA_START } from '../../src/disasm/regions.js';
import {
  LOOP,
  coff,
  coffBodyOffset,
  elf,
  macho,
  machoBodyOffset,
  universal,
  type CoffSection,
  type ElfSection,
  type MachoSection,
} from './objects.js';
import { caseSeed, chance, pick, rng, type Rng } from './rng.js';

const COUNTS = [1, 1, 2, 2, 3, 4, 8, 17, 100, 400, 999];

/** How hostile the current case is: the chance that a field takes an implausible value (most
 *  cases keep most fields plausible, so that they get past the header checks). */
let hostility = 0.1;
const bad = (next: Rng): boolean => chance(next, hostility);
/** a plausible value, or with the case's hostility one of the implausible ones */
const val = <T>(next: Rng, good: T, evil: readonly T[]): T => (bad(next) ? pick(next, evil) : good);
const U32 = [0, 1, 7, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff0];

function body(next: Rng): Uint8Array {
  const n = val(next, pick(next, [8, 64, 300, 1024, 4096, 16384]), [0, 1]) + (next() % 16);
  const b = new Uint8Array(n);
  const style = next() % 4;
  for (let i = 0; i < n; i++) b[i] = style === 0 ? next() & 0xff : LOOP[i % LOOP.length]!;
  if (style === 2 && n > 40) {
    b.set(IACA_START, next() % (n - 20));
    b.set(IACA_END, next() % (n - 8));
  }
  if (style === 3) for (let k = 0; k < 4 && n > 0; k++) b[next() % n] = next() & 0xff;
  return b;
}

/** an offset/size pair: inside the body, overlapping, at the end, outside the file, absurd */
function range(next: Rng, at: number, len: number, fileLen: number): { offset: number; size: number } {
  if (!bad(next)) {
    if (next() % 3) return { offset: at, size: len };
    const k = len ? next() % len : 0;
    return { offset: at + k, size: next() % (len - k + 1) };
  }
  switch (next() % 8) {
    case 0:
      return { offset: at, size: len };
    case 1:
      return { offset: at + (len ? next() % len : 0), size: len ? next() % len : 0 };
    case 2:
      return { offset: 0, size: fileLen };
    case 3:
      return { offset: fileLen - (next() % 16), size: next() % 64 };
    case 4:
      return { offset: pick(next, U32), size: pick(next, U32) };
    case 5:
      return { offset: at, size: 0 };
    case 6:
      return { offset: fileLen + (next() % 4096), size: len };
    default:
      return { offset: at, size: len + 1 + (next() % 64) };
  }
}

const ADDRS = [0, 0, 0x1000, 0x400000, 0xffffffff, 2 ** 40, Number.MAX_SAFE_INTEGER - 4];

function genElf(next: Rng): Uint8Array {
  const bits = next() % 3 ? 64 : 32;
  const b = body(next);
  const eh = bits === 64 ? 64 : 52;
  const n = pick(next, COUNTS);
  const guess = eh + b.length + 40 + (n + 2) * (bits === 64 ? 64 : 40);
  const sections: ElfSection[] = [];
  const same = range(next, eh, b.length, guess);
  for (let i = 0; i < n; i++) {
    const r = chance(next, 0.5) ? same : range(next, eh, b.length, guess);
    sections.push({
      ...r,
      name: val(next, 1, [7, 0, 15, 1000, 0xffffffff]),
      type: val(next, 1, [2, 3, 8, 11, 0]),
      flags: val(next, 6, [4, 0, 2]),
      addr: chance(next, 0.5) ? 0 : val(next, 0x401000 + 64 * i, ADDRS),
      link: val(next, 0, [1, 2, n, n + 1, 0xffff, 0xffffffff]),
      entsize: val(next, 0, [24, 16, 1]),
    });
  }
  const strtab = val(next, '\0.text\0.shstrtab\0', ['\0.text\0.shstrtab', '', '.text', `\0${'x'.repeat(300)}`]);
  const spec: Parameters<typeof elf>[0] = { bits, body: b, sections, shstrtab: strtab };
  if (bad(next)) spec.shstrndx = pick(next, [0, 1, n + 5, 0xffff]);
  if (bad(next)) spec.shnum = pick(next, [0, 1, 0xffff, n + 3]);
  if (bad(next) && bad(next)) spec.machine = pick(next, [183, 40, 0]);
  return elf(spec);
}

function genCoff(next: Rng): Uint8Array {
  const image = chance(next, 0.4);
  const b = body(next);
  const n = Math.min(pick(next, COUNTS), 998);
  const at = coffBodyOffset(n, image);
  const guess = at + b.length;
  const same = range(next, at, b.length, guess);
  const sections: CoffSection[] = [];
  for (let i = 0; i < n; i++) {
    const r = chance(next, 0.5) ? same : range(next, at, b.length, guess);
    sections.push({
      name: val(next, pick(next, ['.text', '.text$mn']), ['/4', '/99999', '/0', '.data', 'x\x1b[2J']),
      rawPtr: r.offset,
      rawSize: r.size,
      vsize: val(next, r.size, [0, 1, 0xffffffff]),
      vaddr: val(next, 0x1000 + 0x100 * i, [0, 0xfffff000, 0x1000]),
      chars: val(next, 0x60000020, [0x20, 0x20000000, 0xc0000040]),
    });
  }
  const nsym = pick(next, [0, 0, 1, 3, 20, 300]);
  const symbols = Array.from({ length: nsym }, (_, i) => ({
    name: val(next, pick(next, ['f', 'loop', '.L1', 'g']), [4, 8, 0, 100000, 0xffffffff, '']),
    value: val(next, i * 8, [0xffffffff]),
    section: val(next, 1, [0, n, n + 1, 0xffff]),
    storage: val(next, pick(next, [2, 3, 6]), [0x67]),
    aux: val(next, 0, [1, 255]),
  }));
  const spec: Parameters<typeof coff>[0] = {
    image,
    body: b,
    sections,
    symbols,
    strings: val(next, 'long_name\0', ['', 'unterminated', 'a\0b\0']),
  };
  if (bad(next)) spec.nsym = pick(next, [0xffffffff, 0x10000, nsym + 1]);
  if (bad(next)) spec.nsec = pick(next, [0xffff, 1000, n + 1]);
  if (bad(next) && bad(next)) spec.machine = pick(next, [0xaa64, 0x14c, 0]);
  return coff(spec);
}

function genMacho(next: Rng): Uint8Array {
  const bits = next() % 3 ? 64 : 32;
  const b = body(next);
  const n = pick(next, COUNTS);
  const extra = bad(next) ? Uint8Array.from([0x01, 0x80, 0, 0, pick(next, [0, 4, 8, 0xff]), 0, 0, 0]) : undefined;
  const at = machoBodyOffset(n, bits, extra?.length ?? 0);
  const guess = at + b.length;
  const same = range(next, at, b.length, guess);
  const sections: MachoSection[] = [];
  for (let i = 0; i < n; i++) {
    const r = chance(next, 0.5) ? same : range(next, at, b.length, guess);
    sections.push({
      offset: r.offset,
      size: r.size,
      addr: chance(next, 0.5) ? 0 : val(next, 0x100000 + 64 * i, ADDRS),
      flags: val(next, 0x80000400, [0x400, 0, 0x80000001, 0x8000000c]),
      sect: val(next, '__text', ['__stubs', '\x07\x1b']),
    });
  }
  const nsym = pick(next, [0, 0, 1, 5, 100]);
  const symbols = Array.from({ length: nsym }, (_, i) => ({
    strx: val(next, pick(next, [1, 4]), [0, 1000, 0xffffffff]),
    type: val(next, 0x0f, [0x0e, 0x1e, 0xff, 0]),
    sect: val(next, 1, [0, n, n + 1, 255]),
    value: val(next, i * 8, [0xffffffff]),
  }));
  const spec: Parameters<typeof macho>[0] = {
    bits,
    body: b,
    sections,
    symbols,
    strings: val(next, '\0_f\0_loop\0', ['\0_unterminated', '']),
  };
  if (extra) spec.extraCommands = extra;
  if (bad(next)) spec.ncmds = pick(next, [0, 10001, 0xffffffff, 3, 50]);
  if (bad(next)) spec.nsects = pick(next, [0xffffffff, n + 1, 0x10000]);
  if (bad(next) && bad(next)) spec.cputype = pick(next, [0x0100000c, 18]);
  return macho(spec);
}

function genUniversal(next: Rng): Uint8Array {
  const inner = next() % 8 ? genMacho(next) : genElf(next);
  const at = val(next, 4096, [64, 0, 8]);
  const n = val(next, pick(next, [1, 2, 3]), [0, 65, 64]);
  const slices = Array.from({ length: Math.min(n, 70) }, (_, i) => ({
    cputype: val(next, i === n - 1 ? 0x01000007 : 0x0100000c, [7, 0x0100000c, 0x01000007]),
    offset: val(next, at, [0, 0xffffffff, at + inner.length]),
    size: val(next, inner.length, [0, inner.length + 1, 0xffffffff]),
  }));
  return universal(slices, inner, at, bad(next) ? pick(next, [0, 0xffffffff]) : undefined);
}

export const KINDS = ['elf', 'coff', 'macho', 'universal'] as const;
export type ObjectKind = (typeof KINDS)[number];

export function genObjectCase(seed: number): { kind: ObjectKind; data: Uint8Array } {
  const next = rng(seed);
  const kind = KINDS[next() % KINDS.length]!;
  hostility = pick(next, [0, 0.01, 0.03, 0.1, 0.3]);
  const data =
    kind === 'elf'
      ? genElf(next)
      : kind === 'coff'
        ? genCoff(next)
        : kind === 'macho'
          ? genMacho(next)
          : genUniversal(next);
  return { kind, data };
}

export interface CaseResult {
  outcome: 'ok' | 'user-error';
  codeBytes: number;
  ms: number;
}

/** Runs one case through the disasm stage; throws (an AssertionError-like Error) on a finding. */
export function exerciseObject(data: Uint8Array, name: string): CaseResult {
  const t0 = performance.now();
  let codeBytes = 0;
  let outcome: CaseResult['outcome'];
  try {
    const input = inputFromBytes(data, name);
    codeBytes = input.sections.reduce((n, s) => n + s.data.length, 0);
    if (codeBytes > data.length)
      throw new Error(`${codeBytes} code bytes in a ${data.length}-byte file: a byte is decoded more than once`);
    const regions = listRegions(input);
    const r = selectRegion(input, regions.length > 1 ? { region: 1 + (data.length % regions.length) } : {});
    buildCfg(r.instructions, { loop: true });
    buildDependencyGraph(r.instructions, { loop: true });
    if (branchPaths(r.instructions)) buildDependencyGraph(r.instructions, { loop: false });
    outcome = 'ok';
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    if (e.exitCode !== 2) throw new Error(`exit status ${e.exitCode} for bad input: ${e.message}`);
    if (e.message.includes('\n') || e.message.length === 0)
      throw new Error(`not one line: ${JSON.stringify(e.message)}`);
    if (/[\x00-\x08\x0b-\x1f\x7f]/.test(e.message))
      throw new Error(`control characters in the message: ${JSON.stringify(e.message)}`);
    outcome = 'user-error';
  }
  return { outcome, codeBytes, ms: performance.now() - t0 };
}

export interface FuzzStats {
  seed: number;
  cases: number;
  ok: number;
  userError: number;
  maxMs: number;
  maxMsPerKb: number;
  maxRssMb: number;
  kinds: Record<string, number>;
}

/**
 * Runs cases seeded from `seed` until `seconds` have passed or `maxCases` ran. A finding throws
 * an Error naming the seed and case (replay: genObjectCase(caseSeed(seed, i))).
 * Bounds: each case within 10 s + 10 ms per KiB of input (generous, for a loaded machine: the point is to catch work
 * that grows with sections × size or worse, which takes minutes, not a slow machine), and the
 * process's resident memory under 1.5 GiB.
 */
export function runObjectFuzz(
  seed: number,
  seconds: number,
  maxCases = Infinity,
  log?: (s: string) => void,
): FuzzStats {
  const stats: FuzzStats = { seed, cases: 0, ok: 0, userError: 0, maxMs: 0, maxMsPerKb: 0, maxRssMb: 0, kinds: {} };
  const end = performance.now() + seconds * 1000;
  let lastLog = performance.now();
  for (let i = 0; i < maxCases && performance.now() < end; i++) {
    const cs = caseSeed(seed, i);
    const { kind, data } = genObjectCase(cs);
    let r: CaseResult;
    try {
      r = exerciseObject(data, `${kind}#${i}`);
    } catch (e) {
      throw new Error(
        `object fuzz seed ${seed} case ${i} (case seed ${cs}, ${kind}, ${data.length} bytes): ${e instanceof Error ? `${e.message}\n${e.stack}` : String(e)}`,
      );
    }
    const budget = 10_000 + 10 * (data.length / 1024);
    if (r.ms > budget)
      throw new Error(
        `object fuzz seed ${seed} case ${i} (case seed ${cs}, ${kind}, ${data.length} bytes) took ${r.ms.toFixed(0)} ms > ${budget.toFixed(0)} ms`,
      );
    stats.cases++;
    stats.kinds[kind] = (stats.kinds[kind] ?? 0) + 1;
    if (r.outcome === 'ok') stats.ok++;
    else stats.userError++;
    stats.maxMs = Math.max(stats.maxMs, r.ms);
    stats.maxMsPerKb = Math.max(stats.maxMsPerKb, r.ms / Math.max(1, data.length / 1024));
    if (i % 64 === 0) {
      const rss = process.memoryUsage().rss / 2 ** 20;
      stats.maxRssMb = Math.max(stats.maxRssMb, rss);
      if (rss > 1536)
        throw new Error(`object fuzz seed ${seed} case ${i}: resident memory ${rss.toFixed(0)} MiB > 1536 MiB`);
    }
    if (log && performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      log(JSON.stringify(stats));
    }
  }
  return stats;
}
