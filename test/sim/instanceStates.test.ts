// Each instance's state, defined once by the snapshot (src/sim/snapshot.ts), checked cycle by cycle
// against what it must mean, on the thesis's examples (SUACA's model) and on compiled gcc -O2
// loops (the refined model, with a macro-fused cmp+jne): an instance executes in exactly as many
// consecutive cycles as its latency, the cycle it gets its last port first; a µop on a port this
// cycle belongs to an instance executing (or, still short of a port for another µop, ready); done
// is for good; the Jcc of a fused pair has its first half's state in every cycle and they finish
// together; the counts, the ready list and `completed` are read off the same states; the run's
// last cycle shows the µops that run in it (in their last cycle), everything else done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { analyse } from '../../src/cli/pipeline.js';
import { createEngine, stateName } from '../../src/sim/index.js';
import type { EntryState, SimProgram, Snapshot } from '../../src/sim/types.js';
import { BASELINE } from '../../src/sim/types.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS, type MechanismSet } from '../../src/sim/mechanisms.js';
import { FIXTURE } from './thesisPrograms.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const key = (x: { line: number; iteration: number }) => `${x.line}#${x.iteration}`;

/** Steps a run to its end and checks every snapshot; returns the cycles and the fused pairs seen. */
function checkRun(program: SimProgram, a: Awaited<ReturnType<typeof analyse>>, iterations: number, m: MechanismSet) {
  const e = createEngine(program, a.params, { iterations, variant: BASELINE }, { model: { mechanisms: m } });
  const lat = new Map(program.instructions.map((x) => [x.line, Math.max(1, x.latency)]));
  const executing = new Map<string, number[]>(); // instance → cycles it was executing
  const gone = new Set<string>(); // instances seen in flight, then done
  let prev: Snapshot = e.snapshot();
  let beforeLast: Snapshot = prev;
  let pairs: readonly number[] = [];
  for (let s = e.step(); ; s = e.step()) {
    const c = s.cycle;
    const at = `cycle ${c}`;
    pairs = s.frontEnd.fusedPairs ?? pairs;
    const byInst = new Map(s.rs.map((x) => [key(x), x]));
    // a µop on a port this cycle: its instance executes from this cycle, or is still short of a port
    for (const p of s.ports)
      for (const u of p.uops) {
        const r = byInst.get(key(u));
        assert.ok(r, `${at}: L${key(u)} on p${p.port} is in flight`);
        // short of a port for another µop: ready, or, while its last µops still load (a µop takes a
        // port as soon as it is loaded; a division waiting for the divider keeps it), loading
        if (u.waitsForPort)
          assert.ok(
            r.state.kind === 'waiting-port' || (r.state.kind === 'loading' && r.loaded < r.uops),
            `${at}: L${key(u)} marked short of a port, but ${r.state.kind}`,
          );
        else assert.equal(r.state.kind, 'executing', `${at}: L${key(u)} on p${p.port} executes`);
      }
    for (const r of s.rs) {
      assert.ok(!gone.has(key(r)), `${at}: L${key(r)} back in flight after done`);
      if (r.state.kind === 'executing') {
        const cs = executing.get(key(r)) ?? [];
        cs.push(c);
        executing.set(key(r), cs);
      }
    }
    for (const r of prev.rs) if (!byInst.has(key(r))) gone.add(key(r));
    // the counts and lists are the states', and completed is to the cycle's end
    for (const lc of s.lineCounts) {
      const mine = s.rs.filter((r) => r.line === lc.line).map((r) => stateName(r.state));
      for (const name of ['waiting', 'ready', 'executing'] as const)
        assert.equal(lc[name], mine.filter((x) => x === name).length, `${at}: line ${lc.line} ${name}`);
      const before = prev.lineCounts.find((x) => x.line === lc.line)!;
      assert.ok(lc.done >= before.done, `${at}: line ${lc.line} done never goes back`);
    }
    assert.deepEqual(s.ready.map(key), s.rs.filter((r) => r.state.kind === 'waiting-port').map(key), at);
    const lastCycle = s.rs.filter((r) => r.state.kind === 'executing' && r.state.cyclesLeft === 0).length;
    assert.equal(s.lineCounts.reduce((x, l) => x + l.done, 0) + lastCycle, s.completed, `${at}: completed`);
    // the fused pair: the Jcc is where the pair's µop is, in every cycle
    for (const first of pairs) {
      const jcc = program.instructions[program.instructions.findIndex((x) => x.line === first) + 1]!.line;
      const a1 = s.lineCounts.find((x) => x.line === first)!,
        b1 = s.lineCounts.find((x) => x.line === jcc)!;
      assert.equal(b1.done, a1.done, `${at}: the fused pair's lines ${first}+${jcc} finish together`);
      for (const r of s.rs.filter((x) => x.line === jcc)) {
        assert.deepEqual(r.fusedWith, { line: first, iteration: r.iteration });
        const mate = byInst.get(key(r.fusedWith!));
        assert.ok(mate, `${at}: L${key(r)}'s first half is in flight`);
        assert.deepEqual(r.state, mate.state as EntryState, `${at}: L${key(r)} has its pair's state`);
      }
    }
    beforeLast = prev;
    prev = s;
    if (s.finished) break;
  }
  // the end: the run's last cycle shows the µops that run in it, each in its last cycle (every
  // pane alike), and every other instance done
  const at = `the last cycle (${prev.cycle})`;
  assert.equal(prev.completed, prev.total, at);
  assert.ok(prev.rs.length > 0, `${at}: the last µops are shown executing`);
  for (const r of prev.rs)
    assert.ok(r.state.kind === 'executing' && r.state.cyclesLeft === 0, `${at}: L${key(r)} in its last cycle`);
  assert.deepEqual(prev.ready, [], at);
  for (const lc of prev.lineCounts) {
    assert.deepEqual(
      [lc.notLoaded, lc.waiting, lc.ready, lc.executing + lc.done],
      [0, 0, 0, iterations],
      `${at}: line ${lc.line} executing in its last cycle or done`,
    );
  }
  assert.ok(beforeLast.rs.length > 0, 'the cycle before the last had instances in flight');
  // every instance executed in consecutive cycles, as many as its latency (a fused Jcc: its pair's)
  const jccOf = new Map(
    pairs.map((f) => [program.instructions[program.instructions.findIndex((x) => x.line === f) + 1]!.line, f]),
  );
  for (const [k, cs] of executing) {
    const [line, it] = k.split('#').map(Number) as [number, number];
    const mate = jccOf.get(line);
    if (mate !== undefined) {
      assert.deepEqual(cs, executing.get(`${mate}#${it}`), `L${k} executes in its pair's cycles`);
      continue;
    }
    // its latency (one µop per port per cycle: the cycles its own µops queued on a port, shown
    // ready, are counted in it)
    // (the run's last cycle too)
    const shown = lat.get(line)!;
    if (m === SUACA_MECHANISMS) assert.equal(cs.length, shown, `L${k} executes for its latency`);
    else assert.ok(cs.length >= 1 && cs.length <= shown, `L${k}: cycles ${cs.join(' ')}`);
    assert.equal(cs[cs.length - 1]! - cs[0]!, cs.length - 1, `L${k}: consecutive cycles`);
  }
  return { cycles: prev.cycle, pairs };
}

for (const name of ['branch', 'stencil', 'adc-chain', 'six-mov']) {
  test(`instance states, cycle by cycle: the thesis's ${name} (SUACA's model, SKL)`, async () => {
    const a = await analyse({ file: `${ROOT}examples/bin/${name}`, arch: 'SKL', uopsXml: FIXTURE });
    const r = checkRun(a.program, a, 12, SUACA_MECHANISMS);
    assert.ok(r.cycles > 12);
  });
}

for (const [file, arch] of [
  ['test/fixtures/loops/dot.gcc-O2.o', 'SKL'],
  ['examples/corpus/bin/int_div.gcc.O2.sse2.o', 'SKL'],
  ['examples/corpus/bin/int_div.gcc.O2.sse2.o', 'ADL-P'],
] as const) {
  test(`instance states, cycle by cycle: ${file.split('/').pop()} (gcc -O2) on ${arch}, refined model`, async () => {
    const a = await analyse({ file: `${ROOT}${file}`, arch });
    const r = checkRun(a.program, a, 30, REFINED_MECHANISMS);
    assert.ok(r.pairs.length > 0, 'gcc fused its cmp and jne: the pair is checked');
  });
}
