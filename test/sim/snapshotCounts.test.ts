// The snapshot's per-line counts (lineCounts) and per-port use, checked against an independent
// reading of the same snapshot: its station entries, its front end, its completed count and cycle.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASELINE, createEngine } from '../../src/sim/index.js';
import type { SimInstruction, SimProgram, Snapshot, Variant } from '../../src/sim/index.js';
import { MACHINES, branchExample, stencil } from './thesisPrograms.js';

const SNB = MACHINES.SNB!;

/** The counts as read off the station and the front end, without the engine's help. */
function expected(s: Snapshot, program: SimProgram, iterations: number) {
  const lines = program.instructions.map((x) => x.line);
  const next = s.frontEnd.next;
  const k = next ? lines.indexOf(next.line) : -1;
  return lines.map((line, i) => {
    const mine = s.rs.filter((e) => e.line === line);
    const waiting = mine.filter((e) => e.state.kind === 'loading' || e.state.kind === 'waiting-dep').length;
    const ready = mine.filter((e) => e.state.kind === 'waiting-port').length;
    // the ready list is the entries in state ready
    assert.deepEqual(
      s.ready.filter((r) => r.line === line),
      mine.filter((e) => e.state.kind === 'waiting-port').map((e) => ({ line: e.line, iteration: e.iteration })),
    );
    const executing = mine.filter((e) => e.state.kind === 'executing').length;
    // instances (line, it) in program order: everything before the front end's next one began loading,
    // and the next one too when it is partly loaded (then it is in the station)
    let started = iterations;
    if (next) {
      started = next.iteration + (i < k ? 1 : 0);
      if (i === k && mine.some((e) => e.iteration === next.iteration)) started++;
    }
    return { line, notLoaded: iterations - started, waiting, ready, executing, done: started - mine.length };
  });
}

function check(program: SimProgram, iterations: number, variant: Variant): number {
  const e = createEngine(program, SNB, { iterations, variant });
  let s = e.snapshot();
  let checked = 0;
  for (;;) {
    assert.ok(s.lineCounts, 'the engine fills lineCounts');
    assert.deepEqual(s.lineCounts, expected(s, program, iterations), `line counts at cycle ${s.cycle}`);
    // completed counts to the cycle's end: the instances done before it and those in their last cycle
    const done = s.lineCounts.reduce((a, x) => a + x.done, 0);
    const lastCycle = s.rs.filter((e) => e.state.kind === 'executing' && e.state.cyclesLeft === 0).length;
    assert.equal(done + lastCycle, s.completed, `done adds up to completed at cycle ${s.cycle}`);
    for (const x of s.lineCounts) assert.equal(x.notLoaded + x.waiting + x.ready + x.executing + x.done, iterations);
    for (const p of s.ports)
      assert.equal(p.use, p.cumulative / Math.max(1, s.cycle), `use of p${p.port} at cycle ${s.cycle}`);
    checked++;
    if (s.finished) break;
    s = e.step();
  }
  // the last cycle: every instance done, or executing its last cycle
  const last = s.lineCounts!;
  assert.ok(last.every((x) => x.done + x.executing === iterations && x.notLoaded === 0));
  assert.ok(s.rs.every((e) => e.state.kind === 'executing' && e.state.cyclesLeft === 0));
  assert.equal(s.completed, s.total);
  return checked;
}

test('lineCounts and port use agree with the snapshot at every cycle (branch example, SNB)', () => {
  assert.ok(check(branchExample('SNB'), 20, BASELINE) > 20);
});

test('lineCounts with a perfect front end and with no dependencies (stencil)', () => {
  check(stencil(), 12, { ...BASELINE, perfectFrontEnd: true });
  check(stencil(), 12, { ...BASELINE, noDependencies: true });
});

test('a partly loaded instance counts as loaded (4-µop instruction, issue width 4, one µop in front)', () => {
  const I = (line: number, uops: number[][]): SimInstruction => ({
    line,
    asm: `i${line}`,
    uops,
    latency: 1,
    latencyByResource: {},
    divCycles: 0,
    unknown: false,
  });
  const p: SimProgram = { instructions: [I(0, [[0]]), I(1, [[0], [1], [5], [0, 1, 5]])], deps: [] };
  const e = createEngine(p, SNB, { iterations: 3, variant: BASELINE });
  const s = e.step();
  // cycle 1: line 0 (1 µop) and 3 of line 1's 4 µops loaded: line 1 iteration 0 is partly loaded
  assert.deepEqual(s.frontEnd.next && { line: s.frontEnd.next.line, iteration: s.frontEnd.next.iteration }, {
    line: 1,
    iteration: 0,
  });
  assert.equal(s.lineCounts!.find((x) => x.line === 1)!.notLoaded, 2);
  check(p, 3, BASELINE);
});

test('finalStats() is the statistics of the whole run and does not move the position', () => {
  const e = createEngine(stencil(), SNB, { iterations: 30, variant: BASELINE });
  e.step();
  const st = e.finalStats!();
  assert.equal(e.snapshot().cycle, 1);
  assert.equal(st.cycles, e.totalCycles());
  assert.deepEqual(st, createEngine(stencil(), SNB, { iterations: 30, variant: BASELINE }).runToEnd().stats);
});
