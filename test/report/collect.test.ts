import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectReport } from '../../src/report/collect.js';
import { renderText } from '../../src/report/text.js';
import { reportJson } from '../../src/report/json.js';
import { simulate } from '../../src/sim/index.js';
import type { MachineParams, SimInstruction, SimProgram } from '../../src/sim/types.js';
import { UserError } from '../../src/errors.js';

// thesis §4.1: six `mov rax, 6` on Sandy Bridge (1 µop on ports 0, 1 or 5, latency 1, no reads)
const snb: MachineParams = { arch: 'SNB', ports: [0, 1, 2, 3, 4, 5], issueWidth: 4, rsSize: 54, dividerPort: 0 };
const mov = (line: number): SimInstruction => ({
  line,
  asm: 'mov rax, 0x6',
  uops: [[0, 1, 5]],
  latency: 1,
  latencyByResource: { RAX: 1 },
  divCycles: 0,
  unknown: false,
});
const sixMoves: SimProgram = { instructions: [0, 1, 2, 3, 4, 5].map(mov), deps: [] };
const baseline = { perfectFrontEnd: false, infinitePorts: false, noDependencies: false };

test('the what-if figures are the runs of the main variant with one more switch', () => {
  const m = collectReport(
    { program: sixMoves, params: snb, unknown: [], origins: [] },
    { iterations: 200, variant: baseline },
  );
  const ip = simulate(sixMoves, snb, { iterations: 200, variant: { ...baseline, infinitePorts: true } });
  assert.equal(m.main.whatIf!.infinitePorts.blockThroughput, ip.stats.blockThroughput);
  assert.deepEqual(m.main.whatIf!.infinitePorts.variant, { ...baseline, infinitePorts: true });
  assert.equal(m.main.combinations, null);
  // the thesis's figures for this program (§4.1): 2.00 / 2.00 / 1.50 / 2.00, 3.00 µops per cycle
  const text = renderText(m);
  assert.match(
    text,
    /Block throughput: 2\.00 cycles\nBlock throughput with perfect front-end: 2\.00 cycles\nBlock throughput with infinitely usable ports: 1\.50 cycles\nBlock throughput without dependencies: 2\.00 cycles\nMicroops per cycle: 3\.00\n/,
  );
  assert.match(text, /Total number of Uops: 6\n/);
});

test('a variant flag runs the main analysis with it and keeps it in every what-if run', () => {
  const m = collectReport(
    { program: sixMoves, params: snb, unknown: [], origins: [] },
    { iterations: 200, variant: { ...baseline, infinitePorts: true } },
  );
  assert.equal(m.main.stats.blockThroughput, 1.5);
  assert.deepEqual(m.main.whatIf!.perfectFrontEnd.variant, {
    perfectFrontEnd: true,
    infinitePorts: true,
    noDependencies: false,
  });
  assert.equal(m.main.whatIf!.infinitePorts.blockThroughput, m.main.stats.blockThroughput);
  const fast = collectReport(
    { program: sixMoves, params: snb, unknown: [], origins: [] },
    { iterations: 10, variant: baseline, fast: true },
  );
  assert.equal(fast.main.whatIf, null);
  assert.doesNotMatch(renderText(fast), /with perfect/);
});

test('--all-variants gives the 8 combinations, baseline first, equal to single runs', () => {
  const m = collectReport(
    { program: sixMoves, params: snb, unknown: [], origins: [] },
    { iterations: 50, variant: baseline, allVariants: true },
  );
  const c = m.main.combinations!;
  assert.equal(c.length, 8);
  assert.deepEqual(c[0]!.variant, baseline);
  assert.equal(c[0]!.cycles, m.main.stats.cycles);
  for (const run of c) {
    assert.equal(run.cycles, simulate(sixMoves, snb, { iterations: 50, variant: run.variant }).stats.cycles);
  }
  assert.equal(reportJson(m).variants!.combinations!.length, 8);
});

test('--detail picks the line of the main run and refuses a line outside the region', () => {
  const m = collectReport(
    { program: sixMoves, params: snb, unknown: [], origins: [] },
    { iterations: 20, variant: baseline, detail: 3 },
  );
  assert.equal(m.detail!.line, 3);
  assert.match(renderText(m), /Detailed delay information for instruction: mov rax, 0x6 in line 3\n/);
  assert.throws(
    () =>
      collectReport(
        { program: sixMoves, params: snb, unknown: [], origins: [] },
        { iterations: 20, variant: baseline, detail: 6 },
      ),
    (e: unknown) =>
      e instanceof UserError && e.message === '--detail 6: no such line in the region; give a line from 0 to 5',
  );
});

test('branch sides are simulated with the same settings and keep original lines', () => {
  const left: SimProgram = { instructions: [mov(0), mov(2)], deps: [] };
  const right: SimProgram = { instructions: [mov(0), mov(4), mov(5)], deps: [] };
  const m = collectReport(
    { program: sixMoves, params: snb, unknown: [], origins: [], branch: { branchLine: 1, left, right } },
    { iterations: 30, variant: baseline },
  );
  assert.deepEqual(
    m.branch!.left.stats.lines.map((l) => l.line),
    [0, 2],
  );
  assert.deepEqual(
    m.branch!.right.stats.lines.map((l) => l.line),
    [0, 4, 5],
  );
  assert.equal(m.branch!.right.stats.cycles, simulate(right, snb, { iterations: 30, variant: baseline }).stats.cycles);
  // --detail with --branch: each side that holds the line gets its own detail (thesis §2.7)
  const d = collectReport(
    { program: sixMoves, params: snb, unknown: [], origins: [], branch: { branchLine: 1, left, right } },
    { iterations: 30, variant: baseline, detail: 2 },
  );
  assert.equal(d.detail!.line, 2);
  assert.equal(d.branch!.left.detail!.line, 2);
  assert.equal(d.branch!.right.detail, undefined);
  const text = renderText(d);
  assert.match(
    text.slice(
      text.indexOf("Fall-through branch analysis (the thesis's left branch):"),
      text.indexOf("Taken branch analysis (the thesis's right branch):"),
    ),
    /Detailed delay information for instruction: mov rax, 0x6 in line 2\n/,
  );
  assert.doesNotMatch(
    text.slice(text.indexOf("Taken branch analysis (the thesis's right branch):")),
    /Detailed delay information for instruction: mov rax, 0x6 in line 2\n[\s\S]*Detailed/,
  );
  const j = reportJson(d);
  assert.equal(j.branch!.left.detail!.line, 2);
  assert.equal(j.branch!.right.detail, undefined);
  const none = collectReport(
    { program: sixMoves, params: snb, unknown: [], origins: [], branch: null },
    { iterations: 3, variant: baseline },
  );
  assert.equal(none.branch, null);
});
