// Decoding with iced-x86: bytes → DecodedInstruction (contract in types.ts), with explicit and
// implicit register accesses from iced's InstructionInfoFactory, each RFLAGS bit separately,
// address registers as reads, the uops.info signature and the zero-idiom / same-register facts.
import { raiseHint } from './limits.js';
import {
  Code,
  CpuidFeature,
  Decoder,
  DecoderOptions,
  FlowControl,
  Formatter,
  FormatterSyntax,
  InstructionInfoFactory,
  MemorySizeExt,
  Mnemonic,
  OpAccess,
  OpKind,
  Register,
  RflagsBits,
  type Instruction,
} from './iced.js';
import { UserError } from '../errors.js';
import { hex } from './bytes.js';
import { registerKind, resourceOfRegister, writtenName } from './icedRegisters.js';
import { idiomKind } from './idioms.js';
import { iformOf, operandKind, signatureOf, xedMnemonic } from './signature.js';
import type { Branch, BranchKind, DecodedInstruction, DecodedOperand, Flag, MemoryOperand, Resource } from './types.js';

/** How many undecodable bytes a message shows. */
const UNDECODABLE_ECHO = 4;

const FLAG_BITS: [Flag, number][] = [
  ['CF', RflagsBits.CF],
  ['PF', RflagsBits.PF],
  ['AF', RflagsBits.AF],
  ['ZF', RflagsBits.ZF],
  ['SF', RflagsBits.SF],
  ['OF', RflagsBits.OF],
  ['DF', RflagsBits.DF],
];
const flagsOf = (bits: number): Flag[] => FLAG_BITS.filter(([, b]) => bits & b).map(([f]) => f);

/** Shifts and rotates by CL leave the flags unchanged when the count is 0: the flags they
 *  write are also read (uops.info's "cw": conditionally written). */
const COUNT_DEPENDENT_FLAGS = new Set(['SHL', 'SHR', 'SAR', 'ROL', 'ROR', 'RCL', 'RCR', 'SHLD', 'SHRD']);

const isRead = (a: OpAccess): boolean =>
  a === OpAccess.Read || a === OpAccess.CondRead || a === OpAccess.ReadWrite || a === OpAccess.ReadCondWrite;
const isWrite = (a: OpAccess): boolean =>
  a === OpAccess.Write || a === OpAccess.CondWrite || a === OpAccess.ReadWrite || a === OpAccess.ReadCondWrite;

function makeFormatter(syntax: FormatterSyntax): Formatter {
  const f = new Formatter(syntax);
  f.spaceAfterOperandSeparator = true;
  f.hexPrefix = '0x';
  f.hexSuffix = '';
  f.uppercaseHex = false;
  f.branchLeadingZeros = false;
  f.showBranchSize = false;
  f.smallHexNumbersInDecimal = false;
  f.leadingZeros = false;
  f.ripRelativeAddresses = true; // '[rip+0x10]' as objdump writes it
  if (syntax === FormatterSyntax.Intel) f.memorySizeOptions = 1; // MemorySizeOptions.Always: 'qword ptr' like objdump
  if (syntax === FormatterSyntax.Gas) f.gasShowMnemonicSizeSuffix = true;
  return f;
}

let shared: { intel: Formatter; info: InstructionInfoFactory } | null = null;
function tools(): { intel: Formatter; info: InstructionInfoFactory } {
  shared ??= { intel: makeFormatter(FormatterSyntax.Intel), info: new InstructionInfoFactory() };
  return shared;
}

// The AT&T text is asked for by `disasm --att` and the JSON listing only: its formatter (and the
// text) are made on first read of `att`, from the instruction's bytes decoded again
let attFormatter: Formatter | null = null;
function formatAtt(bytes: Uint8Array, address: number, bitness: 32 | 64): string {
  attFormatter ??= makeFormatter(FormatterSyntax.Gas);
  const dec = new Decoder(bitness, bytes, DecoderOptions.None);
  dec.ip = BigInt(address);
  const ins = dec.decode();
  const text = attFormatter.format(ins);
  ins.free();
  dec.free();
  return text;
}

/** Sets `att` on `d` as a property computed on first read (enumerable, so that JSON, copies and
 *  structured clones carry the text like any other field). */
function lazyAtt(d: Omit<DecodedInstruction, 'att'>, bytes: Uint8Array, bitness: 32 | 64): DecodedInstruction {
  const own = bytes.slice(); // the caller's buffer may be reused
  const fix = (self: DecodedInstruction, value: string): string => {
    Object.defineProperty(self, 'att', { value, enumerable: true, writable: true, configurable: true });
    return value;
  };
  Object.defineProperty(d, 'att', {
    enumerable: true,
    configurable: true,
    get(this: DecodedInstruction) {
      return fix(this, formatAtt(own, d.address, bitness));
    },
    set(this: DecodedInstruction, v: string) {
      fix(this, v);
    },
  });
  return d as DecodedInstruction;
}

const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

interface RawDecoded {
  address: number;
  length: number;
  ins: Instruction;
}

/**
 * Decodes `data` (placed at `address`) instruction by instruction. Undecodable bytes end the
 * walk with a UserError unless `lenient` (then decoding skips one byte and goes on; used to
 * scan whole sections for loops).
 */
function decodeBytes(
  data: Uint8Array,
  address: number,
  bitness: 32 | 64,
  where: string,
  lenient = false,
  maxInstructions = Infinity,
): RawDecoded[] {
  const out: RawDecoded[] = [];
  const dec = new Decoder(bitness, data, DecoderOptions.None);
  dec.ip = BigInt(address);
  let pos = 0;
  while (pos < data.length) {
    dec.position = pos;
    dec.ip = BigInt(address + pos);
    const ins = dec.decode();
    if (ins.isInvalid || ins.length === 0 || pos + ins.length > data.length) {
      ins.free();
      if (lenient) {
        pos += 1;
        continue;
      }
      // at most 4 bytes: enough to recognise the instruction, too few to leak a file's contents
      // that an assembly source pulled in (.incbin) through the message
      const bytes = toHex(data.subarray(pos, Math.min(data.length, pos + UNDECODABLE_ECHO)));
      const reason = validWithMoreBytes(data.subarray(pos, pos + 15), bitness)
        ? 'an instruction runs past the end of the code'
        : 'not a valid x86 instruction';
      // iced's objects live in WebAssembly memory: free what was decoded before giving up
      for (const r of out) r.ins.free();
      dec.free();
      throw new UserError(
        `${where}: undecodable bytes at ${hex(address + pos)} (${bytes}…): ${reason}; check that the region starts on an instruction boundary (--range) and that this is ${bitness}-bit x86 code`,
      );
    }
    out.push({ address: address + pos, length: ins.length, ins });
    pos += ins.length;
    if (out.length > maxInstructions) {
      for (const r of out) r.ins.free();
      dec.free();
      throw new UserError(
        `${where} holds more than ${maxInstructions.toLocaleString('en-US')} instructions: ${raiseHint(maxInstructions)}`,
      );
    }
  }
  dec.free();
  return out;
}

/** Whether the bytes start a valid instruction once followed by more (nop) bytes. */
function validWithMoreBytes(head: Uint8Array, bitness: 32 | 64): boolean {
  const padded = new Uint8Array(head.length + 15).fill(0x90);
  padded.set(head);
  const d = new Decoder(bitness, padded, DecoderOptions.None);
  const ins = d.decode();
  const ok = !ins.isInvalid && ins.length > head.length;
  ins.free();
  d.free();
  return ok;
}

/** Full decoding of a region's instructions; lines are 0-based within the region. */
export function decodeRegion(
  data: Uint8Array,
  address: number,
  bitness: 32 | 64,
  where: string,
  maxInstructions = Infinity,
  admit?: (lines: number) => void,
): DecodedInstruction[] {
  const raw = decodeBytes(data, address, bitness, where, false, maxInstructions);
  try {
    admit?.(raw.length);
  } catch (e) {
    for (const r of raw) r.ins.free();
    throw e;
  }
  const lineOf = new Map(raw.map((r, i) => [r.address, i]));
  const result = raw.map((r, i) => {
    const bytes = data.subarray(r.address - address, r.address - address + r.length);
    return lazyAtt(describe(r, i, bytes, lineOf), bytes, bitness);
  });
  for (const r of raw) r.ins.free();
  return result;
}

/** iced's facts of one instruction: its operands' and registers' accesses, its memory operands. */
type InstructionFacts = ReturnType<InstructionInfoFactory['info']>;

function describe(
  r: RawDecoded,
  line: number,
  bytes: Uint8Array,
  lineOf: Map<number, number>,
): Omit<DecodedInstruction, 'att'> {
  const { ins } = r;
  const t = tools();
  const info = t.info.info(ins);
  const mnemonic = xedMnemonic(ins);
  const prefixes = prefixesOf(ins);
  const { operands, memIndex } = explicitOperands(ins, info);
  const { reads, writes } = registerAccesses(info);

  const regOps = operands.filter((o) => o.register);
  const sameReg = regOps.length >= 2 && memIndex < 0 && regOps.every((o) => o.register === regOps[0]!.register);
  const zeroIdiom = sameReg && idiomKind(mnemonic) !== undefined;
  if (zeroIdiom) {
    // iced already drops the read for xor/sub/pxor…; dependency-breaking compares too
    reads.delete(regOps[0]!.register!);
    for (const o of operands) o.read = false;
  }

  const used = info.usedMemory();
  const memory = memoryOperand(ins, info, memIndex, used);
  for (const m of used) m.free?.();
  info.free();

  // flags
  const flagsWritten = flagsOf(ins.rflagsModified);
  let readBits = ins.rflagsRead;
  if (COUNT_DEPENDENT_FLAGS.has(mnemonic) && operands.some((o) => o.kind === 'CL')) readBits |= ins.rflagsModified;
  const flagsRead = flagsOf(readBits);
  const branch = branchOf(ins, r.address, lineOf);

  return {
    line,
    address: r.address,
    bytes: toHex(bytes),
    length: r.length,
    intel: t.intel.format(ins),
    mnemonic: (Mnemonic[ins.mnemonic] ?? 'INVALID').toUpperCase(),
    signature: signatureOf(ins, prefixes),
    operands,
    iform: iformOf(ins, mnemonic),
    reads: [...reads],
    writes: [...writes],
    flagsRead,
    flagsWritten,
    memory,
    indexed: memory !== null && memory.index !== null,
    sameReg,
    zeroIdiom,
    branch,
    ...otherFlowOf(ins),
    prefixes,
    code: Code[ins.code] ?? `Code${ins.code}`,
    cpuid: Array.from(ins.cpuidFeatures(), (f) => CpuidFeature[f] ?? `CPUID${f}`),
    masking: ins.opMask === Register.None ? null : ins.zeroingMasking ? 'zero' : 'merge',
    broadcast: ins.isBroadcast,
  };
}

const STRING_COMPARES = new Set([
  Mnemonic.Cmpsb,
  Mnemonic.Cmpsw,
  Mnemonic.Cmpsd,
  Mnemonic.Cmpsq,
  Mnemonic.Scasb,
  Mnemonic.Scasw,
  Mnemonic.Scasd,
  Mnemonic.Scasq,
]);

/** The prefixes that make a different instruction: lock, and a string instruction's repeat. */
function prefixesOf(ins: Instruction): string[] {
  const prefixes: string[] = [];
  if (ins.hasLockPrefix) prefixes.push('lock');
  if (ins.isStringInstruction) {
    if (ins.hasRepePrefix && STRING_COMPARES.has(ins.mnemonic)) prefixes.push('repe');
    else if (ins.hasRepPrefix) prefixes.push('rep');
    if (ins.hasRepnePrefix) prefixes.push('repne');
  }
  return prefixes;
}

/** The explicit operands, and which of them is the memory operand (-1: none). */
function explicitOperands(ins: Instruction, info: InstructionFacts): { operands: DecodedOperand[]; memIndex: number } {
  const operands: DecodedOperand[] = [];
  let memIndex = -1;
  for (let i = 0; i < ins.opCount; i++) {
    const kind = operandKind(ins, i);
    const access = info.opAccess(i);
    const op: DecodedOperand = { kind, read: isRead(access), write: isWrite(access) };
    const k = ins.opKind(i);
    if (k === OpKind.Register) {
      const reg = ins.opRegister(i);
      const norm = resourceOfRegister(reg);
      if (norm) op.register = norm;
      op.written = writtenName(reg);
    } else if (k === OpKind.Memory) {
      memIndex = i;
    } else if (kind.startsWith('I') || kind === '1') {
      op.immediate = Number(BigInt.asIntN(64, ins.immediate(i)));
      op.read = false;
      op.write = false;
    }
    operands.push(op);
  }
  return { operands, memIndex };
}

/** Register reads and writes, implicit ones and address registers included. */
function registerAccesses(info: InstructionFacts): { reads: Set<Resource>; writes: Set<Resource> } {
  const reads = new Set<Resource>();
  const writes = new Set<Resource>();
  for (const u of info.usedRegisters()) {
    const reg = resourceOfRegister(u.register as Register);
    const access = u.access as OpAccess;
    u.free?.();
    if (!reg) continue;
    if (isRead(access)) reads.add(reg);
    if (isWrite(access)) writes.add(reg);
  }
  return { reads, writes };
}

/** A vector index register's width (VSIB addressing), as uops.info names such an operand. */
function vsibOf(index: Register): { vsib?: 'XMM' | 'YMM' | 'ZMM' } {
  const k = registerKind(index);
  return k === 'XMM' || k === 'YMM' || k === 'ZMM' ? { vsib: k } : {};
}

/** The memory access: the explicit memory operand's, else an implicit one's (push, movs…). */
function memoryOperand(
  ins: Instruction,
  info: InstructionFacts,
  memIndex: number,
  used: ReturnType<InstructionFacts['usedMemory']>,
): MemoryOperand | null {
  if (memIndex < 0 && used.length === 0) return null;
  const access = memIndex >= 0 ? info.opAccess(memIndex) : OpAccess.None;
  let read = isRead(access);
  let write = isWrite(access);
  for (const m of used) {
    const a = m.access as OpAccess;
    read ||= isRead(a);
    write ||= isWrite(a);
  }
  if (memIndex >= 0) {
    const baseReg = ins.memoryBase;
    return {
      base: baseReg === Register.RIP || baseReg === Register.EIP ? 'RIP' : resourceOfRegister(baseReg),
      index: resourceOfRegister(ins.memoryIndex),
      scale: ins.memoryIndexScale,
      displacement: Number(BigInt.asIntN(64, ins.memoryDisplacement)),
      segment:
        ins.hasSegmentPrefix && (ins.memorySegment === Register.FS || ins.memorySegment === Register.GS)
          ? Register[ins.memorySegment]!
          : null,
      size: ins.mnemonic === Mnemonic.Lea ? 0 : MemorySizeExt.size(ins.memorySize),
      read: ins.mnemonic === Mnemonic.Lea ? false : read,
      write: ins.mnemonic === Mnemonic.Lea ? false : write,
      ...vsibOf(ins.memoryIndex),
    };
  }
  const m = used[0]!;
  return {
    base: resourceOfRegister(m.base as Register),
    index: resourceOfRegister(m.index as Register),
    scale: m.scale,
    displacement: Number(BigInt.asIntN(64, m.displacement as bigint)),
    segment: null,
    size: MemorySizeExt.size(m.memorySize as never),
    read,
    write,
  };
}

const BRANCH_KINDS: Partial<Record<FlowControl, BranchKind>> = {
  [FlowControl.ConditionalBranch]: 'conditional',
  [FlowControl.UnconditionalBranch]: 'unconditional',
  [FlowControl.IndirectBranch]: 'indirect',
  [FlowControl.Call]: 'call',
  [FlowControl.IndirectCall]: 'call',
  [FlowControl.Return]: 'return',
};

/** Flow control that is neither the next instruction nor a branch uopscope follows. */
const OTHER_FLOW: Partial<Record<FlowControl, NonNullable<DecodedInstruction['otherFlow']>>> = {
  [FlowControl.Interrupt]: 'interrupt',
  [FlowControl.XbeginXabortXend]: 'transaction',
  [FlowControl.Exception]: 'exception',
};

function otherFlowOf(ins: Instruction): { otherFlow?: NonNullable<DecodedInstruction['otherFlow']> } {
  // iced gives xend and xabort the flow of any instruction, but inside a transaction xabort (or
  // a faulting xend) resumes at xbegin's fallback address like an abort does
  const f =
    ins.mnemonic === Mnemonic.Xend || ins.mnemonic === Mnemonic.Xabort ? 'transaction' : OTHER_FLOW[ins.flowControl];
  return f ? { otherFlow: f } : {};
}

/** The instruction's branch: its kind, and a direct near branch's target and its line. */
function branchOf(ins: Instruction, address: number, lineOf: Map<number, number>): Branch | null {
  const fc = ins.flowControl;
  const bk = BRANCH_KINDS[fc];
  if (!bk) return null;
  const direct =
    fc === FlowControl.ConditionalBranch || fc === FlowControl.UnconditionalBranch || fc === FlowControl.Call;
  const isNear =
    ins.op0Kind === OpKind.NearBranch16 || ins.op0Kind === OpKind.NearBranch32 || ins.op0Kind === OpKind.NearBranch64;
  const target = direct && isNear ? Number(ins.nearBranchTarget) : null;
  return {
    kind: bk,
    target,
    targetLine: target !== null ? (lineOf.get(target) ?? null) : null,
    backward: target !== null && target <= address,
  };
}
