// Contract of the disasm stage: what bytes become. Everything downstream (data matching,
// the dependency graph, the engine) reads these shapes, so a change here is a change of every stage.

/** The RFLAGS bits uopscope tracks separately (thesis §2.4: dependencies per flag bit). */
export type Flag = 'CF' | 'PF' | 'AF' | 'ZF' | 'SF' | 'OF' | 'DF';

/**
 * What a dependency is on: an architectural register, normalized by registers.ts's
 * normalizeRegisterName (AL/AH/AX/EAX/RAX → 'RAX', R8B/R8W/R8D/R8 → 'R8', XMMn/YMMn/ZMMn →
 * 'XMMn', the whole vector register n; mask registers 'K0'…'K7'; RIP is never a dependency),
 * or a flag bit by its Flag name ('ZF'). Always upper-case, so a name that was not normalized
 * ('rax', 'eax' is not caught, but its lower-case spelling is) does not type-check. The same
 * names key the data stage's latencies and the engine's dependencies.
 */
export type Resource = Uppercase<string>;

export interface MemoryOperand {
  base: string | null; // normalized register or null
  index: string | null; // normalized register or null
  scale: number; // 1, 2, 4, 8
  displacement: number;
  segment: string | null; // 'FS', 'GS' when overridden, else null
  size: number; // bytes accessed (0 for LEA / unknown)
  read: boolean;
  write: boolean;
  /** a gather's or scatter's vector index (VSIB addressing): the index register's width, as
   *  uops.info names the operand (`VSIB_XMM`); `index` is its normalized register */
  vsib?: 'XMM' | 'YMM' | 'ZMM';
}

export type BranchKind =
  | 'conditional' // Jcc, JRCXZ, LOOPcc
  | 'unconditional' // JMP rel
  | 'indirect' // JMP r/m
  | 'call'
  | 'return';

export interface Branch {
  kind: BranchKind;
  /** target address for direct branches, else null */
  target: number | null;
  /** the line the target lands on inside the region, or null when it leaves the region */
  targetLine: number | null;
  /** target address <= own address (a loop's back edge) */
  backward: boolean;
  /** in a relocatable object, the symbol a relocation names as the target (then `target` is
   *  null: the bytes hold no target yet) */
  symbol?: string;
}

/** uops.info operand kinds as they appear in its `string` attribute. */
type OperandKind = string; // 'R64','R32','R16','R8','M64','M128','XMM','YMM','ZMM','K','I8','I32','Rel8','Rel32','AGEN',...

export interface DecodedOperand {
  kind: OperandKind;
  /** normalized register for register operands */
  register?: Resource;
  /** the register's name as written, lower-case ('eax', 'xmm2') */
  written?: string;
  read: boolean;
  write: boolean;
  /** immediate value for immediates */
  immediate?: number;
}

export interface DecodedInstruction {
  /** 0-based position inside the selected region (the thesis numbers lines from 0) */
  line: number;
  address: number;
  /** lower-case hex without spaces, e.g. '4801d8' */
  bytes: string;
  length: number;
  intel: string; // 'add rbx, rax'
  att: string; // 'addq %rax, %rbx'
  mnemonic: string; // upper-case iced mnemonic, 'ADD', 'VADDPD', 'JNE'
  /** uops.info-style signature: 'ADD (R64, M64)', 'VADDPD (YMM, YMM, M256)', 'JNZ (Rel8)' */
  signature: string;
  /** explicit operands in Intel order */
  operands: DecodedOperand[];
  /** XED iform when it can be derived (e.g. 'ADD_GPRv_GPRv_01'), else null */
  iform: string | null;
  /** all registers read, implicit ones and address registers included, normalized, no flags */
  reads: Resource[];
  /** all registers written, implicit ones included, normalized, no flags */
  writes: Resource[];
  flagsRead: Flag[];
  flagsWritten: Flag[];
  memory: MemoryOperand | null;
  /** the memory operand has an index register */
  indexed: boolean;
  /** all register operands name the same register (xor eax, eax; vpxor xmm1, xmm1, xmm1) */
  sameReg: boolean;
  /** a recognised zero/dependency-breaking idiom: then the written register does not depend on the read */
  zeroIdiom: boolean;
  branch: Branch | null;
  /** flow control that is not a branch: an interrupt (int3, syscall), a transaction's start, end
   *  or abort (xbegin resumes at its fallback address when the transaction aborts), an
   *  instruction that always faults (ud2); absent for every other instruction */
  otherFlow?: 'interrupt' | 'transaction' | 'exception';
  /** LOCK / REP prefixes as written */
  prefixes: string[];
  /** iced-x86's Code name ('Add_rm64_imm8'): the exact encoding form, the key of the
   *  LLVM-derived data (src/data/llvmModel.ts) */
  code: string;
  /** iced-x86's CPUID feature names the instruction needs ('AVX512F', 'AVX512VL') */
  cpuid: string[];
  /** EVEX op-mask: merge-masking ({k1}), zero-masking ({k1}{z}) or none */
  masking: 'merge' | 'zero' | null;
  /** EVEX embedded broadcast of the memory operand ({1to16}) */
  broadcast: boolean;
}

export type InputFormat = 'elf64' | 'elf32' | 'pe' | 'macho' | 'raw' | 'asm';

export interface Region {
  /** 1-based number shown by `uopscope regions` */
  index: number;
  kind: 'iaca' | 'llvm-mca' | 'osaca' | 'function' | 'range' | 'loop' | 'whole';
  name: string; // e.g. 'IACA region 1', 'loop at 0x401020', symbol name
  start: number; // address of the first instruction
  end: number; // address after the last instruction
  section?: string;
  /** how the region was chosen when the user did not name it exactly (one line, for stderr and
   *  the report): the main loop of a function, region 1 of several, … */
  note?: string;
  /** a loop: its blocks in the order the simulation lays them out, when that is not the one
   *  range start–end (a block of the range is not the loop's, or the loop's test is not first) */
  segments?: { start: number; end: number }[];
  /** a loop's part in its function (src/disasm/regions.ts chooses it): the main loop, a
   *  remainder or prologue copy of the main loop's work, a loop around other loops, or another
   *  loop of its own */
  role?: LoopRole;
}

export type LoopRole = 'main' | 'remainder' | 'prologue' | 'outer' | 'other';

export interface LoadedRegion {
  file: string;
  format: InputFormat;
  region: Region;
  instructions: DecodedInstruction[];
  /** the region is in a relocatable object's section aligned to `align` bytes: its addresses
   *  are offsets in `section`, not where the linked program runs it */
  placement?: { section: string; align: number };
}

/** A dependency edge: consumer `to` reads `resource` last written by `from` (read-after-write). */
export interface DepEdge {
  from: number; // producer line
  to: number; // consumer line
  resource: Resource; // register or flag bit
  /** the producer is in the previous iteration (found by doubling the program, §3.1.2) */
  loopCarried: boolean;
}

export interface DependencyGraph {
  lines: number; // number of instructions (nodes 0..lines-1)
  edges: DepEdge[];
}

export interface CfgEdge {
  from: number;
  to: number;
  kind: 'fallthrough' | 'taken' | 'back';
}
export interface ControlFlowGraph {
  lines: number;
  edges: CfgEdge[];
}

// ---- Inputs and loaded images ----

/** Where the code comes from: exactly one of file / hex / raw. */
export interface InputOptions {
  /** a binary (ELF, PE/COFF, Mach-O) or an assembly source (.s, .S, .asm) */
  file?: string;
  /** raw machine code as hex text, e.g. '4801d8' (spaces, commas and 0x prefixes allowed) */
  hex?: string;
  /** a file holding raw machine code */
  raw?: string;
  /** which tool assembles assembly input; default 'as' */
  assembler?: 'as' | 'clang';
  /** assembly input's syntax when it does not say (.intel_syntax); default: recognised from
   *  its instructions */
  syntax?: 'att' | 'intel';
  /** address of the first byte of raw code (default 0) */
  baseAddress?: number;
  /** the most instructions a region, or an assembly file's code, may hold (src/disasm/limits.ts) */
  maxInstructions?: number;
}

/** Which code to analyse; at most one of region / function / range. */
export interface RegionSelection {
  /** 1-based number from `uopscope regions` */
  region?: number;
  /** a symbol from the file's symbol table */
  function?: string;
  /** 'START:END' addresses (hex with 0x or decimal), END exclusive */
  range?: string;
  /** --function: the whole function even when it holds loops (a listing); by default a function
   *  with loops is its innermost loop, since straight-line simulation of a function with loops
   *  means nothing */
  wholeFunction?: boolean;
  /** --function: its Nth loop (1-based, in the order functionLoops lists them) instead of its
   *  main loop (the explorer's picker) */
  functionLoop?: number;
  /** the most instructions the region may hold (src/disasm/limits.ts) */
  maxInstructions?: number;
  /** called with the region's instruction count once its bytes are decoded, before its lines
   *  are described (most of what decoding costs): throws to refuse the region (the CLI's check
   *  of the room an address-space limit leaves) */
  admit?: (lines: number) => void;
}

export interface ImageSection {
  name: string;
  address: number;
  data: Uint8Array;
  executable: boolean;
  /** a relocatable object's section: its addresses are offsets the linker moves by a multiple of
   *  `align` bytes, so where its code lands within a 32- or 64-byte block is not yet known */
  placement?: { align: number };
  /** a relocatable object's relocations that name a PC-relative field's target: the field's
   *  address → the symbol (the bytes there hold no target until the linker writes one) */
  relocatedTargets?: Map<number, string>;
}

export interface ImageSymbol {
  name: string;
  address: number;
  /** size in bytes when the format records it (ELF), else null */
  size: number | null;
  section: string | null;
}

/** A loaded input before a region is chosen. */
export interface LoadedInput {
  /** what the user named: a path, '<hex>' or the --raw path */
  file: string;
  format: InputFormat;
  bitness: 32 | 64;
  /** e.g. 'x86-64', 'i386', plus the slice for universal Mach-O files */
  machine: string;
  sections: ImageSection[];
  symbols: ImageSymbol[];
  /** regions marked by comments in assembly input (LLVM-MCA / OSACA) */
  commentRegions: Region[];
}
