import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  inheritanceChain,
  listMachines,
  loadMachine,
  parseArchName,
  validateMachine,
  type ArchName,
} from '../../src/data/machines.js';
import { UserError } from '../../src/errors.js';

const ARCHS = [
  'NHM',
  'WSM',
  'SNB',
  'IVB',
  'HSW',
  'BDW',
  'SKL',
  'SKX',
  'KBL',
  'CFL',
  'CLX',
  'ICL',
  'TGL',
  'RKL',
  'ADL-P',
  'RPL',
  'SPR',
  'EMR',
];

test('all 18 machine models are there, valid and sourced', () => {
  const ms = listMachines();
  assert.deepEqual(
    ms.map((m) => m.arch),
    ARCHS,
  );
  for (const m of ms) {
    assert.deepEqual(validateMachine(m), [], m.arch);
    assert.ok(m.sources.length >= 2, `${m.arch} cites its sources`);
    for (const p of [...m.aluPorts, m.dividerPort]) {
      assert.ok(m.ports.includes(p), `${m.arch} port ${p}`);
    }
  }
});

test('figures of the reference table (shared/reference/machines.md)', () => {
  const row = (a: ArchName) => loadMachine(a);
  assert.deepEqual([row('NHM').issueWidth, row('NHM').rsSize], [4, 36]);
  assert.deepEqual([row('SNB').rsSize, row('SNB').aluPorts], [54, [0, 1, 5]]);
  assert.deepEqual([row('HSW').rsSize, row('HSW').aluPorts], [60, [0, 1, 5, 6]]);
  assert.deepEqual([row('SKL').rsSize, row('CFL').rsSize], [97, 97]);
  assert.deepEqual([row('ICL').issueWidth, row('ICL').rsSize], [5, 160]);
  // ADL-P: ports 10/11 as uops.info numbers them (A = load port 10, B = ALU port 11; docs/data.md)
  assert.deepEqual(
    [row('ADL-P').issueWidth, row('ADL-P').aluPorts, row('ADL-P').ports.includes(10)],
    [6, [0, 1, 5, 6, 11], true],
  );
  for (const m of listMachines()) assert.equal(m.dividerPort, 0);
});

test('ISA lists: AVX-512 only on the server and Ice Lake family cores, AVX2+FMA from Haswell', () => {
  const has = (a: ArchName, isa: string) => loadMachine(a).isa.includes(isa);
  for (const a of ['SKX', 'CLX', 'ICL', 'TGL', 'RKL'] as const) assert.ok(has(a, 'AVX512F'), a);
  for (const a of ['NHM', 'SNB', 'HSW', 'SKL', 'KBL', 'CFL', 'ADL-P'] as const) assert.ok(!has(a, 'AVX512F'), a);
  for (const a of ['HSW', 'BDW', 'SKL', 'ADL-P'] as const) assert.ok(has(a, 'AVX2') && has(a, 'FMA'), a);
  assert.ok(!has('SNB', 'AVX2') && has('SNB', 'AVX') && !has('NHM', 'AVX'));
  for (const m of listMachines()) assert.ok(m.isa.includes('SSE2'), m.arch);
});

test('inheritance is explicit and resolves to existing models', () => {
  assert.deepEqual(inheritanceChain('KBL'), ['KBL', 'SKL']);
  assert.deepEqual(inheritanceChain('CFL'), ['CFL', 'SKL']);
  assert.deepEqual(inheritanceChain('CLX'), ['CLX', 'SKX']);
  assert.deepEqual(inheritanceChain('SKL'), ['SKL']);
  for (const m of listMachines()) if (m.inheritsDataFrom) assert.ok(loadMachine(m.inheritsDataFrom));
});

test('an unknown architecture is a UserError listing the known ones', () => {
  // what the user writes becomes an ArchName at the edge: trimmed and upper-cased
  assert.equal(loadMachine(parseArchName(' skl ')!).arch, 'SKL');
  assert.equal(parseArchName('adl-p'), 'ADL-P');
  for (const bad of ['', 'S K L', '../SKL', 'A/B', 'A'.repeat(17), 42]) assert.equal(parseArchName(bad), null);
  assert.throws(
    () => loadMachine('P4'),
    (e: unknown) => e instanceof UserError && /unknown architecture 'P4' — known: .*SNB.*ADL-P/.test(e.message),
  );
  assert.deepEqual(validateMachine({ arch: 'X' }).slice(0, 2), ['name', 'ports (distinct numbers below 30)']);
  // the stand-in model for forms LLVM gives no µops is named as a core, not a path or an LLVM name
  const spr = loadMachine('SPR');
  assert.equal(spr.identity?.llvmPredecessor, 'ICL');
  for (const bad of ['../ICL', 'icelake-client', 7])
    assert.ok(
      validateMachine({ ...spr, identity: { ...spr.identity!, llvmPredecessor: bad as never } }).includes(
        'identity.llvmPredecessor',
      ),
      String(bad),
    );
});
