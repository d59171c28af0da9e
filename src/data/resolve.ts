// Matching decoded instructions to the figures of each data source, and the figures the engine
// uses. The sources are layers (src/data/providers/: an imported uops.info file, the embedded
// facts, the LLVM model, …), asked in the providers' order; the first with figures wins.
//
// A layer of uops.info-schema forms (formsLayer) matches, in this order (docs/data.md):
//   1. iform   — forms whose iform equals the decoded XED iform, narrowed to the decoded signature
//                (an iform such as ADD_GPRv_IMMb covers several widths);
//   2. signature — forms whose normalized string equals the decoded signature (opcode-variant
//                suffixes such as ADD_01 dropped, condition-code aliases folded);
//   3. signature-width — same mnemonic and operand count, operands equal or both immediates /
//                both branch offsets (I8 ↔ I32, Rel8 ↔ Rel32; the same width preferred).
// The LLVM model's layer (llvmLayer) takes the record of the decoded iced-x86 Code ('code': exact,
// the data is keyed to the decoder's encoding form, src/data/llvmModel.ts). An instruction no
// layer has figures for is unknown (IACA's X) and gets the fallback.
// Before all of these: an instruction the core's ISA lacks (AVX-512 on Haswell) is unknown,
// with the missing extensions named.
// TZCNT / LZCNT on a core whose machine model lacks BMI1 / LZCNT are looked up as BSF / BSR (the
// core executes REP BSF / REP BSR as those).
// Among several candidates: the decoded iform, then the opcode byte named by the variant suffix,
// then the LOCK/REP/immzero/high8 attributes, then the form without other special attributes,
// then file order.
import type { DecodedInstruction } from '../disasm/types.js';
import { missingIsa } from './isa.js';
import { DIVIDER_MNEMONIC } from './divider.js';
import { loadLlvmModel, type LlvmArchModel, type LlvmRecord } from './llvmModel.js';
import { loadMachine } from './machines.js';
import { microcodeDependence, type MicrocodeDependence } from './microcode.js';
import { formatPorts } from './ports.js';
import { normalizeRegister } from './registers.js';
import {
  canonicalMnemonic,
  operandClass,
  operandWidth,
  signatureKey,
  splitSignature,
  vsibSignature,
} from './signature.js';
import type { FigureLayer } from './providers/registry.js';
import type {
  ArchData,
  ArchName,
  ArchForm,
  DataOperand,
  DataSource,
  FigureOrigin,
  LatencyEntry,
  MachineModel,
  MatchRule,
  PortGroup,
  Provenance,
  ResolvedInstruction,
} from './types.js';

type Fallback = 'skip' | 'alu';

interface ResolveOptions {
  /** what an instruction without data becomes: 'skip' (0 µops, the default, as IACA) or 'alu'
   *  (one µop on any of MachineModel.aluPorts, latency 1) */
  fallback?: Fallback;
  /** the architecture's machine model (its ALU ports for the fallback, its ISA list); default:
   *  loaded for data.arch */
  machine?: MachineModel;
}

interface Sub {
  bySig: Map<string, ArchForm[]>;
  byMnemonic: Map<string, ArchForm[]>;
}

interface Index {
  byIform: Map<string, ArchForm[]>;
  /** forms by mnemonic root (ADD for ADD_01, ADD_LOCK, LOCK ADD; LEA for LEA_B_D8) */
  byRoot: Map<string, ArchForm[]>;
  /** signature indexes of one root, built when an instruction with that root is resolved */
  subs: Map<string, Sub>;
}

const indexes = new WeakMap<ArchForm[], Index>();

function push(map: Map<string, ArchForm[]>, key: string, f: ArchForm): void {
  const l = map.get(key);
  if (l) l.push(f);
  else map.set(key, [f]);
}

const PREFIX_TOKENS = new Set(['LOCK', 'REP', 'REPE', 'REPZ', 'REPNE', 'REPNZ']);

/** The mnemonic root of a signature, with plain string operations (15,000 forms are indexed
 *  on every run): prefixes and `_…` suffixes dropped, condition codes folded. */
function rootOf(sig: string): string {
  const n = sig.length;
  let i = 0;
  while (i < n && sig.charCodeAt(i) === 32) i++;
  for (;;) {
    let j = i;
    while (j < n) {
      const c = sig.charCodeAt(j);
      if (c === 32 || c === 95 || c === 40) break; // ' ', '_', '('
      j++;
    }
    const tok = sig.slice(i, j).toUpperCase();
    const after = sig.charCodeAt(j);
    if ((after === 32 || after === 95) && PREFIX_TOKENS.has(tok)) {
      let k = j + 1;
      while (k < n && sig.charCodeAt(k) === 32) k++;
      if (k < n && sig.charCodeAt(k) !== 40) {
        i = k;
        continue;
      }
    }
    const first = tok.charCodeAt(0);
    return first === 74 || first === 83 || first === 67 ? canonicalMnemonic(tok) : tok; // J…, SET…, CMOV…
  }
}

function indexOf(forms: ArchForm[]): Index {
  let idx = indexes.get(forms);
  if (idx) return idx;
  idx = { byIform: new Map(), byRoot: new Map(), subs: new Map() };
  for (const f of forms) {
    if (f.iform) push(idx.byIform, f.iform, f);
    push(idx.byRoot, rootOf(f.string), f);
  }
  indexes.set(forms, idx);
  return idx;
}

/** The origin of an XML form: embedded forms read from the SUACA thesis say so in their
 *  `source` attribute ('thesis §2.1'); every other form is uops.info's. */
export function formOrigin(f: ArchForm): FigureOrigin {
  return f.attributes.source?.startsWith('thesis') ? 'thesis' : 'uops.info';
}

function sub(idx: Index, root: string): Sub {
  let s = idx.subs.get(root);
  if (s) return s;
  s = { bySig: new Map(), byMnemonic: new Map() };
  for (const f of idx.byRoot.get(root) ?? []) {
    push(s.bySig, signatureKey(f.string), f);
    const sp = splitSignature(f.string);
    push(s.byMnemonic, `${sp.prefixes.join(' ')}|${sp.mnemonic}|${sp.operands.length}`, f);
  }
  idx.subs.set(root, s);
  return s;
}

/** The first opcode byte after legacy prefixes and REX (two bytes for 0F xx), upper-case hex. */
function opcodeBytes(hex: string): string[] {
  const b = hex.toUpperCase().match(/../g) ?? [];
  let i = 0;
  while (i < b.length && /^(66|67|F0|F2|F3|2E|36|3E|26|64|65)$/.test(b[i]!)) i++;
  if (i < b.length && /^4[0-9A-F]$/.test(b[i]!)) i++;
  if (b[i] === '0F') return [`0F${b[i + 1] ?? ''}`, b[i + 1] ?? ''];
  return b[i] ? [b[i]!] : [];
}

const HIGH8 = new Set(['ah', 'bh', 'ch', 'dh']);

function score(f: ArchForm, d: DecodedInstruction): number {
  let s = 0;
  if (d.iform && f.iform === d.iform) s += 64;
  const variant = splitSignature(f.string).variant;
  if (variant && opcodeBytes(d.bytes).includes(variant)) s += 32;
  const prefixes = d.prefixes.map((p) => p.toUpperCase());
  const locked = prefixes.includes('LOCK');
  if ((f.attributes.locked === '1') !== locked) s -= 256;
  const rep = prefixes.some((p) => p.startsWith('REP'));
  if ((f.attributes.rep !== undefined && f.attributes.rep !== '0') !== rep) s -= 16;
  if (f.attributes.immzero === '1') {
    const imm = d.operands.find((o) => o.immediate !== undefined);
    s += imm && imm.immediate === 0 ? 8 : -128;
  }
  if (f.attributes.high8 !== undefined) {
    s += d.operands.some((o) => o.written && HIGH8.has(o.written.toLowerCase())) ? 8 : -128;
  }
  for (const k of ['bcast', 'mask', 'zeroing', 'sae', 'rm', 'agen', 'eosz'])
    if (f.attributes[k] !== undefined && f.attributes[k] !== '0') s -= 1;
  return s;
}

function best(cands: ArchForm[], d: DecodedInstruction): ArchForm {
  let top = cands[0]!;
  let topScore = score(top, d);
  for (let i = 1; i < cands.length; i++) {
    const s = score(cands[i]!, d);
    if (s > topScore) {
      top = cands[i]!;
      topScore = s;
    }
  }
  return top;
}

/** Relaxed operand compatibility: 0 = exact, 1 = width differs only for immediates/offsets, -1 = no. */
function relaxed(decoded: string[], form: string[], d: DecodedInstruction): number {
  if (decoded.length !== form.length) return -1;
  let cost = 0;
  for (let i = 0; i < decoded.length; i++) {
    const a = decoded[i]!,
      b = form[i]!;
    if (a === b) continue;
    const ca = operandClass(a),
      cb = operandClass(b);
    if (ca === cb && (ca === 'IMM' || ca === 'REL')) {
      cost += Math.abs((operandWidth(a) ?? 0) - (operandWidth(b) ?? 0)) / 64 + 0.1;
      continue;
    }
    // uops.info writes shift-by-one as the operand `1`
    if (b === '1' && ca === 'IMM' && d.operands[i]?.immediate === 1) {
      cost += 0.05;
      continue;
    }
    return -1;
  }
  return cost;
}

type Shape = { base: 'B' | 'R' | null; index: 'I' | 'IS' | null; disp: 'D8' | 'D32' | 'D' | null };

/** The address shape of a decoded LEA: base (B) or RIP (R), index (I) or scaled index (IS),
 *  8- or 32-bit displacement. */
function leaShape(d: DecodedInstruction): Shape | null {
  const m = d.memory;
  if (!m) return null;
  const rip = m.base === 'RIP';
  const disp =
    rip || (m.base === null && m.index === null)
      ? 'D32'
      : m.displacement === 0
        ? null
        : m.displacement >= -128 && m.displacement <= 127
          ? 'D8'
          : 'D32';
  return { base: rip ? 'R' : m.base ? 'B' : null, index: m.index ? (m.scale > 1 ? 'IS' : 'I') : null, disp };
}

/** The shape a uops.info LEA form names, from its `agen` attribute or its string
 *  (LEA_B_D8, LEA_BISD, LEA_R_D32, LEA_IS …), or null when it names none. */
function formShape(f: ArchForm): Shape | null {
  const mn = splitSignature(f.string).mnemonic;
  const text = (f.attributes.agen ?? mn.replace(/^LEA_?/, '')).toUpperCase().replace(/[^A-Z0-9]/g, '');
  const m = /^(B|R)?(IS|I)?(D8|D32|D)?$/.exec(text);
  if (!m || text === '') return null;
  return {
    base: (m[1] as 'B' | 'R' | undefined) ?? null,
    index: (m[2] as 'I' | 'IS' | undefined) ?? null,
    disp: (m[3] as Shape['disp'] | undefined) ?? null,
  };
}

/** LEA forms are split by address shape in uops.info; the decoder gives 'LEA (R64, AGEN)'. */
function matchLea(d: DecodedInstruction, idx: Index): ArchForm | null {
  const want = leaShape(d);
  if (!want) return null;
  const width = splitSignature(d.signature).operands[0];
  let top: ArchForm | null = null;
  let topScore = -1;
  for (const [key, forms] of sub(idx, 'LEA').byMnemonic) {
    if (!key.startsWith('|LEA')) continue;
    for (const f of forms) {
      const ops = splitSignature(f.string).operands;
      if (ops[0] !== width) continue;
      const have = formShape(f);
      if (!have || have.base !== want.base || have.index !== want.index) continue;
      const score = have.disp === want.disp ? 3 : have.disp === 'D' && want.disp ? 2 : want.disp && have.disp ? 1 : 0;
      if (score > topScore) {
        top = f;
        topScore = score;
      }
    }
  }
  return top;
}

/** A gather's or scatter's signature key as uops.info writes it (vsibSignature), or null. */
function vsibKey(d: DecodedInstruction): string | null {
  const s = vsibSignature(d);
  return s ? signatureKey(s) : null;
}

function match(d: DecodedInstruction, idx: Index): { form: ArchForm; rule: MatchRule } | null {
  const key = signatureKey(d.signature);
  if (d.iform) {
    const byIform = idx.byIform.get(d.iform);
    if (byIform) {
      const exact = byIform.filter((f) => signatureKey(f.string) === key);
      if (exact.length) return { form: best(exact, d), rule: 'iform' };
    }
  }
  const local = sub(idx, rootOf(d.signature));
  const vsib = vsibKey(d);
  const bySig = local.bySig.get(key) ?? (vsib ? local.bySig.get(vsib) : undefined);
  if (bySig) return { form: best(bySig, d), rule: 'signature' };
  if (d.mnemonic === 'LEA') {
    const lea = matchLea(d, idx);
    if (lea) return { form: lea, rule: 'signature' };
  }
  const s = splitSignature(d.signature);
  const cands = local.byMnemonic.get(`${s.prefixes.join(' ')}|${s.mnemonic}|${s.operands.length}`) ?? [];
  let top: ArchForm | null = null;
  let topCost = Infinity;
  for (const f of cands) {
    const c = relaxed(s.operands, splitSignature(f.string).operands, d);
    if (c >= 0 && (c < topCost || (c === topCost && top && score(f, d) > score(top, d)))) {
      top = f;
      topCost = c;
    }
  }
  return top ? { form: top, rule: 'signature-width' } : null;
}

/** Which resources (registers, flags) each uops.info operand idx writes, for this instruction. */
/** Operand class for pairing uops.info operands with decoded ones: gpr, vec, k, mem, imm, rel, agen. */
function dataClass(op: DataOperand): string {
  if (op.type === 'reg') {
    const r = op.registers?.[0] ?? '';
    if (/^K\d$/.test(r)) return 'k';
    if (/^[XYZ]MM/.test(r)) return 'vec';
    if (/^(MM\d|ST)/.test(r)) return 'other';
    return 'gpr';
  }
  return op.type === 'relbr' ? 'rel' : op.type;
}

function decodedClass(kind: string): string {
  const k = kind.toUpperCase();
  if (k === 'K') return 'k';
  if (/^[XYZ]MM$/.test(k)) return 'vec';
  if (/^R(8|16|32|64)$/.test(k) || /^(AL|AX|EAX|RAX|CL|DX)$/.test(k)) return 'gpr';
  if (/^M/.test(k)) return 'mem';
  if (/^(I\d+|1)$/.test(k)) return 'imm';
  if (/^REL/.test(k)) return 'rel';
  if (k === 'AGEN') return 'agen';
  return 'other';
}

/** Which resources (registers, flags) each uops.info operand idx writes, for this instruction.
 *  Explicit uops.info operands are paired in order with the decoded operands of the same class
 *  (a decoder may leave out an operand the signature names, such as an AVX-512 mask). */
function operandResources(
  form: ArchForm,
  d: DecodedInstruction,
  dir: 'write' | 'read' = 'write',
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  let next = 0;
  for (const op of form.operands) {
    if (!op.suppressed && op.type !== 'flags') {
      const cls = dataClass(op);
      let k = next;
      while (k < d.operands.length && decodedClass(d.operands[k]!.kind) !== cls) k++;
      const dop = k < d.operands.length ? d.operands[k] : undefined;
      if (dop) next = k + 1;
      if (op.type === 'reg' && op[dir]) {
        const fixed = op.registers?.length === 1 ? normalizeRegister(op.registers[0]!) : null;
        const r = dop?.register ?? fixed;
        if (r) out.set(op.idx, [r]);
      }
      continue;
    }
    if (op.type === 'flags') {
      const fromFile = Object.entries(op.flags ?? {})
        .filter(([, v]) => (dir === 'write' ? /w|undef/ : /r/).test(v))
        .map(([k]) => k.toUpperCase());
      const all = new Set([...fromFile, ...(dir === 'write' ? d.flagsWritten : d.flagsRead)]);
      if (all.size) out.set(op.idx, [...all]);
      continue;
    }
    if (op.type === 'reg' && op[dir]) {
      const regs = (op.registers ?? []).map(normalizeRegister).filter((r) => r !== null);
      if (regs.length) out.set(op.idx, [...new Set(regs)]);
    }
  }
  return out;
}

/** The latency the engine uses for one <latency> entry: the largest of its figures (SUACA waits
 *  for all inputs, so the slowest input path counts). With `sameReg`, cycles_same_reg replaces
 *  cycles; cycles_addr_index counts only when the address has an index register. */
interface LatencyIndex {
  hasSameReg: boolean;
  /** per (same register, indexed) = index 2 × sameReg + indexed: each target operand's largest
   *  entryLatency */
  byTarget: Map<number, number>[];
  /** per same register (0, 1): source operand → target operand → its register figure (the
   *  largest, if listed twice), for the read advances */
  pairs: Map<number, Map<number, number>>[];
  /** target operand → the source operands with any figure to it (the address's included) */
  sources: Map<number, Set<number>>;
}
const latencyIndexes = new WeakMap<readonly LatencyEntry[], LatencyIndex>();

/** A form's latency entries reduced once to what fromForm reads: a file may give one form
 *  hundreds of thousands of entries, and every line of that form would otherwise scan them all. */
function latencyIndex(latencies: readonly LatencyEntry[]): LatencyIndex {
  let ix = latencyIndexes.get(latencies);
  if (ix) return ix;
  ix = {
    hasSameReg: latencies.some((e) => e.cyclesSameReg !== undefined),
    byTarget: [new Map(), new Map(), new Map(), new Map()],
    pairs: [new Map(), new Map()],
    sources: new Map(),
  };
  for (const e of latencies) {
    let from = ix.sources.get(e.targetOp);
    if (!from) ix.sources.set(e.targetOp, (from = new Set()));
    from.add(e.startOp);
    for (let k = 0; k < 2; k++) {
      const own = (k === 1 ? e.cyclesSameReg : undefined) ?? e.cycles ?? e.maxCycles ?? e.minCycles;
      if (own === undefined) continue;
      let to = ix.pairs[k]!.get(e.startOp);
      if (!to) ix.pairs[k]!.set(e.startOp, (to = new Map()));
      to.set(e.targetOp, Math.max(to.get(e.targetOp) ?? Number.NEGATIVE_INFINITY, own));
    }
    for (let k = 0; k < 4; k++) {
      const v = entryLatency(e, k >= 2, (k & 1) === 1);
      const m = ix.byTarget[k]!;
      m.set(e.targetOp, Math.max(m.get(e.targetOp) ?? 0, v));
    }
  }
  latencyIndexes.set(latencies, ix);
  return ix;
}

export function entryLatency(e: LatencyEntry, sameReg: boolean, indexed: boolean): number {
  const vals: number[] = [];
  const base = sameReg && e.cyclesSameReg !== undefined ? e.cyclesSameReg : e.cycles;
  if (base !== undefined) vals.push(base);
  if (!(sameReg && e.cyclesSameReg !== undefined)) {
    if (e.maxCycles !== undefined) vals.push(e.maxCycles);
    else if (e.minCycles !== undefined) vals.push(e.minCycles);
  }
  if (e.cyclesAddr !== undefined) vals.push(e.cyclesAddr);
  if (e.cyclesAddrIndex !== undefined && indexed) vals.push(e.cyclesAddrIndex);
  if (e.cyclesMem !== undefined) vals.push(e.cyclesMem);
  return vals.length ? Math.max(...vals) : 0;
}

/** The read advances uops.info's per-operand-pair latencies imply: a register or flag read
 *  through operand i whose latency to a target t, lat(i→t), is below the latency the engine gives
 *  t (the largest of t's pairs, `byTarget`) is read that much later, as LLVM's ReadAdvance says
 *  (`xor rax, [rdi]` on SKL: rax→rax 1, the address→rax 5: rax is read 4 cycles after the
 *  instruction starts). The smallest such difference over i's targets; none for a register that
 *  is also an address register (it is needed at the start). Only the register figure (`cycles`,
 *  `cycles_same_reg` for a same-register form, else min/max) counts. */
function pairReadAdvance(
  form: ArchForm,
  d: DecodedInstruction,
  pairs: Map<number, Map<number, number>>,
  byTarget: Map<number, number>,
  sources: Map<number, Set<number>>,
): Record<string, number> | null {
  if (pairs.size === 0) return null;
  const inputs = operandResources(form, d, 'read');
  // a target some input has no figure to (a measured file without the address→flags pair) may
  // still wait for that input: its own largest figure would understate when it is written, so
  // the instruction's largest latency stands in for it, as for a written resource with no figure
  const largest = Math.max(...byTarget.values());
  const starts = new Set([...sources.values()].flatMap((s) => [...s]));
  const complete = (targetOp: number): boolean => {
    const from = sources.get(targetOp);
    return !!from && [...starts].every((s) => from.has(s));
  };
  const adv = new Map<string, number>();
  for (const [startOp, targets] of pairs) {
    const regs = inputs.get(startOp);
    if (!regs) continue;
    for (const [targetOp, own] of targets) {
      const measured = byTarget.get(targetOp);
      if (measured === undefined) continue;
      const top = complete(targetOp) ? measured : largest;
      for (const r of regs) adv.set(r, Math.min(adv.get(r) ?? Number.POSITIVE_INFINITY, top - own));
    }
  }
  return lateOnly(adv, d);
}

/** The positive advances, without the memory operand's address registers (read at the start). */
function lateOnly(adv: Map<string, number>, d: DecodedInstruction): Record<string, number> | null {
  const address = new Set([d.memory?.base, d.memory?.index].filter((r): r is string => !!r));
  const out: Record<string, number> = {};
  for (const [r, a] of adv) if (a > 0 && a !== Number.POSITIVE_INFINITY && !address.has(r)) out[r] = a;
  return Object.keys(out).length ? out : null;
}

function written(d: DecodedInstruction): string[] {
  return [...new Set([...d.writes, ...d.flagsWritten])];
}

function unknownOne(
  d: DecodedInstruction,
  fallback: Fallback,
  aluPorts: () => number[],
  why: string,
  missing?: string[],
): ResolvedInstruction {
  const alu = fallback === 'alu';
  const lat = alu ? 1 : 0;
  const r: ResolvedInstruction = {
    line: d.line,
    form: null,
    rule: alu ? 'fallback' : 'none',
    uops: alu ? 1 : 0,
    ports: alu ? [{ count: 1, ports: [...aluPorts()] }] : [],
    latencyByResource: Object.fromEntries(written(d).map((x) => [x, lat])),
    maxLatency: lat,
    divCycles: 0,
    variant: 'plain',
    unknown: true,
    fallback,
    origin: 'none',
    why,
  };
  if (missing) r.missingIsa = missing;
  return r;
}

/** A register or flag named by the LLVM data for this instruction: `oN` is explicit operand N,
 *  'EFLAGS' every flag bit the instruction writes (or reads), anything else an implicit register. */
function llvmResources(tok: string, d: DecodedInstruction, flags: readonly string[]): string[] {
  if (tok.startsWith('o') && /^o\d+$/.test(tok)) {
    const r = d.operands[Number(tok.slice(1))]?.register;
    return r ? [r] : [];
  }
  if (tok === 'EFLAGS' || tok === 'RFLAGS') return [...flags];
  const r = normalizeRegister(tok);
  return r ? [r] : [];
}

/** Whether every explicit operand of `d` that reads `reg` has a read advance in `rec`. */
function readLate(rec: LlvmRecord, d: DecodedInstruction, reg: string): boolean {
  return d.operands.every((op, i) => !op.read || op.register !== reg || rec.readAdvance.some(([t]) => t === `o${i}`));
}

/** Figures from the LLVM-derived model. Each written register or flag gets the latency of the
 *  def that writes it. LLVM's read advances (a load-op form reads its register operand only
 *  after the load) are the consumer's: `readAdvance` per read resource, by which the engine
 *  shortens a dependency on it (src/sim/compiled.ts), as llvm-mca does. */
function fromLlvm(d: DecodedInstruction, rec: LlvmRecord, model: LlvmArchModel): ResolvedInstruction {
  const latencyByResource: Record<string, number> = {};
  for (const [tok, lat] of rec.defs) {
    for (const r of llvmResources(tok, d, d.flagsWritten))
      latencyByResource[r] = Math.max(latencyByResource[r] ?? 0, lat);
  }
  // a written resource LLVM names no def for (the decoder tracks more implicit writes) gets the
  // instruction's latency, as llvm-mca gives a def without a write-latency entry
  for (const r of written(d)) if (latencyByResource[r] === undefined) latencyByResource[r] = rec.latency;
  let maxLatency = 0;
  for (const v of Object.values(latencyByResource)) maxLatency = Math.max(maxLatency, v);
  // a register read through several operands is read as early as its earliest read
  const advance = new Map<string, number>();
  for (const [tok, c] of rec.readAdvance) {
    for (const r of llvmResources(tok, d, d.flagsRead)) advance.set(r, Math.max(advance.get(r) ?? 0, c));
  }
  for (const op of d.operands)
    if (op.read && op.register && advance.has(op.register) && !readLate(rec, d, op.register))
      advance.set(op.register, 0);
  const readAdvance = lateOnly(advance, d);
  return {
    ...(readAdvance ? { readAdvance } : {}),
    line: d.line,
    form: null,
    rule: 'code',
    uops: rec.uops,
    ports: rec.ports.map((g) => ({ count: g.count, ports: [...g.ports] })),
    ...(rec.holds ? { portHold: rec.holds.map((h) => ({ ports: [...h.ports], cycles: h.cycles })) } : {}),
    latencyByResource,
    maxLatency,
    divCycles: rec.divCycles,
    variant: rec.key.endsWith(':s') ? 'same_reg' : 'plain',
    unknown: false,
    fallback: null,
    origin: 'llvm',
    ...(rec.zeroUops ? { zeroUops: { model: `LLVM ${model.llvm}'s ${model.cpu} model`, given: rec.zeroUops } } : {}),
    provenance: {
      key: rec.key,
      text: `LLVM ${model.llvm} ${model.cpu} model (${rec.key})${rec.zeroUops ? `; it gives the form no µops: ${rec.zeroUops}` : ''}${rec.lateReads ? `; register operands read after the load: its latency less the register form's (${rec.lateReads}; uops.info paper §7.3.1)` : ''}`,
      detail: {
        key: rec.key,
        cpu: model.cpu,
        version: model.llvm,
        rthroughput: rec.rthroughput,
        readAdvance: rec.readAdvance,
        ...(rec.zeroUops ? { llvmUops: 0, given: rec.zeroUops } : {}),
      },
    },
  };
}

function fromForm(
  d: DecodedInstruction,
  hit: { form: ArchForm; rule: MatchRule },
  origin: (f: ArchForm) => FigureOrigin,
  provenance?: (f: ArchForm) => Provenance,
): ResolvedInstruction {
  const { form, rule } = hit;
  const m = form.m;
  let uops = m.uops;
  let ports: PortGroup[] = m.ports;
  let variant: ResolvedInstruction['variant'] = 'plain';
  const sameReg = d.sameReg || d.zeroIdiom;
  if (d.indexed && m.indexed) {
    uops = m.indexed.uops;
    ports = m.indexed.ports;
    variant = 'indexed';
  } else if (sameReg && m.sameReg) {
    uops = m.sameReg.uops;
    ports = m.sameReg.ports;
    variant = 'same_reg';
  }
  const latencies = (sameReg && m.sameReg?.latencies) || m.latencies;
  const index = latencyIndex(latencies);
  const useSameReg = sameReg && index.hasSameReg;
  if (useSameReg && variant === 'plain') variant = 'same_reg';
  const resOf = operandResources(form, d);
  const latencyByResource: Record<string, number> = {};
  let maxLatency = 0;
  for (const [targetOp, v] of index.byTarget[(useSameReg ? 2 : 0) + (d.indexed ? 1 : 0)]!) {
    maxLatency = Math.max(maxLatency, v);
    for (const r of resOf.get(targetOp) ?? []) latencyByResource[r] = Math.max(latencyByResource[r] ?? 0, v);
  }
  // a written resource without a latency entry (implicit operand the file does not measure)
  // gets the instruction's maximum latency, at least 1
  for (const r of written(d)) if (latencyByResource[r] === undefined) latencyByResource[r] = Math.max(maxLatency, 1);
  for (const v of Object.values(latencyByResource)) maxLatency = Math.max(maxLatency, v);
  const div = dividerCycles(form.asm, m);
  const readAdvance = pairReadAdvance(
    form,
    d,
    index.pairs[useSameReg ? 1 : 0]!,
    index.byTarget[(useSameReg ? 2 : 0) + (d.indexed ? 1 : 0)]!,
    index.sources,
  );
  return {
    ...(readAdvance ? { readAdvance } : {}),
    line: d.line,
    form,
    rule,
    uops,
    ports: ports.map((g) => ({ count: g.count, ports: [...g.ports] })),
    latencyByResource,
    maxLatency,
    divCycles: div.cycles,
    variant,
    unknown: false,
    fallback: null,
    ...(div.from !== 'div_cycles' && div.cycles > 0 ? { divCyclesFrom: div.from } : {}),
    origin: origin(form),
    ...(provenance ? { provenance: provenance(form) } : {}),
  };
}

/**
 * The cycles a form keeps the divider busy: the file's div_cycles; for a division without it
 * but with a measured throughput (TP_loop, else TP_unrolled), that throughput, so that the
 * engine never runs the form faster than it was measured (docs/data.md, "Divider cycles").
 */
export function dividerCycles(
  mnemonic: string,
  m: { divCycles?: number; tpLoop?: number; tpUnrolled?: number },
): { cycles: number; from: 'div_cycles' | 'TP_loop' | 'TP_unrolled' } {
  if (m.divCycles !== undefined) return { cycles: m.divCycles, from: 'div_cycles' };
  if (DIVIDER_MNEMONIC.test(mnemonic)) {
    if (m.tpLoop !== undefined && m.tpLoop > 0) return { cycles: Math.ceil(m.tpLoop), from: 'TP_loop' };
    if (m.tpUnrolled !== undefined && m.tpUnrolled > 0) return { cycles: Math.ceil(m.tpUnrolled), from: 'TP_unrolled' };
  }
  return { cycles: 0, from: 'div_cycles' };
}

/** TZCNT and LZCNT are REP BSF / REP BSR encodings: a core without BMI1 (TZCNT) or LZCNT ignores
 *  the F3 prefix and executes BSF / BSR (Intel SDM, TZCNT and LZCNT), so its figures are those. */
const PRE_EXTENSION: Record<string, { needs: string; runs: string }> = {
  TZCNT: { needs: 'BMI1', runs: 'BSF' },
  LZCNT: { needs: 'LZCNT', runs: 'BSR' },
};

/** The instruction as the core executes it (see PRE_EXTENSION); itself when nothing changes. */
function asExecuted(d: DecodedInstruction, isa: () => readonly string[] | null): DecodedInstruction {
  const alt = PRE_EXTENSION[d.mnemonic];
  if (!alt) return d;
  const have = isa();
  if (!have || have.includes(alt.needs)) return d;
  return {
    ...d,
    mnemonic: alt.runs,
    signature: d.signature.replace(d.mnemonic, alt.runs),
    iform: null,
    code: d.code.replace(/^(Tzcnt|Lzcnt)/, alt.runs === 'BSF' ? 'Bsf' : 'Bsr'),
    cpuid: ['INTEL386'],
  };
}

/** A layer of uops.info-schema forms (an instructions.xml, the embedded files, or figures made
 *  into that shape): matched by iform, signature, then relaxed widths. Each form's origin is
 *  `origin`'s (default: formOrigin, from the form's `source` attribute). */
export function formsLayer(
  provider: string,
  forms: ArchForm[],
  opts: {
    source?: DataSource;
    describe?: string | null;
    label?: string | null;
    origin?: (f: ArchForm) => FigureOrigin;
    provenance?: (f: ArchForm) => Provenance;
  } = {},
): FigureLayer {
  const idx = indexOf(forms);
  const origin = opts.origin ?? formOrigin;
  return {
    provider,
    describe: opts.describe ?? null,
    label: opts.label ?? null,
    ...(opts.source ? { forms: { source: opts.source, list: forms } } : {}),
    lookup(d) {
      const hit = match(d, idx);
      return hit ? fromForm(d, hit, origin, opts.provenance) : null;
    },
  };
}

/** The layer of an LLVM-derived model: the decoded instruction's own encoding form. */
export function llvmLayer(provider: string, model: LlvmArchModel): FigureLayer {
  return {
    provider,
    llvm: model,
    describe: `LLVM ${model.llvm}'s ${model.cpu} model`,
    label: `LLVM ${model.llvm} ${model.cpu} model`,
    lookup(d) {
      const rec = model.lookup(d);
      if (!rec) return null;
      if (rec.placeholder)
        return {
          why: `LLVM's ${model.cpu} model has only a placeholder for it (microcoded or system instruction), and no other source has figures`,
        };
      return fromLlvm(d, withLateReads(d, withWork(d, rec, model), model), model);
    },
  };
}

/**
 * A load-op form (a memory operand read, not written) to which LLVM's model gives no read advance
 * (a per-instruction override of the scheduling class lists only its writes, so the register
 * operands lose the `ReadAfterLd` the generic classes give them): its register operands are read
 * late by the memory form's latency less the register form's (the same Code's register instance
 * in the same model). uops.info measures the register-to-register latency of such forms as the
 * register form's, where LLVM adds the load (uops.info paper §7.3.1, AESDEC; §7.3, "most
 * instructions that have a memory operand and another input operand"): `vpmullq ymm0, ymm0,
 * [rax]` on SKX is 22 cycles from the address, 15 from ymm0.
 */
function withLateReads(d: DecodedInstruction, rec: LlvmRecord, model: LlvmArchModel): LlvmRecord {
  if (!d.memory?.read || d.memory.write || rec.readAdvance.length > 0) return rec;
  // only the fields that pick a record (a copy of the whole instruction would format its AT&T text)
  const reg = model.lookup({ code: d.code, memory: null, sameReg: d.sameReg, masking: d.masking, broadcast: false });
  if (!reg || reg === rec || reg.placeholder || reg.key === rec.key) return rec;
  const late = rec.latency - reg.latency;
  if (late <= 0) return rec;
  const address = new Set([d.memory.base, d.memory.index].filter((r) => !!r));
  const readAdvance: [string, number][] = [];
  d.operands.forEach((op, i) => {
    if (op.read && op.register && !address.has(op.register)) readAdvance.push([`o${i}`, late]);
  });
  if (readAdvance.length === 0) return rec;
  return { ...rec, readAdvance, lateReads: `${reg.key}: ${reg.latency} cycles` };
}

const GPR_WRITTEN = /^(R(AX|BX|CX|DX|SI|DI|BP|SP)|R(8|9|1[0-5])D?|E(AX|BX|CX|DX|SI|DI|BP|SP))$/;

/**
 * LLVM's Golden Cove models give some forms no µops at all (add/sub r64, imm8, inc/dec r64,
 * mov r64, r64, the xmm/ymm/zmm register moves, jmp: SRC.llvmGoldenCoveZeroUops), as if the
 * renamer always executed them. To the engine no µop means no work in every model, so such a
 * form gets work (docs/data.md, "Forms LLVM gives no µops"):
 * - one that writes a general-purpose register: one µop on the core's ALU ports (the record's
 *   `aluPorts`), as the same model gives the 32-bit forms (add r32, imm8: 1*p0156B);
 * - another: the µops and ports that the LLVM model of the core this one follows (the record's
 *   `identity.llvmPredecessor`, Ice Lake's for Golden Cove) gives the same form, when that model
 *   gives it ports (a model figure of the previous core, said so);
 * - a form neither gives a port (nop, clc, vzeroupper) stays as it is.
 * The latencies stay the core's model's. Whether the renamer executes the form is the refined
 * model's business (move elimination and `immediateAdds`, the core record's rename part).
 */
function withWork(d: DecodedInstruction, rec: LlvmRecord, model: LlvmArchModel): LlvmRecord {
  if (rec.uops > 0) return rec;
  const machine = loadMachine(model.arch as ArchName);
  if (d.writes.some((r) => GPR_WRITTEN.test(r))) {
    const ports = [{ count: 1, ports: [...machine.aluPorts].sort((a, b) => a - b) }];
    const given = `1 µop on the core's ALU ports (${formatPorts(ports)}, as the model gives the 32-bit form)`;
    return { ...rec, uops: 1, ports, portString: formatPorts(ports), zeroUops: given };
  }
  const predecessor = machine.identity?.llvmPredecessor;
  const donorModel = predecessor ? loadLlvmModel(predecessor) : null;
  const donor = donorModel?.lookup(d);
  if (!donor || donor.placeholder || donor.uops === 0 || donor.ports.length === 0) return rec;
  if (donor.ports.some((g) => g.ports.some((p) => !machine.ports.includes(p)))) return rec;
  const ports = donor.ports.map((g) => ({ count: g.count, ports: [...g.ports] }));
  const uops = ports.reduce((n, g) => n + g.count, 0);
  const given = `${uops} µop${uops > 1 ? 's' : ''} on ${formatPorts(ports)}, LLVM ${model.llvm}'s ${donorModel!.cpu} model's figure for the same form (a model figure of the previous core)`;
  return { ...rec, uops, ports, portString: formatPorts(ports), zeroUops: given };
}

/** A line's figures measured on this machine, taken before the other sources' because the
 *  microcode decides them: its provenance says so. */
function hostFirst(hit: ResolvedInstruction, why: MicrocodeDependence): ResolvedInstruction {
  const rule = `measured on this machine, ranked before every other source: a ${why}'s figures depend on the microcode`;
  const p = hit.provenance;
  return {
    ...hit,
    provenance: {
      key: p?.key ?? hit.form?.string ?? '',
      text: p ? `${p.text}; ${rule}` : rule,
      detail: { ...(p?.detail ?? {}), rankedFirst: why },
    },
  };
}

/** The layers of a core's figures in resolution order: ArchData's own list, or, for ArchData
 *  made by hand, its forms, its embedded forms and its LLVM model. */
export function layersOf(data: ArchData): FigureLayer[] {
  if (data.layers) return data.layers;
  const out: FigureLayer[] = [formsLayer('xml', data.forms, { source: data.source })];
  if (data.embeddedForms?.length) out.push(formsLayer('embedded', data.embeddedForms));
  if (data.llvm) out.push(llvmLayer('llvm', data.llvm));
  return out;
}

export function resolveInstructions(
  instrs: DecodedInstruction[],
  data: ArchData,
  opts: ResolveOptions = {},
): ResolvedInstruction[] {
  const layers = layersOf(data);
  const hasLlvm = layers.some((l) => l.llvm);
  const fallback = opts.fallback ?? 'skip';
  let alu: number[] | undefined;
  const aluPorts = () => {
    if (!alu) {
      alu = (opts.machine ?? loadMachine(data.arch)).aluPorts; // an unknown architecture is the machine model's UserError
    }
    return alu;
  };
  let isa: readonly string[] | null | undefined;
  const isaOf = () => {
    if (isa === undefined) {
      try {
        isa = (opts.machine ?? loadMachine(data.arch)).isa;
      } catch {
        isa = null;
      }
    }
    return isa;
  };
  let names: { ports: number[]; names: string[] } | null | undefined;
  const pipeNames = () => {
    if (names === undefined) {
      let m: MachineModel | undefined;
      try {
        m = opts.machine ?? loadMachine(data.arch);
      } catch {
        m = undefined;
      }
      names = m?.portNames ? { ports: m.ports, names: m.portNames } : null;
    }
    return names;
  };
  return instrs.map((orig) => {
    const d = asExecuted(orig, isaOf);
    const have = isaOf();
    const missing = have && d.cpuid ? missingIsa(have, d.cpuid) : [];
    if (missing.length)
      return unknownOne(orig, fallback, aluPorts, `${data.arch} cannot run it (needs ${missing.join(', ')})`, missing);
    const found = (hit: ResolvedInstruction) =>
      hit.form && pipeNames() ? withIntegerPipes(hit, d, layers, pipeNames()!) : hit;
    const dependence = microcodeDependence(d);
    if (dependence) {
      // the microcode decides these figures: this machine's own measurement outranks every other
      for (const layer of layers) {
        const hit = layer.hostLookup?.(d);
        if (hit && 'line' in hit) return hostFirst(found(hit), dependence);
      }
    }
    let why: string | null = null;
    for (const layer of layers) {
      const hit = layer.lookup(d);
      if (!hit) continue;
      if ('line' in hit) return found(hit);
      why ??= hit.why;
    }
    return unknownOne(
      orig,
      fallback,
      aluPorts,
      why ??
        (hasLlvm
          ? 'no source has figures for this form'
          : `no source has figures for this form (uopscope has no LLVM model of ${data.arch})`),
    );
  });
}

/**
 * uops.info's figures of an AMD core name FP pipes 0–3 only (its FpuPipeAssignment counters:
 * `1*FP23`); AMD has no counter of the integer, address, branch and store pipes. A form measured there keeps its
 * figures and its FP pipes, and takes the other pipes (ALU, AGU, branch, store) from LLVM's model of
 * the core for the same instruction, said in its provenance; without an LLVM figure it keeps the
 * FP pipes alone, said too.
 */
function withIntegerPipes(
  hit: ResolvedInstruction,
  d: DecodedInstruction,
  layers: readonly FigureLayer[],
  pipes: { ports: number[]; names: string[] },
): ResolvedInstruction {
  // the pipes uops.info counts: FP0–FP3 (nanoBench's FpuPipeAssignment.Total0..3); FP4/FP5
  // (stores, FP-to-integer moves, LLVM's FP loads) are not among them
  const isFp = (p: number) => /^FP[0-3]$/.test(pipes.names[pipes.ports.indexOf(p)] ?? '');
  const fp = hit.ports.filter((g) => g.ports.every(isFp));
  const llvm = layers.find((l) => l.llvm)?.lookup(d);
  const model = layers.find((l) => l.llvm)?.describe ?? 'no LLVM model';
  const key = hit.form!.string;
  if (!llvm || !('line' in llvm)) {
    return {
      ...hit,
      ports: fp,
      provenance: {
        key,
        text: `uops.info (FP0–FP3 pipes only: it names no other pipe on AMD); ${model} has no figure for the form, so its other pipes are not known`,
      },
    };
  }
  const other = llvm.ports.filter((g) => !g.ports.every(isFp));
  return {
    ...hit,
    ports: [...fp, ...other.map((g) => ({ count: g.count, ports: [...g.ports] }))],
    provenance: {
      key,
      text: `uops.info's figures and FP0–FP3 pipes; the other pipes (integer, address, branch, store, FP4/FP5) from ${model} (uops.info names no such pipe on AMD)`,
    },
  };
}
