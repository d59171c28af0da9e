// The refined model's per-instruction facts on one core: macro-fusion, micro-fusion and
// unlamination, zero idioms, move elimination, front-end facts and load/store roles, by the rules
// below applied with the figures of the core's record (its `fusion`, `rename`, `memory` and
// `frontEnd`, read from the record given, never by the core's name). The one home of these rules:
// src/sim/program.ts attaches the result to each SimInstruction (`refined`), the engine decides
// what to do with them. Every fact names the rule it comes from (a source id of citations.ts;
// docs/engine.md "Refined model: rules and sources" lists them). Pure: no I/O.

import { idiomKind } from '../disasm/idioms.js';
import type { DecodedInstruction, MemoryOperand } from '../disasm/types.js';
import { hasCapability } from './origins.js';
import type { ArchName, Cited, CoreFrontEndFigures, MachineModel, ResolvedInstruction } from './types.js';

import { SRC } from './citations.js';

export { SRC };

// ---- per-core front-end figures ----

/** The front end's figures of one core as the engine reads them (MachineParams.frontEnd). */
export interface CoreFrontEnd extends CoreFrontEndFigures {
  arch: string;
  /** fused-domain µops issued (renamed) per cycle: the machine model's issueWidth */
  issueWidth: Cited<number>;
  /** general-purpose register moves are eliminated at rename */
  gprMoveElimination: Cited<boolean>;
  /** vector register moves are eliminated at rename */
  vecMoveElimination: Cited<boolean>;
}

const NO_JCC_ERRATUM: Cited<boolean> = { value: false, source: SRC.jccErratum };
const NO_MOVE_ELIMINATION: Cited<boolean> = { value: false, source: SRC.moveElimination };

/** The core's front-end figures from its record (machine files without a front end: none). */
export function coreFrontEnd(machine: Pick<MachineModel, 'arch' | 'issueWidth' | 'frontEnd' | 'rename'>): CoreFrontEnd {
  const fe = machine.frontEnd;
  return {
    arch: machine.arch,
    issueWidth: { value: machine.issueWidth, source: `machine model ${machine.arch} (issueWidth)` },
    dsbWidth: fe?.dsbWidth ?? null,
    decoders: fe?.decoders ?? null,
    fetchBytes: fe?.fetchBytes ?? null,
    lsd: fe?.lsd ?? null,
    idqSize: fe?.idqSize ?? null,
    lsdUnrolling: fe?.lsdUnrolling ?? null,
    both32ByteBlocksMustBeCacheable: fe?.both32ByteBlocksMustBeCacheable ?? null,
    jccErratum: fe?.jccErratum ?? NO_JCC_ERRATUM,
    macroFusibleOnLastDecoder: fe?.macroFusibleOnLastDecoder ?? null,
    dsbTwoBlocks: fe?.dsbTwoBlocks ?? null,
    msWidth: fe?.msWidth ?? null,
    dsbMsStall: fe?.dsbMsStall ?? null,
    miteMsStall: fe?.miteMsStall ?? null,
    ...(fe?.notModelled ? { notModelled: fe.notModelled } : {}),
    gprMoveElimination: machine.rename?.gprMoveElimination ?? NO_MOVE_ELIMINATION,
    vecMoveElimination: machine.rename?.vecMoveElimination ?? NO_MOVE_ELIMINATION,
  };
}

// ---- per-instruction facts ----

/** An immediate the µop cache holds in an extra entry: beyond 32 bits, or beyond 16 bits in an
 *  instruction with a memory operand (uiCA getDSBBlocks). */
function dsbExtraEntry(ins: DecodedInstruction): boolean {
  const imm = ins.operands.find((o) => o.immediate !== undefined)?.immediate;
  if (imm === undefined) return false;
  if (imm < -(2 ** 31) || imm >= 2 ** 31) return true;
  return (imm < -(2 ** 15) || imm >= 2 ** 15) && ins.memory !== null;
}

/** The parts of a core's record the per-instruction rules read. */
type Core = Pick<MachineModel, 'arch' | 'fusion' | 'rename' | 'memory' | 'frontEnd'>;

type MemoryRole = 'load' | 'store' | 'load-store' | 'agen';

interface MemoryFacts {
  /** load; store (store-address + store-data); load-store (read-modify-write); agen (LEA: no access) */
  role: MemoryRole;
  /** the address expression as a stable key: equal keys = identical address expressions
   *  ('seg:base+index*scale+disp', e.g. ':RDI+RCX*8+0'; RIP-relative: ':RIP+…' with the absolute target) */
  key: string;
  base: string | null;
  index: string | null;
  scale: number;
  displacement: number;
  segment: string | null;
  /** bytes accessed */
  size: number;
  /** a store whose address has no index register (base + displacement): its store-address µop may
   *  use port 7 on HSW–CLX; false for loads and LEA */
  simpleStoreAddress: boolean;
  /** the core has a port for simple store addresses only (7 on HSW–CLX) */
  simpleStaPort: number | null;
  /** indices into SimInstruction.uops of the load, store-address and store-data µops
   *  (found by their ports; empty when the data has no such µop) */
  loadUops: number[];
  staUops: number[];
  stdUops: number[];
  /** (read-modify-write forms) uops.info's latency from the memory operand to itself through
   *  memory (`cycles_mem`): one instance's store to the next instance's load and operation, as
   *  measured; null when the data has no such figure (LLVM-derived figures, other roles) */
  roundTrip: Cited<number> | null;
  source: string;
}

export interface RefinedFacts {
  arch: ArchName;
  macroFusion: {
    /** a flag-setting instruction of the kind that can fuse with a following Jcc on this core */
    firstHalf: boolean;
    /** (on a Jcc) fuses with the directly preceding instruction in program order */
    fusesWithPrevious: boolean;
    /** (on a first half) fuses with the directly following instruction */
    fusesWithNext: boolean;
    source: string;
    /** why not, when it does not fuse (a short phrase) */
    why?: string;
  };
  microFusion: {
    /** fused-domain µops issued (rename / ROB slots) after unlamination */
    fusedUops: number;
    /** fused-domain µops the decoders deliver (before unlamination); = fusedUops unless unlaminated */
    decodedUops: number;
    /** unfused µops (SimInstruction.uops.length) */
    unfusedUops: number;
    unlaminated: boolean;
    source: string;
  };
  idiom: {
    /** zero idiom: writes zero whatever the input (xor eax, eax) */
    zeroIdiom: boolean;
    /** dependency-breaking: the result does not depend on the register read (zero idioms and
     *  e.g. pcmpeqd xmm1, xmm1, all ones) */
    dependencyBreaking: boolean;
    /** needs no execution port on this core (removed at rename) */
    noPort: boolean;
    source: string;
  };
  moveElimination: {
    /** a register-to-register move this core can eliminate at rename (candidate: the hardware
     *  does not always succeed; the engine decides the limits) */
    candidate: boolean;
    source: string;
  };
  /** an addition of a small immediate this core executes at rename (Golden Cove: add/sub r64,
   *  imm8, inc/dec r64); absent in facts made before it existed */
  immediateAdd?: {
    atRename: boolean;
    source: string;
  };
  frontEnd: {
    length: number;
    address: number;
    /** address − the region's first address */
    offset: number;
    /** the region's closing branch: the last instruction, a direct backward branch into the region */
    loopBranch: boolean;
    /** a jump (for a fused Jcc: the pair as a whole, from the first half's first byte) crosses
     *  or ends on a 32-byte boundary; false for non-jumps */
    jcc32B: { crosses: boolean; endsOn: boolean; start: number; end: number } | null;
    /** on this core the jump cannot be held in the µop cache (JCC-erratum microcode update) */
    jccErratumApplies: boolean;
    /** needs the complex decoder: more than one fused-domain µop */
    complexDecoder: boolean;
    /** comes from the microcode sequencer: uops.info's uops_MS above 0 where the form has it,
     *  else more than 4 fused-domain µops */
    microcodeSequencer: boolean;
    /** fused-domain µops the microcode sequencer delivers (uops.info's uops_MS for the form; the
     *  rest come from the decoder or the µop-cache entry); absent: no figure splits the
     *  instruction, and a microcoded one's µops all enter as the decoder's */
    msUops?: number;
    /** takes an extra µop-cache entry: an immediate beyond 32 bits, or beyond 16 bits with a
     *  memory operand (uiCA getDSBBlocks; Agner Fog's microarchitecture guide §9.3); absent in
     *  facts made before it existed */
    dsbExtraEntry?: boolean;
    source: string;
  };
  memory: MemoryFacts | null;
}

const GPR = /^R(AX|BX|CX|DX|SI|DI|BP|SP|8|9|1[0-5])$/;

/** Condition class of a Jcc (iced mnemonic) for the fusion tables; null for other instructions. */
function jccClass(mnemonic: string): 'O' | 'C' | 'Z' | 'BE' | 'SP' | 'L' | null {
  switch (mnemonic) {
    case 'JO':
    case 'JNO':
      return 'O';
    case 'JB':
    case 'JAE':
      return 'C';
    case 'JE':
    case 'JNE':
      return 'Z';
    case 'JBE':
    case 'JA':
      return 'BE';
    case 'JS':
    case 'JNS':
    case 'JP':
    case 'JNP':
      return 'SP';
    case 'JL':
    case 'JGE':
    case 'JLE':
    case 'JG':
      return 'L';
    default:
      return null;
  }
}

const FUSIBLE_FIRST = new Set(['CMP', 'TEST', 'ADD', 'SUB', 'AND', 'INC', 'DEC']);
/** AMD from Zen 3 on also fuses OR and XOR (corsix's table); before, CMP and TEST only. */
const FUSIBLE_FIRST_ZEN3 = new Set([...FUSIBLE_FIRST, 'OR', 'XOR']);
const isZen = (family: string): boolean => family === 'zen' || family === 'zen3';
/** The instructions that may fuse on a family: AMD's lists or Intel's. */
const fusibleFirst = (family: string): ReadonlySet<string> => (family === 'zen3' ? FUSIBLE_FIRST_ZEN3 : FUSIBLE_FIRST);

/** AMD's rule (corsix): the first instruction fuses with every Jcc that reads flags it writes
 *  (INC and DEC leave CF alone: not with the Jcc that read it); Zen 1/2: CMP and TEST only. */
function zenFuses(m: string, cls: NonNullable<ReturnType<typeof jccClass>>, family: string): boolean {
  if (family === 'zen') return m === 'CMP' || m === 'TEST';
  if (m === 'INC' || m === 'DEC') return cls !== 'C' && cls !== 'BE';
  return true;
}

/** Whether `first` followed directly by `jcc` macro-fuses on `arch`, by the manual's table
 *  (rule) — uops.info's macro_fusible list decides instead when the first's form has one. */
function macroFuses(
  first: DecodedInstruction,
  firstData: ResolvedInstruction | undefined,
  jcc: DecodedInstruction,
  jccData: ResolvedInstruction | undefined,
  core: Core,
): { fuses: boolean; source: string; why?: string } {
  const cls = jccClass(jcc.mnemonic);
  if (cls === null) return { fuses: false, source: SRC.macroFusionManual, why: 'not a Jcc' };
  const listed = firstData?.form?.m.macroFusible;
  if (listed && listed.length > 0) {
    const name = (s: string): string => s.split(' (')[0]!.replace(/_\d+$/, '');
    const want = name(jccData?.form?.string ?? jcc.signature);
    const fuses = listed.some((s) => name(s) === want);
    return fuses
      ? { fuses, source: SRC.macroFusibleXml }
      : { fuses, source: SRC.macroFusibleXml, why: `${want} not in its macro_fusible list` };
  }
  const arch = core.arch;
  const rule = core.fusion?.macro;
  if (!rule) return { fuses: false, source: SRC.macroFusionManual, why: `no fusion rule for ${arch}` };
  const family = rule.value;
  const src = rule.source;
  const m = first.mnemonic;
  if (!fusibleFirst(family).has(m) || first.prefixes.includes('lock'))
    return { fuses: false, source: src, why: `${m} does not fuse` };
  if (family === 'zen' && m !== 'CMP' && m !== 'TEST')
    return { fuses: false, source: src, why: `only CMP and TEST fuse on ${arch}` };
  if (family === 'nhm' && m !== 'CMP' && m !== 'TEST')
    return { fuses: false, source: src, why: `only CMP and TEST fuse on ${arch}` };
  if (family === 'icl' && (m === 'INC' || m === 'DEC'))
    return { fuses: false, source: src, why: `INC/DEC do not fuse on ${arch}` };
  const mem = first.memory;
  const imm = first.operands.some((o) => o.immediate !== undefined);
  if (mem) {
    if (family === 'icl') return { fuses: false, source: src, why: `no fusion with a memory operand on ${arch}` };
    if (mem.write) return { fuses: false, source: src, why: 'writes memory' };
    if (imm) return { fuses: false, source: src, why: 'memory and immediate operands' };
  }
  const testLike = m === 'TEST' || m === 'AND';
  let ok: boolean;
  if (isZen(family)) ok = zenFuses(m, cls, family);
  else if (family === 'nhm') ok = testLike || cls === 'C' || cls === 'Z' || cls === 'BE' || cls === 'L';
  else if (testLike) ok = true;
  else if (m === 'INC' || m === 'DEC') ok = cls === 'Z' || cls === 'L';
  else ok = cls === 'C' || cls === 'Z' || cls === 'BE' || cls === 'L';
  return ok
    ? { fuses: true, source: src }
    : { fuses: false, source: src, why: `${m} does not fuse with ${jcc.mnemonic}` };
}

/** Whether the instruction may be the first half of a fused pair on the core (by kind alone). */
function canBeFirst(ins: DecodedInstruction, r: ResolvedInstruction | undefined, core: Core): boolean {
  if (r?.form?.m.macroFusible?.length) return true;
  const family = core.fusion?.macro?.value;
  if (!family || !fusibleFirst(family).has(ins.mnemonic) || ins.prefixes.includes('lock')) return false;
  if (family === 'nhm' || family === 'zen') return ins.mnemonic === 'CMP' || ins.mnemonic === 'TEST';
  if (family === 'icl') return ins.mnemonic !== 'INC' && ins.mnemonic !== 'DEC' && ins.memory === null;
  return !(ins.memory && (ins.memory.write || ins.operands.some((o) => o.immediate !== undefined)));
}

const sameSet = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const subset = (a: number[], b: number[]): boolean => a.length > 0 && a.every((x) => b.includes(x));

/** Which µops (indices into `uops`) are the load, store-address and store-data µops. */
function memoryUops(
  uops: number[][],
  mem: MemoryOperand,
  core: Core,
): { load: number[]; sta: number[]; std: number[] } {
  const out = { load: [] as number[], sta: [] as number[], std: [] as number[] };
  const ports = core.memory;
  if (!ports) return out;
  const p = { load: ports.load, sta: ports.storeAddress, std: ports.storeData };
  const taken = new Set<number>();
  const pick = (exact: number[], within: number[], last: boolean): number | null => {
    const idx = uops.map((_, i) => i).filter((i) => !taken.has(i));
    const order = last ? idx.reverse() : idx;
    const i = order.find((k) => sameSet(uops[k]!, exact)) ?? order.find((k) => subset(uops[k]!, within));
    if (i === undefined) return null;
    taken.add(i);
    return i;
  };
  if (mem.write) {
    const d = pick(p.std, p.std, false);
    if (d !== null) out.std.push(d);
    const a = pick(p.sta, [...p.sta, ...p.load], true);
    if (a !== null) out.sta.push(a);
  }
  if (mem.read) {
    const l = pick(p.load, p.load, false);
    if (l !== null) out.load.push(l);
  }
  return out;
}

/** 'seg:base+index*scale+disp' */
function addressKey(m: MemoryOperand): string {
  return `${m.segment ?? ''}:${m.base ?? ''}+${m.index ? `${m.index}*${m.scale}` : ''}+${m.displacement}`;
}

/** A read-modify-write form's `cycles_mem` latency from its memory operand to itself (uops.info). */
function roundTrip(r: ResolvedInstruction | undefined): Cited<number> | null {
  const form = hasCapability(r?.origin, 'measured-memory-round-trip') ? r!.form : null;
  if (!form) return null;
  const mem = form.operands.find((o) => o.type === 'mem' && o.read && o.write);
  if (!mem) return null;
  const e = form.m.latencies.find((l) => l.startOp === mem.idx && l.targetOp === mem.idx && l.cyclesMem !== undefined);
  return e ? { value: e.cyclesMem!, source: SRC.cyclesMemXml } : null;
}

function memoryFacts(
  ins: DecodedInstruction,
  r: ResolvedInstruction | undefined,
  uops: number[][],
  core: Core,
): MemoryFacts | null {
  const m = ins.memory;
  if (!m) return null;
  const role: MemoryRole = m.read && m.write ? 'load-store' : m.write ? 'store' : m.read ? 'load' : 'agen';
  const u = role === 'agen' ? { load: [], sta: [], std: [] } : memoryUops(uops, m, core);
  return {
    role,
    key: addressKey(m),
    base: m.base,
    index: m.index,
    scale: m.scale,
    displacement: m.displacement,
    segment: m.segment,
    size: m.size,
    simpleStoreAddress: m.write && m.index === null,
    simpleStaPort: core.memory?.simpleStoreAddressPort ?? null,
    loadUops: u.load,
    staUops: u.sta,
    stdUops: u.std,
    roundTrip: role === 'load-store' ? roundTrip(r) : null,
    source: `${SRC.decoded}; ${core.memory?.source ?? SRC.machines}`,
  };
}

/** µops the microcode sequencer delivers: uops.info's uops_MS where the line's figures are a
 *  measurement of its form that has it (for any address: the sequencer's µops are not the ones
 *  an index register unlaminates), else null. */
function sequencerUops(r: ResolvedInstruction | undefined): number | null {
  const ms = r?.form?.m.uopsMs;
  if (ms === undefined || !hasCapability(r?.origin, 'measured-fused-uops') || r!.variant === 'same_reg') return null;
  return ms;
}

/** Fused-domain µops: uops.info's figures when the form has them, else the rule. */
function microFusion(
  ins: DecodedInstruction,
  r: ResolvedInstruction | undefined,
  uops: number[][],
  mem: MemoryFacts | null,
  core: Core,
): RefinedFacts['microFusion'] {
  const unfused = uops.length;
  const m = r?.form?.m;
  // uops.info measures memory forms with a base register only: its figures hold for indexed
  // addresses only where no unlamination rule applies
  const unlamination = core.fusion?.unlamination ?? null;
  const unlamRule = unlamination?.value;
  if (
    m?.retireSlots !== undefined &&
    hasCapability(r?.origin, 'measured-fused-uops') &&
    r!.variant !== 'same_reg' &&
    (!ins.indexed || !unlamRule)
  ) {
    const fused = Math.max(1, m.retireSlots);
    const decoded = m.uopsMite !== undefined ? Math.max(1, m.uopsMite) : fused;
    return {
      fusedUops: fused,
      decodedUops: decoded,
      unfusedUops: unfused,
      unlaminated: fused > decoded,
      source: m.uopsMite !== undefined ? `${SRC.retireSlotsXml}; ${SRC.uopsMiteXml}` : SRC.retireSlotsXml,
    };
  }
  // no unfused µop (a zero idiom, a NOP, an eliminated move in the data): the reorder buffer
  // executes it itself, but it is a µop of the fused domain and takes an issue slot (uops.info
  // paper §3.1; uops_retire_slots ≥ 1, as uiCA reads it)
  if (unfused === 0)
    return { fusedUops: 1, decodedUops: 1, unfusedUops: 0, unlaminated: false, source: SRC.robExecuted };
  let loadOp = false;
  let store = false;
  if (mem && mem.role !== 'agen') {
    // load+op fusion: forms with an explicit memory operand (not push/pop/ret's stack accesses)
    const explicit = ins.operands.some((o) => /^M\d/.test(o.kind));
    loadOp =
      explicit && mem.loadUops.length > 0 && unfused > mem.loadUops.length + mem.staUops.length + mem.stdUops.length;
    store = mem.staUops.length > 0 && mem.stdUops.length > 0;
  }
  const decoded = unfused - (loadOp ? 1 : 0) - (store ? 1 : 0);
  let fused = decoded;
  let source: string = SRC.microFusion;
  if (ins.indexed && (loadOp || store) && unlamRule) {
    if (unlamRule === 'snb') {
      fused = unfused;
      source = `${SRC.microFusion}; ${unlamination!.source}`;
    } else {
      // HSW and later: stores stay fused; a load-op stays fused only as a 2-operand form whose
      // first operand is a register both read and written (add rax, [rdi+rcx*8])
      const ops = ins.operands;
      const rmw =
        ops.length === 2 && ops[0]!.register !== undefined && ops[0]!.read && ops[0]!.write && !ins.flagsRead.length;
      if (loadOp && !rmw) fused += 1;
      source = `${SRC.microFusion}; ${unlamination!.source}`;
    }
  }
  return { fusedUops: fused, decodedUops: decoded, unfusedUops: unfused, unlaminated: fused > decoded, source };
}

/** The register moves only AVX-512 (EVEX) has: element-size forms of VMOVDQA and VMOVDQU. */
const EVEX_MOVES = new Set(['VMOVDQA32', 'VMOVDQA64', 'VMOVDQU8', 'VMOVDQU16', 'VMOVDQU32', 'VMOVDQU64']);

const MOVES = new Set([
  'MOV',
  'MOVAPS',
  'MOVAPD',
  'MOVDQA',
  'MOVDQU',
  'MOVUPS',
  'MOVUPD',
  'VMOVAPS',
  'VMOVAPD',
  'VMOVDQA',
  'VMOVDQU',
  'VMOVUPS',
  'VMOVUPD',
  ...EVEX_MOVES,
]);

function moveElimination(ins: DecodedInstruction, core: Core): RefinedFacts['moveElimination'] {
  const ops = ins.operands;
  const regReg = ops.length === 2 && ops.every((o) => o.register !== undefined) && ins.memory === null && !ins.sameReg;
  if (!regReg || !MOVES.has(ins.mnemonic)) return { candidate: false, source: SRC.moveElimination };
  const w = ops[0]!.written ?? '';
  if (ins.mnemonic === 'MOV') {
    // 32- and 64-bit general-purpose moves (eax/rax, r8d/r8); not 8/16-bit ones
    const wide = /^(r[a-z]{2}|e[a-z]{2}|r\d+d?)$/.test(w) && GPR.test(ops[0]!.register!);
    if (!wide) return { candidate: false, source: SRC.moveElimination };
    const gpr = core.rename?.gprMoveElimination;
    return gpr ? { candidate: gpr.value, source: gpr.source } : { candidate: false, source: SRC.moveElimination };
  }
  // masked moves merge into (or zero) the destination: an operation, never eliminated
  if (ins.masking !== null) return { candidate: false, source: SRC.moveElimination };
  const vec = core.rename?.vecMoveElimination;
  // xmm / ymm register moves of the SSE and VEX mnemonics
  if (/^[xy]mm\d+$/.test(w) && !EVEX_MOVES.has(ins.mnemonic))
    return { candidate: vec?.value === true, source: SRC.moveElimination };
  // zmm moves and the AVX-512-only mnemonics: only where the record cites a measurement of them
  const evex = core.rename?.evexMoveElimination;
  if (!/^[xyz]mm\d+$/.test(w) || !evex) return { candidate: false, source: SRC.moveElimination };
  return { candidate: vec?.value === true && evex.value, source: evex.source };
}

/** The forms LLVM's Golden Cove models give no µops (SRC.llvmGoldenCoveZeroUops): iced Codes. */
const IMMEDIATE_ADD = /^(Add_rm64_imm8|Sub_rm64_imm8|Inc_rm64|Dec_rm64)$/;

function immediateAdd(ins: DecodedInstruction, core: Core): NonNullable<RefinedFacts['immediateAdd']> {
  const fact = core.rename?.immediateAdds;
  if (!fact) return { atRename: false, source: SRC.llvmGoldenCoveZeroUops };
  const form = ins.memory === null && IMMEDIATE_ADD.test(ins.code) && ins.operands[0]?.register !== undefined;
  return { atRename: form && fact.value, source: fact.source };
}

function idiom(ins: DecodedInstruction, r: ResolvedInstruction | undefined, core: Core): RefinedFacts['idiom'] {
  const same = ins.sameReg && ins.memory === null && ins.masking === null;
  if (!same) return { zeroIdiom: false, dependencyBreaking: false, noPort: false, source: SRC.zeroIdiom };
  const kind = idiomKind(ins.mnemonic);
  if (kind === 'ones') return { zeroIdiom: false, dependencyBreaking: true, noPort: false, source: SRC.zeroIdiom };
  // (V)PCMPGT*: no source says they need no port; uops.info's `_same_reg` measurement may show none
  if (kind === 'zero-unlisted') {
    const measured = hasCapability(r?.origin, 'measured-same-reg') && r!.variant === 'same_reg';
    return {
      zeroIdiom: true,
      dependencyBreaking: true,
      noPort: measured && (r!.uops === 0 || r!.ports.length === 0),
      source: measured ? SRC.zeroIdiomXml : SRC.zeroIdiomPaper,
    };
  }
  if (kind !== 'zero') {
    return { zeroIdiom: false, dependencyBreaking: ins.zeroIdiom, noPort: false, source: SRC.zeroIdiom };
  }
  // GPR zero idioms: the 32- and 64-bit forms (xor eax, eax); 8/16-bit forms write part of a register
  const w = ins.operands[0]?.written ?? '';
  if ((ins.mnemonic === 'XOR' || ins.mnemonic === 'SUB') && !/^(r[a-z]{2}|e[a-z]{2}|r\d+d?)$/.test(w)) {
    return { zeroIdiom: false, dependencyBreaking: true, noPort: false, source: SRC.zeroIdiom };
  }
  if (r && hasCapability(r.origin, 'measured-same-reg') && r.variant === 'same_reg') {
    return {
      zeroIdiom: true,
      dependencyBreaking: true,
      noPort: r.uops === 0 || r.ports.length === 0,
      source: SRC.zeroIdiomXml,
    };
  }
  return {
    zeroIdiom: true,
    dependencyBreaking: true,
    noPort: core.rename?.zeroIdiomsNoPort.value === true,
    source: SRC.zeroIdiom,
  };
}

const crosses32 = (start: number, end: number): boolean => Math.floor(start / 32) !== Math.floor((end - 1) / 32);

/** Facts of every line of `instrs` (program order) on `machine`: the same order and length. */
export function refinedFacts(
  instrs: DecodedInstruction[],
  resolved: (ResolvedInstruction | undefined)[],
  uopsOf: number[][][],
  machine: MachineModel,
  regionStart?: number,
): RefinedFacts[] {
  const arch = machine.arch;
  const core: Core = machine;
  const start = regionStart ?? instrs[0]?.address ?? 0;
  const erratum = machine.frontEnd?.jccErratum.value === true;
  const out: RefinedFacts[] = [];
  const fusedWithNext = instrs.map((ins, i) => {
    const next = instrs[i + 1];
    if (!next || next.address !== ins.address + ins.length) return null;
    return macroFuses(ins, resolved[i], next, resolved[i + 1], core);
  });
  for (let i = 0; i < instrs.length; i++) {
    const ins = instrs[i]!;
    const r = resolved[i];
    const uops = uopsOf[i]!;
    const mf = macroFusionFacts(ins, r, i, fusedWithNext, core);
    const memory = memoryFacts(ins, r, uops, core);
    const micro = microFusion(ins, r, uops, memory, core);
    const ms = sequencerUops(r);
    let jcc32B: RefinedFacts['frontEnd']['jcc32B'] = null;
    if (ins.branch) {
      const s = mf.fusesWithPrevious ? instrs[i - 1]!.address : ins.address;
      const e = ins.address + ins.length;
      jcc32B = { crosses: crosses32(s, e), endsOn: e % 32 === 0, start: s, end: e };
    }
    const last = i === instrs.length - 1;
    const b = ins.branch;
    out.push({
      arch,
      macroFusion: mf,
      microFusion: micro,
      idiom: idiom(ins, r, core),
      moveElimination: moveElimination(ins, core),
      immediateAdd: immediateAdd(ins, core),
      frontEnd: {
        length: ins.length,
        address: ins.address,
        offset: ins.address - start,
        loopBranch:
          last &&
          b?.backward === true &&
          b.targetLine !== null &&
          (b.kind === 'conditional' || b.kind === 'unconditional'),
        jcc32B,
        jccErratumApplies: erratum && jcc32B !== null && (jcc32B.crosses || jcc32B.endsOn),
        complexDecoder: micro.decodedUops > 1,
        microcodeSequencer: ms !== null ? ms > 0 : micro.decodedUops > 4,
        ...(ms !== null ? { msUops: ms } : {}),
        dsbExtraEntry: dsbExtraEntry(ins),
        source: `${SRC.decoded}; ${SRC.jccErratum}${ms !== null ? `; ${SRC.uopsMsXml}` : ''}`,
      },
      memory,
    });
  }
  return out;
}

type FusionPair = ReturnType<typeof macroFuses>;

/** Line `i`'s macro-fusion: with the previous line (a Jcc) or the next (a first half), and why not. */
function macroFusionFacts(
  ins: DecodedInstruction,
  r: ResolvedInstruction | undefined,
  i: number,
  fusedWithNext: (FusionPair | null)[],
  core: Core,
): RefinedFacts['macroFusion'] {
  const withPrev = i > 0 ? fusedWithNext[i - 1] : null;
  const withNext = fusedWithNext[i];
  const isJcc = jccClass(ins.mnemonic) !== null;
  const firstHalf = canBeFirst(ins, r, core);
  const mf: RefinedFacts['macroFusion'] = {
    firstHalf,
    fusesWithPrevious: isJcc && withPrev?.fuses === true,
    fusesWithNext: withNext?.fuses === true,
    source: isJcc
      ? (withPrev?.source ?? SRC.macroFusionManual)
      : (withNext?.source ?? (r?.form?.m.macroFusible?.length ? SRC.macroFusibleXml : SRC.macroFusionManual)),
  };
  // why not: on a Jcc, and on a first half whose next line is a Jcc
  const why = isJcc
    ? i === 0
      ? 'first line'
      : withPrev
        ? withPrev.why
        : 'not adjacent to the previous line'
    : firstHalf && withNext && withNext.why !== 'not a Jcc'
      ? withNext.why
      : undefined;
  if (why && !(isJcc ? mf.fusesWithPrevious : mf.fusesWithNext)) mf.why = why;
  return mf;
}
