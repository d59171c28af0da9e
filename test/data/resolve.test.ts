import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadArchData } from '../../src/data/archData.js';
import { resolveInstructions } from '../../src/data/resolve.js';
import { loadMachine } from '../../src/data/machines.js';
import type { ArchData, ArchForm } from '../../src/data/types.js';
import { ARITH_FLAGS, SMALL, decoded, imm, mem, reg } from './helpers.js';

const skl = () => loadArchData('SKL', { uopsXml: SMALL });
const one = async (d: ReturnType<typeof decoded>, fallback?: 'skip' | 'alu', data?: ArchData) =>
  resolveInstructions([d], data ?? (await skl()), fallback ? { fallback } : {})[0]!;

const addRR = (over: Parameters<typeof decoded>[1] = {}) =>
  decoded('ADD (R64, R64)', {
    ops: [reg('R64', 'RAX', 'rax', true, true), reg('R64', 'RBX', 'rbx', true, false)],
    reads: ['RAX', 'RBX'],
    writes: ['RAX'],
    flagsWritten: [...ARITH_FLAGS],
    ...over,
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
  const i8 = await one(
    decoded('ADD (R64, I8)', {
      ops: [reg('R64', 'RAX', 'rax', true, true), imm('I8', 5)],
      writes: ['RAX'],
      flagsWritten: [...ARITH_FLAGS],
    }),
  );
  assert.equal(i8.form!.string, 'ADD (R64, I8)');
  assert.equal(i8.rule, 'signature');
  const i32 = await one(
    decoded('ADD (R64, I32)', {
      ops: [reg('R64', 'RAX', 'rax', true, true), imm('I32', 500)],
      writes: ['RAX'],
      flagsWritten: [...ARITH_FLAGS],
    }),
  );
  assert.equal(i32.form!.string, 'ADD (R64, I32)');
  const jne32 = await one(
    decoded('JNE (Rel32)', { ops: [{ kind: 'Rel32', read: true, write: false }], flagsRead: ['ZF'] }),
  );
  assert.equal(jne32.rule, 'signature-width');
  assert.equal(jne32.form!.string, 'JNZ (Rel8)');
  const jne8 = await one(
    decoded('JNE (Rel8)', { ops: [{ kind: 'Rel8', read: true, write: false }], flagsRead: ['ZF'] }),
  );
  assert.equal(jne8.rule, 'signature');
  assert.deepEqual(jne8.ports, [{ count: 1, ports: [0, 6] }]);
  assert.equal(jne8.maxLatency, 0);
});

test('_indexed figures when the address has an index register', async () => {
  const st = (indexed: boolean) =>
    decoded('MOV (M64, R64)', {
      ops: [mem('M64', false, true), reg('R64', 'RBX', 'rbx', true, false)],
      reads: ['RAX', 'RBX', ...(indexed ? ['RCX' as const] : [])],
      indexed,
    });
  const plain = await one(st(false));
  assert.equal(plain.variant, 'plain');
  assert.deepEqual(plain.ports, [
    { count: 1, ports: [2, 3, 7] },
    { count: 1, ports: [4] },
  ]);
  const idx = await one(st(true));
  assert.equal(idx.variant, 'indexed');
  assert.deepEqual(idx.ports, [
    { count: 1, ports: [2, 3] },
    { count: 1, ports: [4] },
  ]);
  assert.deepEqual(idx.latencyByResource, {});
  // a load: the largest of the address and memory latencies counts
  const ld = await one(
    decoded('ADD (R64, M64)', {
      ops: [reg('R64', 'RAX', 'rax', true, true), mem('M64', true, false)],
      writes: ['RAX'],
      flagsWritten: [...ARITH_FLAGS],
      indexed: true,
    }),
  );
  assert.equal(ld.variant, 'indexed');
  assert.equal(ld.uops, 2);
  assert.equal(ld.latencyByResource.RAX, 6);
  assert.equal(ld.latencyByResource.ZF, 6);
});

test('_same_reg figures for zero idioms', async () => {
  const xor = (same: boolean) =>
    decoded('XOR (R32, R32)', {
      ops: [reg('R32', 'RAX', 'eax', true, true), reg('R32', same ? 'RAX' : 'RBX', same ? 'eax' : 'ebx', true, false)],
      writes: ['RAX'],
      flagsWritten: ['CF', 'PF', 'ZF', 'SF', 'OF', 'AF'],
      sameReg: same,
      zeroIdiom: same,
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
  const div = await one(
    decoded('DIVSD (XMM, XMM)', {
      ops: [reg('XMM', 'XMM0', 'xmm0', true, true), reg('XMM', 'XMM1', 'xmm1', true, false)],
      writes: ['XMM0'],
    }),
  );
  assert.equal(div.latencyByResource.XMM0, 14);
  assert.equal(div.divCycles, 4);
  assert.equal(div.maxLatency, 14);
  const v = await one(
    decoded('VADDPD (YMM, YMM, YMM)', {
      ops: [
        reg('YMM', 'XMM0', 'ymm0', false, true),
        reg('YMM', 'XMM1', 'ymm1', true, false),
        reg('YMM', 'XMM2', 'ymm2', true, false),
      ],
      writes: ['XMM0'],
    }),
  );
  assert.deepEqual(v.latencyByResource, { XMM0: 4 });
  const imul = await one(
    decoded('IMUL (R64, R64)', {
      ops: [reg('R64', 'RAX', 'rax', true, true), reg('R64', 'RCX', 'rcx', true, false)],
      writes: ['RAX'],
      flagsWritten: ['CF', 'OF'],
    }),
  );
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
  const variant = (attributes: Record<string, string>, uops: number): ArchForm => ({
    ...base,
    attributes,
    m: { ...base.m, uops },
  });
  const data: ArchData = {
    arch: 'SKL',
    source: { kind: 'file', path: 'test', forms: 3 },
    forms: [variant({ locked: '1' }, 7), variant({ immzero: '1' }, 5), variant({}, 1)],
  };
  const d = (prefixes: string[], value: number) =>
    decoded('ADD (R64, I8)', {
      ops: [reg('R64', 'RAX', 'rax', true, true), imm('I8', value)],
      writes: ['RAX'],
      prefixes,
    });
  assert.equal((await one(d([], 3), undefined, data)).uops, 1);
  assert.equal((await one(d(['LOCK'], 3), undefined, data)).uops, 7);
  assert.equal((await one(d([], 0), undefined, data)).uops, 5);
});

test('the resolved list keeps line numbers and order', async () => {
  const data = await skl();
  const rs = resolveInstructions([addRR({ line: 0 }), decoded('CPUID', { line: 1 }), addRR({ line: 2 })], data, {
    fallback: 'alu',
  });
  assert.deepEqual(
    rs.map((r) => [r.line, r.unknown]),
    [
      [0, false],
      [1, true],
      [2, false],
    ],
  );
});

test('LEA: matched by address shape (uops.info splits LEA forms by base/index/scale/displacement)', async () => {
  const base = (await skl()).forms.find((f) => f.string === 'ADD (R64, I8)')!;
  const form = (string: string, uops: number, attributes: Record<string, string> = {}): ArchForm => ({
    ...base,
    string,
    iform: 'LEA_GPRv_AGEN',
    asm: 'LEA',
    attributes,
    m: { ...base.m, uops },
  });
  const data: ArchData = {
    arch: 'SKL',
    source: { kind: 'file', path: 'test', forms: 5 },
    forms: [
      form('LEA_B_D8 (R64)', 1),
      form('LEA_B_IS_D8 (R64)', 2),
      form('LEA_R_D32 (R64)', 3),
      form('LEA_B_D8 (R32)', 4),
      form('LEA_BISD (R64)', 5),
    ],
  };
  const lea = (
    kind: string,
    memory: { base: string | null; index: string | null; scale: number; displacement: number },
  ) =>
    decoded(`LEA (${kind}, AGEN)`, {
      mnemonic: 'LEA',
      iform: 'LEA_GPRv_AGEN',
      ops: [reg(kind, 'RAX', kind === 'R64' ? 'rax' : 'eax', false, true), { kind: 'AGEN', read: false, write: false }],
      writes: ['RAX'],
      memory: { ...memory, segment: null, size: 0, read: false, write: false },
      indexed: memory.index !== null,
    });
  const r = (d: ReturnType<typeof lea>) => resolveInstructions([d], data)[0]!;
  assert.equal(r(lea('R64', { base: 'RBX', index: null, scale: 1, displacement: 8 })).form!.string, 'LEA_B_D8 (R64)');
  assert.equal(r(lea('R32', { base: 'RBX', index: null, scale: 1, displacement: 8 })).form!.string, 'LEA_B_D8 (R32)');
  assert.equal(
    r(lea('R64', { base: 'RBX', index: 'RCX', scale: 4, displacement: 16 })).form!.string,
    'LEA_B_IS_D8 (R64)',
  );
  assert.equal(
    r(lea('R64', { base: 'RIP', index: null, scale: 1, displacement: 100 })).form!.string,
    'LEA_R_D32 (R64)',
  );
  // a shape the data lacks (index without base) is unknown rather than a wrong shape
  assert.equal(r(lea('R64', { base: null, index: 'RCX', scale: 8, displacement: 4096 })).unknown, true);
});

test("operand pairing: by class, never guessing a register from the file's list", async () => {
  // the decoder gave no operand details: only its own writes count, not the file's first register
  const bare = await one(decoded('ADD (R64, R64)', { writes: ['RBX'], flagsWritten: ['ZF'] }));
  assert.deepEqual(bare.latencyByResource, { RBX: 1, AF: 1, CF: 1, OF: 1, PF: 1, SF: 1, ZF: 1 });
  // a mask register the decoder leaves out of its operand list does not shift the pairing
  const base = (await skl()).forms.find((f) => f.string === 'VADDPD (YMM, YMM, YMM)')!;
  const zmm = (idx: number, r: boolean, w: boolean) => ({
    idx,
    type: 'reg',
    read: r,
    write: w,
    suppressed: false,
    width: 512,
    registers: ['ZMM0', 'ZMM1'],
  });
  const masked: ArchForm = {
    ...base,
    string: 'VADDPD (ZMM, K, ZMM, ZMM)',
    attributes: { mask: '1' },
    operands: [
      zmm(1, true, true),
      { idx: 2, type: 'reg', read: true, write: false, suppressed: false, width: 64, registers: ['K1', 'K2'] },
      zmm(3, true, false),
      zmm(4, true, false),
    ],
    m: {
      uops: 1,
      ports: [{ count: 1, ports: [0, 5] }],
      latencies: [
        { startOp: 3, targetOp: 1, cycles: 4 },
        { startOp: 2, targetOp: 1, cycles: 3 },
      ],
    },
  };
  const data: ArchData = { arch: 'SKX', source: { kind: 'file', path: 'test', forms: 1 }, forms: [masked] };
  const d = decoded('VADDPD (ZMM, K, ZMM, ZMM)', {
    ops: [
      reg('ZMM', 'XMM1', 'zmm1', true, true),
      reg('ZMM', 'XMM2', 'zmm2', true, false),
      reg('ZMM', 'XMM3', 'zmm3', true, false),
    ],
    writes: ['XMM1'],
  });
  assert.deepEqual(resolveInstructions([d], data)[0]!.latencyByResource, { XMM1: 4 });
});
