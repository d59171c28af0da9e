import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderText, renderLineTable, renderCombinations, renderMechanisms } from '../../src/report/text.js';
import { BASELINE, MECHANISMS } from '../../src/sim/index.js';
import type { MechanismEffect, MechanismSet, VariantFigures } from '../../src/sim/index.js';
import type { ModelRun } from '../../src/report/model.js';
import { fixed, blankIfZero } from '../../src/report/format.js';
import { figures, latencyExample, line, stats } from './fixtures.js';

test("figures are rounded as C's printf rounds them (as SUACA printed), zero is blank, a tiny value prints 0.0", () => {
  assert.equal(fixed(468 / 200, 2), '2.34');
  // x.xx5 from an odd cycle count is below the tie in binary: printf("%.2f", 401/200.0) = 2.00
  assert.equal(fixed(401 / 200, 2), '2.00');
  assert.equal(fixed(467 / 200, 2), '2.33');
  assert.equal(fixed(351 / 200, 2), '1.75');
  assert.equal(fixed(9015 / 3000, 2), '3.00');
  assert.equal(fixed(2.345, 2), '2.35'); // 2.34500000000000019…
  // exact ties go to even, as glibc's printf
  assert.equal(fixed(0.125, 2), '0.12');
  assert.equal(fixed(0.375, 2), '0.38');
  assert.equal(fixed(0.25, 1), '0.2');
  assert.equal(fixed(2.5, 0), '2');
  assert.equal(fixed(-0.001, 1), '0.0');
  assert.equal(fixed(0.04, 1), '0.0');
  assert.equal(fixed(15.649999, 1), '15.6');
  assert.equal(fixed(3, 2), '3.00');
  assert.equal(blankIfZero(0), '');
  assert.equal(blankIfZero(0.001), '0.0');
  assert.equal(blankIfZero(1), '1.0');
});

test('the latency analysis of the branch example prints in the thesis layout', () => {
  const text = renderText(latencyExample());
  assert.deepEqual(text.split('\n').slice(0, 10), [
    'Iterations: 1',
    'Model: suaca',
    'Figures: 7 lines: 7 SUACA thesis',
    '',
    'Block throughput: 3.00 cycles',
    'Block throughput with perfect front-end: 3.00 cycles',
    'Block throughput with infinitely usable ports: 3.00 cycles',
    'Block throughput without dependencies: 3.00 cycles',
    'Microops per cycle: 2.33',
    'Analysis for architecture: SNB',
  ]);
  assert.match(
    text,
    /Total number of Uops: 7\n\nMechanisms: none \(SUACA's model\)[^\n]*(\n  [^\n]*)*\n\nBlock throughput: cycles per iteration, simulated cycle by cycle over the run\n  \(llvm-mca's Block RThroughput is a bound from port pressure alone\)\nSource: M measured by uops\.info, T SUACA thesis, L LLVM 19 model, \? no figures\n$/,
  );
});

test('the line table has one column per port, blanks for zero and the asm last', () => {
  const m = latencyExample();
  const lines = renderLineTable(m.main.stats, m.ports, m.dividerPort);
  assert.deepEqual(lines, [
    '     ||  Num ||   had   ||  caused ||          Used Ports         ||',
    'Line || Uops || to wait || to wait ||  0  |  1  | 2 | 3 | 4 |  5  ||',
    '   0 ||    1 ||         ||     1.0 ||     | 1.0 |   |   |   |     || mov rax, 0x1',
    '   1 ||    1 ||         ||         || 1.0 |     |   |   |   |     || cmp rcx, 0x0',
    '   2 ||    1 ||     1.0 ||     1.0 ||     |     |   |   |   | 1.0 || jnz 0x7',
    '   3 ||    1 ||     1.0 ||     1.0 || 1.0 |     |   |   |   |     || add rbx, rax',
    '   4 ||    1 ||     1.0 ||     1.0 ||     |     |   |   |   | 1.0 || jmp 0x5',
    '   5 ||    1 ||         ||     1.0 ||     | 1.0 |   |   |   |     || add rbx, rax',
    '   6 ||    1 ||     1.0 ||         || 1.0 |     |   |   |   |     || add rbx, rbx',
  ]);
});

test('the divider column appears after the divider port only when the divider is used', () => {
  const without = stats([line(0, 'add rax, rbx', { ports: { '0': 1 } })], 1, 1);
  assert.doesNotMatch(renderLineTable(without, [0, 1, 5], 0).join('\n'), /DV/);
  const withDiv = stats(
    [line(0, 'div rcx', { uops: 1, ports: { '0': 1 }, divider: 21.5 }), line(1, 'add rax, rbx', { ports: { '1': 1 } })],
    30,
    1,
  );
  const t = renderLineTable(withDiv, [0, 1, 5], 0);
  assert.match(t[1]!, /\|\|  0  \|  DV  \|  1  \| 5 \|\|/);
  assert.match(t[2]!, /\| 1\.0 \| 21\.5 \|/);
  // the add line leaves the divider blank
  assert.match(t[3]!, /\|     \|      \| 1\.0 \|/);
});

test('lines without figures are marked ?, announced before any throughput, and listed with the reason and the fallback', () => {
  const m = latencyExample();
  m.main.stats.lines[1] = { ...m.main.stats.lines[1]!, unknown: true, asm: 'vfoo xmm1, xmm2' };
  m.unknown = [{ line: 1, asm: 'vfoo xmm1, xmm2', fallback: 'alu', why: 'no source has figures for this form' }];
  m.origins[1] = 'none';
  const text = renderText(m);
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(0, 4), [
    'Iterations: 1',
    'Model: suaca',
    'Figures: 7 lines: 6 SUACA thesis, 1 no figures',
    'INCOMPLETE: 1 of 7 lines have no figures on SNB (line 1); every throughput below leaves them out (list at the end)',
  ]);
  assert.equal(lines[5], 'Block throughput: 3.00 cycles (incomplete: 1 line without figures)');
  assert.match(text, /\|\| \? vfoo xmm1, xmm2\n/);
  assert.match(text, /\|\| T mov rax, 0x1\n/);
  assert.match(
    text,
    /\? - no figures for this instruction on SNB:\n  line 1: vfoo xmm1, xmm2 — no source has figures for this form; counted as 1 µop on any ALU port, latency 1/,
  );
  m.unknown[0]!.fallback = 'skip';
  assert.match(
    renderText(m),
    /line 1: vfoo xmm1, xmm2 — no source has figures for this form; skipped \(no µop; dependants still wait the engine's minimum of 1 cycle\)/,
  );
});

test('a region whose lines all lack figures says nothing was simulated and shows no throughput', () => {
  const m = latencyExample();
  m.origins = m.origins.map(() => 'none' as const);
  m.main.stats.lines = m.main.stats.lines.map((l) => ({ ...l, unknown: true }));
  m.unknown = m.main.stats.lines.map((l) => ({
    line: l.line,
    asm: l.asm,
    fallback: 'skip' as const,
    why: 'ADL-P cannot run it',
  }));
  const text = renderText(m);
  assert.match(text, /\nNothing simulated: no line of the region has figures on SNB\.\n/);
  assert.doesNotMatch(text, /throughput/i);
});

test('a variant run omits the what-if line of its own switch and says which variant ran', () => {
  const m = latencyExample();
  m.variant = { perfectFrontEnd: true, infinitePorts: false, noDependencies: false };
  const text = renderText(m);
  assert.match(text, /Analysis with: perfect front-end\n/);
  assert.doesNotMatch(text, /with perfect front-end:/);
  assert.match(text, /with infinitely usable ports: 3\.00 cycles/);
  m.main.whatIf = null;
  assert.doesNotMatch(renderText(m), /Block throughput with/);
});

test('the combinations table lists the 8 runs', () => {
  const runs = [];
  for (const pf of [false, true])
    for (const ip of [false, true])
      for (const nd of [false, true]) runs.push(figures(pf, ip, nd, ip ? 400 : 468, 200, 7));
  const lines = renderCombinations(runs);
  assert.equal(lines.length, 1 + 2 + 8);
  assert.equal(lines[3], '        - ||        - ||    - ||       2.34 ||      2.99');
  assert.equal(lines[10], '      yes ||      yes ||  yes ||       2.00 ||      3.50');
});

test('branch sections print left and right with their own tables', () => {
  const m = latencyExample();
  const left = { ...m.main, stats: stats([m.main.stats.lines[0]!, m.main.stats.lines[3]!], 400, 200) };
  const right = {
    ...m.main,
    stats: stats([m.main.stats.lines[0]!, m.main.stats.lines[5]!, m.main.stats.lines[6]!], 500, 200),
  };
  m.branch = { branchLine: 2, left, right };
  const text = renderText(m);
  const li = text.indexOf("Fall-through branch analysis (the thesis's left branch):");
  const ri = text.indexOf("Taken branch analysis (the thesis's right branch):");
  assert.ok(li > 0 && ri > li);
  assert.match(text.slice(li, ri), /Block throughput: 2\.00 cycles[\s\S]*   3 \|\|[\s\S]*Total number of Uops: 2/);
  assert.match(text.slice(ri), /Block throughput: 2\.50 cycles[\s\S]*   6 \|\|[\s\S]*Total number of Uops: 3/);
  m.branch = null;
  assert.match(renderText(m), /Branch analysis: the region has no conditional jump inside the loop/);
});

test('the numeric part of a 6-port table fits in 80 columns', () => {
  const m = latencyExample();
  for (const l of renderLineTable(m.main.stats, m.ports, 0)) {
    assert.ok(l.replace(/ \|\| [^|]*$/, '').length <= 80, l);
  }
});

test('the mechanisms section fits 80 columns (notes, headers, --fast) and its change agrees with the printed figures', () => {
  const all = Object.fromEntries(MECHANISMS.map((m) => [m, true])) as MechanismSet;
  const none = Object.fromEntries(MECHANISMS.map((m) => [m, false])) as MechanismSet;
  const fig = (t: number): VariantFigures => ({
    variant: BASELINE,
    cycles: t * 200,
    blockThroughput: t,
    uopsPerCycle: 2,
  });
  // the main run 3.001, printed 3.00; without macro-fusion 3.0051, printed 3.01: the change is
  // −0.0041, and the report prints −0.01 (what the printed figures differ by), not −0.00
  const effects: MechanismEffect[] = MECHANISMS.map((m) => ({
    mechanism: m,
    on: m !== 'portChoice',
    flipped: fig(m === 'macroFusion' ? 3.0051 : 3),
    delta: m === 'macroFusion' ? 3.001 - 3.0051 : 0,
  }));
  const notes = [
    "store forwarding: line 3 (mov rbx, qword ptr [rdi+0x10]) reads what line 4 (mov qword ptr [rdi+0x10], rbx) stored in the previous iteration: no store-to-load forwarding figure: the load waits for the store's own latency (1 cycle)",
    'load/store ports: line 5 (vmovsd qword ptr [r12+r15*8+0x8], xmm6): indexed store address, not on port 7',
  ];
  const runs: { run: ModelRun; what: string }[] = [
    { run: { mechanisms: { ...all, portChoice: false }, effects, notes }, what: 'refined with notes' },
    { run: { mechanisms: none, effects: null }, what: 'suaca, no effects run' },
    { run: { mechanisms: all, effects: null }, what: 'refined --fast' },
    { run: { mechanisms: none, effects: effects.map((e) => ({ ...e, on: false })) }, what: 'suaca --all-variants' },
  ];
  for (const { run, what } of runs) {
    const lines = renderMechanisms(run);
    for (const l of lines) assert.ok([...l].length <= 80, `${what}: ${[...l].length} columns: ${l}`);
  }
  const text = renderMechanisms(runs[0]!.run).join('\n');
  assert.match(text, /without macro-fusion: +3\.01 cycles \(change −0\.01\)/);
  assert.match(text, /note: store forwarding: line 3 [^\n]*\n {8}\S/, 'a note continues indented under its text');
  assert.match(text, /latency \(1 cycle\)/);
});
