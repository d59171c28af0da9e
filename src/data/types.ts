// Contract of the data stage: uops.info's measurements and the machine models.

import type { Resource } from '../disasm/types.js';

/** One group of `ports="2*p015+1*p23"`: `count` µops, each of which may use any of `ports`. */
export interface PortGroup {
  count: number;
  ports: number[]; // sorted port numbers
}

/** A µop of these ports (the set of a PortGroup) holds the port it takes for `cycles` cycles, the
 *  cycles after the first refused to every other µop (LLVM's resource cycles on a model named by
 *  pipe: one pipe of the set busy that long, as llvm-mca runs it; docs/data.md). */
export interface PortHold {
  ports: number[];
  cycles: number;
}

/** A `<latency>` element of instructions.xml (one operand pair). */
export interface LatencyEntry {
  startOp: number; // operand idx in the uops.info instruction
  targetOp: number;
  cycles?: number;
  cyclesSameReg?: number;
  cyclesAddr?: number; // from an address (base) register
  cyclesAddrIndex?: number; // from the index register
  cyclesMem?: number; // through memory
  minCycles?: number;
  maxCycles?: number;
  /** the figure is an upper bound */
  upperBound?: boolean;
}

/** A uops.info operand description (`<operand idx=… type=…>`). */
export interface DataOperand {
  idx: number;
  type: 'reg' | 'mem' | 'imm' | 'flags' | 'agen' | 'relbr' | string;
  read: boolean;
  write: boolean;
  suppressed: boolean;
  width?: number;
  /** for reg operands: the registers it may be (upper-case, as in the file) */
  registers?: string[];
  /** for flags operands: flag → 'r' | 'w' | 'rw' | 'cw' | 'undef' … */
  flags?: Record<string, string>;
}

/** Measurements of one instruction form on one architecture. */
export interface Measurement {
  uops: number;
  ports: PortGroup[]; // empty when no port is used (eliminated, zero idiom, nop)
  latencies: LatencyEntry[];
  tpUnrolled?: number;
  tpLoop?: number;
  divCycles?: number;
  /** the `_same_reg` variant (all register operands the same register), when measured */
  sameReg?: { uops: number; ports: PortGroup[]; tpUnrolled?: number; latencies?: LatencyEntry[] };
  /** the `_indexed` variant (memory operand with an index register), when measured */
  indexed?: { uops: number; ports: PortGroup[]; tpUnrolled?: number };
  macroFusible?: string[];
  /** `uops_retire_slots`: fused-domain µops at retirement (after unlamination), when measured */
  retireSlots?: number;
  /** `uops_MITE`: fused-domain µops the legacy decoders deliver (before unlamination), when measured */
  uopsMite?: number;
  /** `uops_MS`: fused-domain µops the microcode sequencer delivers, when measured */
  uopsMs?: number;
}

/** One instruction form (one `<instruction>` element) with its measurements per architecture. */
export interface InstructionForm {
  string: string; // 'ADD (R64, M64)' (opcode-variant suffixes such as ADD_01 kept as in the file)
  iform: string;
  asm: string; // mnemonic as in the file
  extension?: string;
  isaSet?: string;
  category?: string;
  operands: DataOperand[];
  /** optional distinguishing attributes (agen, bcast, eosz, high8, immzero, mask, rep, rm, sae, zeroing, locked) */
  attributes: Record<string, string>;
  arch: Record<string, Measurement>;
}

/** All forms known for one architecture, as the engine needs them. */
export interface ArchData {
  arch: ArchName; // e.g. SKL
  /** the XML source of `forms` (kind 'none' when there are no XML forms, only the LLVM model) */
  source: DataSource;
  forms: ArchForm[];
  /** the embedded XML forms, tried after `forms` when those come from an imported or
   *  --uops-xml file (absent when `forms` are the embedded ones) */
  embeddedForms?: ArchForm[];
  /** the LLVM-derived model, tried last (null when uopscope has none for this core) */
  llvm?: import('./llvmModel.js').LlvmArchModel | null;
  /** every source's figures for this core, in resolution order (src/data/providers/registry.ts);
   *  without it the resolver makes them from `forms`, `embeddedForms` and `llvm` */
  layers?: import('./providers/registry.js').FigureLayer[];
}

/** A form reduced to one architecture (what the cache stores per architecture). */
export interface ArchForm {
  string: string;
  iform: string;
  asm: string;
  operands: DataOperand[];
  attributes: Record<string, string>;
  m: Measurement;
}

export interface DataSource {
  kind: 'embedded' | 'imported' | 'file' | 'none';
  /** file the figures were read from */
  path: string;
  /** the `date` attribute of the uops.info file, or when it was imported */
  date?: string;
  forms: number;
  /** forms this architecture lacks were taken from this one (MachineModel.inheritsDataFrom) */
  inheritedFrom?: string;
  /** how many forms were inherited */
  inheritedForms?: number;
}

/** How a decoded instruction was matched to a form (for reports and `--explain`): by the XML
 *  forms' iform / signature / relaxed widths, or by its exact encoding form in the LLVM-derived
 *  data ('code'). */
export type MatchRule = 'iform' | 'signature' | 'signature-width' | 'code' | 'fallback' | 'none';

// Where a line's figures come from (FigureOrigin), the letters and the legend: src/data/origins.ts.
export type { FigureOrigin } from './origins.js';
export { ORIGIN_LETTER, originLegend } from './origins.js';
import type { FigureOrigin } from './origins.js';

/** Where one line's figures were found inside their source, for the explorer's detail and the
 *  JSON (any provider: the LLVM data's key, a measured file's form). */
export interface Provenance {
  /** the record's key in the source ('Add_rm64_imm8:m', 'ADD (R64, I8)') */
  key: string;
  /** one line for people ('LLVM 19.1.7 skylake model (Add_rm64_imm8)') */
  text: string;
  /** the source's own fields, written to the JSON under the origin's name */
  detail?: Record<string, unknown>;
}

/** The measurement chosen for one decoded instruction on one architecture. */
export interface ResolvedInstruction {
  line: number;
  /** null when no data: the instruction is "unknown" (IACA's X) */
  form: ArchForm | null;
  rule: MatchRule;
  uops: number;
  ports: PortGroup[];
  /** µops of `ports` that hold their port more than one cycle (absent: every µop one cycle) */
  portHold?: PortHold[];
  /** per-operand latency: cycles until a consumer reading `resource` (a register or flag the
   *  instruction writes) may start, i.e. the largest latency to the operand writing it */
  latencyByResource: Record<Resource, number>;
  /** the instruction's own maximum latency (thesis §1.5) */
  maxLatency: number;
  divCycles: number;
  /** set when `divCycles` is not the file's div_cycles but the form's measured throughput
   *  (a division without divider figures: never faster than measured) */
  divCyclesFrom?: 'TP_loop' | 'TP_unrolled';
  /** `_indexed` / `_same_reg` figures were used */
  variant: 'plain' | 'indexed' | 'same_reg';
  unknown: boolean;
  /** when unknown and the fallback 'alu' was chosen: 1 µop on any ALU port, latency 1 */
  fallback: 'skip' | 'alu' | null;
  /** where the figures come from ('none' when unknown) */
  origin: FigureOrigin;
  /** where in its source the figures were found (absent for the forms of an XML file, which
   *  `form` names, and for unknown lines) */
  provenance?: Provenance;
  /** when unknown: why ('no source has figures for this form', 'LLVM models it only as a
   *  placeholder (microcoded/system)', 'SKL cannot run it (needs AVX512F)') */
  why?: string;
  /** ISA extensions this core lacks for the instruction (a line the core cannot run) */
  missingIsa?: string[];
  /** registers and flags this instruction reads late, with the cycles (LLVM's ReadAdvance, e.g.
   *  the register operand of a load-op form): a dependency on them is that much shorter */
  readAdvance?: Record<string, number>;
  /** the source's model gives the form no µops: what the figures give it instead and from where
   *  (src/data/resolve.ts `withWork`); the report's notes say it */
  zeroUops?: ZeroUops;
}

/** A form a source's model gives no µops: that model, and the work the figures give it instead. */
export interface ZeroUops {
  /** 'LLVM 19.1.7's sapphirerapids model' */
  model: string;
  /** '1 µop on the core's ALU ports (1*p0156B, as the model gives the 32-bit form)' */
  given: string;
}

/** An architecture as uops.info and the machine models name it: upper-case (SKL, ADL-P).
 *  Names the user writes become one through src/data/machines.ts's parseArchName. */
export type ArchName = Uppercase<string>;

/** A figure with where it comes from (a source text; docs/engine.md lists the sources). */
export interface Cited<T> {
  value: T;
  source: string;
}

/** Which instructions macro-fuse with a following Jcc: Nehalem's rule (CMP and TEST only), Sandy
 *  Bridge's table, Ice Lake's (no INC/DEC, no memory operand), AMD's from Bulldozer to Zen 2 (CMP
 *  and TEST with every flag-based Jcc) or AMD's from Zen 3 on (also AND, OR, XOR, ADD, SUB, INC,
 *  DEC). */
type MacroFusionRule = 'nhm' | 'snb' | 'icl' | 'zen' | 'zen3';
/** When a micro-fused µop with an indexed address is unlaminated: always (Sandy Bridge) or unless
 *  it is a 2-operand form reading and writing its register (Haswell and later). */
type UnlaminationRule = 'snb' | 'hsw';

/** One scheduler queue: a µop waits in exactly one and issues only to the queue's ports. */
interface SchedulerQueue {
  name: string;
  /** entries (µops or macro-ops: `CoreSchedulers.unit`) */
  size: Cited<number>;
  /** the port numbers (entries of `MachineModel.ports`) it issues to; every port is in one queue */
  ports: number[];
  /** ops the front end may send into it per cycle (absent or null: no limit but the width) */
  dispatchPerCycle?: Cited<number> | null;
}

/** A FIFO in front of named queues: an op steered to one of them waits here when that queue is
 *  full (it cannot issue from here), and moves on in order as room appears. */
interface NonSchedulingQueue {
  name: string;
  size: Cited<number>;
  /** names of the queues it feeds */
  queues: string[];
}

/** A core's scheduler queues (docs/engine.md, "Scheduler queues"). */
export interface CoreSchedulers {
  queues: SchedulerQueue[];
  nonScheduling?: NonSchedulingQueue[];
  /** the rule choosing a queue for a µop whose ports several queues feed: 'even', round-robin
   *  over the eligible queues in record order, whatever their occupancy */
  steering: Cited<'even'>;
  /** what the issue width and the queues' entries count: 'macro-op' (an instruction is one entry
   *  that issues its µops) or 'uop' */
  unit: Cited<'macro-op' | 'uop'>;
}

/** One CPUID signature of a core (family 6 model 0x55 steppings 5–15). */
interface CpuidSignature {
  vendor: string;
  family: number;
  models: number[];
  /** inclusive range; absent: every stepping */
  steppings?: [number, number];
  /** said when the host is identified by this signature (e.g. a derivative mapped to this core) */
  note?: string;
}

/** How the world names a core: CPUID, compilers, LLVM. Not inherited. */
interface CoreIdentity {
  cpuid: CpuidSignature[];
  /** /proc/cpuinfo flags every part with this core has (to tell cores apart when a virtual
   *  machine's CPUID names another core) */
  flags?: string[];
  /** per-core L2 cache size in KiB (as /sys reports it), to tell cores apart */
  l2KiB?: number[];
  /** LLVM 19's -mcpu name for the core's scheduling model */
  llvmCpu?: string;
  /** the core whose LLVM model stands in for the forms this core's model gives no µops (the core
   *  this one follows, with the same port numbers); absent: no stand-in */
  llvmPredecessor?: ArchName;
  /** the ports LLVM's resources stand for, by the record's port names, for a model whose resources
   *  are not named by port number (AMD's: `Zn4ALU0` → ALU0, `Zn4FP45` → FP4 and FP5); a group not
   *  listed is the union of its units; a resource not listed and not named …Port<N> is no port */
  llvmPipes?: Record<string, string[]>;
  /** what gcc's -march and llvm-mca's -mcpu call the core (lower case) */
  compilerNames: string[];
  source: string;
}

/** Ports of the memory µops. */
interface CoreMemoryPorts {
  load: number[];
  storeAddress: number[];
  storeData: number[];
  /** a port only store-address µops of simple (base + displacement) addresses may use */
  simpleStoreAddressPort: number | null;
  source: string;
}

interface CoreFusion {
  macro: Cited<MacroFusionRule> | null;
  unlamination: Cited<UnlaminationRule> | null;
}

/** What the renamer removes or does without an execution port. */
interface CoreRename {
  /** zero idioms need no port */
  zeroIdiomsNoPort: Cited<boolean>;
  /** 32- and 64-bit general-purpose register moves are eliminated */
  gprMoveElimination: Cited<boolean>;
  /** xmm/ymm register moves are eliminated */
  vecMoveElimination: Cited<boolean>;
  /** unmasked EVEX register moves are eliminated too: zmm ones and the AVX-512-only mnemonics
   *  (VMOVDQA32/64, VMOVDQU8/16/32/64) to xmm, ymm or zmm; absent: not (no source read) */
  evexMoveElimination?: Cited<boolean>;
  /** add/sub r64, imm8 and inc/dec r64 are executed at rename, a dependent chain of them included
   *  (Golden Cove); absent: not */
  immediateAdds?: Cited<boolean>;
}

/** The front end's figures; null: no public source uopscope can cite. */
export interface CoreFrontEndFigures {
  /** µops the µop cache (DSB) delivers per cycle */
  dsbWidth: Cited<number> | null;
  /** legacy decoders (one complex, the rest simple) */
  decoders: Cited<number> | null;
  /** bytes the legacy decode pipeline fetches and predecodes per cycle */
  fetchBytes: Cited<number> | null;
  /** the loop stream detector is on */
  lsd: Cited<boolean> | null;
  /** fused-domain µops the instruction decode queue holds (also the largest loop the LSD streams) */
  idqSize: Cited<number> | null;
  /** the LSD unrolls a loop of k fused µops `value[k]` times (absent: once) */
  lsdUnrolling: Cited<Readonly<Record<number, number>>> | null;
  /** the JCC-erratum microcode update applies */
  jccErratum: Cited<boolean>;
  /** a 32-byte window is held in the µop cache only when the other half of its 64-byte line is too */
  both32ByteBlocksMustBeCacheable: Cited<boolean> | null;
  /** a macro-fusible instruction can be decoded by the last decoder */
  macroFusibleOnLastDecoder: Cited<boolean> | null;
  /** the µop cache delivers from up to two of its blocks (ways of 6 µops) per cycle, with uiCA's
   *  slot rule at a block's end (its DSB.cycle); absent or null: one 32-byte window per cycle */
  dsbTwoBlocks?: Cited<boolean> | null;
  /** fused-domain µops the microcode sequencer delivers per cycle (uiCA's MicrocodeSequencer);
   *  absent or null: the sequencer is not modelled (its µops enter as the decoder's) */
  msWidth?: Cited<number> | null;
  /** cycles the front end delivers nothing when it switches from the µop cache to the microcode
   *  sequencer (uiCA's DSB_MS_Stall) */
  dsbMsStall?: Cited<number> | null;
  /** cycles the front end delivers nothing when it switches from the legacy decoders to the
   *  microcode sequencer, and again when it switches back (uiCA's MicrocodeSequencer.addUops) */
  miteMsStall?: Cited<number> | null;
  /** why the front end's delivery is not modelled on this core although figures are cited (a
   *  mechanism the figures do not describe); absent: modelled as far as the figures go */
  notModelled?: string | null;
}

/** Microcode updates that change the figures of some forms on the core (src/data/microcode.ts). */
interface CoreMicrocode {
  /** the core is affected by Gather Data Sampling (CVE-2022-40982): Intel's mitigation, in
   *  microcode since August 2023 and on by default, makes gathers slower than the figures measured
   *  before it */
  gatherDataSampling: Cited<boolean>;
}

/**
 * One core (assets/uarch/machines/<ARCH>.json): everything that makes it, each figure with its
 * source. A file may name another core in `inherits`: its fields are that core's, with the file's
 * own on top (objects merged field by field); `arch`, `name`, `order`, `identity`, `notes`,
 * `sources` and `inheritsDataFrom` are each file's own. docs/data.md describes the fields.
 */
export interface MachineModel {
  arch: ArchName; // e.g. SKL
  name: string; // e.g. Skylake (client)
  /** position in lists (oldest core first); cores without one come last */
  order?: number;
  /** the core whose record this one extends (same microarchitecture) */
  inherits?: ArchName;
  /** every execution port, in order, e.g. [0,1,2,3,4,5,6,7] (at most 30: the engine's limit) */
  ports: number[];
  /** display names of the ports, one per entry of `ports` in the same order (AMD's pipe names:
   *  ALU0, AGU1, FP2); absent: the ports are shown by number (0–9, A, B in port strings) */
  portNames?: string[];
  /** ports of the 'alu' fallback for instructions without data */
  aluPorts: number[];
  /** port of the divider pipe */
  dividerPort: number;
  /** µops the front end delivers per cycle (SUACA's loads per cycle) */
  issueWidth: number;
  /** reservation-station (scheduler) capacity in µops; with `schedulers`, the sum of the queues' sizes */
  rsSize: number;
  /** the scheduler queues, when the core has several instead of one unified station (absent: one
   *  station of `rsSize` entries feeding every port) */
  schedulers?: CoreSchedulers;
  /** ISA extensions the core supports ('SSE2','AVX','AVX2','FMA','AVX512F',…) */
  isa: string[];
  /** architectures whose data this one inherits when it has none of its own (Kaby Lake's, Skylake's) */
  inheritsDataFrom?: ArchName;
  identity?: CoreIdentity;
  memory?: CoreMemoryPorts;
  fusion?: CoreFusion;
  rename?: CoreRename;
  frontEnd?: CoreFrontEndFigures;
  /** what the core's current microcode changes in the figures measured before it; absent: no
   *  change named for the core */
  microcode?: CoreMicrocode;
  /** source ids this file adds to the shared ones (src/data/citations.ts) for its figures */
  citations?: Record<string, string>;
  /** where each figure comes from */
  sources: string[];
  notes?: string[];
}
