import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadArchData } from '../../src/data/archData.js';
import { resolveInstructions } from '../../src/data/resolve.js';
import { loadMachine } from '../../src/data/machines.js';
import type { ArchData, ArchForm } from '../../src/data/types.js';
import { ARITH_FLAGS, SMALL, decoded, imm, mem, reg } from './helpers.js';

const skl = () => loadArchData('SKL', { uopsXml: SMALL });
const one = async (d: ReturnType<typeof decoded>, fallback?: 'skip' | 'alu', data?: ArchData) =>
  resolveInstructions([d], data ?? await skl(), fallback ? { fallback } : {})[0]!;

const addRR = (over: Parameters<typeof decoded>[1] = {}) => decoded('ADD (R64, R64)', {
  ops: [reg('R64', 'RAX', 'rax', true, true), reg('R64', 'RBX', 'rbx', true, false)],
  reads: ['RAX', 'RBX'], writes: ['RAX'], flagsWritten: [...ARITH_FLAGS], ...over,
});

test('by iform: the XED iform picks the opcode variant, figures per resource', async () => {
  const r = await one(addRR({ iform: 'ADD_GPRv_GPRv_01', bytes: '4801d8' }));
  assert.equal(r.rule, 'iform');
  assert.equal(r.form!.string, 'ADD_01 (R64, R64)');
  assert.equal(r.uops, 1);
  assert.deepEqual(r.ports, [{ count: 1, ports: [0, 1, 5, 6] }]);
  assert.deepEqual(r.latencyByResource, { RAX: 1, AF: 1, CF: 1, OF: 1, PF: 1, SF: 1, ZF: 1 });
  assert.equal(r.maxLatency, 1);
  assert.equal(r.variant, 'plain');
  assert.equal(r.unknown, false);
  assert.equal(r.fallback, null);
  const r3 = await one(addRR({ iform: 'ADD_GPRv_GPRv_03', bytes: '4803c3' }));
  assert.equal(r3.form!.string, 'ADD_03 (R64, R64)');
});

test('by signature: the opcode byte chooses between _01/_03 suffix variants', async () => {
  const a = await one(addRR({ bytes: '4801d8' }));
  assert.equal(a.rule, 'signature');
  assert.equal(a.form!.string, 'ADD_01 (R64, R64)');
  const b = await one(addRR({ bytes: '4803c3' }));
  assert.equal(b.form!.string, 'ADD_03 (R64, R64)');
});

test('immediate width: I8 and I32 forms are told apart, and a missing width falls back (signature-width)', async () => {
  const i8 = await one(decoded('ADD (R64, I8)', { ops: [reg('R64', 'RAX', 'rax', true, true), imm('I8', 5)], writes: ['RAX'], flagsWritten: [...ARITH_FLAGS] }));
  assert.equal(i8.form!.string, 'ADD (R64, I8)');
  assert.equal(i8.rule, 'signature');
  const i32 = await one(decoded('ADD (R64, I32)', { ops: [reg('R64', 'RAX', 'rax', true, true), imm('I32', 500)], writes: ['RAX'], flagsWritten: [...ARITH_FLAGS] }));
  assert.equal(i32.form!.string, 'ADD (R64, I32)');
  const jne32 = await one(decoded('JNE (Rel32)', { ops: [{ kind: 'Rel32', read: true, write: false }], flagsRead: ['ZF'] }));
  assert.equal(jne32.rule, 'signature-width');
  assert.equal(jne32.form!.string, 'JNZ (Rel8)');
  const jne8 = await one(decoded('JNE (Rel8)', { ops: [{ kind: 'Rel8', read: true, write: false }], flagsRead: ['ZF'] }));
  assert.equal(jne8.rule, 'signature');
  assert.deepEqual(jne8.ports, [{ count: 1, ports: [0, 6] }]);
  assert.equal(jne8.maxLatency, 0);
});

test('_indexed figures when the address has an index register', async () => {
  const st = (indexed: boolean) => decoded('MOV (M64, R64)', { ops: [mem('M64', false, true), reg('R64', 'RBX', 'rbx', true, false)], reads: ['RAX', 'RBX', ...(indexed ? ['RCX'] : [])], indexed });
  const plain = await one(st(false));
  assert.equal(plain.variant, 'plain');
  assert.deepEqual(plain.ports, [{ count: 1, ports: [2, 3, 7] }, { count: 1, ports: [4] }]);
  const idx = await one(st(true));
  assert.equal(idx.variant, 'indexed');
  assert.deepEqual(idx.ports, [{ count: 1, ports: [2, 3] }, { count: 1, ports: [4] }]);
  assert.deepEqual(idx.latencyByResource, {});
  // a load: the largest of the address and memory latencies counts
  const ld = await one(decoded('ADD (R64, M64)', { ops: [reg('R64', 'RAX', 'rax', true, true), mem('M64', true, false)], writes: ['RAX'], flagsWritten: [...ARITH_FLAGS], indexed: true }));
  assert.equal(ld.variant, 'indexed');
  assert.equal(ld.uops, 2);
  assert.equal(ld.latencyByResource.RAX, 6);
  assert.equal(ld.latencyByResource.ZF, 6);
});

test('_same_reg figures for zero idioms', async () => {
  const xor = (same: boolean) => decoded('XOR (R32, R32)', {
    ops: [reg('R32', 'RAX', 'eax', true, true), reg('R32', same ? 'RAX' : 'RBX', same ? 'eax' : 'ebx', true, false)],
    writes: ['RAX'], flagsWritten: ['CF', 'PF', 'ZF', 'SF', 'OF', 'AF'], sameReg: same, zeroIdiom: same,
  });
  const z = await one(xor(true));
  assert.equal(z.variant, 'same_reg');
  assert.equal(z.uops, 0);
  assert.deepEqual(z.ports, []);
  assert.equal(z.latencyByResource.RAX, 0);
  assert.equal(z.latencyByResource.CF, 1);
  const p = await one(xor(false));
  assert.equal(p.variant, 'plain');
  assert.equal(p.uops, 1);
  assert.equal(p.latencyByResource.RAX, 1);
});

test('latencies: min/max take the max, divider cycles, vector registers', async () => {
  const div = await one(decoded('DIVSD (XMM, XMM)', { ops: [reg('XMM', 'XMM0', 'xmm0', true, true), reg('XMM', 'XMM1', 'xmm1', true, false)], writes: ['XMM0'] }));
  assert.equal(div.latencyByResource.XMM0, 14);
  assert.equal(div.divCycles, 4);
  assert.equal(div.maxLatency, 14);
  const v = await one(decoded('VADDPD (YMM, YMM, YMM)', { ops: [reg('YMM', 'XMM0', 'ymm0', false, true), reg('YMM', 'XMM1', 'ymm1', true, false), reg('YMM', 'XMM2', 'ymm2', true, false)], writes: ['XMM0'] }));
  assert.deepEqual(v.latencyByResource, { XMM0: 4 });
  const imul = await one(decoded('IMUL (R64, R64)', { ops: [reg('R64', 'RAX', 'rax', true, true), reg('R64', 'RCX', 'rcx', true, false)], writes: ['RAX'], flagsWritten: ['CF', 'OF'] }));
  assert.equal(imul.latencyByResource.RAX, 3);
  assert.equal(imul.latencyByResource.CF, 3);
  // flags the file marks undefined are written too
  assert.equal(imul.latencyByResource.ZF, 3);
});

test('unknown instructions: flagged, with the chosen fallback', async () => {
  const cpuid = decoded('CPUID', { writes: ['RAX', 'RBX', 'RCX', 'RDX'], reads: ['RAX', 'RCX'] });
  const skip = await one(cpuid);
  assert.equal(skip.unknown, true);
  assert.equal(skip.form, null);
  assert.equal(skip.rule, 'none');
  assert.equal(skip.fallback, 'skip');
  assert.equal(skip.uops, 0);
  assert.deepEqual(skip.ports, []);
  assert.deepEqual(skip.latencyByResource, { RAX: 0, RBX: 0, RCX: 0, RDX: 0 });
  const alu = await one(cpuid, 'alu');
  assert.equal(alu.unknown, true);
  assert.equal(alu.rule, 'fallback');
  assert.equal(alu.fallback, 'alu');
  assert.deepEqual(alu.ports, [{ count: 1, ports: loadMachine('SKL').aluPorts }]);
  assert.equal(alu.uops, 1);
  assert.deepEqual(alu.latencyByResource, { RAX: 1, RBX: 1, RCX: 1, RDX: 1 });
  // an operand kind the file does not have is unknown, not silently matched
  const wrong = await one(decoded('ADD (R16, R16)', { writes: ['RAX'] }));
  assert.equal(wrong.unknown, true);
});

test('distinguishing attributes: LOCK, immzero and plain forms preferred', async () => {
  const base = (await skl()).forms.find((f) => f.string === 'ADD (R64, I8)')!;
  const variant = (attributes: Record<string, string>, uops: number): ArchForm => ({ ...base, attributes, m: { ...base.m, uops } });
  const data: ArchData = { arch: 'SKL', source: { kind: 'file', path: 'test', forms: 3 }, forms: [variant({ locked: '1' }, 7), variant({ immzero: '1' }, 5), variant({}, 1)] };
  const d = (prefixes: string[], value: number) => decoded('ADD (R64, I8)', { ops: [reg('R64', 'RAX', 'rax', true, true), imm('I8', value)], writes: ['RAX'], prefixes });
  assert.equal((await one(d([], 3), undefined, data)).uops, 1);
  assert.equal((await one(d(['LOCK'], 3), undefined, data)).uops, 7);
  assert.equal((await one(d([], 0), undefined, data)).uops, 5);
});

test('the resolved list keeps line numbers and order', async () => {
  const data = await skl();
  const rs = resolveInstructions([addRR({ line: 0 }), decoded('CPUID', { line: 1 }), addRR({ line: 2 })], data, { fallback: 'alu' });
  assert.deepEqual(rs.map((r) => [r.line, r.unknown]), [[0, false], [1, true], [2, false]]);
});
