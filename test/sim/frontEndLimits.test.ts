// The refined front end's instruction decode queue, cycle by cycle: it never holds more fused µops
// than its size (the core's record: uiCA's IDQWidth), and what a snapshot shows adds up — the
// occupancy at the end of a cycle is the previous one's minus the fused µops issued plus those
// delivered. A microcoded instruction whose µops outnumber the IDQ (gcc's `idiv r64` loop,
// test/fixtures/microcode: 57 µops on Haswell, uops.info's figure) enters it in parts;
// every bundled example,
// corpus build and loop fixture is checked on every core whose record gives an IDQ size.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseRegion, forArch } from '../../src/cli/pipeline.js';
import { listMachines, loadMachine } from '../../src/data/index.js';
import type { MachineModel } from '../../src/data/types.js';
import { BASELINE, REFINED_MECHANISMS, createEngine, frontEndLimitsOf } from '../../src/sim/index.js';
import type { MachineParams, SimProgram } from '../../src/sim/types.js';

const ROOT = join(import.meta.dirname, '../..');
const IDIV = join(ROOT, 'test/fixtures/microcode/idiv.gcc-O2.o');
const MODEL = { model: { mechanisms: REFINED_MECHANISMS } };

/** Steps the run to its end checking the IDQ each cycle; returns the largest occupancy seen. */
function checkIdq(program: SimProgram, params: MachineParams, iterations: number, what: string): number {
  const e = createEngine(program, params, { iterations, variant: BASELINE }, MODEL);
  let s = e.snapshot();
  let prev = 0;
  let most = 0;
  while (!s.finished) {
    s = e.step();
    const fe = s.frontEnd.refined;
    if (fe?.idq === null || fe?.idq === undefined || fe.idqSize === null) return -1;
    const at = `${what}, cycle ${s.cycle}`;
    assert.ok(fe.idq >= 0 && fe.idq <= fe.idqSize, `${at}: IDQ ${fe.idq}/${fe.idqSize}`);
    assert.equal(fe.idq, prev - fe.issued + fe.delivered, `${at}: IDQ ${prev} − ${fe.issued} + ${fe.delivered}`);
    prev = fe.idq;
    most = Math.max(most, fe.idq);
    assert.ok(s.cycle < 100_000, `${what}: no end`);
  }
  assert.equal(s.completed, s.total, `${what}: every instance completes`);
  return most;
}

test('a microcoded idiv larger than the IDQ enters it in parts: never more than its size (HSW, gcc -O2)', async () => {
  const base = await analyseRegion({ file: IDIV });
  const an = await forArch(base, loadMachine('HSW'));
  const plan = frontEndLimitsOf(an.program, an.params, MODEL)?.plan;
  assert.ok(plan, 'the front end is modelled on HSW');
  // the case the rule is for: one delivery group (the idiv and what the decoders take with it)
  // holds more fused µops than the whole IDQ
  assert.ok(
    plan.groups.some((g) => g.fused > plan.idqSize),
    `a group larger than the IDQ (${plan.idqSize}): ${plan.groups.map((g) => g.fused)}`,
  );
  const most = checkIdq(an.program, an.params, 20, 'idiv HSW');
  assert.equal(most, plan.idqSize, 'the IDQ fills up to its size');
});

/** every bundled program: the examples, one build per corpus source and flags, the loop fixtures */
function inputs(): string[] {
  const corpus = join(ROOT, 'examples/corpus/bin');
  const loops = join(ROOT, 'test/fixtures/loops');
  return [
    ...['adc-chain', 'branch', 'six-mov', 'stencil', 'mca-markers', 'two-regions'].map((x) =>
      join(ROOT, 'examples/bin', `${x}.o`),
    ),
    ...readdirSync(corpus)
      .filter((f) => /\.(gcc\.O2|clang\.O3)\.(sse2|avx2)\.o$/.test(f))
      .map((f) => join(corpus, f)),
    ...readdirSync(loops)
      .filter((f) => f.endsWith('.o'))
      .map((f) => join(loops, f)),
    IDIV,
  ];
}

test('the IDQ never holds more than its size, cycle by cycle, on every bundled loop and every core that models it', async () => {
  const machines: MachineModel[] = listMachines().filter((m) => m.frontEnd?.idqSize != null && !m.frontEnd.notModelled);
  assert.ok(machines.length >= 8, `cores with an IDQ: ${machines.map((m) => m.arch)}`);
  let checked = 0;
  for (const file of inputs()) {
    const base = await analyseRegion({ file });
    for (const machine of machines) {
      const an = await forArch(base, machine);
      if (checkIdq(an.program, an.params, 12, `${file.slice(ROOT.length + 1)} ${machine.arch}`) >= 0) checked++;
    }
  }
  assert.ok(checked > 100, `only ${checked} runs had an IDQ`);
});
