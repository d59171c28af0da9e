import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyse, branchPrograms, forArch, withLoop } from '../../src/cli/pipeline.js';
import { UserError } from '../../src/errors.js';
import { loadMachine } from '../../src/data/machines.js';

const branchBin = 'examples/bin/branch';
const uopsXml = 'test/fixtures/report/branch-example.xml';

test('analyse: the branch example on SNB becomes a 7-instruction program with loop-carried dependencies', async () => {
  const a = await analyse({ file: branchBin, arch: 'SNB', uopsXml });
  assert.equal(a.region.instructions.length, 7);
  assert.deepEqual(
    a.program.instructions.map((i) => i.asm),
    a.region.instructions.map((i) => i.intel),
  );
  assert.deepEqual(a.params.ports, [0, 1, 2, 3, 4, 5]);
  assert.equal(a.params.arch, 'SNB');
  assert.deepEqual(a.unknown, []);
  assert.deepEqual(a.program.instructions[2]!.uops, [[5]], 'jnz on port 5 (SNB)');
  assert.ok(
    a.graph.edges.some((e) => e.loopCarried),
    'loop-carried edges with loop (default)',
  );
  assert.ok(a.program.deps.some((d) => d.loopCarried));
});

test('forArch reuses the region and graph and redoes the machine-dependent part', async () => {
  const a = await analyse({ file: branchBin, arch: 'SNB', uopsXml });
  const b = await forArch(a, loadMachine('SKL'), { uopsXml });
  assert.equal(b.region, a.region);
  assert.equal(b.graph, a.graph);
  assert.equal(b.params.arch, 'SKL');
  assert.equal(b.params.ports.length, 8);
  assert.deepEqual(b.program.instructions[4]!.uops, [[6]], 'jmp on port 6 (SKL)');
  assert.deepEqual(a.program.instructions[4]!.uops, [[5]], 'the SNB analysis is untouched');
});

test('withLoop(false) is the latency analysis graph: no loop-carried dependencies', async () => {
  const a = await analyse({ file: branchBin, arch: 'SNB', uopsXml });
  const one = withLoop(a, false);
  assert.equal(one.loop, false);
  assert.ok(!one.graph.edges.some((e) => e.loopCarried));
  assert.ok(!one.program.deps.some((d) => d.loopCarried));
  assert.ok(one.program.deps.length > 0);
  assert.equal(withLoop(a, true), a);
});

test('branchPrograms: the two sides of the first conditional jump keep original lines (thesis §2.7)', async () => {
  const a = await analyse({ file: branchBin, arch: 'SNB', uopsXml });
  const b = branchPrograms(a)!;
  assert.equal(b.branchLine, 2);
  // fall-through: through the add at 3 and the jmp over line 5; taken: straight to line 5
  assert.deepEqual(
    b.left.instructions.map((i) => i.line),
    b.leftLines,
  );
  assert.deepEqual(
    b.right.instructions.map((i) => i.line),
    b.rightLines,
  );
  assert.ok(b.leftLines.includes(3) && b.leftLines.includes(4) && !b.leftLines.includes(5));
  assert.ok(b.rightLines.includes(5) && !b.rightLines.includes(3));
  const six = await analyse({ file: 'examples/bin/six-mov', arch: 'SNB', uopsXml });
  assert.equal(branchPrograms(six), null);
});

test('instructions without data are listed with the fallback applied', async () => {
  // imul rax, rbx: not in the fixture, so LLVM's Skylake model gives its figures
  const llvm = await analyse({ hex: '480fafc3', arch: 'SKL', uopsXml });
  assert.deepEqual(
    [llvm.unknown, llvm.resolved[0]!.origin, llvm.program.instructions[0]!.uops.length],
    [[], 'llvm', 1],
  );
  // vaddps zmm on Skylake client: the core has no AVX-512, no source may give figures
  const skip = await analyse({ hex: '62f1744858c2', arch: 'SKL', uopsXml });
  assert.deepEqual(skip.unknown, [
    { line: 0, asm: 'vaddps zmm0, zmm1, zmm2', fallback: 'skip', why: 'SKL cannot run it (needs AVX512F)' },
  ]);
  assert.deepEqual(skip.program.instructions[0]!.uops, []);
  const alu = await analyse({ hex: '62f1744858c2', arch: 'SKL', uopsXml, fallback: 'alu' });
  assert.equal(alu.unknown[0]!.fallback, 'alu');
  assert.equal(alu.program.instructions[0]!.uops.length, 1);
  assert.equal(alu.program.instructions[0]!.unknown, true);
});

test('an unknown architecture is refused before the input is read', async () => {
  await assert.rejects(
    analyse({ file: 'does/not/exist', arch: 'FOO' }),
    (e: unknown) => e instanceof UserError && /FOO/.test(e.message),
  );
});
