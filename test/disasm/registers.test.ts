// One normalization of register names for every stage: what the decoder (iced-x86's registers)
// and the data stage (uops.info's operand names) call the same register is the same Resource.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Register } from '../../src/disasm/iced.js';
import { resourceOfRegister } from '../../src/disasm/icedRegisters.js';
import { normalizeRegisterName } from '../../src/disasm/registers.js';
import { normalizeRegister as dataNormalize } from '../../src/data/registers.js';

test("uops.info's spellings and the decoder's registers give the same resources", () => {
  const same: [string, Register][] = [
    ['AL', Register.AL],
    ['AH', Register.AH],
    ['AX', Register.AX],
    ['EAX', Register.EAX],
    ['RAX', Register.RAX],
    ['SPL', Register.SPL],
    ['R8B', Register.R8L],
    ['R8W', Register.R8W],
    ['R8D', Register.R8D],
    ['R15', Register.R15],
    ['XMM3', Register.XMM3],
    ['YMM3', Register.YMM3],
    ['ZMM31', Register.ZMM31],
    ['K1', Register.K1],
    ['MM2', Register.MM2],
    ['ST(1)', Register.ST1],
    ['ST0', Register.ST0],
  ];
  for (const [name, reg] of same) {
    const r = resourceOfRegister(reg);
    assert.ok(r !== null, name);
    assert.equal(dataNormalize(name), r, `${name} (uops.info) vs ${Register[reg]} (decoder)`);
  }
  assert.deepEqual(
    ['RAX', 'RAX', 'R8', 'XMM3', 'ST1'],
    ['eax', ' ah ', 'r8b', 'ymm3', 'st(1)'].map(normalizeRegisterName),
  );
});

test('RIP and the segment registers are never dependencies, in either spelling', () => {
  for (const name of ['RIP', 'EIP', 'IP', 'ES', 'CS', 'SS', 'DS', 'FS', 'GS', ''])
    assert.equal(normalizeRegisterName(name), null, name);
  for (const reg of [Register.RIP, Register.EIP, Register.ES, Register.FS, Register.None])
    assert.equal(resourceOfRegister(reg), null, Register[reg]);
});
