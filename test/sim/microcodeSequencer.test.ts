// The microcode sequencer in the refined front end (src/sim/frontEndPlan.ts; uiCA's
// MicrocodeSequencer, Decoder.cycle and DSB.cycle): on gcc's `s += a[i] / b[i]` loop over int
// (test/fixtures/microcode/idiv32.gcc-O2.o), with a uops.info-schema file whose IDIV (M32) carries
// a MADE-UP split (uops_MITE 2, uops_MS 8: no public figure was found), the tests check the
// mechanism's arithmetic against the core's record: the sequencer's µops per cycle, the switch
// stalls from the legacy decoders (SKX: the JCC erratum keeps this loop out of the µop cache) and
// from the µop cache (HSW). Without a split (the data uopscope ships) nothing changes, and the
// report says the sequencer is not modelled for the line.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyse } from '../../src/cli/pipeline.js';
import type { Analysis } from '../../src/cli/pipeline.js';
import { loadMachine } from '../../src/data/index.js';
import type { ArchName } from '../../src/data/types.js';
import { BASELINE, REFINED_MECHANISMS, createEngine, frontEndLimitsOf, simulate } from '../../src/sim/index.js';
import type { MachineParams } from '../../src/sim/types.js';

const ROOT = join(import.meta.dirname, '../..');
const IDIV32 = join(ROOT, 'test/fixtures/microcode/idiv32.gcc-O2.o');
const MADE_UP_SPLIT = join(ROOT, 'test/fixtures/microcode/idiv-m32-made-up-split.xml');
const MODEL = { model: { mechanisms: REFINED_MECHANISMS } };
const IDIV_LINE = 2;

async function loopOn(arch: ArchName, uopsXml?: string): Promise<Analysis> {
  return analyse({ file: IDIV32, arch, measured: false, ...(uopsXml ? { uopsXml } : {}) });
}

function planOf(an: { program: Analysis['program']; params: MachineParams }) {
  const limits = frontEndLimitsOf(an.program, an.params, MODEL);
  assert.ok(limits?.plan, 'the front end is planned');
  return limits;
}

/** The record's figures as the plan reads them. */
function figures(arch: ArchName) {
  const fe = loadMachine(arch).frontEnd!;
  return { width: fe.msWidth!.value, dsb: fe.dsbMsStall!.value, mite: fe.miteMsStall!.value };
}

/** The same core without the sequencer's figures in its record. */
function withoutSequencer(params: MachineParams): MachineParams {
  return { ...params, frontEnd: { ...params.frontEnd!, msWidth: null, dsbMsStall: null, miteMsStall: null } };
}

const cyclesPerIteration = (an: Analysis, params = an.params) =>
  simulate(an.program, params, { iterations: 200, variant: BASELINE }, MODEL).stats.blockThroughput;

test('from the legacy decoders (SKX): the stalls before and after and the µops per cycle are the record’s', async () => {
  const an = await loopOn('SKX', MADE_UP_SPLIT);
  const idiv = an.program.instructions[IDIV_LINE]!;
  assert.match(idiv.asm, /^idiv/);
  assert.equal(idiv.refined!.frontEnd.msUops, 8);
  const { width, mite } = figures('SKX');
  const limits = planOf(an);
  const plan = limits.plan!;
  assert.equal(plan.source, 'MITE');
  assert.equal(plan.period, 1);
  const ms = plan.groups.filter((g) => g.source === 'MS');
  // mite stall cycles, then ⌈8 / width⌉ cycles of the sequencer's µops, then mite stall cycles
  const delivering = Math.ceil(8 / width);
  assert.equal(ms.length, 2 * mite + delivering);
  assert.deepEqual(
    ms.map((g) => g.fused),
    [
      ...Array(mite).fill(0),
      ...Array.from({ length: delivering }, (_, k) => Math.min(width, 8 - k * width)),
      ...Array(mite).fill(0),
    ],
  );
  // the decoders' group ends with the idiv's own µops: its fused µops less the sequencer's 8
  const first = plan.groups.indexOf(ms[0]!);
  const dec = plan.groups[first - 1]!;
  assert.equal(dec.source, 'MITE');
  assert.equal(dec.end, IDIV_LINE + 1);
  // the idiv takes the complex decoder alone; the sequencer goes on after the µops it delivered
  const fromDecoder = ms[mite]!.skip!;
  assert.deepEqual([dec.start, dec.fused], [IDIV_LINE, fromDecoder]);
  assert.ok(fromDecoder >= 1, 'at least one µop from the decoder');
  // after the sequencer the decoders go on with the bytes fetched before it (0x10–0x2f): the
  // loop's other three units (add, add, cmp/jne at 0x17–0x22) in one cycle
  const rest = plan.groups.slice(first + ms.length);
  assert.deepEqual(
    rest.map((g) => [g.start, g.end, g.source]),
    [[IDIV_LINE + 1, an.program.instructions.length, 'MITE']],
  );
  // the applied figures are named with their sources
  for (const l of [
    'microcode sequencer µops per cycle',
    'legacy decoders to microcode sequencer stall cycles (and back)',
  ])
    assert.ok(
      limits.applied.some((a) => a.limit === l && /uiCA/.test(a.source)),
      `${l}: ${JSON.stringify(limits.applied)}`,
    );
  assert.equal(
    limits.notApplied.some((x) => /microcode sequencer/.test(x.limit)),
    false,
  );
  // the front end bounds this loop: the run takes the plan's cycles per iteration
  const tp = cyclesPerIteration(an);
  assert.ok(Math.abs(tp - plan.groups.length) < 0.25, `${tp} cycles per iteration, plan ${plan.groups.length}`);
  // a record with 3-cycle switch stalls: 2 · (3 − mite) cycles more per iteration
  const three = planOf({
    program: an.program,
    params: { ...an.params, frontEnd: { ...an.params.frontEnd!, miteMsStall: { value: 3, source: 'test' } } },
  });
  assert.equal(three.plan!.groups.length - plan.groups.length, 2 * (3 - mite));
  // without the record's figures the sequencer is not modelled, and the report says why
  const without = planOf({ program: an.program, params: withoutSequencer(an.params) });
  assert.equal(without.plan!.groups.filter((g) => g.source === 'MS').length, 0);
  assert.ok(without.notApplied.some((x) => x.limit === 'microcode sequencer'));
});

test('from the µop cache (HSW): the record’s DSB_MS_Stall cycles before, none after; the LSD does not stream the loop', async () => {
  const an = await loopOn('HSW', MADE_UP_SPLIT);
  const { width, dsb } = figures('HSW');
  const limits = planOf(an);
  const plan = limits.plan!;
  assert.equal(plan.source, 'DSB');
  const lsd = limits.applied.find((a) => a.limit === 'loop stream detector')!;
  assert.equal(lsd.value, 'not used: the microcode sequencer delivers part of the loop');
  assert.match(lsd.source, /canBeUsedByLSD/);
  const i = plan.groups.findIndex((g) => g.source === 'MS');
  const ms = plan.groups.slice(i).filter((g) => g.source === 'MS');
  const delivering = Math.ceil(8 / width);
  assert.deepEqual(
    ms.map((g) => g.fused),
    [...Array(dsb).fill(0), ...Array.from({ length: delivering }, (_, k) => Math.min(width, 8 - k * width))],
  );
  assert.equal(plan.groups[i + ms.length]!.source, 'DSB', 'back to the µop cache without a stall');
  // a record with a 2-cycle switch stall: the same plan with dsb − 2 cycles fewer
  const two = planOf({
    program: an.program,
    params: { ...an.params, frontEnd: { ...an.params.frontEnd!, dsbMsStall: { value: 2, source: 'test' } } },
  });
  assert.equal(plan.groups.length - two.plan!.groups.length, dsb - 2);
});

test('the snapshot names the sequencer as the front end’s source while it delivers or stalls; the IDQ adds up', async () => {
  const an = await loopOn('SKX', MADE_UP_SPLIT);
  const e = createEngine(an.program, an.params, { iterations: 10, variant: BASELINE }, MODEL);
  const seen = new Map<string, number>();
  let prev = 0;
  for (let s = e.step(); !s.finished; s = e.step()) {
    const fe = s.frontEnd.refined!;
    // the IDQ adds up and never holds more than its size
    assert.equal(fe.idq, prev - fe.issued + fe.delivered, `cycle ${s.cycle}`);
    assert.ok(fe.idq! <= fe.idqSize!, `cycle ${s.cycle}: IDQ ${fe.idq}/${fe.idqSize}`);
    prev = fe.idq!;
    if (fe.source === 'MS') seen.set(String(fe.delivered), (seen.get(String(fe.delivered)) ?? 0) + 1);
  }
  // per iteration: 2 stall cycles (0 delivered) and two cycles of 4
  assert.ok((seen.get('4') ?? 0) >= 2 * 9, JSON.stringify([...seen]));
  assert.ok((seen.get('0') ?? 0) >= 2 * 9, JSON.stringify([...seen]));
});

test('without a split (the data uopscope ships) the sequencer is not modelled: the report says so and the prediction is the one without its figures', async () => {
  for (const arch of ['SKX', 'HSW'] as const) {
    const an = await loopOn(arch);
    const idiv = an.program.instructions[IDIV_LINE]!;
    assert.equal(idiv.refined!.frontEnd.microcodeSequencer, true, `${arch}: more than 4 µops`);
    assert.equal(idiv.refined!.frontEnd.msUops, undefined);
    const limits = planOf(an);
    assert.equal(limits.plan!.groups.filter((g) => g.source === 'MS').length, 0);
    const note = limits.notApplied.find((x) => x.limit.startsWith(`microcode sequencer for line ${idiv.line}`));
    assert.ok(note, `${arch}: ${JSON.stringify(limits.notApplied)}`);
    assert.match(note.why, /uops_MS/);
    const bare = withoutSequencer(an.params);
    assert.deepEqual(limits.plan, planOf({ program: an.program, params: bare }).plan);
    assert.equal(cyclesPerIteration(an), cyclesPerIteration(an, bare));
  }
});

test('`uopscope report` on the idiv loop: without a split the header says the sequencer is not modelled for line 2; with the made-up split it says the front end applied the sequencer’s figures', () => {
  const report = (extra: string[]) => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.cts', 'report', IDIV32, '--arch', 'SKX', '--no-measured', ...extra],
      { encoding: 'utf8', cwd: ROOT, env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(ROOT, 'no-such-config') } },
    );
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.replace(/\n +/g, ' ');
  };
  const shipped = report([]);
  assert.match(
    shipped,
    /Not modelled on SKX: the front end's microcode sequencer for line 2 \(idiv dword ptr \[rsi\+rcx\*4\]\) \(no figure splits its \d+ fused µops/,
  );
  const split = report(['--uops-xml', MADE_UP_SPLIT]);
  assert.doesNotMatch(split, /microcode sequencer for line/);
  assert.match(split, /microcode sequencer µops per cycle 4/);
  assert.match(split, /legacy decoders to microcode sequencer stall cycles \(and back\) 1/);
});
