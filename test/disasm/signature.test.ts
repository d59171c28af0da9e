// signature.ts reads from iced's Code names what iced's op-code table would say (so that the table,
// ≈ 40 ms to build, is never built): compared here with that table for every one of iced's Codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type * as Iced from 'iced-x86';
import { fixedOperandKind, isRel8Operand, legacyOpcode } from '../../src/disasm/signature.js';

const iced = createRequire(import.meta.url)('iced-x86') as typeof Iced;
const K = iced.OpCodeOperandKind;
const FIXED: Partial<Record<number, string>> = {
  [K.al]: 'AL',
  [K.cl]: 'CL',
  [K.ax]: 'AX',
  [K.dx]: 'DX',
  [K.eax]: 'EAX',
  [K.rax]: 'RAX',
  [K.st0]: 'ST(0)',
  [K.imm8_const_1]: '1',
};
const REL8 = new Set<number>([K.br16_1, K.br32_1, K.br64_1]);
const codes = Object.values(iced.Code).filter((v): v is number => typeof v === 'number');

test("fixed operands, 8-bit branch displacements and one-byte opcodes from Code names agree with iced's op-code table for every Code", () => {
  assert.ok(codes.length > 4000, `only ${codes.length} Codes`);
  let fixed = 0;
  let rel8 = 0;
  let opcodes = 0;
  const wrong: string[] = [];
  for (const code of codes) {
    const name = iced.Code[code]!;
    const info = iced.CodeExt.opCode(code);
    for (let i = 0; i < info.opCount; i++) {
      const k = info.opKind(i);
      const want = FIXED[k] ?? null;
      if (want) fixed++;
      if (fixedOperandKind(code, i) !== want)
        wrong.push(`${name} operand ${i}: fixed ${fixedOperandKind(code, i)}, iced ${want}`);
      if (REL8.has(k)) rel8++;
      if (isRel8Operand(code, i) !== REL8.has(k)) wrong.push(`${name} operand ${i}: rel8 ${isRel8Operand(code, i)}`);
    }
    const op = legacyOpcode(code);
    if (op !== null) {
      opcodes++;
      if (op !== info.opCode || info.encoding !== iced.EncodingKind.Legacy)
        wrong.push(`${name}: opcode ${op.toString(16)}, iced ${info.opCode.toString(16)}`);
    } else if (
      /^(Add|Or|Adc|Sbb|And|Sub|Xor|Cmp|Mov|Test)_(rm(8|16|32|64)_r(8|16|32|64)|rm8_imm8)$|^(Add|Or|Adc|Sbb|And|Sub|Xor|Cmp|Mov)_r(8|16|32|64)_rm(8|16|32|64)$/.test(
        name,
      ) &&
      !/^Test_rm8_imm8$/.test(name)
    ) {
      wrong.push(`${name}: no opcode (iformOf needs it)`);
    }
    info.free();
  }
  assert.deepEqual(wrong.slice(0, 20), []);
  // the comparison saw each kind of case
  assert.ok(fixed > 150 && rel8 > 20 && opcodes > 80, `fixed ${fixed}, rel8 ${rel8}, opcodes ${opcodes}`);
});
