// uops.info-style instruction strings and XED iforms.
//
// Conventions of uops.info's `string` attribute (checked against its instruction pages and the
// notes in shared/reference/uops-info-xml.md), which uopscope follows:
// - The mnemonic is XED's iclass, not the assembler's: condition codes use XED's spelling,
//   JNZ (not JNE), JZ, JNBE (JA), JNB (JAE), JB, JBE, JNLE (JG), JNL (JGE), JL, JLE, JP, JNP,
//   JO, JNO, JS, JNS, and likewise SETcc and CMOVcc (SETNZ, CMOVNBE, …).
// - Operands follow in Intel order in parentheses: register classes R8/R16/R32/R64, XMM, YMM,
//   ZMM, K, MM; memory as M + width in bits (M64, M256; LEA's address is AGEN); immediates by
//   their encoded width (I8, I16, I32, I64 — `mov rax, 1` encoded C7 /0 is 'MOV (R64, I32)',
//   the B8+r form is 'MOV (R64, I64)'); branch displacements Rel8/Rel32.
// - Operands fixed by the opcode are named: 'SHL (R64, CL)', 'SHL (R64, 1)', 'ADD (RAX, I32)'.
// - An instruction without explicit operands is its mnemonic alone ('CPUID', 'CDQ', 'RET_NEAR').
// - Near calls and returns use XED's iclasses: 'CALL_NEAR (Rel32)', 'RET_NEAR'.
// - LOCK and REP prefixes are part of XED's iclass: 'CMPXCHG_LOCK (M64, R64)' (as on uops.info's
//   page for lock cmpxchg), 'ADD_LOCK (M64, R64)', 'REP_MOVSB', 'REPE_CMPSB', 'REPNE_SCASB'.
// - Opcode variants that uops.info distinguishes with a suffix ('ADD_01 (R64, R64)' vs
//   'ADD_03') are told apart here by the iform ('ADD_GPRv_GPRv_01'), not by the string.
import { Code, ConditionCode, Mnemonic, OpKind, type Instruction, MemorySizeExt } from './iced.js';
import { registerKind } from './icedRegisters.js';

const XED_CC: Record<string, string> = {
  o: 'O',
  no: 'NO',
  b: 'B',
  ae: 'NB',
  e: 'Z',
  ne: 'NZ',
  be: 'BE',
  a: 'NBE',
  s: 'S',
  ns: 'NS',
  p: 'P',
  np: 'NP',
  l: 'L',
  ge: 'NL',
  le: 'LE',
  g: 'NLE',
};

/** XED-style upper-case mnemonic: 'JNZ' for iced's Jne, 'CMOVNBE' for Cmova, … */
export function xedMnemonic(ins: Instruction): string {
  const m = (Mnemonic[ins.mnemonic] ?? 'INVALID').toUpperCase();
  const cc = ins.conditionCode;
  if (cc !== ConditionCode.None) {
    const name = ConditionCode[cc] ?? '';
    for (const prefix of ['J', 'SET', 'CMOV']) {
      if (m === prefix + name.toUpperCase()) return prefix + (XED_CC[name] ?? name.toUpperCase());
    }
  }
  if (m === 'SAL') return 'SHL';
  // XED's iclasses for near calls and returns
  if (m === 'CALL' && (ins.isCallNear || ins.isCallNearIndirect)) return 'CALL_NEAR';
  if (m === 'RET') return 'RET_NEAR';
  if (m === 'RETF') return 'RET_FAR';
  // XED names the SSE forms that share a string instruction's mnemonic MOVSD_XMM, CMPSD_XMM
  if ((m === 'MOVSD' || m === 'CMPSD') && !ins.isStringInstruction) return `${m}_XMM`;
  if (m === 'XLATB') return 'XLAT';
  return m;
}

// What iced's op-code table (Instruction.opCode) would tell about an operand, read from the
// Code's name instead: the first access to opCode builds iced's table for every instruction
// (tens of milliseconds at every start). iced names each Code mnemonic_operand_operand…, with
// the operands fixed by the opcode in capitals (Add_AL_imm8, Shl_rm64_CL, In_AL_DX), st0 for ST(0)
// and 1 for the constant shift count (Shl_rm64_1), and rel8 for 8-bit branch displacements
// (Jne_rel8_64). test/disasm/signature.test.ts compares all three with iced's table for every
// Code.
const FIXED_TOKENS: Record<string, string> = {
  AL: 'AL',
  CL: 'CL',
  AX: 'AX',
  DX: 'DX',
  EAX: 'EAX',
  RAX: 'RAX',
  st0: 'ST(0)',
  1: '1',
};

/** The name's token of explicit operand i (undefined past the operands); encoding prefixes
 *  before the mnemonic (EVEX_, VEX_KNC_) are skipped. */
function operandToken(code: Code, i: number): string | undefined {
  const t = (Code[code] ?? '').split('_');
  let m = 0;
  while (m < t.length - 1 && /^[A-Z0-9]+$/.test(t[m]!)) m++;
  return t[m + 1 + i];
}

/** The operand kind fixed by the opcode ('AL', 'CL', 'ST(0)', '1', …) of explicit operand i, or null. */
export function fixedOperandKind(code: Code, i: number): string | null {
  const t = operandToken(code, i);
  return t !== undefined && Object.hasOwn(FIXED_TOKENS, t) ? FIXED_TOKENS[t]! : null;
}

/** Whether explicit operand i is an 8-bit branch displacement. */
export function isRel8Operand(code: Code, i: number): boolean {
  return operandToken(code, i)?.startsWith('rel8') === true;
}

const ALU_INDEX: Record<string, number> = { Add: 0, Or: 1, Adc: 2, Sbb: 3, And: 4, Sub: 5, Xor: 6, Cmp: 7 };

/** The opcode byte of the one-byte ALU, MOV and TEST forms iformOf names by it (ADD r/m, r: 01;
 *  ADD r, r/m: 03; ADD r/m8, imm8: 80, or 82 for its 32-bit alias), else null. */
export function legacyOpcode(code: Code): number | null {
  const [base = '', a = '', b = '', suffix] = (Code[code] ?? '').split('_');
  const alu = ALU_INDEX[base];
  const form =
    /^rm8$/.test(a) && /^r8$/.test(b)
      ? 0
      : /^rm(16|32|64)$/.test(a) && /^r(16|32|64)$/.test(b)
        ? 1
        : /^r8$/.test(a) && /^rm8$/.test(b)
          ? 2
          : /^r(16|32|64)$/.test(a) && /^rm(16|32|64)$/.test(b)
            ? 3
            : null;
  if (form !== null && suffix === undefined) {
    if (alu !== undefined) return alu * 8 + form;
    if (base === 'Mov') return 0x88 + form;
    if (base === 'Test' && form < 2) return 0x84 + form;
    return null;
  }
  if (a === 'rm8' && b === 'imm8') {
    if (alu !== undefined) return suffix === '82' ? 0x82 : suffix === undefined ? 0x80 : null;
    if (base === 'Mov' && suffix === undefined) return 0xc6;
  }
  return null;
}

/** uops.info operand kind of explicit operand i. */
export function operandKind(ins: Instruction, i: number): string {
  const fixed = fixedOperandKind(ins.code, i);
  if (fixed) return fixed;
  const k = ins.opKind(i);
  switch (k) {
    case OpKind.Register:
      return registerKind(ins.opRegister(i));
    case OpKind.NearBranch16:
    case OpKind.NearBranch32:
    case OpKind.NearBranch64:
      return isRel8Operand(ins.code, i) ? 'Rel8' : 'Rel32';
    case OpKind.FarBranch16:
    case OpKind.FarBranch32:
      return 'PTR';
    case OpKind.Immediate8:
    case OpKind.Immediate8_2nd:
    case OpKind.Immediate8to16:
    case OpKind.Immediate8to32:
    case OpKind.Immediate8to64:
      return 'I8';
    case OpKind.Immediate16:
      return 'I16';
    case OpKind.Immediate32:
    case OpKind.Immediate32to64:
      return 'I32';
    case OpKind.Immediate64:
      return 'I64';
    case OpKind.Memory: {
      if (ins.mnemonic === Mnemonic.Lea) return 'AGEN';
      const size = MemorySizeExt.size(ins.memorySize);
      return size > 0 ? `M${size * 8}` : 'MEM';
    }
    default:
      // implicit string-instruction memory operands (MOVSB's [rdi], [rsi])
      return 'MEM';
  }
}

/** The operand kinds shown in the signature: explicit operands plus the opmask of EVEX forms. */
export function signatureOf(ins: Instruction, prefixes: string[]): string {
  const mnem = xedMnemonic(ins);
  const kinds: string[] = [];
  const stringOp = ins.isStringInstruction;
  if (!stringOp) {
    for (let i = 0; i < ins.opCount; i++) {
      kinds.push(operandKind(ins, i));
      if (i === 0 && ins.hasOpMask) kinds.push('K');
    }
  }
  let name = mnem;
  for (const p of prefixes) {
    if (p === 'lock') name = `${name}_LOCK`;
    else name = `${p.toUpperCase()}_${name}`;
  }
  return kinds.length ? `${name} (${kinds.join(', ')})` : name;
}

// ---- XED iforms for the common integer forms (null for the rest) ----
const ALU = ['Add', 'Or', 'Adc', 'Sbb', 'And', 'Sub', 'Xor', 'Cmp'];

export function iformOf(ins: Instruction, mnem: string): string | null {
  const code = Code[ins.code] ?? '';
  const m = /^([A-Z][a-z0-9]*)(?:_(.*))?$/.exec(code);
  if (!m) return null;
  const [, base = '', rest = ''] = m;
  const op0Reg = ins.op0Kind === OpKind.Register;
  const op1Reg = ins.opCount > 1 && ins.op1Kind === OpKind.Register;
  const opcodeHex = (legacyOpcode(ins.code) ?? -1).toString(16).toUpperCase().padStart(2, '0');
  const w = /8/.test(rest.split('_')[0] ?? '') ? '8' : 'v';
  const G = w === '8' ? 'GPR8' : 'GPRv';
  const M = w === '8' ? 'MEMb' : 'MEMv';
  if (ALU.includes(base) || base === 'Mov' || base === 'Test') {
    const up = base.toUpperCase() + (ins.hasLockPrefix ? '_LOCK' : '');
    if (/^(AL|AX|EAX|RAX)_imm/.test(rest)) return `${up}_${rest.startsWith('AL') ? 'AL_IMMb' : 'OrAX_IMMz'}`;
    if (/^rm(8|16|32|64)_r(8|16|32|64)$/.test(rest)) {
      if (base === 'Test') return op0Reg ? `TEST_${G}_${G}` : `TEST_${M}_${G}`;
      return op0Reg ? `${up}_${G}_${G}_${opcodeHex}` : `${up}_${M}_${G}`;
    }
    if (/^r(8|16|32|64)_rm(8|16|32|64)$/.test(rest)) return op1Reg ? `${up}_${G}_${G}_${opcodeHex}` : `${up}_${G}_${M}`;
    if (/^rm(16|32|64)_imm8$/.test(rest)) return `${up}_${op0Reg ? G : M}_IMMb`;
    if (/^rm8_imm8$/.test(rest))
      return `${up}_${op0Reg ? 'GPR8' : 'MEMb'}_IMMb${base === 'Test' ? `_F6r0` : `_${opcodeHex}`}`;
    if (/^rm(16|32|64)_imm(16|32)$/.test(rest)) return `${up}_${op0Reg ? G : M}_IMMz`;
    if (base === 'Mov' && /^r(16|32|64)_imm(16|32|64)$/.test(rest)) return 'MOV_GPRv_IMMv';
    if (base === 'Mov' && rest === 'r8_imm8') return 'MOV_GPR8_IMMb_B0';
    return null;
  }
  if (base === 'Inc' || base === 'Dec')
    return `${base.toUpperCase()}${ins.hasLockPrefix ? '_LOCK' : ''}_${op0Reg ? (w === '8' ? 'GPR8' : `GPRv_FFr${base === 'Inc' ? 0 : 1}`) : M}`;
  if (base === 'Lea') return 'LEA_GPRv_AGEN';
  if (base === 'Imul' && ins.opCount === 2) return op1Reg ? 'IMUL_GPRv_GPRv' : 'IMUL_GPRv_MEMv';
  if (base === 'Imul' && ins.opCount === 3)
    return `IMUL_GPRv_${op1Reg ? 'GPRv' : 'MEMv'}_IMM${/imm8$/.test(rest) ? 'b' : 'z'}`;
  if (['Div', 'Idiv', 'Mul', 'Neg', 'Not'].includes(base) || (base === 'Imul' && ins.opCount === 1))
    return `${base.toUpperCase()}_${op0Reg ? G : M}`;
  if (ins.isJccShortOrNear) return `${mnem}_RELBR${ins.isJccShort ? 'b' : 'z'}`;
  if (ins.isJmpShort) return 'JMP_RELBRb';
  if (ins.isJmpNear) return 'JMP_RELBRz';
  if (ins.isCallNear) return 'CALL_NEAR_RELBRz';
  if (base === 'Retnq' || base === 'Retnd') return ins.opCount ? 'RET_NEAR_IMMw' : 'RET_NEAR';
  if (base === 'Nopd' || base === 'Nopw' || base === 'Nopq') return 'NOP_90';
  if (base === 'Push' && /^r(16|32|64)$/.test(rest)) return 'PUSH_GPRv_50';
  if (base === 'Pop' && /^r(16|32|64)$/.test(rest)) return 'POP_GPRv_58';
  if (base === 'Cpuid') return 'CPUID';
  return null;
}
