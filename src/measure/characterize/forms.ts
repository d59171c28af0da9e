// The forms to characterize and the instances the benchmarks are made of. A form is taken from a
// decoded instruction (its uops.info-style signature is its key); an instance is that
// instruction with its renamable registers (the encoding's reg, r/m, vvvv and is4 fields) set to
// the registers a benchmark chooses and its memory operand on a chosen base register (an index
// becomes that register too; a displacement stays, a RIP-relative one is dropped). Registers
// the opcode fixes (shl's cl, mul's rdx:rax) and immediates stay as in the sample.

import type { DecodedInstruction } from '../../disasm/types.js';
import { Code, FlowControl, OpCodeOperandKind, OpKind, Register, type Instruction } from '../../disasm/iced.js';
import { classOf, decodeOne, reg, type RegClass } from './x86.js';

export interface Slot {
  /** iced operand index (explicit operands, Intel order) */
  op: number;
  kind: 'reg' | 'mem' | 'imm';
  cls?: RegClass;
  /** the register's x86 number when the opcode fixes it (shl's cl) */
  fixed?: number;
  read: boolean;
  write: boolean;
}

export interface FormSpec {
  /** uops.info-style signature, 'ADD (R64, R64)' */
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
    if (/vsib/.test(OpCodeOperandKind[op.opKind(i)] ?? ''))
      return 'a gather or scatter (VSIB addressing: not generated)';
  return null;
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
        slots.push({ op: i, kind: 'reg', cls: c.cls, read, write, ...(renamable ? {} : { fixed: c.n }) });
        if (c.cls.startsWith('gpr')) explicitRegs.add(c.n);
      } else if (k === OpKind.Memory) {
        slots.push({ op: i, kind: 'mem', read: d.memory?.read ?? read, write: d.memory?.write ?? write });
      } else if ((OpKind[k] ?? '').startsWith('Immediate')) {
        slots.push({ op: i, kind: 'imm', read: false, write: false });
      } else {
        return { key: d.signature, why: `operand ${i + 1} is of a kind the generators do not build (${OpKind[k]})` };
      }
    }
    const addr = new Set([d.memory?.base, d.memory?.index].filter((x): x is string => !!x));
    const gprs = (list: readonly string[]): number[] =>
      list
        .filter((r) => r in GPR_NUMBER && !addr.has(r))
        .map((r) => GPR_NUMBER[r]!)
        .filter((n) => !explicitRegs.has(n));
    return {
      form: {
        key: d.signature,
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
}

/** The form with its renamable registers set as `a` says (fixed registers and immediates kept). */
export function instance(form: FormSpec, a: Assignment): Instruction {
  const ins = decodeOne(form.template);
  for (const s of form.slots) {
    if (s.kind === 'reg' && s.fixed === undefined) {
      const n = a.regs.get(s.op);
      if (n !== undefined) ins.setOpRegister(s.op, reg(s.cls!, n));
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
