// Acceptance: the thesis's own printed results (SUACA thesis ch. 2 and 4), from the per-instruction
// facts in examples/thesis/thesis-instructions.xml and the dependency edges the thesis states.
// Figures are compared as the thesis prints them (two decimals for throughputs and µops per cycle,
// one decimal for the wait columns, which must agree within a few tenths).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../../src/sim/index.js';
import type { LineStats, MachineParams, SimProgram, SimResult, Variant } from '../../src/sim/index.js';
import { MACHINES, adcChain, branchExample, branchSide, sixMoves, stencil } from './thesisPrograms.js';

const V = (pf = false, ip = false, nd = false): Variant => ({
  perfectFrontEnd: pf,
  infinitePorts: ip,
  noDependencies: nd,
});
const f2 = (x: number): string => x.toFixed(2);

function four(p: SimProgram, m: MachineParams, iterations: number): { r: SimResult[]; tp: string[] } {
  const r = [V(), V(true), V(false, true), V(false, false, true)].map((variant) =>
    simulate(p, m, { iterations, variant }),
  );
  return { r, tp: r.map((x) => f2(x.stats.blockThroughput)) };
}

function near(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual.toFixed(2)} vs thesis ${expected} (±${tol})`);
}

function ports(l: LineStats): Record<string, string> {
  return Object.fromEntries(Object.entries(l.ports).map(([p, v]) => [p, v.toFixed(1)]));
}

test('branch example, SNB, 200 iterations (§2.1)', () => {
  const { r, tp } = four(branchExample('SNB'), MACHINES.SNB!, 200);
  const s = r[0]!.stats;
  assert.equal(tp[0], '2.34');
  assert.equal(tp[2], '2.00');
  // The thesis prints 2.34 for the perfect front-end and no-dependency runs as well. Our model
  // needs 467 cycles for both (2.335: printed 2.33 with the binary value rounded, as C's printf
  // and JavaScript do), the thesis 468. For both runs 467 is the port bound itself: 5 of the 7 µops
  // may use p0/p1/p5 and 2 only p5, so 1400 µops need ⌈1400/3⌉ = 467 cycles; SUACA lost one port
  // slot somewhere that the thesis's text (Alg. 3–7, §3.3) does not let us locate. Every other
  // printed figure of this run (µops per cycle, all seven had/caused-to-wait pairs, port columns,
  // the §2.6 detail) is reproduced, so we keep the model as written and state the one-cycle gap.
  assert.equal(r[1]!.stats.cycles, 467);
  assert.equal(r[3]!.stats.cycles, 467);
  assert.equal(f2(s.uopsPerCycle), '2.99');
  assert.equal(s.totalUops, 7);
  // the table of §2.1: had to wait / caused to wait per line
  const printed = [
    [15.1, 43.2],
    [15.8, 32.3],
    [16.5, 20.8],
    [15.5, 28.9],
    [16.8, 20.4],
    [15.2, 28.9],
    [15.8, 43.9],
  ];
  s.lines.forEach((l, i) => {
    near(l.hadToWait, printed[i]![0]!, 0.3, `line ${i} had to wait`);
    near(l.causedToWait, printed[i]![1]!, 0.3, `line ${i} caused to wait`);
  });
  // "line 0 has used port 0 0.0 times" and port 1 1.0; jumps only port 5; cmp 0.3 on each
  assert.deepEqual(ports(s.lines[0]!), { 0: '0.0', 1: '1.0' });
  assert.deepEqual(ports(s.lines[1]!), { 0: '0.3', 1: '0.3', 5: '0.3' });
  assert.deepEqual(ports(s.lines[2]!), { 5: '1.0' });
  assert.deepEqual(ports(s.lines[4]!), { 5: '1.0' });
  assert.deepEqual(ports(s.lines[3]!), { 0: '0.7', 1: '0.3' });
  assert.deepEqual(ports(s.lines[5]!), { 0: '0.3', 1: '0.7' });
});

test('branch example, SNB, one iteration = latency analysis (§2.2)', () => {
  const { r, tp } = four(branchExample('SNB'), MACHINES.SNB!, 1);
  assert.deepEqual(tp, ['3.00', '3.00', '3.00', '3.00']);
  const s = r[0]!.stats;
  assert.equal(f2(s.uopsPerCycle), '2.33');
  assert.deepEqual(
    s.lines.map((l) => l.hadToWait),
    [0, 0, 1, 1, 1, 0, 1],
  );
  // lines 3 and 5 both delay line 6 (rbx): caused to wait sums to 5, had to wait to 4
  assert.equal(
    s.lines.reduce((a, l) => a + l.causedToWait, 0),
    5,
  );
  // "the instruction in line 0 has actually used port 0"
  assert.deepEqual(s.lines[0]!.ports, { 0: 1 });
});

test('branch example, CFL, 200 iterations (§2.5)', () => {
  const { r, tp } = four(branchExample('CFL'), MACHINES.CFL!, 200);
  assert.deepEqual(tp, ['2.00', '2.00', '2.00', '1.75']);
  assert.equal(f2(r[0]!.stats.uopsPerCycle), '3.49');
  // Not asserted: the wait columns. The thesis prints 4.7/5.4/6.2/43.2/5.1/42.8/43.6 "had to wait";
  // we get about 0.3/0.5/1.3/25.5/0.5/25.0/25.8. With a 2.00-cycle chain (add 3/5 → add 6 → next
  // iteration) and a front end of 4 µops/cycle the lag of the chain grows by 0.25 cycles per
  // iteration, i.e. ~25 cycles on average over 200 iterations, and the throughputs above (which
  // the thesis does print exactly) leave no room for more; the thesis's CFL port columns (jmp on
  // port 0 for 0.2 of the iterations) show it ran with different CFL port data than its SNB runs,
  // which we cannot reconstruct. Its throughput figures do not depend on that difference.
  const l = r[0]!.stats.lines;
  assert.ok(l[3]!.hadToWait > 10 * l[0]!.hadToWait, 'the add chain is what waits (as the thesis concludes)');
});

test('detail of line 0, branch example, SNB, 200 iterations (§2.6)', () => {
  const d = simulate(branchExample('SNB'), MACHINES.SNB!, { iterations: 200, variant: V() }).details[0]!;
  assert.equal(d.maxLatency, 1);
  assert.deepEqual(d.latencies, [
    { line: 3, fromThis: 1, toThis: null },
    { line: 5, fromThis: 1, toThis: null },
  ]);
  const dd = new Map(d.dependencyDelays.map((x) => [x.line, x]));
  near(dd.get(3)!.otherDelayedByThis, 15.2, 0.1, 'line 3 delayed by line 0');
  near(dd.get(5)!.otherDelayedByThis, 14.5, 0.1, 'line 5 delayed by line 0');
  assert.equal(dd.get(3)!.thisDelayedByOther, 0);
  assert.equal(dd.get(5)!.thisDelayedByOther, 0);
  // ports: line 0 suffered 15.1 from each of its three ports (only ever delayed when all three
  // were blocked) and, holding port 1, delayed others by 13.5. (The thesis prints these two
  // figures under "has delayed" / "was delayed" respectively; see docs/engine.md.)
  const pd = new Map(d.portDelays.map((x) => [x.port, x]));
  for (const p of [0, 1, 5]) near(pd.get(p)!.thisDelayedByPort, 15.1, 0.1, `port ${p} delayed line 0`);
  near(pd.get(1)!.othersDelayedByThis, 13.5, 0.1, 'line 0 delayed others on port 1');
  near(pd.get(0)!.othersDelayedByThis, 0, 0.1, 'port 0');
  near(pd.get(5)!.othersDelayedByThis, 0, 0.1, 'port 5');
});

test('branch analysis, SNB, 200 iterations (§2.7)', () => {
  const left = four(branchSide('SNB', 'left'), MACHINES.SNB!, 200);
  assert.deepEqual(left.tp, ['2.00', '2.00', '2.00', '2.00']);
  assert.equal(f2(left.r[0]!.stats.uopsPerCycle), '2.99');
  assert.equal(left.r[0]!.stats.totalUops, 6);
  assert.deepEqual(
    left.r[0]!.stats.lines.map((l) => l.line),
    [0, 1, 2, 3, 4, 6],
  );
  const right = four(branchSide('SNB', 'right'), MACHINES.SNB!, 200);
  assert.deepEqual(right.tp, ['2.00', '2.00', '2.00', '1.67']);
  assert.equal(f2(right.r[0]!.stats.uopsPerCycle), '2.49');
  assert.equal(right.r[0]!.stats.totalUops, 5);
  assert.deepEqual(
    right.r[0]!.stats.lines.map((l) => l.line),
    [0, 1, 2, 5, 6],
  );
});

test('six mov rax, 6, SNB, 200 iterations (§4.1)', () => {
  const { r, tp } = four(sixMoves(), MACHINES.SNB!, 200);
  assert.deepEqual(tp, ['2.00', '2.00', '1.50', '2.00']);
  const s = r[0]!.stats;
  assert.equal(f2(s.uopsPerCycle), '3.00');
  assert.deepEqual(
    s.lines.map((l) => Object.keys(l.ports)),
    [['0'], ['1'], ['5'], ['0'], ['1'], ['5']],
  );
  for (const l of s.lines) {
    near(l.hadToWait, 15.6, 0.2, `line ${l.line} had to wait`);
    near(l.causedToWait, 46.7, 0.2, `line ${l.line} caused to wait`);
  }
  // "each line suffered a delay of 15.6 cycles from each of its usable ports"
  const d = r[0]!.details[0]!;
  for (const p of d.portDelays.filter((x) => [0, 1, 5].includes(x.port)))
    near(p.thisDelayedByPort, 15.6, 0.2, `port ${p.port}`);
});

test('stencil, IVB, 3000 iterations (§4.2 Example 3)', () => {
  const { r, tp } = four(stencil(), MACHINES.IVB!, 3000);
  assert.deepEqual(tp, ['3.00', '3.00', '3.00', '3.00']);
  const s = r[0]!.stats;
  assert.equal(f2(s.uopsPerCycle), '3.99');
  assert.equal(s.totalUops, 12);
  const printed = [
    [0.3, 1.3],
    [2.0, 5.0],
    [5.0, 7.7],
    [7.0, 10.3],
    [10.0, 14.0],
    [14.0, 0.3],
    [0, 1.0],
    [1.0, 0],
  ];
  s.lines.forEach((l, i) => {
    near(l.hadToWait, printed[i]![0]!, 0.3, `line ${i} had to wait`);
    near(l.causedToWait, printed[i]![1]!, 0.3, `line ${i} caused to wait`);
  });
  // inc and cmp share ports 0 and 5 (0.2/0.8 and 0.3/0.7 in the thesis)
  assert.deepEqual(ports(s.lines[6]!), { 0: '0.2', 5: '0.8' });
  assert.deepEqual(ports(s.lines[7]!), { 0: '0.3', 5: '0.7' });
  assert.deepEqual(ports(s.lines[1]!), { 1: '1.0', 2: '0.5', 3: '0.5' });
});

test('stencil, IVB, 200 iterations (§4.2 Example 5)', () => {
  const { r, tp } = four(stencil(), MACHINES.IVB!, 200);
  assert.deepEqual(tp, ['3.07', '3.06', '3.06', '3.02']);
  assert.equal(f2(r[0]!.stats.uopsPerCycle), '3.91');
});

test('stencil, IVB, one iteration (§4.2 Example 4)', () => {
  const { r, tp } = four(stencil(), MACHINES.IVB!, 1);
  assert.deepEqual(tp, ['16.00', '16.00', '16.00', '6.00']);
  const s = r[0]!.stats;
  assert.equal(f2(s.uopsPerCycle), '0.75');
  // the xmm chain: each line waits for its predecessor (load 1, vaddsd 3, vmulsd 5)
  assert.deepEqual(
    s.lines.map((l) => l.hadToWait),
    [0, 1, 4, 6, 9, 13, 0, 1],
  );
  assert.deepEqual(
    s.lines.map((l) => l.causedToWait),
    [1, 4, 6, 9, 13, 0, 1, 0],
  );
});

test('adc chain, SKL, 200 iterations (§4.3 Example 11)', () => {
  const { r, tp } = four(adcChain(), MACHINES.SKL!, 200);
  assert.deepEqual(tp, ['8.00', '8.00', '8.00', '4.00']);
  const s = r[0]!.stats;
  assert.equal(f2(s.uopsPerCycle), '1.00');
  assert.deepEqual(
    s.lines.map((l) => Object.keys(l.ports)),
    [['0'], ['6'], ['0'], ['6'], ['0'], ['6'], ['0'], ['6']],
  );
  const had = [92.2, 92.3, 92.3, 92.4, 92.4, 92.5, 92.5, 92.6];
  const caused = [177.5, 177.6, 177.7, 177.8, 177.9, 178.1, 178.2, 177.8];
  s.lines.forEach((l, i) => {
    near(l.hadToWait, had[i]!, 0.5, `line ${i} had to wait`);
    near(l.causedToWait, caused[i]!, 0.8, `line ${i} caused to wait`);
  });
});

// §4.2 Examples 6–9: the stencil's what-if runs with 3000 iterations. These tables are what
// decides when µops leave the reservation station: only "each µop when it gets its port"
// reproduces them (leaving when the instruction finishes gives e.g. 9.3/14.3 instead of
// 12.0/18.3 on line 1 of Example 6 and 20.9 instead of 48.4 in Example 8; leaving when the whole
// instruction starts gives 11.0/16.3 and 23.9). With one-µop, one-cycle instructions (all the
// other examples) the three readings coincide.
const table = (r: SimResult): number[][] => r.stats.lines.map((l) => [l.hadToWait, l.causedToWait]);
function tableNear(r: SimResult, printed: number[][], what: string): void {
  table(r).forEach(([had, caused], i) => {
    near(had!, printed[i]![0]!, 0.15, `${what} line ${i} had to wait`);
    near(caused!, printed[i]![1]!, 0.15, `${what} line ${i} caused to wait`);
  });
}

test('stencil, IVB, 3000 iterations, perfect front end (§4.2 Examples 6 and 7)', () => {
  const r = simulate(stencil(), MACHINES.IVB!, { iterations: 3000, variant: V(true) });
  assert.equal(f2(r.stats.blockThroughput), '3.00');
  assert.equal(f2(r.stats.uopsPerCycle), '4.00');
  tableNear(
    r,
    [
      [1.3, 1.7],
      [12.0, 18.3],
      [15.0, 20.3],
      [17.0, 24.6],
      [20.0, 24.7],
      [24.7, 1.3],
      [0.0, 1.7],
      [1.0, 0],
    ],
    'Example 6',
  );
  assert.deepEqual(ports(r.stats.lines[6]!), { 0: '0.2', 5: '0.8' });
  // Example 7: details of line 3 — line 2 delayed it 17.0 cycles, it delayed line 4 20.0
  const d = r.details[3]!;
  const dd = new Map(d.dependencyDelays.map((x) => [x.line, x]));
  near(dd.get(2)!.thisDelayedByOther, 17.0, 0.1, 'line 2 → 3');
  near(dd.get(4)!.otherDelayedByThis, 20.0, 0.1, 'line 3 → 4');
  near(dd.get(6)!.thisDelayedByOther, 0.0, 0.1, 'line 6 → 3');
  assert.deepEqual(
    d.latencies.map((x) => [x.line, x.fromThis, x.toThis]),
    [
      [2, null, 3],
      [4, 3, null],
      [6, null, 1],
    ],
  );
});

test('stencil, IVB, 3000 iterations, perfect front end and no dependencies (§4.2 Example 8)', () => {
  const r = simulate(stencil(), MACHINES.IVB!, { iterations: 3000, variant: V(true, false, true) });
  assert.equal(f2(r.stats.blockThroughput), '3.00');
  tableNear(
    r,
    [
      [0.2, 1.5],
      [48.4, 50.9],
      [49.4, 48.9],
      [49.4, 49.9],
      [0, 0],
      [0.3, 0.5],
      [0, 0],
      [0, 0],
    ],
    'Example 8',
  );
  assert.deepEqual(ports(r.stats.lines[6]!), { 5: '1.0' });
  assert.deepEqual(ports(r.stats.lines[7]!), { 0: '1.0', 5: '0.0' });
});

test('stencil, IVB, 3000 iterations, only the dependencies limit (§4.2 Example 9)', () => {
  // perfect front end and infinitely usable ports: "only bounded by the capacity of the scheduler"
  const r = simulate(stencil(), MACHINES.IVB!, { iterations: 3000, variant: V(true, true) });
  assert.ok(r.stats.blockThroughput < 3, `${r.stats.blockThroughput}`);
  tableNear(
    r,
    [
      [1.0, 2.0],
      [2.0, 4.5],
      [4.5, 7.5],
      [7.5, 10.0],
      [10.0, 14.5],
      [14.5, 0],
      [0.0, 4.0],
      [1.0, 0],
    ],
    'Example 9',
  );
  assert.deepEqual(r.stats.lines.map(ports), [
    { 2: '0.5', 3: '0.5' },
    { 1: '1.0', 2: '0.0', 3: '1.0' },
    { 1: '1.0', 2: '1.0', 3: '0.0' },
    { 1: '1.0', 2: '0.0', 3: '1.0' },
    { 0: '1.0' },
    { 2: '1.0', 3: '0.0', 4: '1.0' },
    { 0: '0.5', 5: '0.5' },
    { 5: '1.0' },
  ]);
});
