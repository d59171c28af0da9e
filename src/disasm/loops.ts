// Loops as compilers find them: natural loops of each function's control-flow graph. A back
// edge is an edge whose target (the loop's header) dominates its source; the loop is the header
// and every block that reaches a back edge's source without passing the header. A loop therefore
// never crosses a function boundary (each function's graph is built on its own, from its symbol's
// extent) and never holds a `ret` or an indirect jump (their blocks have no known successor, so
// they reach no back edge). Backward jumps that are not back edges (a path of an if/else the
// compiler placed before the loop's test, a jump back from a cold block, a PLT stub's jump to the
// PLT's head) are not loops.
import { Decoder, DecoderOptions, FlowControl, Instruction, Mnemonic, OpKind, Register } from './iced.js';
import type { ImageSection, LoadedInput } from './types.js';

/** A run of consecutive addresses [start, end). */
interface Segment {
  start: number;
  end: number;
}

export interface NaturalLoop {
  section: string;
  /** the header's address: where every iteration starts */
  header: number;
  /** lowest and highest address of the loop's blocks (end exclusive) */
  start: number;
  end: number;
  /** the loop's blocks as runs of consecutive addresses, in the order the simulation lays them
   *  out (chosen so that control passes from each run to the next, see layout()) */
  segments: Segment[];
  /** no other loop inside it */
  innermost: boolean;
  /** the function (symbol) the loop is in, or null in code without symbols */
  fn: string | null;
  /** instructions in the loop */
  instructions: number;
  /** widest packed (not scalar) vector operation, in bits: 0 for a scalar loop */
  vectorBits: number;
  /** the operations, scalar and vector spellings folded together ('MUL.D' for mulsd and
   *  vmulpd): a remainder loop does a subset of its main loop's */
  ops: Set<string>;
}

const enum Kind {
  Normal,
  Conditional,
  Jump,
  Stop,
}

interface Partition {
  start: number;
  end: number;
  name: string | null;
}

/** Assembler-local labels: not functions. */
const isLocal = (name: string) =>
  name.startsWith('.L') || /^L[A-Za-z_]*\d/.test(name) || name.startsWith('__uopscope_marker_');

/**
 * The functions of a section: the extents of sized symbols (ELF's STT_FUNC), and between them
 * the code from one unsized symbol to the next (PE and Mach-O record no sizes). Assembly input is
 * not split at unsized symbols: there a label such as `loop:` is usually inside a function.
 */
function partitions(input: LoadedInput, sec: ImageSection): Partition[] {
  const secEnd = sec.address + sec.data.length;
  const syms = input.symbols.filter(
    (s) => s.section === sec.name && s.address >= sec.address && s.address < secEnd && !isLocal(s.name),
  );
  const sized = syms.filter((s) => s.size).sort((a, b) => a.address - b.address || b.size! - a.size!);
  const extents: Partition[] = [];
  for (const s of sized) {
    const last = extents.at(-1);
    if (last && s.address < last.end) continue; // an alias or a symbol inside a function
    extents.push({ start: s.address, end: Math.min(s.address + s.size!, secEnd), name: s.name });
  }
  const split = input.format !== 'asm' && input.format !== 'raw';
  const cuts = split ? [...new Set(syms.filter((s) => !s.size).map((s) => s.address))].sort((a, b) => a - b) : [];
  const names = new Map<number, string>();
  for (const s of syms) if (!s.size && !names.has(s.address)) names.set(s.address, s.name);
  const out: Partition[] = [];
  const gap = (from: number, to: number) => {
    let at = from;
    for (const c of cuts) {
      if (c <= at || c >= to) continue;
      out.push({ start: at, end: c, name: names.get(at) ?? null });
      at = c;
    }
    if (at < to) out.push({ start: at, end: to, name: names.get(at) ?? null });
  };
  let at = sec.address;
  for (const e of extents) {
    gap(at, e.start);
    out.push(e);
    at = e.end;
  }
  gap(at, secEnd);
  return out;
}

/** Padding between functions and before loop heads: never executed, not a block of its own. */
const PADDING = new Set(['NOP', 'INT3', 'FNOP']);
/** The same as iced's mnemonic numbers (no name looked up per instruction). */
const PADDING_MNEMONICS = new Set([Mnemonic.Nop, Mnemonic.Int3, Mnemonic.Fnop]);

/** Scalar operations on vector registers (their width is not the loop's vector width). */
const SCALAR = /S[SDH]$|^V?MOV[DQ]$|^V?U?COMIS|^V?PEXTR|^V?PINSR|^V?CVT|^V?BROADCAST|^VPBROADCAST|^VZERO/;

function vectorWidth(reg: number): number {
  const n = Register[reg] ?? '';
  return n.startsWith('ZMM') ? 512 : n.startsWith('YMM') ? 256 : n.startsWith('XMM') ? 128 : 0;
}

/** The operation with its vector/scalar spelling folded: VMULPD and MULSD → MUL.D, VPADDD → ADD. */
function foldOp(m: string): string {
  let s = m.startsWith('V') && m.length > 3 ? m.slice(1) : m;
  if (/^(FMADD|FMSUB|FNMADD|FNMSUB)\d{3}/.test(s)) s = s.replace(/\d{3}/, '');
  const fp = /^(.*?)(PS|PD|SS|SD|PH|SH)$/.exec(s);
  if (fp?.[1]) return `${fp[1]}.${fp[2]![1]}`;
  if (/^P(ADD|SUB|MUL|AND|OR|XOR|MAX|MIN|CMP|SLL|SRL|SRA)/.test(s))
    s = s.slice(1).replace(/(UD|SD|UB|SB|UW|SW|[BWDQ])$/, '');
  return s;
}

/**
 * The basic blocks of a function: block b holds instructions first[b] to last[b]; its successors
 * (at most two: the fall-through, then a jump's target; -1 for none) and its predecessors (in
 * the order of their blocks) in flat arrays. An object and two arrays per block, for libLLVM's
 * 2.6 million blocks, were garbage the collector let pile up (bench/regions.bench.ts).
 */
class Blocks {
  readonly first: Int32Array;
  readonly last: Int32Array;
  private readonly succs: Int32Array;
  private readonly predStart: Int32Array;
  private readonly predList: Int32Array;

  constructor(
    readonly count: number,
    first: Int32Array,
    last: Int32Array,
    succs: Int32Array,
  ) {
    this.first = first;
    this.last = last;
    this.succs = succs;
    this.predStart = new Int32Array(count + 1);
    for (const t of succs) if (t >= 0) this.predStart[t + 1]!++;
    for (let b = 0; b < count; b++) this.predStart[b + 1]! += this.predStart[b]!;
    this.predList = new Int32Array(this.predStart[count]!);
    const fill = this.predStart.slice(0, count);
    for (let i = 0; i < succs.length; i++) if (succs[i]! >= 0) this.predList[fill[succs[i]!]!++] = i >> 1;
  }

  succCount(b: number): number {
    return (this.succs[2 * b]! >= 0 ? 1 : 0) + (this.succs[2 * b + 1]! >= 0 ? 1 : 0);
  }

  /** The k-th successor (k below succCount). */
  succ(b: number, k: number): number {
    return this.succs[2 * b + k]!;
  }

  predCount(b: number): number {
    return this.predStart[b + 1]! - this.predStart[b]!;
  }

  /** The k-th predecessor (k below predCount). */
  pred(b: number, k: number): number {
    return this.predList[this.predStart[b]! + k]!;
  }
}

/** A long search's progress: bytes of executable code searched so far, of their total. */
export type LoopProgress = (done: number, total: number) => void;

/** The natural loops of every executable section, in address order. `onProgress` is called after
 *  each function with the bytes searched so far. */
export function naturalLoops(input: LoadedInput, onProgress?: LoopProgress): NaturalLoop[] {
  const loops: NaturalLoop[] = [];
  const code = input.sections.filter((s) => s.executable);
  const total = code.reduce((n, s) => n + s.data.length, 0);
  let before = 0;
  const ins = new Instruction();
  const lin = new Linear();
  // loops with the same operations share one set (read only): a set per loop was 29 of the 73 MB
  // libLLVM's 126,000 loops kept, with 8,348 distinct sets among them
  const opSets = new Map<string, Set<string>>();
  try {
    for (const sec of code) {
      for (const p of partitions(input, sec)) {
        // a decoder per function, over its bytes only: the decoder copies what it is given into
        // its WebAssembly memory, which never shrinks (a whole 59 MB .text, libLLVM's, stayed)
        const dec = new Decoder(
          input.bitness,
          sec.data.subarray(p.start - sec.address, p.end - sec.address),
          DecoderOptions.None,
        );
        try {
          for (const l of partitionLoops(sec, p, dec, ins, lin, opSets)) loops.push(l);
        } finally {
          dec.free();
        }
        onProgress?.(before + (p.end - sec.address), total);
      }
      before += sec.data.length;
    }
  } finally {
    ins.free();
  }
  return loops.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The loops of one function; `dec` decodes its bytes only (position 0 is p.start). */
function partitionLoops(
  sec: ImageSection,
  p: Partition,
  dec: Decoder,
  ins: Instruction,
  lin: Linear,
  opSets: Map<string, Set<string>>,
): NaturalLoop[] {
  // a loop needs a jump back to or before its own address: most functions have none
  if (!decodeLinear(p, dec, ins, lin)) return [];
  const blocks = basicBlocks(lin);
  const { order, roots, rpoNum } = depthFirstOrder(blocks, lin.pad);
  const dominates = dominance(blocks, order, roots, rpoNum);
  const bodies = loopBodies(blocks, rpoNum, dominates);
  const { addr, len, kind, target, mnem } = lin;
  const out: NaturalLoop[] = [];
  const headers = [...bodies.keys()];
  for (const [h, body] of bodies) {
    const innermost = body.size === 1 || !headers.some((h2) => h2 !== h && body.has(h2));
    const bl = [...body].sort((a, b) => a - b);
    let count = 0;
    const { first, last } = blocks;
    for (const b of bl) count += last[b]! - first[b]! + 1;
    const segs = layout(bl, h, blocks, addr, len, kind, target);
    const { vectorBits, ops: own } = profile(
      bl.flatMap((b) => Array.from({ length: last[b]! - first[b]! + 1 }, (_, k) => first[b]! + k)),
      addr,
      mnem,
      p.start,
      dec,
      ins,
    );
    const key = [...own].sort().join(' ');
    const ops = opSets.get(key) ?? own;
    opSets.set(key, ops);
    out.push({
      section: sec.name,
      header: addr[first[h]!]!,
      start: addr[first[bl[0]!]!]!,
      end: addr[last[bl.at(-1)!]!]! + len[last[bl.at(-1)!]!]!,
      segments: segs,
      innermost,
      fn: p.name,
      instructions: count,
      vectorBits,
      ops,
    });
  }
  return out;
}

/**
 * A function decoded linearly: per instruction its address, length, kind of control flow, near
 * branch target (-1: none), whether it is padding (1), and its mnemonic when control falls
 * through (-1: it does not). One is reused for every function of a file, its arrays grown as
 * needed, and only its first `n` entries are the current function's: six arrays of numbers per
 * function (libLLVM: 78,000 functions, the largest 1.8 MB of code) were garbage that raised the
 * peak memory of `uopscope regions` on it (bench/regions.bench.ts measures it).
 */
class Linear {
  n = 0;
  addr = new Float64Array(1024);
  target = new Float64Array(1024);
  mnem = new Int32Array(1024);
  len = new Uint8Array(1024);
  kind = new Uint8Array(1024);
  pad = new Uint8Array(1024);

  push(a: number, l: number, k: Kind, t: number, pad: boolean, m: number): void {
    if (this.n === this.addr.length) this.grow();
    const i = this.n++;
    this.addr[i] = a;
    this.len[i] = l;
    this.kind[i] = k;
    this.target[i] = t;
    this.pad[i] = pad ? 1 : 0;
    this.mnem[i] = m;
  }

  private grow(): void {
    const size = this.addr.length * 2;
    const more = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.addr = more(this.addr);
    this.target = more(this.target);
    this.mnem = more(this.mnem);
    this.len = more(this.len);
    this.kind = more(this.kind);
    this.pad = more(this.pad);
  }

  /** The instruction at address `a` (addresses increase with the index), -1 when none starts there. */
  indexOf(a: number): number {
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const x = this.addr[mid]!;
      if (x === a) return mid;
      if (x < a) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/** Decodes the function linearly into `lin` (undecodable bytes one by one as stops); false when
 *  nothing in it jumps back. */
function decodeLinear(p: Partition, dec: Decoder, ins: Instruction, lin: Linear): boolean {
  lin.n = 0;
  // positions are the function's (its decoder holds its bytes only)
  let pos = 0;
  const endPos = p.end - p.start;
  let anyBack = false;
  // the decoder moves on by itself after an instruction: placed again only after a byte skipped
  let placed = false;
  while (pos < endPos) {
    if (!placed) {
      dec.position = pos;
      dec.ip = BigInt(p.start + pos);
      placed = true;
    }
    dec.decodeOut(ins);
    const a = p.start + pos;
    if (ins.isInvalid || ins.length === 0 || pos + ins.length > endPos) {
      lin.push(a, 1, Kind.Stop, -1, false, -1);
      pos += 1;
      placed = false;
      continue;
    }
    const fc = ins.flowControl;
    const near =
      ins.op0Kind === OpKind.NearBranch64 || ins.op0Kind === OpKind.NearBranch32 || ins.op0Kind === OpKind.NearBranch16;
    let k = Kind.Normal;
    let t = -1;
    if (fc === FlowControl.ConditionalBranch || fc === FlowControl.UnconditionalBranch) {
      if (near) {
        k = fc === FlowControl.ConditionalBranch ? Kind.Conditional : Kind.Jump;
        t = Number(ins.nearBranchTarget);
      } else k = Kind.Stop;
      if (t >= 0 && t <= a) anyBack = true;
    } else if (fc === FlowControl.IndirectBranch || fc === FlowControl.Return || fc === FlowControl.Exception) {
      k = Kind.Stop;
    }
    lin.push(a, ins.length, k, t, PADDING_MNEMONICS.has(ins.mnemonic), fc === FlowControl.Next ? ins.mnemonic : -1);
    pos += ins.length;
  }
  return anyBack;
}

/** The basic blocks and their edges (fall-through and direct jumps within the function). */
function basicBlocks(lin: Linear): Blocks {
  const { n, kind, target, pad } = lin;
  const leader = new Uint8Array(n);
  if (n) leader[0] = 1;
  for (let i = 0; i < n; i++) {
    if (kind[i] !== Kind.Normal && i + 1 < n) leader[i + 1] = 1;
    if (target[i]! >= 0) {
      const j = lin.indexOf(target[i]!);
      if (j >= 0) leader[j] = 1;
    }
    // padding starts and ends a block of its own, so that it can be left out
    if (i > 0 && pad[i] !== pad[i - 1]) leader[i] = 1;
  }
  let nb = 0;
  for (let i = 0; i < n; i++) nb += leader[i]!;
  const first = new Int32Array(nb);
  const last = new Int32Array(nb);
  const blockOf = new Int32Array(n);
  for (let i = 0, b = -1; i < n; i++) {
    if (leader[i]) first[++b] = i;
    last[b] = i;
    blockOf[i] = b;
  }
  const succs = new Int32Array(2 * nb).fill(-1);
  for (let b = 0; b < nb; b++) {
    const l = last[b]!;
    const k = kind[l]!;
    let m = 0;
    if ((k === Kind.Normal || k === Kind.Conditional) && l + 1 < n) succs[2 * b + m++] = blockOf[l + 1]!;
    if (k === Kind.Conditional || k === Kind.Jump) {
      const j = lin.indexOf(target[l]!);
      // the same block twice (a jump to the next instruction) is one edge
      if (j >= 0 && (m === 0 || succs[2 * b]! !== blockOf[j]!)) succs[2 * b + m++] = blockOf[j]!;
    }
  }
  return new Blocks(nb, first, last, succs);
}

/**
 * The blocks in reverse postorder of depth-first searches from a virtual root that enters the
 * function at its start and at every block nothing else reaches (code reached through a jump
 * table, or functions of a stripped binary); padding nothing jumps to is left out, else it would
 * enter the block after it from the root. `rpoNum` is -1 for a block left out.
 */
function depthFirstOrder(blocks: Blocks, pad: Uint8Array): { order: number[]; roots: number[]; rpoNum: Int32Array } {
  const nb = blocks.count;
  const isPadding = (b: number) => {
    for (let i = blocks.first[b]!; i <= blocks.last[b]!; i++) if (!pad[i]) return false;
    return true;
  };
  const order: number[] = [];
  const rpoNum = new Int32Array(nb).fill(-1);
  const visited = new Uint8Array(nb);
  // depth-first search with the stack as two typed arrays (a block and its next successor)
  const stackB = new Int32Array(nb + 1);
  const stackK = new Int32Array(nb + 1);
  const dfs = (root: number) => {
    let sp = 0;
    stackB[0] = root;
    stackK[0] = 0;
    visited[root] = 1;
    const post: number[] = [];
    while (sp >= 0) {
      const b = stackB[sp]!;
      const k = stackK[sp]!;
      if (k < blocks.succCount(b)) {
        stackK[sp] = k + 1;
        const s = blocks.succ(b, k);
        if (!visited[s]) {
          visited[s] = 1;
          sp++;
          stackB[sp] = s;
          stackK[sp] = 0;
        }
      } else {
        post.push(stackB[sp]!);
        sp--;
      }
    }
    return post.reverse();
  };
  const roots: number[] = [];
  for (let bi = 0; bi < nb; bi++) {
    if (visited[bi]) continue;
    if (bi !== 0 && (blocks.predCount(bi) > 0 || isPadding(bi))) continue;
    roots.push(bi);
    order.push(...dfs(bi));
  }
  // blocks reached only from padding or from cycles nothing enters: roots as well
  for (let bi = 0; bi < nb; bi++) {
    if (visited[bi] || isPadding(bi)) continue;
    roots.push(bi);
    order.push(...dfs(bi));
  }
  order.forEach((b, i) => {
    rpoNum[b] = i;
  });
  return { order, roots, rpoNum };
}

/**
 * Whether block h dominates block b: the immediate dominators by Cooper, Harvey and Kennedy ("A
 * Simple, Fast Dominance Algorithm"), then the dominator tree numbered in depth-first order, so
 * that h dominates b when b's interval lies in h's.
 */
function dominance(
  blocks: Blocks,
  order: number[],
  roots: number[],
  rpoNum: Int32Array,
): (h: number, b: number) => boolean {
  const nb = blocks.count;
  const ROOT = -2;
  const idom = new Int32Array(nb).fill(-1);
  for (const r of roots) idom[r] = ROOT;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      if (a === ROOT || b === ROOT) return ROOT;
      while (a !== ROOT && b !== ROOT && rpoNum[a]! > rpoNum[b]!) a = idom[a]!;
      while (a !== ROOT && b !== ROOT && rpoNum[b]! > rpoNum[a]!) b = idom[b]!;
    }
    return a;
  };
  const isRoot = new Uint8Array(nb);
  for (const r of roots) isRoot[r] = 1;
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of order) {
      if (isRoot[b]) continue;
      let nd = -1;
      for (let k = 0; k < blocks.predCount(b); k++) {
        const q = blocks.pred(b, k);
        if (rpoNum[q]! < 0 || idom[q] === -1) continue;
        nd = nd === -1 ? q : intersect(q, nd);
      }
      if (nd !== -1 && idom[b] !== nd) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  const { pre, post } = treeIntervals(nb, order, idom);
  return (h, b) => pre[h]! >= 0 && pre[b]! >= 0 && pre[h]! <= pre[b]! && post[b]! <= post[h]!;
}

/** Each block's entry and exit time in a depth-first walk of the dominator tree. */
function treeIntervals(nb: number, order: number[], idom: Int32Array): { pre: Int32Array; post: Int32Array } {
  // each block's children in the tree, in `order`, as one flat list (no array per block)
  const kidStart = new Int32Array(nb + 1);
  for (const b of order) if (idom[b]! >= 0) kidStart[idom[b]! + 1]!++;
  for (let b = 0; b < nb; b++) kidStart[b + 1]! += kidStart[b]!;
  const kidList = new Int32Array(kidStart[nb]!);
  const fill = kidStart.slice(0, nb);
  const tops: number[] = [];
  for (const b of order) {
    if (idom[b]! >= 0) kidList[fill[idom[b]!]!++] = b;
    else tops.push(b);
  }
  const pre = new Int32Array(nb).fill(-1);
  const post = new Int32Array(nb).fill(-1);
  const stackB = new Int32Array(nb + 1);
  const stackK = new Int32Array(nb + 1);
  let clock = 0;
  for (const t of tops) {
    let sp = 0;
    stackB[0] = t;
    stackK[0] = 0;
    pre[t] = clock++;
    while (sp >= 0) {
      const p = stackB[sp]!;
      const k = stackK[sp]!;
      if (k < kidStart[p + 1]! - kidStart[p]!) {
        stackK[sp] = k + 1;
        const c = kidList[kidStart[p]! + k]!;
        pre[c] = clock++;
        sp++;
        stackB[sp] = c;
        stackK[sp] = 0;
      } else {
        post[stackB[sp]!] = clock++;
        sp--;
      }
    }
  }
  return { pre, post };
}

/** The back edges, and one loop body per header (as compilers merge them). */
function loopBodies(
  blocks: Blocks,
  rpoNum: Int32Array,
  dominates: (h: number, b: number) => boolean,
): Map<number, Set<number>> {
  const latches = new Map<number, number[]>();
  for (let bi = 0; bi < blocks.count; bi++) {
    if (rpoNum[bi]! < 0) continue;
    for (let k = 0; k < blocks.succCount(bi); k++) {
      const s = blocks.succ(bi, k);
      if (!dominates(s, bi)) continue;
      const l = latches.get(s);
      if (l) l.push(bi);
      else latches.set(s, [bi]);
    }
  }
  const bodies = new Map<number, Set<number>>();
  for (const [h, ls] of latches) {
    const body = new Set<number>([h]);
    const work = ls.filter((l) => !body.has(l));
    for (const l of work) body.add(l);
    while (work.length) {
      const x = work.pop()!;
      for (let k = 0; k < blocks.predCount(x); k++) {
        const q = blocks.pred(x, k);
        if (!body.has(q) && rpoNum[q]! >= 0) {
          body.add(q);
          work.push(q);
        }
      }
    }
    bodies.set(h, body);
  }
  return bodies;
}

/**
 * The order the loop's blocks are laid out in for the simulation, which runs a region's lines
 * from first to last and then starts again. The blocks are grouped into runs of consecutive
 * addresses; every rotation that starts at the header or at a run is scored by how many of its
 * block boundaries (the last one wrapping round to the first) control really passes, by falling
 * through or by a jump to the next block. The best wins; on a tie, a layout that ends with a jump
 * to its first line (the usual closing branch), then one that starts at the header. gcc's rotated
 * if/else loop (one path before the loop's test, reached by jumping back) so starts at the test,
 * with both paths after it as a branch inside the loop.
 */
function layout(
  bl: number[],
  h: number,
  blocks: Blocks,
  addr: Float64Array,
  len: Uint8Array,
  kind: Uint8Array,
  target: Float64Array,
): Segment[] {
  const startOf = (b: number) => addr[blocks.first[b]!]!;
  const endOf = (b: number) => addr[blocks.last[b]!]! + len[blocks.last[b]!]!;
  const runs: number[][] = [];
  for (const b of bl) {
    const run = runs.at(-1);
    if (run && endOf(run.at(-1)!) === startOf(b)) run.push(b);
    else runs.push([b]);
  }
  const flat = runs.flat();
  const candidates = new Set<number>([h, ...runs.map((r) => r[0]!)]);
  let best: { order: number[]; score: number; closing: boolean; header: boolean } | null = null;
  for (const c of candidates) {
    const at = flat.indexOf(c);
    const order = [...flat.slice(at), ...flat.slice(0, at)];
    let score = 0;
    for (let i = 0; i < order.length; i++) {
      const b = order[i]!;
      const next = startOf(order[(i + 1) % order.length]!);
      const l = blocks.last[b]!;
      const k = kind[l]!;
      if (
        ((k === Kind.Normal || k === Kind.Conditional) && endOf(b) === next) ||
        ((k === Kind.Conditional || k === Kind.Jump) && target[l] === next)
      )
        score++;
    }
    const lastIns = blocks.last[order.at(-1)!]!;
    const closing =
      (kind[lastIns] === Kind.Conditional || kind[lastIns] === Kind.Jump) && target[lastIns] === startOf(order[0]!);
    const cand = { order, score, closing, header: c === h };
    if (
      !best ||
      cand.score > best.score ||
      (cand.score === best.score &&
        (Number(cand.closing) - Number(best.closing) || Number(cand.header) - Number(best.header)) > 0)
    )
      best = cand;
  }
  const segs: Segment[] = [];
  for (const b of best!.order) {
    const last = segs.at(-1);
    if (last && last.end === startOf(b)) last.end = endOf(b);
    else segs.push({ start: startOf(b), end: endOf(b) });
  }
  return segs;
}

/** The loop's widest packed vector operation and its operations (for choosing the main loop):
 *  from the mnemonics of the first decoding; only vector instructions are decoded again, for
 *  their registers. */
function profile(
  idx: number[],
  addr: Float64Array,
  mnem: Int32Array,
  base: number,
  dec: Decoder,
  ins: Instruction,
): { vectorBits: number; ops: Set<string> } {
  let vectorBits = 0;
  const ops = new Set<string>();
  for (const i of idx) {
    if (mnem[i]! < 0) continue;
    const m = (Mnemonic[mnem[i]!] ?? '').toUpperCase();
    if (PADDING.has(m) || /^(CMP|TEST|LEA|INC|DEC)$|^V?MOV/.test(m)) continue;
    ops.add(foldOp(m));
    // packed operations are spelt V…, P… or …PS/…PD: others cannot name a vector register
    if (SCALAR.test(m) || !/^[VP]|P[SD]$/.test(m)) continue;
    dec.position = addr[i]! - base;
    dec.ip = BigInt(addr[i]!);
    dec.decodeOut(ins);
    for (let k = 0; k < ins.opCount; k++) {
      if (ins.opKind(k) === OpKind.Register) vectorBits = Math.max(vectorBits, vectorWidth(ins.opRegister(k)));
    }
  }
  return { vectorBits, ops };
}
