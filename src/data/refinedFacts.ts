// The refined model's per-instruction, per-core facts: macro-fusion,
// micro-fusion and unlamination, zero idioms, move elimination, front-end facts, load/store
// roles, and the per-core front-end figures. The one home of these rules: src/sim/program.ts
// attaches the result to each SimInstruction (`refined`), the engine decides what to do with
// them. Every fact names the rule it comes from (a short source id; docs/engine.md "Refined
// model: rules and sources" lists them). Pure: no I/O.

import type { DecodedInstruction, MemoryOperand } from '../disasm/types.js';
import { hasCapability } from './origins.js';
import type { ArchName, MachineModel, ResolvedInstruction } from './types.js';

// ---- sources (short ids; docs/engine.md cites each in full) ----

export const SRC = {
  /** Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), §3.4.2.2
   *  "Optimizing for Macro-fusion" (Sandy Bridge table of fusible pairs) */
  macroFusionManual: 'intel-opt-manual §3.4.2.2',
  /** corsix.org "x86 macro-op fusion notes" (P. Cawley): which pairs fuse from Core to Zen 3;
   *  Ice Lake dropped INC/DEC and memory-operand fusion */
  macroFusionCorsix: 'corsix x86 macro-op fusion notes',
  macroFusibleXml: "uops.info attribute macro_fusible",
  retireSlotsXml: 'uops.info attribute uops_retire_slots',
  uopsMiteXml: 'uops.info attribute uops_MITE',
  /** the manual's Sandy Bridge "Micro-op Queue and the Loop Stream Detector" passage: micro-fused
   *  µops with an index register unlaminate */
  unlaminationSnb: 'intel-opt-manual §2.5.2.4 (SnB unlamination)',
  /** the manual's Haswell "Unlamination" section, with P. Cordes's measurements on HSW/SKL
   *  (stackoverflow.com/q/26046634): an indexed form stays fused only with 2 operands whose
   *  destination register is also a source */
  unlaminationHsw: 'intel-opt-manual §2.4.5 (HSW unlamination); stackoverflow q/26046634',
  microFusion: 'intel-opt-manual §3.4.2.1 (micro-fusion: load+op, store-address+store-data)',
  robExecuted: 'uops.info paper §3.1 (the reorder buffer executes NOPs, zero idioms, eliminated moves: fused-domain µops)',
  zeroIdiom: 'intel-opt-manual §3.5.1.8; uops.info paper §7.3.6',
  zeroIdiomXml: 'uops.info _same_reg measurement',
  zeroIdiomPaper: 'uops.info paper §7.3.6 ((V)PCMPGT* dependency-breaking)',
  moveElimination: 'intel-opt-manual §3.5.1.13 (zero-latency MOV, Ivy Bridge and later)',
  moveElimIcl: 'Intel Ice Lake spec update erratum ICL065 (GPR move elimination disabled by microcode); uiCA microArchConfigs ICL moveEliminationGPRSlots=0',
  jccErratum: 'Intel white paper "Mitigations for Jump Conditional Code Erratum" (2019)',
  uica: 'uiCA microArchConfigs.py (github.com/andreas-abel/uiCA, commit 53aeef6)',
  uicaLsdUnroll: 'uiCA microArchConfigs.py (github.com/andreas-abel/uiCA, commit b86ce90) LSDUnrolling',
  /** uiCA's front end: the LSD streams a loop when all its 32-byte blocks can be cached and its
   *  µops fit the IDQ; its issue limit is ceil(µops · unroll / issue width) / unroll */
  uicaLsdRule: 'uiCA uiCA.py (commit b86ce90): LSD when all blocks can be cached and the µops fit the IDQ; LSD limit ceil(µops·unroll/issueWidth)/unroll',
  lsdErratum: 'Intel 6th-gen spec update erratum SKL150 (LSD disabled by microcode); uiCA LSDEnabled=False',
  legacyDecode: 'intel-opt-manual ch. 2 (legacy decode pipeline: 16 aligned bytes fetched per cycle, 4 decoders)',
  goldenCove: 'intel-opt-manual, Golden Cove section / Intel Architecture Day 2021 (6 decoders, 32 bytes per cycle, 8 µops per cycle from the µop cache)',
  lsdSnb: 'intel-opt-manual §2.5.2.4 (SnB micro-op queue and LSD)',
  machines: 'uopscope shared reference machines.md (load / store-address / store-data ports)',
  decoded: 'decoded instruction (iced-x86)',
  /** uops.info's latency through memory (`cycles_mem`) from a read-modify-write form's memory
   *  operand to itself: the store → load round trip of one instance to the next */
  cyclesMemXml: 'uops.info latency cycles_mem (memory operand to itself)',
} as const;

// ---- per-core families ----

type Fusion = 'nhm' | 'snb' | 'icl';
const FUSION: Record<string, Fusion> = {
  NHM: 'nhm', WSM: 'nhm',
  SNB: 'snb', IVB: 'snb', HSW: 'snb', BDW: 'snb', SKL: 'snb', KBL: 'snb', CFL: 'snb', SKX: 'snb', CLX: 'snb',
  ICL: 'icl', TGL: 'icl', RKL: 'icl', 'ADL-P': 'icl', SPR: 'icl',
};

type Unlam = 'snb' | 'hsw';
const UNLAMINATION: Record<string, Unlam> = {
  SNB: 'snb', IVB: 'snb',
  HSW: 'hsw', BDW: 'hsw', SKL: 'hsw', KBL: 'hsw', CFL: 'hsw', SKX: 'hsw', CLX: 'hsw',
  ICL: 'hsw', TGL: 'hsw', RKL: 'hsw', 'ADL-P': 'hsw', SPR: 'hsw',
};

/** Sandy Bridge and later: zero idioms removed by the renamer (no port). */
const ZERO_IDIOM_NO_PORT = new Set(['SNB', 'IVB', 'HSW', 'BDW', 'SKL', 'KBL', 'CFL', 'SKX', 'CLX', 'ICL', 'TGL', 'RKL', 'ADL-P', 'SPR']);
/** Ivy Bridge and later: register moves eliminated at rename (vector registers). */
const MOVE_ELIM_VEC = new Set(['IVB', 'HSW', 'BDW', 'SKL', 'KBL', 'CFL', 'SKX', 'CLX', 'ICL', 'TGL', 'RKL', 'ADL-P', 'SPR']);
/** … and general-purpose registers, except where microcode disabled it (ICL065). */
const MOVE_ELIM_GPR_OFF = new Set(['ICL', 'TGL', 'RKL']);
/** Cores the JCC-erratum microcode update applies to (the white paper's list: Skylake-derived). */
const JCC_ERRATUM = new Set(['SKL', 'KBL', 'CFL', 'SKX', 'CLX']);
/** Store-address µops of simple (base + displacement) addresses may use port 7. */
const SIMPLE_STA_PORT7 = new Set(['HSW', 'BDW', 'SKL', 'KBL', 'CFL', 'SKX', 'CLX']);

/** Ports of the memory µops per core (machines.md). */
interface MemPorts { load: number[]; sta: number[]; std: number[] }
function memPorts(arch: string): MemPorts | null {
  if (arch === 'NHM' || arch === 'WSM') return { load: [2], sta: [3], std: [4] };
  if (arch === 'SNB' || arch === 'IVB') return { load: [2, 3], sta: [2, 3], std: [4] };
  if (SIMPLE_STA_PORT7.has(arch)) return { load: [2, 3], sta: [2, 3, 7], std: [4] };
  if (arch === 'ICL' || arch === 'TGL' || arch === 'RKL') return { load: [2, 3], sta: [7, 8], std: [4, 9] };
  if (arch === 'ADL-P' || arch === 'SPR') return { load: [2, 3, 11], sta: [7, 8], std: [4, 9] };
  return null;
}

// ---- per-core front-end figures ----

/** A figure with where it comes from; null value: no public source uopscope can cite. */
export interface Cited<T> { value: T; source: string }

export interface CoreFrontEnd {
  arch: string;
  /** fused-domain µops issued (renamed) per cycle: the machine model's issueWidth */
  issueWidth: Cited<number>;
  /** µops the µop cache (DSB) delivers per cycle */
  dsbWidth: Cited<number> | null;
  /** legacy decoders (one complex, the rest simple) */
  decoders: Cited<number> | null;
  /** bytes the legacy decode pipeline fetches and predecodes per cycle */
  fetchBytes: Cited<number> | null;
  /** the loop stream detector is on */
  lsd: Cited<boolean> | null;
  /** fused-domain µops the instruction decode queue (IDQ) between the front end's sources and
   *  issue holds; also the largest loop the loop stream detector streams (uiCA models the LSD in
   *  the IDQ: a loop is streamed when its µops fit) */
  idqSize: Cited<number> | null;
  /** the loop stream detector unrolls a loop of k fused µops `value[k]` times (absent: once): µops
   *  of the unrolled copies issue in the same cycle, the end of the unrolled body ends a cycle's
   *  issue */
  lsdUnrolling: Cited<Readonly<Record<number, number>>> | null;
  /** the JCC-erratum microcode update applies: a jump (or fused pair) that crosses or ends on a
   *  32-byte boundary is not cached in the µop cache */
  jccErratum: Cited<boolean>;
  /** a 32-byte window is held in the µop cache only when the other 32-byte half of its 64-byte
   *  line is cacheable too */
  both32ByteBlocksMustBeCacheable: Cited<boolean> | null;
  /** a macro-fusible instruction can be decoded by the last decoder (else it waits a cycle) */
  macroFusibleOnLastDecoder: Cited<boolean> | null;
  /** general-purpose register moves are eliminated at rename */
  gprMoveElimination: Cited<boolean>;
  /** vector register moves are eliminated at rename */
  vecMoveElimination: Cited<boolean>;
}

/** uiCA's microArchConfigs (commit 53aeef6) for the cores it lists; KBL, CFL are SKL copies there. */
const UICA: Record<string, { both32: boolean; dsb: number; decoders: number; lsd: boolean; lastDecoder: boolean; idq: number }> = {
  HSW: { both32: false, dsb: 6, decoders: 4, lsd: true, lastDecoder: false, idq: 56 },
  BDW: { both32: false, dsb: 6, decoders: 4, lsd: true, lastDecoder: false, idq: 56 },
  SKL: { both32: true, dsb: 6, decoders: 4, lsd: false, lastDecoder: true, idq: 64 },
  KBL: { both32: true, dsb: 6, decoders: 4, lsd: false, lastDecoder: true, idq: 64 },
  CFL: { both32: true, dsb: 6, decoders: 4, lsd: false, lastDecoder: true, idq: 64 },
  ICL: { both32: true, dsb: 6, decoders: 4, lsd: true, lastDecoder: true, idq: 70 },
};

/** uiCA's LSDUnrolling (microArchConfigs.py, commit b86ce90): fused µops per iteration → copies. */
const LSD_UNROLL_HSW: Readonly<Record<number, number>> = { 1: 8, 2: 8, 3: 8, 4: 8, 5: 6, 6: 5, 7: 4, 8: 4, 9: 3, 10: 3, 11: 3, 12: 3,
  13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 25: 2, 26: 2, 27: 2, 28: 2 };
const LSD_UNROLL_ICL: Readonly<Record<number, number>> = { 1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6, 7: 4, 8: 4, 9: 3, 10: 3, 11: 3, 12: 3,
  13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 25: 2, 26: 2, 27: 2, 28: 2, 29: 2, 30: 2 };
const LSD_UNROLL: Record<string, Readonly<Record<number, number>>> = { HSW: LSD_UNROLL_HSW, BDW: LSD_UNROLL_HSW, ICL: LSD_UNROLL_ICL };

/** Cores whose legacy decoders take 16 bytes per cycle (Nehalem through the Skylake family). */
const FETCH16 = new Set(['NHM', 'WSM', 'SNB', 'IVB', 'HSW', 'BDW', 'SKL', 'KBL', 'CFL', 'SKX', 'CLX']);

/** The per-core front-end figures. Cores uiCA's configuration does not list get null where no
 *  other citable source gives the figure (e.g. the µop cache width of SNB, IVB — uiCA marks IVB's
 *  as uncertain —, SKX, CLX, TGL, RKL; ICL's fetch width). */
export function coreFrontEnd(machine: Pick<MachineModel, 'arch' | 'issueWidth'>): CoreFrontEnd {
  const a = machine.arch;
  const u = UICA[a];
  const gprOff = MOVE_ELIM_GPR_OFF.has(a);
  const golden = a === 'ADL-P' || a === 'SPR';
  return {
    arch: a,
    issueWidth: { value: machine.issueWidth, source: `machine model ${a} (issueWidth)` },
    dsbWidth: u ? { value: u.dsb, source: `${SRC.uica} DSBWidth` } : golden ? { value: 8, source: SRC.goldenCove } : null,
    decoders: u ? { value: u.decoders, source: `${SRC.uica} nDecoders` } : golden ? { value: 6, source: SRC.goldenCove } : null,
    fetchBytes: FETCH16.has(a) ? { value: 16, source: SRC.legacyDecode } : golden ? { value: 32, source: SRC.goldenCove } : null,
    lsd: u ? { value: u.lsd, source: u.lsd ? `${SRC.uica} LSDEnabled` : SRC.lsdErratum }
      : a === 'SNB' || a === 'IVB' ? { value: true, source: SRC.lsdSnb } : null,
    idqSize: u ? { value: u.idq, source: `${SRC.uica} IDQWidth` } : null,
    lsdUnrolling: LSD_UNROLL[a] ? { value: LSD_UNROLL[a]!, source: SRC.uicaLsdUnroll } : null,
    both32ByteBlocksMustBeCacheable: u ? { value: u.both32, source: `${SRC.uica} both32ByteBlocksMustBeCacheable` } : null,
    jccErratum: { value: JCC_ERRATUM.has(a), source: SRC.jccErratum },
    macroFusibleOnLastDecoder: u ? { value: u.lastDecoder, source: `${SRC.uica} macroFusibleInstrCanBeDecodedAsLastInstr` } : null,
    gprMoveElimination: { value: MOVE_ELIM_VEC.has(a) && !gprOff, source: gprOff ? SRC.moveElimIcl : SRC.moveElimination },
    vecMoveElimination: { value: MOVE_ELIM_VEC.has(a), source: SRC.moveElimination },
  };
}

// ---- per-instruction facts ----

export type MemoryRole = 'load' | 'store' | 'load-store' | 'agen';

export interface MemoryFacts {
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
    /** comes from the microcode sequencer: more than 4 fused-domain µops */
    microcodeSequencer: boolean;
    source: string;
  };
  memory: MemoryFacts | null;
}

const GPR = /^R(AX|BX|CX|DX|SI|DI|BP|SP|8|9|1[0-5])$/;

/** Condition class of a Jcc (iced mnemonic) for the fusion tables; null for other instructions. */
function jccClass(mnemonic: string): 'O' | 'C' | 'Z' | 'BE' | 'SP' | 'L' | null {
  switch (mnemonic) {
    case 'JO': case 'JNO': return 'O';
    case 'JB': case 'JAE': return 'C';
    case 'JE': case 'JNE': return 'Z';
    case 'JBE': case 'JA': return 'BE';
    case 'JS': case 'JNS': case 'JP': case 'JNP': return 'SP';
    case 'JL': case 'JGE': case 'JLE': case 'JG': return 'L';
    default: return null;
  }
}

const FUSIBLE_FIRST = new Set(['CMP', 'TEST', 'ADD', 'SUB', 'AND', 'INC', 'DEC']);

/** Whether `first` followed directly by `jcc` macro-fuses on `arch`, by the manual's table
 *  (rule) — uops.info's macro_fusible list decides instead when the first's form has one. */
export function macroFuses(first: DecodedInstruction, firstData: ResolvedInstruction | undefined, jcc: DecodedInstruction, jccData: ResolvedInstruction | undefined, arch: string):
  { fuses: boolean; source: string; why?: string } {
  const cls = jccClass(jcc.mnemonic);
  if (cls === null) return { fuses: false, source: SRC.macroFusionManual, why: 'not a Jcc' };
  const listed = firstData?.form?.m.macroFusible;
  if (listed && listed.length > 0) {
    const name = (s: string): string => s.split(' (')[0]!.replace(/_\d+$/, '');
    const want = name(jccData?.form?.string ?? jcc.signature);
    const fuses = listed.some((s) => name(s) === want);
    return fuses ? { fuses, source: SRC.macroFusibleXml } : { fuses, source: SRC.macroFusibleXml, why: `${want} not in its macro_fusible list` };
  }
  const family = FUSION[arch];
  if (!family) return { fuses: false, source: SRC.macroFusionManual, why: `no fusion rule for ${arch}` };
  const src = family === 'snb' ? SRC.macroFusionManual : `${SRC.macroFusionManual}; ${SRC.macroFusionCorsix}`;
  const m = first.mnemonic;
  if (!FUSIBLE_FIRST.has(m) || first.prefixes.includes('lock')) return { fuses: false, source: src, why: `${m} does not fuse` };
  if (family === 'nhm' && m !== 'CMP' && m !== 'TEST') return { fuses: false, source: src, why: `only CMP and TEST fuse on ${arch}` };
  if (family === 'icl' && (m === 'INC' || m === 'DEC')) return { fuses: false, source: src, why: `INC/DEC do not fuse on ${arch}` };
  const mem = first.memory;
  const imm = first.operands.some((o) => o.immediate !== undefined);
  if (mem) {
    if (family === 'icl') return { fuses: false, source: src, why: `no fusion with a memory operand on ${arch}` };
    if (mem.write) return { fuses: false, source: src, why: 'writes memory' };
    if (imm) return { fuses: false, source: src, why: 'memory and immediate operands' };
  }
  const testLike = m === 'TEST' || m === 'AND';
  let ok: boolean;
  if (family === 'nhm') ok = testLike || cls === 'C' || cls === 'Z' || cls === 'BE' || cls === 'L';
  else if (testLike) ok = true;
  else if (m === 'INC' || m === 'DEC') ok = cls === 'Z' || cls === 'L';
  else ok = cls === 'C' || cls === 'Z' || cls === 'BE' || cls === 'L';
  return ok ? { fuses: true, source: src } : { fuses: false, source: src, why: `${m} does not fuse with ${jcc.mnemonic}` };
}

/** Whether the instruction may be the first half of a fused pair on `arch` (by kind alone). */
function canBeFirst(ins: DecodedInstruction, r: ResolvedInstruction | undefined, arch: string): boolean {
  if (r?.form?.m.macroFusible?.length) return true;
  const family = FUSION[arch];
  if (!family || !FUSIBLE_FIRST.has(ins.mnemonic) || ins.prefixes.includes('lock')) return false;
  if (family === 'nhm') return ins.mnemonic === 'CMP' || ins.mnemonic === 'TEST';
  if (family === 'icl') return ins.mnemonic !== 'INC' && ins.mnemonic !== 'DEC' && ins.memory === null;
  return !(ins.memory && (ins.memory.write || ins.operands.some((o) => o.immediate !== undefined)));
}

const sameSet = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const subset = (a: number[], b: number[]): boolean => a.length > 0 && a.every((x) => b.includes(x));

/** Which µops (indices into `uops`) are the load, store-address and store-data µops. */
export function memoryUops(uops: number[][], mem: MemoryOperand, arch: string): { load: number[]; sta: number[]; std: number[] } {
  const out = { load: [] as number[], sta: [] as number[], std: [] as number[] };
  const p = memPorts(arch);
  if (!p) return out;
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
export function addressKey(m: MemoryOperand): string {
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

function memoryFacts(ins: DecodedInstruction, r: ResolvedInstruction | undefined, uops: number[][], arch: string): MemoryFacts | null {
  const m = ins.memory;
  if (!m) return null;
  const role: MemoryRole = m.read && m.write ? 'load-store' : m.write ? 'store' : m.read ? 'load' : 'agen';
  const u = role === 'agen' ? { load: [], sta: [], std: [] } : memoryUops(uops, m, arch);
  return {
    role, key: addressKey(m), base: m.base, index: m.index, scale: m.scale, displacement: m.displacement,
    segment: m.segment, size: m.size,
    simpleStoreAddress: m.write && m.index === null,
    simpleStaPort: SIMPLE_STA_PORT7.has(arch) ? 7 : null,
    loadUops: u.load, staUops: u.sta, stdUops: u.std,
    roundTrip: role === 'load-store' ? roundTrip(r) : null,
    source: `${SRC.decoded}; ${SRC.machines}`,
  };
}

/** Fused-domain µops: uops.info's figures when the form has them, else the rule. */
function microFusion(ins: DecodedInstruction, r: ResolvedInstruction | undefined, uops: number[][], mem: MemoryFacts | null, arch: string): RefinedFacts['microFusion'] {
  const unfused = uops.length;
  const m = r?.form?.m;
  // uops.info measures memory forms with a base register only: its figures hold for indexed
  // addresses only where no unlamination rule applies
  const unlamRule = UNLAMINATION[arch];
  if (m?.retireSlots !== undefined && hasCapability(r?.origin, 'measured-fused-uops') && r!.variant !== 'same_reg' && (!ins.indexed || !unlamRule)) {
    const fused = Math.max(1, m.retireSlots);
    const decoded = m.uopsMite !== undefined ? Math.max(1, m.uopsMite) : fused;
    return { fusedUops: fused, decodedUops: decoded, unfusedUops: unfused, unlaminated: fused > decoded,
      source: m.uopsMite !== undefined ? `${SRC.retireSlotsXml}; ${SRC.uopsMiteXml}` : SRC.retireSlotsXml };
  }
  // no unfused µop (a zero idiom, a NOP, an eliminated move in the data): the reorder buffer
  // executes it itself, but it is a µop of the fused domain and takes an issue slot (uops.info
  // paper §3.1; uops_retire_slots ≥ 1, as uiCA reads it)
  if (unfused === 0) return { fusedUops: 1, decodedUops: 1, unfusedUops: 0, unlaminated: false, source: SRC.robExecuted };
  let loadOp = false;
  let store = false;
  if (mem && mem.role !== 'agen') {
    // load+op fusion: forms with an explicit memory operand (not push/pop/ret's stack accesses)
    const explicit = ins.operands.some((o) => /^M\d/.test(o.kind));
    loadOp = explicit && mem.loadUops.length > 0 && unfused > mem.loadUops.length + mem.staUops.length + mem.stdUops.length;
    store = mem.staUops.length > 0 && mem.stdUops.length > 0;
  }
  const decoded = unfused - (loadOp ? 1 : 0) - (store ? 1 : 0);
  let fused = decoded;
  let source: string = SRC.microFusion;
  if (ins.indexed && (loadOp || store) && unlamRule) {
    if (unlamRule === 'snb') {
      fused = unfused;
      source = `${SRC.microFusion}; ${SRC.unlaminationSnb}`;
    } else {
      // HSW and later: stores stay fused; a load-op stays fused only as a 2-operand form whose
      // first operand is a register both read and written (add rax, [rdi+rcx*8])
      const ops = ins.operands;
      const rmw = ops.length === 2 && ops[0]!.register !== undefined && ops[0]!.read && ops[0]!.write && !ins.flagsRead.length;
      if (loadOp && !rmw) fused += 1;
      source = `${SRC.microFusion}; ${SRC.unlaminationHsw}`;
    }
  }
  return { fusedUops: fused, decodedUops: decoded, unfusedUops: unfused, unlaminated: fused > decoded, source };
}

const MOVES = new Set(['MOV', 'MOVAPS', 'MOVAPD', 'MOVDQA', 'MOVDQU', 'MOVUPS', 'MOVUPD',
  'VMOVAPS', 'VMOVAPD', 'VMOVDQA', 'VMOVDQU', 'VMOVUPS', 'VMOVUPD']);

function moveElimination(ins: DecodedInstruction, arch: string): RefinedFacts['moveElimination'] {
  const ops = ins.operands;
  const regReg = ops.length === 2 && ops.every((o) => o.register !== undefined) && ins.memory === null && !ins.sameReg;
  if (!regReg || !MOVES.has(ins.mnemonic)) return { candidate: false, source: SRC.moveElimination };
  const w = ops[0]!.written ?? '';
  if (ins.mnemonic === 'MOV') {
    // 32- and 64-bit general-purpose moves (eax/rax, r8d/r8); not 8/16-bit ones
    const wide = /^(r[a-z]{2}|e[a-z]{2}|r\d+d?)$/.test(w) && GPR.test(ops[0]!.register!);
    if (!wide) return { candidate: false, source: SRC.moveElimination };
    if (MOVE_ELIM_GPR_OFF.has(arch)) return { candidate: false, source: SRC.moveElimIcl };
    return { candidate: MOVE_ELIM_VEC.has(arch), source: SRC.moveElimination };
  }
  // xmm / ymm register moves (zmm and masked forms left out: no source read for them)
  const vec = /^[xy]mm\d+$/.test(w) && ins.masking === null;
  return { candidate: vec && MOVE_ELIM_VEC.has(arch), source: SRC.moveElimination };
}

const ZERO_NO_PORT = new Set(['XOR', 'SUB', 'PXOR', 'VPXOR', 'VPXORD', 'VPXORQ', 'XORPS', 'XORPD', 'VXORPS', 'VXORPD',
  'PSUBB', 'PSUBW', 'PSUBD', 'PSUBQ', 'VPSUBB', 'VPSUBW', 'VPSUBD', 'VPSUBQ']);
/** zero results that uops.info found dependency-breaking although the manual's list lacks them
 *  (paper §7.3.6): no source says they need no port */
const ZERO_WITH_PORT = new Set(['PCMPGTB', 'PCMPGTW', 'PCMPGTD', 'PCMPGTQ', 'VPCMPGTB', 'VPCMPGTW', 'VPCMPGTD', 'VPCMPGTQ']);
const ONES_IDIOM = new Set(['PCMPEQB', 'PCMPEQW', 'PCMPEQD', 'PCMPEQQ', 'VPCMPEQB', 'VPCMPEQW', 'VPCMPEQD', 'VPCMPEQQ']);

function idiom(ins: DecodedInstruction, r: ResolvedInstruction | undefined, arch: string): RefinedFacts['idiom'] {
  const same = ins.sameReg && ins.memory === null && ins.masking === null;
  if (!same) return { zeroIdiom: false, dependencyBreaking: false, noPort: false, source: SRC.zeroIdiom };
  if (ONES_IDIOM.has(ins.mnemonic)) return { zeroIdiom: false, dependencyBreaking: true, noPort: false, source: SRC.zeroIdiom };
  if (ZERO_WITH_PORT.has(ins.mnemonic)) {
    const measured = hasCapability(r?.origin, 'measured-same-reg') && r!.variant === 'same_reg';
    return { zeroIdiom: true, dependencyBreaking: true, noPort: measured && (r!.uops === 0 || r!.ports.length === 0),
      source: measured ? SRC.zeroIdiomXml : SRC.zeroIdiomPaper };
  }
  if (!ZERO_NO_PORT.has(ins.mnemonic)) {
    return { zeroIdiom: false, dependencyBreaking: ins.zeroIdiom, noPort: false, source: SRC.zeroIdiom };
  }
  // GPR zero idioms: the 32- and 64-bit forms (xor eax, eax); 8/16-bit forms write part of a register
  const w = ins.operands[0]?.written ?? '';
  if ((ins.mnemonic === 'XOR' || ins.mnemonic === 'SUB') && !/^(r[a-z]{2}|e[a-z]{2}|r\d+d?)$/.test(w)) {
    return { zeroIdiom: false, dependencyBreaking: true, noPort: false, source: SRC.zeroIdiom };
  }
  if (r && hasCapability(r.origin, 'measured-same-reg') && r.variant === 'same_reg') {
    return { zeroIdiom: true, dependencyBreaking: true, noPort: r.uops === 0 || r.ports.length === 0, source: SRC.zeroIdiomXml };
  }
  return { zeroIdiom: true, dependencyBreaking: true, noPort: ZERO_IDIOM_NO_PORT.has(arch), source: SRC.zeroIdiom };
}

const crosses32 = (start: number, end: number): boolean => Math.floor(start / 32) !== Math.floor((end - 1) / 32);

/** Facts of every line of `instrs` (program order) on `machine`: the same order and length. */
export function refinedFacts(instrs: DecodedInstruction[], resolved: (ResolvedInstruction | undefined)[], uopsOf: number[][][], machine: MachineModel, regionStart?: number): RefinedFacts[] {
  const arch = machine.arch;
  const start = regionStart ?? instrs[0]?.address ?? 0;
  const erratum = JCC_ERRATUM.has(arch);
  const out: RefinedFacts[] = [];
  const fusedWithNext = instrs.map((ins, i) => {
    const next = instrs[i + 1];
    if (!next || next.address !== ins.address + ins.length) return null;
    return macroFuses(ins, resolved[i], next, resolved[i + 1], arch);
  });
  for (let i = 0; i < instrs.length; i++) {
    const ins = instrs[i]!;
    const r = resolved[i];
    const uops = uopsOf[i]!;
    const withPrev = i > 0 ? fusedWithNext[i - 1] : null;
    const withNext = fusedWithNext[i];
    const isJcc = jccClass(ins.mnemonic) !== null;
    const firstHalf = canBeFirst(ins, r, arch);
    const mf: RefinedFacts['macroFusion'] = {
      firstHalf,
      fusesWithPrevious: isJcc && withPrev?.fuses === true,
      fusesWithNext: withNext?.fuses === true,
      source: isJcc ? (withPrev?.source ?? SRC.macroFusionManual) : (withNext?.source ?? (r?.form?.m.macroFusible?.length ? SRC.macroFusibleXml : SRC.macroFusionManual)),
    };
    // why not: on a Jcc, and on a first half whose next line is a Jcc
    const why = isJcc ? (i === 0 ? 'first line' : withPrev ? withPrev.why : 'not adjacent to the previous line')
      : firstHalf && withNext && withNext.why !== 'not a Jcc' ? withNext.why : undefined;
    if (why && !(isJcc ? mf.fusesWithPrevious : mf.fusesWithNext)) mf.why = why;
    const memory = memoryFacts(ins, r, uops, arch);
    const micro = microFusion(ins, r, uops, memory, arch);
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
      idiom: idiom(ins, r, arch),
      moveElimination: moveElimination(ins, arch),
      frontEnd: {
        length: ins.length,
        address: ins.address,
        offset: ins.address - start,
        loopBranch: last && b?.backward === true && b.targetLine !== null && (b.kind === 'conditional' || b.kind === 'unconditional'),
        jcc32B,
        jccErratumApplies: erratum && jcc32B !== null && (jcc32B.crosses || jcc32B.endsOn),
        complexDecoder: micro.decodedUops > 1,
        microcodeSequencer: micro.decodedUops > 4,
        source: `${SRC.decoded}; ${SRC.jccErratum}`,
      },
      memory,
    });
  }
  return out;
}
