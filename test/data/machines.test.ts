import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MachineModel } from '../../src/data/types.js';
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
import { assetsDir } from '../../src/data/paths.js';

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
  'ZEN2',
  'ZEN3',
  'ZEN4',
  'ZEN5',
];

test('all 22 machine models are there, valid and sourced', () => {
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
  for (const m of listMachines()) if (!m.portNames) assert.equal(m.dividerPort, 0, m.arch);
});

test("Zen cores: AMD's pipe names, the divider's pipe, the schedulers' sizes summing to rsSize", () => {
  const pipe = (a: ArchName, p: number) => loadMachine(a).portNames![loadMachine(a).ports.indexOf(p)];
  // integer division: ALU2 on Zen 2, ALU0 on Zen 3 and 4 (LLVM), ALU3 on Zen 5 (LLVM's Zen 5 PR)
  assert.deepEqual(
    (['ZEN2', 'ZEN3', 'ZEN4', 'ZEN5'] as const).map((a) => pipe(a, loadMachine(a).dividerPort)),
    ['ALU2', 'ALU0', 'ALU0', 'ALU3'],
  );
  for (const a of ['ZEN2', 'ZEN3', 'ZEN4', 'ZEN5'] as const) {
    const m = loadMachine(a) as MachineModel & {
      schedulers: { queues: { name: string; size: { value: number; source: string }; ports: number[] }[] };
    };
    assert.equal(m.portNames!.length, m.ports.length, a);
    assert.ok(m.ports.length > 12 || a === 'ZEN2', `${a}: more than uops.info's 12 one-character ports`);
    const queues = m.schedulers.queues;
    assert.equal(
      queues.reduce((n, q) => n + q.size.value, 0),
      m.rsSize,
      `${a}: rsSize is the queues' sum`,
    );
    // every port in exactly one queue, every size cited
    assert.deepEqual(
      queues.flatMap((q) => q.ports).sort((x, y) => x - y),
      [...m.ports].sort((x, y) => x - y),
      a,
    );
    for (const q of queues) assert.ok(q.size.source.length > 0, `${a} ${q.name}`);
    // a queue is never named as a pipe: the explorer prints both side by side
    for (const q of queues) assert.ok(!m.portNames!.includes(q.name), `${a}: queue ${q.name} is also a pipe`);
    assert.equal(m.fusion?.macro?.value, a === 'ZEN2' ? 'zen' : 'zen3', a);
  }
  // ZEN5's figures are ZEN4's (LLVM 19 has no Zen 5 model), and its ports extend ZEN4's numbering
  assert.deepEqual(inheritanceChain('ZEN5'), ['ZEN5', 'ZEN4']);
  assert.deepEqual(loadMachine('ZEN5').portNames!.slice(0, 17), loadMachine('ZEN4').portNames);
  assert.deepEqual([loadMachine('ZEN4').issueWidth, loadMachine('ZEN5').issueWidth], [6, 8]);
});

test('port names and counts are checked', () => {
  const zen = loadMachine('ZEN4');
  const bad = (m: Partial<MachineModel>) => validateMachine({ ...zen, ...m }).join(' ');
  assert.equal(bad({}), '');
  assert.match(bad({ portNames: zen.portNames!.slice(1) }), /^portNames/);
  assert.match(bad({ portNames: zen.portNames!.map(() => 'ALU0') }), /^portNames/);
  assert.match(bad({ portNames: zen.portNames!.map((n, i) => (i ? n : 'alu 0')) }), /^portNames/);
  // the engine's limit: 30 ports, numbered below 30
  const many = Array.from({ length: 31 }, (_, i) => i);
  assert.match(bad({ ports: many, portNames: undefined }), /^ports/);
  assert.match(bad({ ports: [0, 1, 30], portNames: undefined, aluPorts: [0], dividerPort: 0 }), /^ports/);
  assert.match(bad({ ports: [0, 0, 1], portNames: undefined, aluPorts: [0], dividerPort: 0 }), /^ports/);
  // a scheduler queue named as a pipe (FP1 the queue beside FP1 the pipe) is refused
  const queues = zen.schedulers!.queues;
  const renamed = (name: string) => ({
    schedulers: { ...zen.schedulers!, queues: queues.map((q, i) => (i === 0 ? { ...q, name } : q)) },
  });
  assert.match(bad(renamed('FP1')), /schedulers\.queues\[0\]\.name \(FP1 is also a pipe's name\)/);
  assert.equal(bad(renamed('INTQ')), '');
  // LLVM's resources may only name the record's pipes
  assert.match(bad({ identity: { ...zen.identity!, llvmPipes: { Zn4ALU0: ['ALU9'] } } }), /identity\.llvmPipes/);
});

test('ISA lists: AVX-512 only on the server and Ice Lake family cores, AVX2+FMA from Haswell', () => {
  const has = (a: ArchName, isa: string) => loadMachine(a).isa.includes(isa);
  for (const a of ['SKX', 'CLX', 'ICL', 'TGL', 'RKL'] as const) assert.ok(has(a, 'AVX512F'), a);
  for (const a of ['NHM', 'SNB', 'HSW', 'SKL', 'KBL', 'CFL', 'ADL-P'] as const) assert.ok(!has(a, 'AVX512F'), a);
  for (const a of ['HSW', 'BDW', 'SKL', 'ADL-P'] as const) assert.ok(has(a, 'AVX2') && has(a, 'FMA'), a);
  assert.ok(!has('SNB', 'AVX2') && has('SNB', 'AVX') && !has('NHM', 'AVX'));
  for (const m of listMachines()) assert.ok(m.isa.includes('SSE2'), m.arch);
});

test('Gather Data Sampling: the affected cores say so with its sources, the others do not', () => {
  // Linux's cpu_vuln_blacklist gives the GDS bit to Skylake (client and server: Cascade Lake),
  // Kaby/Coffee Lake, Ice Lake, Tiger Lake and Rocket Lake; not to Haswell, Broadwell or Golden Cove
  const affected = ['SKL', 'SKX', 'KBL', 'CFL', 'CLX', 'ICL', 'TGL', 'RKL'];
  for (const m of listMachines()) {
    const gds = m.microcode?.gatherDataSampling;
    if (affected.includes(m.arch)) {
      assert.equal(gds?.value, true, m.arch);
      assert.match(
        gds!.source,
        /Intel "Gather Data Sampling" \(technical paper ID 785676.*785681.*cpu_vuln_blacklist/,
        m.arch,
      );
    } else assert.equal(gds, undefined, m.arch);
  }
  const skl = loadMachine('SKL');
  const bad = (v: unknown) => validateMachine({ ...skl, microcode: v as never });
  assert.deepEqual(bad({ gatherDataSampling: { value: 'yes', source: 'gds' } }), ['microcode.gatherDataSampling']);
  assert.deepEqual(bad({ gatherDataSampling: { value: true } }), ['microcode.gatherDataSampling']);
  assert.deepEqual(bad({}), ['microcode.gatherDataSampling']);
  assert.deepEqual(bad({ gatherDataSampling: { value: true, source: 'gds' }, other: 1 }), [
    'microcode.other (unknown field)',
  ]);
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

test('a run reads only the records it needs, and they are the records a full read gives', () => {
  // the shipped record of core X is the file X.json: loadMachine reads that file (and those it
  // inherits from) without listing the directory
  const dir = join(assetsDir(), 'machines');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')))
    assert.equal(
      (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { arch: string }).arch,
      f.replace(/\.json$/, ''),
      f,
    );
  const all = listMachines();
  const extra = mkdtempSync(join(tmpdir(), 'uopscope-machines-'));
  const before = process.env.UOPSCOPE_MACHINES_DIR;
  try {
    // another directory set: nothing read yet, so each core below is read on its own
    process.env.UOPSCOPE_MACHINES_DIR = extra;
    for (const m of [...all].reverse()) assert.deepEqual(loadMachine(m.arch), m, m.arch);
    process.env.UOPSCOPE_MACHINES_DIR = `${extra}/.`;
    assert.deepEqual(inheritanceChain('CLX'), ['CLX', 'SKX']);
    assert.throws(() => loadMachine('NOPE' as ArchName), /unknown architecture 'NOPE'/);
    // the same objects as a full read, once both were made
    assert.equal(
      listMachines().find((m) => m.arch === 'CLX'),
      loadMachine('CLX'),
    );
  } finally {
    if (before === undefined) delete process.env.UOPSCOPE_MACHINES_DIR;
    else process.env.UOPSCOPE_MACHINES_DIR = before;
    rmSync(extra, { recursive: true, force: true });
  }
});
