// A core is one record: a machine file dropped into $UOPSCOPE_MACHINES_DIR (here a temporary
// directory) is a new core that loads, validates, resolves its sources and simulates a loop, with
// no other change to uopscope. Its figures reach the engine from the file: a second file that
// inherits the first and changes only the issue width and the front end changes the prediction.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { analyse } from '../../src/cli/pipeline.js';
import { listMachines, loadMachine } from '../../src/data/machines.js';
import { archOfSignature } from '../../src/measure/host.js';
import { UserError } from '../../src/errors.js';
import { BASELINE, frontEndLimitsOf, REFINED_MECHANISMS, simulate } from '../../src/sim/index.js';
import { tempDir } from './helpers.js';

const dir = tempDir('machines');
const loops = tempDir('loops');
const before = process.env.UOPSCOPE_MACHINES_DIR;
process.env.UOPSCOPE_MACHINES_DIR = dir;
after(() => {
  if (before === undefined) delete process.env.UOPSCOPE_MACHINES_DIR;
  else process.env.UOPSCOPE_MACHINES_DIR = before;
  rmSync(dir, { recursive: true, force: true });
  rmSync(loops, { recursive: true, force: true });
});

const cited = (value: unknown, source: string) => ({ value, source });

/** A made-up two-wide core with Skylake's port numbering (so that Skylake's data can serve it). */
const TWO = {
  arch: 'TWO',
  name: 'A two-wide test core',
  order: 1,
  ports: [0, 1, 2, 3, 4, 5, 6, 7],
  aluPorts: [0, 1, 5, 6],
  dividerPort: 0,
  issueWidth: 2,
  rsSize: 20,
  isa: ['BASE', 'SSE', 'SSE2'],
  inheritsDataFrom: 'SKL',
  citations: { testSheet: "the test core's data sheet (made up for this test)" },
  memory: { load: [2, 3], storeAddress: [2, 3, 7], storeData: [4], simpleStoreAddressPort: 7, source: 'testSheet' },
  fusion: { macro: cited('snb', 'macroFusionManual'), unlamination: cited('hsw', 'unlaminationHsw') },
  rename: {
    zeroIdiomsNoPort: cited(true, 'zeroIdiom'),
    gprMoveElimination: cited(true, 'moveElimination'),
    vecMoveElimination: cited(true, 'moveElimination'),
  },
  frontEnd: {
    dsbWidth: cited(4, 'testSheet µop cache'),
    decoders: cited(2, 'testSheet'),
    fetchBytes: cited(16, 'testSheet'),
    lsd: cited(false, 'testSheet'),
    idqSize: cited(28, 'testSheet IDQ'),
    lsdUnrolling: null,
    jccErratum: cited(false, 'jccErratum'),
    both32ByteBlocksMustBeCacheable: null,
    macroFusibleOnLastDecoder: cited(true, 'testSheet'),
  },
  identity: {
    cpuid: [{ vendor: 'TestVendor', family: 99, models: [7] }],
    compilerNames: ['twowide'],
    source: 'testSheet',
  },
  sources: ["the test core's data sheet (made up for this test)"],
};

writeFileSync(join(dir, 'TWO.json'), JSON.stringify(TWO));
// the same core, four wide, with a wider µop cache: one file naming what differs
writeFileSync(
  join(dir, 'FOUR.json'),
  JSON.stringify({
    arch: 'FOUR',
    name: 'The test core, four wide',
    order: 2,
    inherits: 'TWO',
    inheritsDataFrom: 'SKL',
    issueWidth: 4,
    frontEnd: { dsbWidth: cited(6, 'testSheet') },
    identity: { cpuid: [], compilerNames: [], source: 'testSheet' },
    sources: ["the test core's data sheet (made up for this test)"],
  }),
);

const loopFile = join(loops, 'adds.s');
writeFileSync(
  loopFile,
  '.intel_syntax noprefix\n.text\n.p2align 6\n.globl f\nf:\n1:\n  add rax, 1\n  add rbx, 1\n  add rcx, 1\n  add rdx, 1\n  add rsi, 1\n  dec rdi\n  jnz 1b\n  ret\n',
);

async function cyclesPerIteration(arch: string): Promise<number> {
  const a = await analyse({ file: loopFile, function: 'f', arch: arch as never, fallback: 'alu' });
  const r = simulate(
    a.program,
    a.params,
    { iterations: 400, variant: BASELINE },
    { model: { mechanisms: REFINED_MECHANISMS } },
  );
  return r.stats.blockThroughput;
}

test('a machine file alone adds a core: listed, loaded with its citations expanded, identified', () => {
  assert.deepEqual(
    listMachines()
      .slice(0, 2)
      .map((m) => m.arch),
    ['TWO', 'FOUR'],
    "ordered by the files' order",
  );
  const two = loadMachine('TWO');
  assert.equal(two.frontEnd!.dsbWidth!.source, "the test core's data sheet (made up for this test) µop cache");
  assert.match(two.fusion!.macro!.source, /Optimization|opt-manual/);
  const four = loadMachine('FOUR');
  // inherited: everything but what FOUR's file says, and its own name and identity
  assert.equal(four.issueWidth, 4);
  assert.equal(four.rsSize, 20);
  assert.equal(four.frontEnd!.dsbWidth!.value, 6);
  assert.equal(four.frontEnd!.decoders!.value, 2);
  assert.equal(four.identity!.compilerNames.length, 0);
  assert.equal(archOfSignature('TestVendor', 99, 7, 0).arch, 'TWO');
});

test("a loop simulates on the new core, and the record's figures decide the prediction", async () => {
  // five adds and a fused dec/jnz: 6 fused-domain µops per iteration, 2 per cycle on TWO
  const two = await cyclesPerIteration('TWO');
  const four = await cyclesPerIteration('FOUR');
  const skl = await cyclesPerIteration('SKL');
  assert.ok(two >= 2.9 && two <= 3.1, `TWO: ${two} cycles/iteration, 6 fused µops at 2 per cycle`);
  assert.ok(four < two - 1, `FOUR (4 wide): ${four} < TWO ${two}`);
  assert.ok(Math.abs(four - skl) < 0.3, `FOUR ~ SKL (both 4 wide, 4 ALU ports): ${four} vs ${skl}`);
  // the front end's figures come from the file, with the file's citation
  const a = await analyse({ file: loopFile, function: 'f', arch: 'TWO' as never, fallback: 'alu' });
  const fe = frontEndLimitsOf(a.program, a.params, { model: { mechanisms: REFINED_MECHANISMS } })!;
  const idq = fe.applied.find((l) => l.limit.startsWith('instruction decode queue'))!;
  assert.deepEqual([idq.value, idq.source], [28, "the test core's data sheet (made up for this test) IDQ"]);
});

test('a bad machine file is refused in one line naming the file', () => {
  const bad = (name: string, body: object, re: RegExp) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(body));
    try {
      // a fresh directory key: point the variable elsewhere and back so the files are reread
      process.env.UOPSCOPE_MACHINES_DIR = `${dir}/.`;
      assert.throws(
        () => listMachines(),
        (e: unknown) => e instanceof UserError && re.test(e.message) && e.message.includes(file.replace(dir, '')),
      );
    } finally {
      rmSync(file);
      process.env.UOPSCOPE_MACHINES_DIR = dir;
    }
  };
  bad(
    'BADSRC',
    { ...TWO, arch: 'BADSRC', identity: undefined, frontEnd: { ...TWO.frontEnd, decoders: cited(2, 'nowhere') } },
    /frontEnd\.decoders: source 'nowhere' does not start with a known source id/,
  );
  bad('BADINH', { arch: 'BADINH', name: 'x', inherits: 'NOPE', sources: ['x'] }, /inherits from unknown core 'NOPE'/);
  bad('LOOPA', { arch: 'LOOPA', name: 'x', inherits: 'LOOPA', sources: ['x'] }, /makes a cycle/);
  bad('DUP', { ...TWO }, /names core TWO, as .* does — remove one of them/);
  bad(
    'BADFIG',
    { ...TWO, arch: 'BADFIG', identity: undefined, frontEnd: { ...TWO.frontEnd, idqSize: cited(-1, 'testSheet') } },
    /bad fields: frontEnd\.idqSize/,
  );
});
