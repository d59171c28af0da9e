// The memory the harness gives a region, as the program has it: each address stream (each base
// register the region addresses memory through) gets its own memory, in distinct physical pages,
// placed so that streams do not alias within 4 KiB of each other and sized for the run's lengths;
// its data is an ordinary fill (non-zero, small, in-range indices where a loaded value indexes
// another stream, pointers where it is a base); the pointer and index registers start accordingly.
// Pure: src/measure/harness.ts passes the layout to the harness (assets/measure/harness.c maps it).

import { readFileSync } from 'node:fs';
import type { DecodedInstruction } from '../disasm/types.js';

export type WorkingSet = 'l1' | 'l2' | 'l3' | 'memory';
export const WORKING_SETS: readonly WorkingSet[] = ['l1', 'l2', 'l3', 'memory'];

/** `ordinary` (the default): element k (counted from where the stream's register points) is
 *  1 + k mod 127 (integer, float or double as the region reads it), a divisor 1 + k mod 13,
 *  pointers and indices as their use needs; a number: every element that value. */
export type Fill = { kind: 'ordinary' } | { kind: 'constant'; value: bigint };

const GPR_NUMBER: Record<string, number> = {
  RAX: 0,
  RCX: 1,
  RDX: 2,
  RBX: 3,
  RBP: 5,
  RSI: 6,
  RDI: 7,
  R8: 8,
  R9: 9,
  R10: 10,
  R11: 11,
  R12: 12,
  R13: 13,
  R14: 14,
  R15: 15,
};

/** The largest element value of the ordinary fill (1 … 127: non-zero, positive in every size). */
export const ORDINARY_MAX = 127;
/** Divisors loaded from memory: 1 + k mod 13, so that a quotient of ordinary data has a few bits. */
const DIVISOR_MAX = 13;

interface Stream {
  /** the base register, lower case ('rdi') */
  register: string;
  number: number;
  /** the lines that address it, in order */
  lines: number[];
  loaded: boolean;
  stored: boolean;
  /** bytes the addresses advance per iteration (null: the base register is not a simple counter) */
  advance: number | null;
  /** bytes of its own memory */
  size: number;
  /** where the register starts, in bytes from the memory's start */
  offset: number;
  /** what its elements hold */
  fill:
    | { kind: 'int' | 'divisor' | 'float' | 'double'; element: number }
    | { kind: 'constant'; element: number; value: bigint; type: 'int' | 'float' | 'double' }
    | { kind: 'pointer'; to: string };
  /** what the loaded values are used for, when not data (indices into, or pointers to, a stream) */
  role: string | null;
}

export interface Layout {
  streams: Stream[];
  /** registers used as indices (start 0), lower case */
  indices: string[];
  workingSet: WorkingSet;
  /** the bytes the streams span in one run of the longer length, and the cache size aimed at */
  bytes: number;
  target: { bytes: number; cache: string };
  /** the loop variant's lengths (iterations, increasing; loopLengths) */
  loop: number[];
  unrolled: [number, number];
  fill: Fill;
  /** addressing the layout does not place (stack, RIP-relative, absolute, an index without a
   *  base): mapped on demand, a page each, filled with the harness's pattern */
  unplaced: number[];
  /** a load and a store whose addresses may coincide: the same stream, or both unplaced */
  mayCoincide: { load: number; store: number; stream: string | null } | null;
  /** the run's lengths were cut to keep the streams within the working set's bound */
  bounded: string | null;
  /** vector registers the region reads before it writes them (a constant the program loaded
   *  before the loop): they start with ordinary lanes of the type their first reader uses */
  vectorInputs: VectorInput[];
}

/** A vector register the region reads before it writes it, and its start: lane k holds
 *  1 + k mod 127 as the first line that reads it uses its lanes (doubles for …pd/…sd, floats for
 *  …ps/…ss, integers of the element size for integer vector instructions), or --fill's value. */
interface VectorInput {
  /** lower case, as the region names it ('xmm0', 'ymm1') */
  register: string;
  number: number;
  /** the line that reads it first and its instruction */
  line: number;
  intel: string;
  /** how the harness loads it, as the region uses it: legacy SSE (16 bytes, the upper bits left
   *  clean as an SSE program has them: SSE code after a dirty upper state is several times slower
   *  on Zen 4), or VEX/EVEX at the widest width the region names it */
  load: 'sse' | 'xmm' | 'ymm' | 'zmm';
  fill:
    | { kind: 'int'; element: number }
    | { kind: 'float'; element: 4 }
    | { kind: 'double'; element: 8 }
    | { kind: 'constant'; element: number; value: bigint; type: 'int' | 'float' | 'double' };
}

/** The host's data cache sizes (bytes), from /sys; Zen 4's and most cores' when unreadable. */
function cacheSizes(): { l1: number; l2: number; l3: number } {
  const read = (index: number, fallback: number): number => {
    try {
      const t = readFileSync(`/sys/devices/system/cpu/cpu0/cache/index${index}/size`, 'utf8').trim();
      const m = /^(\d+)([KMG]?)$/.exec(t);
      if (!m) return fallback;
      return Number(m[1]) * ({ '': 1, K: 1024, M: 1 << 20, G: 1 << 30 } as Record<string, number>)[m[2]!]!;
    } catch {
      return fallback;
    }
  };
  return { l1: read(0, 32 << 10), l2: read(2, 1 << 20), l3: read(3, 32 << 20) };
}

const PAGE = 4096;
/** The most memory one layout maps (the `memory` working set's bound). */
const MAX_BYTES = 512 << 20;
/** the loop variant's longest length when the working set does not bound it */
const DEFAULT_LONGEST = 2000;
/** how many lengths the loop variant times */
export const LOOP_LENGTHS = 12;

/**
 * The loop variant's lengths: LOOP_LENGTHS lengths spread evenly from a quarter of the longest to
 * the longest (fewer when the longest is too short to give that many). The harness times each
 * and takes the Theil–Sen slope (assets/measure/slope.h): a call's fixed cost steps with the
 * exact trip count on Zen 4, which a difference of two lengths does not cancel; over lengths this
 * far apart such a step is small beside the iterations, and the median of the pairwise slopes is
 * not moved by it.
 */
export function loopLengths(longest: number): number[] {
  const lo = Math.max(1, Math.ceil(longest / 4));
  const out = new Set<number>();
  for (let i = 0; i < LOOP_LENGTHS; i++) out.add(Math.round(lo + ((longest - lo) * i) / (LOOP_LENGTHS - 1)));
  return [...out].sort((a, b) => a - b);
}

/** "12 lengths from 500 to 2000 iterations" */
export function lengthsText(lengths: readonly number[]): string {
  return lengths.length === 2
    ? `${lengths[0]} and ${lengths[1]} iterations`
    : `${lengths.length} lengths from ${lengths[0]} to ${lengths[lengths.length - 1]} iterations`;
}
const DEFAULT_UNROLLED: [number, number] = [100, 200];

/** The registers a line writes that are general-purpose. */
const gprWrites = (i: DecodedInstruction): string[] => i.writes.filter((r) => r in GPR_NUMBER || r === 'RSP');

/** Bytes a register advances per iteration, when every line that writes it adds a constant
 *  (add/sub imm, inc/dec, lea r, [r+d]); null otherwise. */
function advanceOf(body: readonly DecodedInstruction[], reg: string): number | null {
  let sum = 0;
  for (const i of body) {
    if (!gprWrites(i).includes(reg)) continue;
    const dst = i.operands[0];
    if (dst?.register !== reg) return null;
    const imm = i.operands[1]?.immediate;
    if ((i.mnemonic === 'ADD' || i.mnemonic === 'SUB') && typeof imm === 'number')
      sum += i.mnemonic === 'ADD' ? imm : -imm;
    else if (i.mnemonic === 'INC') sum += 1;
    else if (i.mnemonic === 'DEC') sum -= 1;
    else if (i.mnemonic === 'LEA' && i.memory?.base === reg && !i.memory.index) sum += i.memory.displacement;
    else return null;
  }
  return sum;
}

/** The element a stream's data is read as: its first load's (or store's) type and size. */
function elementOf(i: DecodedInstruction): { kind: 'int' | 'float' | 'double'; element: number } {
  const m = i.mnemonic;
  const size = i.memory?.size ?? 8;
  if (!/^V?CVT/.test(m) || /^V?CVT(?:T?S[SD]2|PD|PS)/.test(m)) {
    if (/(?:PD|SD)$/.test(m)) return { kind: 'double', element: 8 };
    if (/(?:PS|SS)$/.test(m)) return { kind: 'float', element: 4 };
  }
  if (size <= 8 && size > 0) return { kind: 'int', element: size };
  const e = /(?:B|W|D|Q)$/.exec(m.replace(/(?:8|16|32|64)$/, (x) => ({ 8: 'B', 16: 'W', 32: 'D', 64: 'Q' })[x]!));
  return { kind: 'int', element: e ? { B: 1, W: 2, D: 4, Q: 8 }[e[0] as 'B']! : 4 };
}

const memoryOf = (i: DecodedInstruction) =>
  i.memory && i.mnemonic !== 'LEA' && !i.mnemonic.startsWith('NOP') && !i.mnemonic.startsWith('PREFETCH')
    ? i.memory
    : null;

/** The stream a memory operand belongs to: its base register, when the layout places it. */
const streamKey = (m: NonNullable<DecodedInstruction['memory']>): string | null =>
  m.base && m.base in GPR_NUMBER && !m.segment ? m.base : null;

const rangeOf = (lo: number, hi: number) => ({ lo, hi });

type Body = readonly DecodedInstruction[];
type Role = { kind: 'index' | 'pointer' | 'divisor'; into: string; line: number };
type Caches = { l1: number; l2: number; l3: number };

/** A stream's shape: bytes per iteration, the span of its displacements (an index's range
 *  included), the lines that address it and the line whose element type it takes. */
interface Shape {
  key: string;
  perIteration: number | null;
  lo: number;
  hi: number;
  lines: number[];
  loaded: boolean;
  stored: boolean;
  first: DecodedInstruction;
}

/** The streams' base registers, in order of first use, and the lines the layout does not place. */
function streamKeys(body: Body): { keys: string[]; unplaced: number[] } {
  const keys: string[] = [];
  const unplaced: number[] = [];
  for (const i of body) {
    const m = memoryOf(i);
    if (!m) continue;
    const k = streamKey(m);
    if (k === null) unplaced.push(i.line);
    else if (!keys.includes(k)) keys.push(k);
  }
  return { keys, unplaced };
}

/** The index registers: a register that is an index of one operand and the base of another stays a base. */
function indexRegisters(body: Body, keys: readonly string[]): string[] {
  return [
    ...new Set(
      body.flatMap((i) => {
        const m = memoryOf(i);
        // an index of an operand without a placed base keeps the harness's start: its address
        // is the index's own value
        return m?.index && streamKey(m) && m.index in GPR_NUMBER && !keys.includes(m.index) ? [m.index] : [];
      }),
    ),
  ];
}

/** Which streams each register's value was loaded from (twice over the body: loop-carried). */
function loadedFrom(body: Body): Map<string, Set<string>> {
  const from = new Map<string, Set<string>>();
  for (let pass = 0; pass < 2; pass++)
    for (const i of body) {
      const m = memoryOf(i);
      const loaded = m?.read ? streamKey(m) : null;
      const addr = new Set([m?.base, m?.index].filter(Boolean) as string[]);
      const src = new Set<string>();
      if (loaded) src.add(loaded);
      if (!i.zeroIdiom)
        for (const r of i.reads)
          if (!addr.has(r) || i.mnemonic === 'LEA') for (const s of from.get(r) ?? []) src.add(s);
      for (const w of gprWrites(i)) from.set(w, new Set(src));
    }
  return from;
}

/** What each stream's loaded values are used for: divisors, indices into or pointers to a stream. */
function streamRoles(body: Body, from: Map<string, Set<string>>): Map<string, Role> {
  const roles = new Map<string, Role>();
  for (const i of body) {
    const m = memoryOf(i);
    if (i.mnemonic === 'DIV' || i.mnemonic === 'IDIV') {
      // the divisor: the memory operand's stream, or the streams its register was loaded from
      const op = i.operands[0];
      const divisor = m
        ? [streamKey(m)].filter((x): x is string => x !== null)
        : [...(from.get(op?.register ?? '') ?? [])];
      for (const s of divisor) if (!roles.has(s)) roles.set(s, { kind: 'divisor', into: s, line: i.line });
    }
    if (!m) continue;
    const into = streamKey(m);
    if (!into) continue;
    for (const s of from.get(m.index ?? '') ?? [])
      if (roles.get(s)?.kind !== 'pointer') roles.set(s, { kind: 'index', into, line: i.line });
    for (const s of from.get(m.base ?? '') ?? []) roles.set(s, { kind: 'pointer', into, line: i.line });
  }
  return roles;
}

/** Per stream: bytes per iteration, the span of its displacements, and an index's range. */
function streamShapes(body: Body, keys: readonly string[]): Shape[] {
  const advance = new Map<string, number | null>();
  const adv = (r: string | null): number | null => {
    if (r === null) return 0;
    if (!advance.has(r)) advance.set(r, advanceOf(body, r));
    return advance.get(r)!;
  };
  return keys.map((key) => {
    let perIteration: number | null = 0;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    const lines: number[] = [];
    let loaded = false;
    let stored = false;
    let first: DecodedInstruction | null = null;
    for (const i of body) {
      const m = memoryOf(i);
      if (!m || streamKey(m) !== key) continue;
      lines.push(i.line);
      loaded ||= m.read;
      stored ||= m.write;
      // the element type: the first load's, or the first store's when nothing loads
      if (!first || (m.read && !memoryOf(first)!.read)) first = i;
      const ia = m.index ? adv(m.index) : 0;
      // an index loaded from a stream holds the fill's values (1 … 127); one computed otherwise, 0 … 127
      const indexLoaded = m.index !== null && ia === null;
      const ba = adv(key);
      const a = ba === null || ia === null ? null : ba + m.scale * ia;
      const r = indexLoaded
        ? rangeOf(m.displacement, m.displacement + m.scale * ORDINARY_MAX + Math.max(m.size, 1))
        : rangeOf(m.displacement, m.displacement + Math.max(m.size, 1));
      lo = Math.min(lo, r.lo);
      hi = Math.max(hi, r.hi);
      if (a === null) {
        if (!indexLoaded) perIteration = null;
      } else if (perIteration !== null && Math.abs(a) > Math.abs(perIteration)) perIteration = a;
    }
    return { key, perIteration, lo, hi, lines, loaded, stored, first: first! };
  });
}

/** The run's lengths: the streams of the longer run within the working set's bound. */
function runLengths(
  shapes: readonly Shape[],
  workingSet: WorkingSet,
  caches: Caches,
): Pick<Layout, 'target' | 'loop' | 'unrolled' | 'bounded' | 'bytes'> {
  const cache = workingSet === 'memory' ? 'memory' : workingSet.toUpperCase() + (workingSet === 'l1' ? 'd' : '');
  const targetBytes =
    workingSet === 'memory' ? Math.min(4 * caches.l3, MAX_BYTES) : Math.floor((caches[workingSet] * 3) / 4);
  const perIter = shapes.reduce((s, x) => s + Math.abs(x.perIteration ?? 0), 0);
  const fixed = shapes.reduce((s, x) => s + (x.hi - x.lo), 0);
  let loop = loopLengths(DEFAULT_LONGEST);
  let unrolled = DEFAULT_UNROLLED;
  let bounded: string | null = null;
  if (perIter > 0) {
    const n2 = Math.max(2, Math.floor(Math.max(targetBytes - fixed, perIter * 2) / perIter));
    const n = workingSet === 'l1' ? Math.min(n2, DEFAULT_LONGEST) : n2;
    loop = loopLengths(n);
    unrolled = n >= DEFAULT_UNROLLED[1] ? DEFAULT_UNROLLED : [Math.max(1, Math.floor(n / 2)), Math.max(2, n - (n % 2))];
    if (n < DEFAULT_LONGEST)
      bounded = `at most ${n} iterations (not ${DEFAULT_LONGEST}) keep the streams' ${fmtBytes(perIter * n)} within ${fmtBytes(targetBytes)} (3/4 of the ${cache})`;
  }
  const longest = Math.max(loop[loop.length - 1]!, unrolled[1]);
  return { target: { bytes: targetBytes, cache }, loop, unrolled, bounded, bytes: perIter * longest + fixed };
}

/** What a stream's elements hold: pointers, the constant, indices, divisors or its own element type. */
function fillOf(shape: Shape, role: Role | undefined, fill: Fill): Stream['fill'] {
  const el = elementOf(shape.first);
  return role?.kind === 'pointer'
    ? { kind: 'pointer', to: role.into.toLowerCase() }
    : fill.kind === 'constant'
      ? { kind: 'constant', element: el.element, value: fill.value, type: el.kind }
      : role?.kind === 'index'
        ? { kind: 'int', element: el.kind === 'int' ? el.element : 4 }
        : role?.kind === 'divisor' && el.kind === 'int'
          ? { kind: 'divisor', element: el.element }
          : el;
}

/** Placement: each stream's start staggered within 4 KiB (4096 / streams apart, whole cache lines). */
function placeStreams(shapes: readonly Shape[], roles: Map<string, Role>, fill: Fill, longest: number): Stream[] {
  const stagger = shapes.length ? Math.max(64, Math.floor(PAGE / shapes.length / 64) * 64) : 0;
  return shapes.map((x, k) => {
    const a = x.perIteration ?? 0;
    const reach = Math.abs(a) * longest;
    const low = Math.min(0, x.lo) - (a < 0 ? reach : 0);
    const high = Math.max(0, x.hi) + (a > 0 ? reach : 0);
    const offset = ((k * stagger) % PAGE) - low;
    const size = Math.ceil((offset + high + 64) / PAGE) * PAGE;
    const role = roles.get(x.key);
    return {
      register: x.key.toLowerCase(),
      number: GPR_NUMBER[x.key]!,
      lines: x.lines,
      loaded: x.loaded,
      stored: x.stored,
      advance: x.perIteration,
      size,
      offset,
      fill: fillOf(x, role, fill),
      role: role
        ? role.kind === 'divisor'
          ? `divisors (line ${role.line})`
          : `${role.kind === 'index' ? 'indices into' : 'pointers to'} ${role.into.toLowerCase()} (line ${role.line})`
        : null,
    };
  });
}

export function memoryLayout(body: Body, opts: { workingSet?: WorkingSet; fill?: Fill; caches?: Caches } = {}): Layout {
  const workingSet = opts.workingSet ?? 'l1';
  const fill = opts.fill ?? { kind: 'ordinary' };
  const caches = opts.caches ?? cacheSizes();
  const { keys, unplaced } = streamKeys(body);
  const indices = indexRegisters(body, keys);
  const roles = streamRoles(body, loadedFrom(body));
  const shapes = streamShapes(body, keys);
  const lengths = runLengths(shapes, workingSet, caches);
  const streams = placeStreams(
    shapes,
    roles,
    fill,
    Math.max(lengths.loop[lengths.loop.length - 1]!, lengths.unrolled[1]),
  );
  return {
    streams,
    indices: indices.map((r) => r.toLowerCase()),
    workingSet,
    bytes: lengths.bytes,
    target: lengths.target,
    loop: lengths.loop,
    unrolled: lengths.unrolled,
    fill,
    unplaced,
    mayCoincide: coinciding(body, shapes),
    bounded: lengths.bounded,
    vectorInputs: vectorInputs(body, fill),
  };
}

/** How an instruction uses a vector register's lanes: …pd/…sd doubles, …ps/…ss floats, an integer
 *  vector instruction's element size (paddd: 4 bytes), else 8-byte integers. */
function laneUse(i: DecodedInstruction): { kind: 'int' | 'float' | 'double'; element: number } {
  const m = i.mnemonic.replace(/^V/, '');
  // conversions read their source's type: cvtdq2pd reads integers, cvtsd2ss doubles
  const cvt = /^CVTT?(PD|PS|SD|SS|DQ|PI|SI)2/.exec(m);
  const t = cvt ? cvt[1]! : /(PD|SD)$/.test(m) ? 'PD' : /(PS|SS)$/.test(m) ? 'PS' : null;
  if (t === 'PD' || t === 'SD') return { kind: 'double', element: 8 };
  if (t === 'PS' || t === 'SS') return { kind: 'float', element: 4 };
  if (t !== null) return { kind: 'int', element: 4 };
  const e = /^P\w*?(B|W|D|Q)$/.exec(m);
  return { kind: 'int', element: e ? { B: 1, W: 2, D: 4, Q: 8 }[e[1] as 'B']! : 8 };
}

/** The vector registers the body reads before it writes them (zeroing idioms aside), each with
 *  its start: the ordinary lanes of its first reader's type, or --fill's value. */
function vectorInputs(body: readonly DecodedInstruction[], fill: Fill): VectorInput[] {
  const written = new Set<string>();
  const inputs: VectorInput[] = [];
  const number = (r: string) => Number(r.slice(3));
  for (const i of body) {
    // vzeroupper/vzeroall name every register and use none of their values
    if (!i.zeroIdiom && !i.mnemonic.startsWith('VZERO'))
      for (const r of i.reads) {
        if (!/^[XYZ]MM\d+$/.test(r) || written.has(`MM${number(r)}`)) continue;
        if (inputs.some((x) => x.number === number(r))) continue;
        const use = laneUse(i);
        const op = i.operands.find((o) => o.register === r && /^[XYZ]MM$/.test(o.kind));
        inputs.push({
          register: op ? `${op.kind.toLowerCase()}${number(r)}` : r.toLowerCase(),
          number: number(r),
          line: i.line,
          intel: i.intel,
          load: loadOf(body, number(r)),
          fill:
            fill.kind === 'constant'
              ? { kind: 'constant', element: use.element, value: fill.value, type: use.kind }
              : use.kind === 'int'
                ? { kind: 'int', element: use.element }
                : use.kind === 'float'
                  ? { kind: 'float', element: 4 }
                  : { kind: 'double', element: 8 },
        });
      }
    for (const w of i.writes) if (/^[XYZ]MM\d+$/.test(w)) written.add(`MM${number(w)}`);
  }
  return inputs;
}

/** How the region uses vector register n: only by legacy SSE instructions, or by VEX/EVEX ones
 *  at the widest width it names. */
function loadOf(body: readonly DecodedInstruction[], n: number): VectorInput['load'] {
  // the decoder names every width XMMn in reads and writes; the operand's kind says the width
  let width = 'X';
  let vex = false;
  for (const i of body) {
    const name = `XMM${n}` as Uppercase<string>;
    if (!i.reads.includes(name) && !i.writes.includes(name)) continue;
    vex ||= i.mnemonic.startsWith('V') || n >= 16;
    for (const o of i.operands)
      if (o.register === name && /^[XYZ]MM$/.test(o.kind) && o.kind[0]! > width) width = o.kind[0]!;
  }
  return !vex ? 'sse' : width === 'Z' ? 'zmm' : width === 'Y' ? 'ymm' : 'xmm';
}

/** A vector register's start as the text output says it: its first lanes. */
export function vectorStartText(v: VectorInput): string {
  const f = v.fill;
  if (f.kind === 'constant')
    return `every lane ${f.value}${f.type === 'int' ? ` (${f.element}-byte integers)` : `.0 (${f.type}s)`}, as line ${v.line} ${v.intel.split(' ')[0]} reads it`;
  const lanes = Math.min(4, 16 / f.element);
  const values = Array.from({ length: lanes }, (_, k) => (f.kind === 'int' ? `${k + 1}` : `${k + 1}.0`));
  const type = f.kind === 'int' ? `${f.element}-byte integers` : `${f.kind}s`;
  return `lanes ${values.join(', ')}, … (1 + k mod ${ORDINARY_MAX}, ${type}, as line ${v.line} ${v.intel.split(' ')[0]} reads it)`;
}

/** A load and a store that may address the same bytes: on one stream, or both outside the
 *  streams (the harness maps those on demand, where different registers may meet). */
function coinciding(
  body: readonly DecodedInstruction[],
  shapes: { key: string; loaded: boolean; stored: boolean }[],
): Layout['mayCoincide'] {
  for (const s of shapes) {
    if (!s.loaded || !s.stored) continue;
    const on = body.filter((i) => {
      const m = memoryOf(i);
      return m && streamKey(m) === s.key;
    });
    const load = on.find((i) => memoryOf(i)!.read);
    const store = on.find((i) => memoryOf(i)!.write);
    if (load && store) return { load: load.line, store: store.line, stream: s.key.toLowerCase() };
  }
  const off = body.filter((i) => {
    const m = memoryOf(i);
    return m && streamKey(m) === null;
  });
  const load = off.find((i) => memoryOf(i)!.read);
  const store = off.find((i) => memoryOf(i)!.write);
  return load && store ? { load: load.line, store: store.line, stream: null } : null;
}

export function fmtBytes(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(n % (1 << 20) ? 1 : 0)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(n % 1024 ? 1 : 0)} KiB`;
  return `${n} B`;
}

/** A constant fill's bits: the number as the element's type (3 in a double is 3.0, never the
 *  denormal whose bits are 3), its low bytes for an integer. */
function constantBits(f: { element: number; value: bigint; type: 'int' | 'float' | 'double' }): bigint {
  if (f.type === 'int') return BigInt.asUintN(f.element * 8, f.value);
  const b = Buffer.alloc(8);
  if (f.type === 'float') {
    b.writeFloatLE(Number(f.value));
    return BigInt(b.readUInt32LE());
  }
  b.writeDoubleLE(Number(f.value));
  return b.readBigUInt64LE();
}

/** The harness's arguments for a layout: L=, U=, one M= per stream, one V= per vector input. */
function layoutArgs(l: Layout): string[] {
  const index = new Map(l.streams.map((s, k) => [s.register, k]));
  return [
    `L=${l.loop.join(',')}`,
    `U=${l.unrolled[0]},${l.unrolled[1]}`,
    ...l.streams.map((s) => {
      const f = s.fill;
      const [code, element, param] =
        f.kind === 'pointer'
          ? ['p', 8, BigInt(index.get(f.to) ?? 0)]
          : f.kind === 'constant'
            ? ['c', f.element, constantBits(f)]
            : [({ int: 's', divisor: 'v', float: 'f', double: 'd' } as const)[f.kind], f.element, 0n];
      return `M=${s.number},${s.size},${s.offset},${code},${element},${param}`;
    }),
    ...l.vectorInputs.map((v) => {
      const f = v.fill;
      const code = f.kind === 'constant' ? 'c' : ({ int: 's', float: 'f', double: 'd' } as const)[f.kind];
      const param = f.kind === 'constant' ? constantBits(f) : 0n;
      return `V=${v.number},${code},${f.element},${param},${({ sse: 's', xmm: 'x', ymm: 'y', zmm: 'z' } as const)[v.load]}`;
    }),
  ];
}

/** One line per part of the layout, for the text output. */
export function describeLayout(l: Layout): string[] {
  const out: string[] = [];
  if (!l.streams.length) out.push('Memory: no address stream (the region addresses no memory through a base register)');
  else
    out.push(
      `Memory: ${l.streams.length} address stream${l.streams.length > 1 ? 's' : ''}, each its own pages, starts ${l.streams.length > 1 ? `${Math.max(64, Math.floor(PAGE / l.streams.length / 64) * 64)} bytes apart within 4 KiB (no 4 KiB aliasing between streams)` : 'at its own address'}:`,
    );
  for (const s of l.streams) {
    const what = [s.loaded ? 'loaded' : '', s.stored ? 'stored' : ''].filter(Boolean).join(' and ');
    const adv = s.advance === null ? 'not a simple counter' : s.advance === 0 ? 'fixed' : `${s.advance} B/iteration`;
    out.push(
      `  ${s.register}: lines ${s.lines.join(', ')}, ${what}, ${adv}, ${fmtBytes(s.size)}; fill ${fillText(s)}${s.role ? `, ${s.role}` : ''}`,
    );
  }
  if (l.indices.length)
    out.push(`  index register${l.indices.length > 1 ? 's' : ''} ${l.indices.join(', ')} start at 0`);
  out.push(
    `Working set: ${fmtBytes(l.bytes)} in the longer run, within ${fmtBytes(l.target.bytes)} (${l.workingSet}: 3/4 of the host's ${l.target.cache}${l.workingSet === 'memory' ? ', 4 × L3 bounded to 512 MiB' : ''}); loop ${lengthsText(l.loop)}, unrolled ×${l.unrolled[0]} and ×${l.unrolled[1]}`,
  );
  if (l.bounded) out.push(`  ${l.bounded}`);
  if (l.vectorInputs.length) {
    out.push(
      'Vector registers read before written (the program sets them before the loop; measure does not know its values): they start with ordinary data, the other vector registers at 0:',
    );
    for (const v of l.vectorInputs) out.push(`  ${v.register}: ${vectorStartText(v)}`);
  }
  out.push(
    `Other registers: general-purpose ones not set above start at 0x${PATTERN.toString(16)} + n × 0x${REG_STEP.toString(16)} (n the register's number), vector ones at 0; MXCSR 0x${REGION_MXCSR.toString(16)} (the default with denormals-are-zero and flush-to-zero)`,
  );
  if (l.unplaced.length)
    out.push(
      `  lines ${l.unplaced.join(', ')} address memory without a base register the layout places (stack, RIP-relative, absolute): mapped on demand, a page each, filled with 0x2324000`,
    );
  return out;
}

export function fillText(s: Stream): string {
  const f = s.fill;
  if (f.kind === 'pointer') return `pointers to ${f.to}'s start`;
  if (f.kind === 'constant')
    return f.type === 'int' ? `every ${f.element}-byte element ${f.value}` : `every element ${f.value}.0 (${f.type}s)`;
  if (f.kind === 'divisor') return `1 + k mod ${DIVISOR_MAX} (${f.element}-byte integers)`;
  const type = f.kind === 'int' ? `${f.element}-byte integers` : `${f.kind}s`;
  return `1 + k mod ${ORDINARY_MAX} (${type})`;
}

/** The loop variant closed by the region's own compare and branch (`cmp rax, rdx; jne top`), its
 *  bound register (rdx) started so the loop runs the run's lengths: the harness's `dec; jnz` would
 *  add a µop per iteration the program does not have, which shows where dispatch is the bound. */
interface OwnLoop {
  /** the closing branch's line and text */
  line: number;
  intel: string;
  /** the bound register (lower case) and its start for each length */
  bound: string;
  /** the jump appended to the body for the loop variant (jne back to the body's start) */
  jump: Uint8Array;
  args: string[];
}

const PATTERN = 0x2324000n;
const REG_STEP = 0x240n;
/** assets/measure/harness.c REGION_MXCSR: exceptions masked, round to nearest, DAZ and FTZ */
const REGION_MXCSR = 0x1f80 | 0x8000 | 0x0040;

/** The own loop, when the body ends with a register compare of a counter (a constant advance) and
 *  a register the body does not write, and the closing branch is jne/jnz to the region's start. */
function ownLoop(
  body: readonly DecodedInstruction[],
  closing: DecodedInstruction | undefined,
  bodyBytes: number,
  layout: Layout,
  starts: ReadonlyMap<string, bigint>,
): OwnLoop | null {
  const cmp = body[body.length - 1];
  // to the region's start, or just before it (an IACA-marked loop jumps back to its start marker)
  const back =
    closing?.branch?.targetLine === 0 ||
    (closing?.branch?.targetLine === null &&
      closing.branch.target !== null &&
      closing.branch.target <= body[0]!.address);
  if (closing?.mnemonic !== 'JNE' || !back || !cmp) return null;
  if (cmp.mnemonic !== 'CMP') return countDown(body, closing, bodyBytes, layout, starts);
  if (cmp.operands.length !== 2 || !cmp.operands.every((o) => /^R(32|64)$/.test(o.kind))) return null;
  const regs = cmp.operands.map((o) => o.register!);
  const adv = regs.map((r) => advanceOf(body, r));
  const k = adv.findIndex((a) => a !== null && a !== 0);
  const counter = regs[k]!;
  const bound = regs[1 - k]!;
  if (k < 0 || adv[1 - k] !== 0 || counter === bound || !(bound in GPR_NUMBER)) return null;
  // the bound must not address memory: moving it would move a stream
  const addressing = new Set(body.flatMap((i) => [memoryOf(i)?.base, memoryOf(i)?.index]));
  if (addressing.has(bound)) return null;
  const a = BigInt(adv[k]!);
  const lower = counter.toLowerCase();
  const stream = layout.streams.findIndex((x) => x.register === lower);
  const start = stream >= 0 ? 0n : (starts.get(lower) ?? PATTERN + BigInt(GPR_NUMBER[counter] ?? 0) * REG_STEP);
  // the counter at the compare of iteration n: its start, n − 1 advances, and the part of the
  // advance before the compare (all of it here: the compare is the body's last line)
  const at = (n: number) => BigInt.asUintN(64, start + BigInt(n) * a);
  const jump = jumpBack(bodyBytes);
  return {
    line: closing.line,
    intel: closing.intel,
    bound: bound.toLowerCase(),
    jump,
    args: [`J=${jump.length}`, `B=${GPR_NUMBER[bound]},${stream},${layout.loop.map(at).join(',')}`],
  };
}

/** jne back to the body's start, rel8 as compilers write it when the body is short enough, else rel32 */
function jumpBack(bodyBytes: number): Uint8Array {
  const short = -(bodyBytes + 2) >= -128;
  const rel = short ? -(bodyBytes + 2) : -(bodyBytes + 6);
  return short
    ? Uint8Array.from([0x75, rel & 0xff])
    : Uint8Array.from([0x0f, 0x85, rel & 0xff, (rel >> 8) & 0xff, (rel >> 16) & 0xff, (rel >> 24) & 0xff]);
}

/** The own loop of a body that counts a register down (or up) to zero: its last line adds a
 *  constant to a 64-bit register no other line reads or addresses memory through, and the closing
 *  jne falls through when it reaches 0 (clang's `add r9, -2; jne`). The register starts at −n
 *  advances, so the loop runs the run's lengths with the program's own compare and branch. */
function countDown(
  body: readonly DecodedInstruction[],
  closing: DecodedInstruction,
  bodyBytes: number,
  layout: Layout,
  starts: ReadonlyMap<string, bigint>,
): OwnLoop | null {
  const last = body[body.length - 1]!;
  const reg = last.operands[0]?.register;
  if (!reg || last.operands[0]?.kind !== 'R64' || !/^(ADD|SUB|INC|DEC)$/.test(last.mnemonic)) return null;
  if (!(reg in GPR_NUMBER) || starts.has(reg.toLowerCase())) return null;
  const a = advanceOf(body, reg);
  if (a === null || a === 0) return null;
  // the count is all the register does: no other line reads it (an index, a value) or writes it
  if (body.slice(0, -1).some((i) => i.reads.includes(reg) || i.writes.includes(reg))) return null;
  const from = (n: number) => BigInt.asUintN(64, -BigInt(n) * BigInt(a));
  const jump = jumpBack(bodyBytes);
  return {
    line: closing.line,
    intel: closing.intel,
    bound: reg.toLowerCase(),
    jump,
    args: [`J=${jump.length}`, `B=${GPR_NUMBER[reg]},-1,${layout.loop.map(from).join(',')}`],
  };
}

/** What the harness needs for a prepared body on this layout: the start values (the
 *  preparation's, then the index registers at 0) and the layout's arguments. */
export function harnessMemory(
  body: readonly DecodedInstruction[],
  prepared: {
    body: Uint8Array;
    startValues: readonly { register: string; number: number; value: bigint }[];
    counter: { name: string };
  },
  memory: { workingSet?: WorkingSet; fill?: Fill; caches?: { l1: number; l2: number; l3: number } } = {},
  closing?: DecodedInstruction,
): {
  layout: Layout;
  startValues: { number: number; value: bigint }[];
  args: string[];
  /** the bytes to run: the body, and the closing jump when the loop variant closes with it */
  code: Uint8Array;
  ownLoop: OwnLoop | null;
} {
  const layout = memoryLayout(body, memory);
  // a division's start values and the streams' pointers come first
  const taken = new Set([...prepared.startValues.map((s) => s.register), ...layout.streams.map((s) => s.register)]);
  const indexStarts = layout.indices
    .filter((r) => !taken.has(r) && r !== prepared.counter.name)
    .map((r) => ({ register: r, number: GPR_NUMBER[r.toUpperCase()]!, value: 0n }));
  const startValues = [...prepared.startValues, ...indexStarts];
  const own = ownLoop(
    body,
    closing,
    prepared.body.length,
    layout,
    new Map(startValues.map((s) => [s.register, s.value])),
  );
  return {
    layout,
    startValues: startValues.map((s) => ({ number: s.number, value: s.value })),
    args: [...layoutArgs(layout), ...(own?.args ?? [])],
    code: own ? Uint8Array.from([...prepared.body, ...own.jump]) : prepared.body,
    ownLoop: own,
  };
}
