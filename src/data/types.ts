// Contract of the data stage: uops.info's measurements and the machine models.

/** One group of `ports="2*p015+1*p23"`: `count` µops, each of which may use any of `ports`. */
export interface PortGroup {
  count: number;
  ports: number[];        // sorted port numbers
}

/** A `<latency>` element of instructions.xml (one operand pair). */
export interface LatencyEntry {
  startOp: number;        // operand idx in the uops.info instruction
  targetOp: number;
  cycles?: number;
  cyclesSameReg?: number;
  cyclesAddr?: number;      // from an address (base) register
  cyclesAddrIndex?: number; // from the index register
  cyclesMem?: number;       // through memory
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
  ports: PortGroup[];     // empty when no port is used (eliminated, zero idiom, nop)
  latencies: LatencyEntry[];
  tpUnrolled?: number;
  tpLoop?: number;
  divCycles?: number;
  /** the `_same_reg` variant (all register operands the same register), when measured */
  sameReg?: { uops: number; ports: PortGroup[]; tpUnrolled?: number; latencies?: LatencyEntry[] };
  /** the `_indexed` variant (memory operand with an index register), when measured */
  indexed?: { uops: number; ports: PortGroup[]; tpUnrolled?: number };
  macroFusible?: string[];
}

/** One instruction form (one `<instruction>` element) with its measurements per architecture. */
export interface InstructionForm {
  string: string;          // 'ADD (R64, M64)' (opcode-variant suffixes such as ADD_01 kept as in the file)
  iform: string;
  asm: string;             // mnemonic as in the file
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
  arch: string;            // 'SKL'
  source: DataSource;
  forms: ArchForm[];
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
  kind: 'embedded' | 'imported' | 'file';
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

/** How a decoded instruction was matched to a form (for reports and `--explain`). */
export type MatchRule = 'iform' | 'signature' | 'signature-width' | 'fallback' | 'none';

/** The measurement chosen for one decoded instruction on one architecture. */
export interface ResolvedInstruction {
  line: number;
  /** null when no data: the instruction is "unknown" (IACA's X) */
  form: ArchForm | null;
  rule: MatchRule;
  uops: number;
  ports: PortGroup[];
  /** per-operand latency: cycles until a consumer reading `resource` (a register or flag the
   *  instruction writes) may start, i.e. the largest latency to the operand writing it */
  latencyByResource: Record<string, number>;
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
}

/** Machine model of one core (assets/uarch/machines/*.json). */
export interface MachineModel {
  arch: string;            // 'SKL'
  name: string;            // 'Skylake (client)'
  /** every execution port, in order, e.g. [0,1,2,3,4,5,6,7] */
  ports: number[];
  /** what each port does, for display: { '0': 'ALU, FMA, DIV, branch', … } */
  portRoles: Record<string, string>;
  aluPorts: number[];
  loadPorts: number[];
  storeAddressPorts: number[];
  storeDataPorts: number[];
  branchPorts: number[];
  /** port of the divider pipe */
  dividerPort: number;
  /** µops the front end delivers per cycle (SUACA's loads per cycle) */
  issueWidth: number;
  /** reservation-station (scheduler) capacity in µops */
  rsSize: number;
  robSize: number;
  /** ISA extensions the core supports ('SSE2','AVX','AVX2','FMA','AVX512F',…) */
  isa: string[];
  /** architectures whose data this one inherits when it has none of its own (KBL, CFL → SKL) */
  inheritsDataFrom?: string;
  /** where each figure comes from */
  sources: string[];
}
