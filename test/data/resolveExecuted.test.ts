// Matcher fixes found by the corpus coverage work (test/corpus/coverage.test.ts):
// - gcc -march=x86-64 emits `rep bsf` (F3 48 0F BC) for __builtin_ctzll (corpus bitscan, sse2
//   builds); the decoder names it TZCNT, but a core without BMI1 (SNB, IVB) executes it as BSF
//   (Intel SDM, TZCNT), so its figures must be BSF's there, and TZCNT's on cores with BMI1.
// - the decoder writes XED's iclass `MOVSD_XMM (XMM, M64)`; a file that spells the SSE form
//   `MOVSD (XMM, M64)` must match it too, without matching the string instruction MOVSD.
// The forms below carry figures only as markers (distinct µop counts) for telling matches apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ArchData, ArchForm, ArchName } from '../../src/data/types.js';
import { resolveInstructions } from '../../src/data/resolve.js';
import { loadRegion } from '../../src/disasm/index.js';

function form(string: string, uops: number, iform = ''): ArchForm {
  return {
    string,
    iform,
    asm: string.split(' ')[0]!,
    operands: [],
    attributes: {},
    m: { uops, ports: [{ count: uops, ports: [0] }], latencies: [] },
  };
}
const archData = (arch: ArchName, forms: ArchForm[]): ArchData => ({
  arch,
  source: { kind: 'file', path: '(test)', forms: forms.length },
  forms,
});
const decode = async (hex: string) => (await loadRegion({ hex })).instructions;

test('TZCNT on a core without BMI1 resolves as BSF, on a core with BMI1 as TZCNT', async () => {
  const [tz] = await decode('f3480fbcc7'); // tzcnt rax, rdi (rep bsf)
  assert.equal(tz!.signature, 'TZCNT (R64, R64)');
  const forms = [form('BSF (R64, R64)', 3, 'BSF_GPRv_GPRv'), form('TZCNT (R64, R64)', 1, 'TZCNT_GPRv_GPRv')];
  for (const arch of ['SNB', 'IVB'] as const) {
    const [r] = resolveInstructions([tz!], archData(arch, forms));
    assert.equal(r!.form?.string, 'BSF (R64, R64)', arch);
    assert.equal(r!.uops, 3);
    const [none] = resolveInstructions([tz!], archData(arch, [forms[1]!]));
    assert.equal(none!.unknown, true, `${arch}: TZCNT figures do not apply to a core without BMI1`);
  }
  for (const arch of ['HSW', 'SKL', 'ADL-P'] as const) {
    const [r] = resolveInstructions([tz!], archData(arch, forms));
    assert.equal(r!.form?.string, 'TZCNT (R64, R64)', arch);
  }
  // an architecture without a machine model: taken as decoded
  assert.equal(resolveInstructions([tz!], archData('XYZ', forms))[0]!.form?.string, 'TZCNT (R64, R64)');
  // the caller's instruction is not changed
  assert.equal(tz!.mnemonic, 'TZCNT');
});

test('LZCNT on a core without LZCNT resolves as BSR', async () => {
  const [lz] = await decode('f3480fbdc7'); // lzcnt rax, rdi
  assert.equal(lz!.signature, 'LZCNT (R64, R64)');
  const forms = [form('BSR (R64, R64)', 3), form('LZCNT (R64, R64)', 1)];
  assert.equal(resolveInstructions([lz!], archData('SNB', forms))[0]!.form?.string, 'BSR (R64, R64)');
  assert.equal(resolveInstructions([lz!], archData('HSW', forms))[0]!.form?.string, 'LZCNT (R64, R64)');
});

test('MOVSD_XMM (XMM, M64) matches a file that writes MOVSD (XMM, M64), not the string instruction', async () => {
  const [sse, str] = await decode('f20f1007a5'); // movsd xmm0, [rdi]; movsd (string, a5)
  assert.equal(sse!.signature, 'MOVSD_XMM (XMM, M64)');
  assert.equal(str!.signature, 'MOVSD');
  for (const spelling of ['MOVSD (XMM, M64)', 'MOVSD_XMM (XMM, M64)']) {
    const data = archData('SKL', [form('MOVSD', 5), form(spelling, 1)]);
    const [a, b] = resolveInstructions([sse!, str!], data);
    assert.equal(a!.form?.string, spelling);
    assert.equal(a!.rule, 'signature');
    assert.equal(b!.form?.string, 'MOVSD');
  }
  // and not the other way round: only the string form in the file leaves the SSE form unknown
  assert.equal(resolveInstructions([sse!], archData('SKL', [form('MOVSD', 5)]))[0]!.unknown, true);
});
