// The forms to characterize and the instances the benchmarks are made of. A form is taken from a
// decoded instruction (its uops.info-style signature is its key); an instance is that
// instruction with its renamable registers (the encoding's reg, r/m, vvvv and is4 fields) set to
// the registers a benchmark chooses and its memory operand on a chosen base register (an index
// becomes that register too; a displacement stays, a RIP-relative one is dropped). Registers
// the opcode fixes (shl's cl, mul's rdx:rax) and immediates stay as in the sample. A gather's
// vector index (VSIB) and its AVX-512 opmask are chosen by the benchmark too.

import type { DecodedInstruction } from '../../disasm/types.js';
import { Code, FlowControl, OpCodeOperandKind, OpKind, Register, type Instruction } from '../../disasm/iced.js';
import { microcodeDependence } from '../../data/microcode.js';
import { vsibSignature } from '../../data/signature.js';
import { classOf, decodeOne, reg, type RegClass } from './x86.js';

export interface Slot {
  /** iced operand index (explicit operands, Intel order) */
  op: number;
  /** the operand's index in the form's signature, which names an AVX-512 opmask as the operand
   *  after the first (`VGATHERDPD (ZMM, K, M64)`: the memory operand is o2, iced's operand 1) */
  ref?: number;
  kind: 'reg' | 'mem' | 'imm';
  cls?: RegClass;
  /** the register's x86 number when the opcode fixes it (shl's cl) */
  fixed?: number;
  read: boolean;
  write: boolean;
}

export interface FormSpec {
  /** uops.info-style signature, 'ADD (R64, R64)'; a gather's names its index, 'VGATHERDPD (YMM, VSIB_XMM, YMM)' */
  key: string;
  /** iced Code name */
  code: string;
  mnemonic: string;
  /** the sample the form was taken from, Intel syntax */
  intel: string;
  template: Uint8Array;
  slots: Slot[];
  /** VEX or EVEX encoded (SSE forms get legacy-encoded helpers: no transition penalties) */
  vex: boolean;
  evex: boolean;
  /** general-purpose registers read or written implicitly, by x86 number */
  implicitReads: number[];
  implicitWrites: number[];
  flagsRead: boolean;
  flagsWritten: boolean;
  /** uses the divider (its latency and throughput depend on the operands' values) */
  division: boolean;
  /** iced CPUID feature names it needs */
  cpuid: string[];
  /** an AVX2 or AVX-512 gather: what its benchmarks must set up (docs/characterize.md, Gathers) */
  gather?: GatherSpec;
}

/** A gather's operands beside its slots. It clears its mask as it completes, so every benchmark
 *  resets the mask before each instance; its vector index starts with small lane values (1, 2, …)
 *  so that every lane reads inside the harness's memory. */
interface GatherSpec {
  /** the vector index register's class (uops.info's VSIB_XMM …) and its lanes' size in bytes */
  index: 'xmm' | 'ymm' | 'zmm';
  indexElement: 4 | 8;
  /** bytes each lane loads (the scale the benchmarks use: consecutive aligned elements) */
  element: number;
  /** the destination's slot (read: the lanes the mask leaves out keep their value) */
  dest: number;
  /** AVX2: the mask is a vector operand (its slot, of the destination's class); AVX-512: an
   *  opmask register, not an operand iced counts */
  mask: { kind: 'vec'; op: number; cls: 'xmm' | 'ymm' } | { kind: 'k' };
}

const GPR_NUMBER: Record<string, number> = {
  RAX: 0,
  RCX: 1,
  RDX: 2,
  RBX: 3,
  RSP: 4,
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

/** Mnemonics that use the divider (integer and floating-point divisions and square roots). */
const DIVIDER = /^(I?DIV|V?(DIV|SQRT|RSQRT14|RCP14)(PS|PD|SS|SD|PH|SH)|V?SQRT(PS|PD|SS|SD)|FDIV|FSQRT)$/;

/** Why a form is not characterized, or null: system, serializing and privileged forms, forms
 *  whose control flow depends on a register (and every branch: the taken-branch rate is a
 *  machine parameter), forms on the stack pointer, string, x87, segment and I/O forms. */
function exclusion(d: DecodedInstruction, ins: Instruction): string | null {
  const op = ins.opCode;
  if (op.isPrivileged || op.mustBeCpl0 || !op.cpl3) return 'a privileged instruction';
  if (op.isSerializingIntel || op.isSerializingAmd) return 'a serializing instruction';
  if (
    /^(SYSCALL|SYSENTER|SYSEXIT|SYSRET|INT|INT1|INT3|INTO|UD[0-2]|HLT|CPUID|RDRAND|RDSEED|RDTSCP?|RDPMC|XGETBV|XSAVE.*|XRSTOR.*|FXSAVE.*|FXRSTOR.*|LFENCE|MFENCE|SFENCE|PAUSE|CLFLUSH.*|CLWB|PREFETCH.*|VZEROUPPER|VZEROALL|EMMS|LDMXCSR|VLDMXCSR|STMXCSR|VSTMXCSR|XBEGIN|XEND|XABORT|XTEST|ENDBR.*|SERIALIZE|TPAUSE|UMWAIT|UMONITOR|WAIT|FWAIT)$/.test(
      d.mnemonic,
    )
  )
    return 'a system, fence or state instruction';
  if (ins.flowControl !== FlowControl.Next)
    return d.branch?.kind === 'indirect' || d.branch?.kind === 'return'
      ? 'its control flow depends on a register'
      : 'a branch (the taken-branch rate is measured as a machine parameter)';
  if (ins.isStackInstruction || d.reads.includes('RSP') || d.writes.includes('RSP')) return 'uses the stack pointer';
  if (ins.isStringInstruction || d.prefixes.length > 0) return 'a string or prefixed (lock, rep) instruction';
  if (d.operands.some((o) => /^ST|SREG|CR|DR|BND/.test(o.kind)) || /^F/.test(d.mnemonic))
    return 'an x87, segment or system-register form';
  if (d.memory && (d.memory.segment !== null || ins.memoryBase === Register.None))
    return 'a memory operand the generators do not rename (a segment, or no base register)';
  for (let i = 0; i < ins.opCount; i++)
    if (/vsib/.test(OpCodeOperandKind[op.opKind(i)] ?? '') && microcodeDependence(d) !== 'gather')
      return 'a scatter or gather prefetch (VSIB addressing: only gathers are generated)';
  return null;
}

/** A gather's spec (null for other forms): its index and mask, from the decoded template. */
function gatherOf(d: DecodedInstruction, ins: Instruction, slots: readonly Slot[]): GatherSpec | null {
  if (microcodeDependence(d) !== 'gather' || !d.memory?.vsib) return null;
  const index = classOf(ins.memoryIndex)?.cls;
  const mem = slots.find((s) => s.kind === 'mem');
  const dest = slots.find((s) => s.kind === 'reg' && s.write && s.op === 0);
  if (!(index === 'xmm' || index === 'ymm' || index === 'zmm') || !mem || !dest) return null;
  const vecMask = slots.find((s) => s.kind === 'reg' && s.op > mem.op);
  let mask: GatherSpec['mask'];
  if (ins.hasOpMask) mask = { kind: 'k' };
  else if (vecMask && (vecMask.cls === 'xmm' || vecMask.cls === 'ymm'))
    mask = { kind: 'vec', op: vecMask.op, cls: vecMask.cls };
  else return null;
  return {
    index,
    indexElement: ins.isVsib64 ? 8 : 4,
    element: d.memory.size,
    dest: dest.op,
    mask,
  };
}

/** The renamable operand kinds of the encoding (the others are fixed by the opcode). */
const RENAMABLE = /_(reg|rm|vvvv|is4|is5|opcode|reg_mem|or_mem)$|^(k_reg|k_rm|k_vvvv|kp1_reg)$/;

/** The form of a decoded instruction (its key is the signature), or the reason it is excluded. */
export function formOf(d: DecodedInstruction): { form: FormSpec } | { key: string; why: string } {
  const template = Uint8Array.from(Buffer.from(d.bytes, 'hex'));
  const ins = decodeOne(template);
  try {
    const why = exclusion(d, ins);
    if (why) return { key: d.signature, why };
    const slots: Slot[] = [];
    const explicitRegs = new Set<number>();
    // the signature names an opmask right after the first operand (signatureOf)
    const ref = (i: number): number => (i > 0 && ins.hasOpMask ? i + 1 : i);
    for (let i = 0; i < ins.opCount; i++) {
      const k = ins.opKind(i);
      const o = d.operands[i];
      // a zero idiom's sample (xor eax, eax) reads nothing; the form, with two registers, reads both
      const read = (o?.read ?? false) || (d.zeroIdiom && k === OpKind.Register),
        write = o?.write ?? false;
      if (k === OpKind.Register) {
        const r = ins.opRegister(i);
        const c = classOf(r);
        if (!c)
          return {
            key: d.signature,
            why: `operand ${i + 1} (${Register[r]}) is a register the generators do not rename`,
          };
        if (c.cls === 'mm') return { key: d.signature, why: 'an MMX form (not generated)' };
        const renamable = RENAMABLE.test(OpCodeOperandKind[ins.opCode.opKind(i)] ?? '');
        slots.push({ op: i, ref: ref(i), kind: 'reg', cls: c.cls, read, write, ...(renamable ? {} : { fixed: c.n }) });
        if (c.cls.startsWith('gpr')) explicitRegs.add(c.n);
      } else if (k === OpKind.Memory) {
        slots.push({ op: i, ref: ref(i), kind: 'mem', read: d.memory?.read ?? read, write: d.memory?.write ?? write });
      } else if ((OpKind[k] ?? '').startsWith('Immediate')) {
        slots.push({ op: i, ref: ref(i), kind: 'imm', read: false, write: false });
      } else {
        return { key: d.signature, why: `operand ${i + 1} is of a kind the generators do not build (${OpKind[k]})` };
      }
    }
    const gather = gatherOf(d, ins, slots);
    if (d.memory?.vsib && !gather)
      return { key: d.signature, why: 'a gather whose operands the generators do not know' };
    const addr = new Set([d.memory?.base, d.memory?.index].filter((x): x is string => !!x));
    const gprs = (list: readonly string[]): number[] =>
      list
        .filter((r) => r in GPR_NUMBER && !addr.has(r))
        .map((r) => GPR_NUMBER[r]!)
        .filter((n) => !explicitRegs.has(n));
    return {
      form: {
        // a gather's key names its vector index (VSIB_XMM), as uops.info does: the decoded
        // signature's M32 does not tell vgatherqps xmm, [ymm] (four lanes) from [xmm] (two)
        key: (gather && vsibSignature(d)) || d.signature,
        code: Code[ins.code] ?? String(ins.code),
        mnemonic: d.mnemonic,
        intel: d.intel,
        template,
        slots,
        vex:
          d.bytes.startsWith('c4') ||
          d.bytes.startsWith('c5') ||
          d.bytes.startsWith('62') ||
          /^(66|f2|f3)?(c4|c5|62)/.test(d.bytes),
        evex: /^(66|f2|f3)?62/.test(d.bytes),
        implicitReads: gprs(d.reads),
        implicitWrites: gprs(d.writes),
        flagsRead: d.flagsRead.length > 0,
        flagsWritten: d.flagsWritten.length > 0,
        division: DIVIDER.test(d.mnemonic),
        cpuid: d.cpuid,
        ...(gather ? { gather } : {}),
      },
    };
  } finally {
    ins.free();
  }
}

/** Register numbers an instance uses, by slot; `base` for the memory operand. */
export interface Assignment {
  regs: Map<number, number>;
  base?: number;
  /** a gather's vector index register and its AVX-512 opmask (k1 … k7) */
  index?: number;
  kmask?: number;
}

/** The form with its renamable registers set as `a` says (fixed registers and immediates kept). */
export function instance(form: FormSpec, a: Assignment): Instruction {
  const ins = decodeOne(form.template);
  for (const s of form.slots) {
    if (s.kind === 'reg' && s.fixed === undefined) {
      const n = a.regs.get(s.op);
      if (n !== undefined) ins.setOpRegister(s.op, reg(s.cls!, n));
    } else if (s.kind === 'mem' && a.base !== undefined && form.gather) {
      // the index's lanes (1, 2, …) times the element's size: consecutive aligned elements
      // from the base, inside the harness's memory
      ins.memoryBase = reg('gpr64', a.base);
      if (a.index !== undefined) ins.memoryIndex = reg(form.gather.index, a.index);
      ins.memoryIndexScale = form.gather.element;
      if (form.gather.mask.kind === 'k' && a.kmask !== undefined) ins.opMask = reg('k', a.kmask);
    } else if (s.kind === 'mem' && a.base !== undefined) {
      // the address keeps its shape (an index, a displacement: lea [rax+rax*4] is not lea [rax],
      // which some cores execute as a move); the index is the base register itself, so the
      // address depends on one register and stays inside the harness's mapped pattern
      const indexed = ins.memoryIndex !== Register.None;
      const rip = ins.memoryBase === Register.RIP || ins.memoryBase === Register.EIP;
      ins.memoryBase = reg('gpr64', a.base);
      ins.memoryIndex = indexed ? reg('gpr64', a.base) : Register.None;
      if (!indexed) ins.memoryIndexScale = 1;
      if (rip) {
        ins.memoryDisplacement = 0n;
        ins.memoryDisplSize = 0;
      }
    }
  }
  return ins;
}
