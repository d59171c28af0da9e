// The refined model's port rule (onePerPort, chosen by the factory in src/sim/parts.ts): a port
// takes at most one µop per cycle, an instruction's own µops included. Source: the uops.info paper
// (Abel & Reineke, ASPLOS 2019), §3.1 "Pipeline of Intel Core CPUs": "Each port can accept at most
// one µop in every cycle"; uiCA's simulator (uiCA.py dispatchUops) takes one µop per port per cycle.
// SUACA's thesis (§3.3) lets an instruction's µops share a port in one cycle ("an instruction can
// not block itself"): that stays exact with the switch off (test/sim/thesis.test.ts). Because a
// measured latency already includes an instruction's µops queueing on one port (the thesis's own
// reason for its rule), the cycles an instance is held back only by its own µops count as
// executing: dependent chains keep the measured latency.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASELINE, REFINED_MECHANISMS, SUACA_MECHANISMS, createEngine, runKey, simulate } from '../../src/sim/index.js';
import type { MechanismSet, SimProgram, MachineParams, Snapshot } from '../../src/sim/index.js';
import { loop } from './mechanismLoops.js';

type Loop = { program: SimProgram; machine: MachineParams };

const throughput = (p: Loop, mechanisms: MechanismSet, iterations = 1000): number =>
  simulate(p.program, p.machine, { iterations, variant: BASELINE }, { model: { mechanisms } }).stats.blockThroughput;

/** the port ids of each µop of line `i` */
const portsOf = (p: Loop, i: number): number[][] => p.program.instructions[i]!.uops.map((u) => [...u].sort());

/** the most µops one port took in one cycle over the whole run, stepped */
function mostPerPortCycle(p: Loop, mechanisms: MechanismSet, iterations: number): number {
  const e = createEngine(p.program, p.machine, { iterations, variant: BASELINE }, { model: { mechanisms } });
  let most = 0;
  for (let s: Snapshot = e.snapshot(); !s.finished; ) {
    s = e.step();
    for (const port of s.ports) most = Math.max(most, port.uops.length);
  }
  return most;
}

const PHADDD = ['phaddd xmm0, xmm1', 'phaddd xmm3, xmm2', 'phaddd xmm5, xmm4', 'phaddd xmm7, xmm6'];

test('four independent phaddd on SKL: 2 µops each on port 5, so about 8 cycles per iteration (4 when their µops share the port)', async () => {
  const p = await loop(PHADDD.join('\n'), 'SKL');
  // the premise (the data: 3 µops, two of them on port 5 only)
  for (let i = 0; i < 4; i++) assert.equal(portsOf(p, i).filter((u) => u.length === 1 && u[0] === 5).length, 2);
  assert.equal(REFINED_MECHANISMS.onePerPort, true, 'the refined model has the rule');
  const refined = throughput(p, REFINED_MECHANISMS);
  assert.ok(refined > 7.9 && refined < 8.1, `refined: ${refined} cycles/iteration`);
  const without = throughput(p, { ...REFINED_MECHANISMS, onePerPort: false });
  assert.ok(without > 3.9 && without < 4.1, `without the rule: ${without}`);
  assert.ok(Math.abs(throughput(p, SUACA_MECHANISMS) - without) < 0.05, "SUACA's model: the thesis's rule");
  assert.equal(mostPerPortCycle(p, REFINED_MECHANISMS, 50), 1);
  assert.equal(mostPerPortCycle(p, SUACA_MECHANISMS, 50), 2, 'SUACA: two µops of one phaddd on port 5 in a cycle');
});

test('a dependent phaddd chain keeps the measured latency: the cycles an instruction waits only for its own µops count as executing', async () => {
  const p = await loop('phaddd xmm0, xmm1\nphaddd xmm1, xmm0', 'SKL');
  const lat = p.program.instructions[0]!.latency;
  const refined = throughput(p, REFINED_MECHANISMS);
  // two instructions of the loop-carried chain, each its latency (the data's), not one more
  assert.ok(Math.abs(refined - 2 * lat) < 0.05, `refined ${refined}, latency ${lat}`);
  assert.ok(Math.abs(throughput(p, SUACA_MECHANISMS) - refined) < 0.05);
});

test('a division on SPR and ADL-P (its µops on port 1): never more than one µop per port per cycle under the refined model', async () => {
  for (const arch of ['SPR', 'ADL-P'] as const) {
    const p = await loop('div rcx\nadd rbx, rax', arch);
    const p1 = portsOf(p, 0).filter((u) => u.length === 1 && u[0] === 1).length;
    assert.ok(p1 >= 2, `${arch}: the data puts ${p1} µops of div on port 1 only`);
    assert.equal(mostPerPortCycle(p, REFINED_MECHANISMS, 40), 1, arch);
    assert.equal(mostPerPortCycle(p, SUACA_MECHANISMS, 40), p1, `${arch}: SUACA puts them in one cycle`);
    // and the latency-bound loop keeps its figure
    assert.ok(Math.abs(throughput(p, REFINED_MECHANISMS, 300) - throughput(p, SUACA_MECHANISMS, 300)) < 0.05, arch);
  }
});

test('a snapshot shows an instruction held back by its own µop: waiting for the port, held by itself; no wait counted, no one blamed', async () => {
  const p = await loop('phaddd xmm0, xmm1', 'SKL');
  const e = createEngine(
    p.program,
    p.machine,
    { iterations: 3, variant: BASELINE },
    { model: { mechanisms: REFINED_MECHANISMS } },
  );
  let seen = 0;
  for (let s: Snapshot = e.snapshot(); !s.finished; ) {
    s = e.step();
    for (const r of s.rs) {
      if (r.state.kind !== 'waiting-port') continue;
      seen++;
      assert.deepEqual(r.state.ports, [{ port: 5, heldBy: { line: r.line, iteration: r.iteration } }]);
    }
  }
  assert.ok(seen > 0, 'some cycle shows it');
  // its only waits are on its loop-carried input (xmm0), as without the rule
  const line = (onePerPort: boolean) =>
    simulate(
      p.program,
      p.machine,
      { iterations: 20, variant: BASELINE },
      { model: { mechanisms: { ...REFINED_MECHANISMS, onePerPort } } },
    ).stats.lines[0]!;
  assert.deepEqual(line(true), line(false));
});

test('runKey: the rule is a different run only where some instruction has two µops that may use one port', async () => {
  const key = (p: Loop, onePerPort: boolean): string =>
    runKey(
      p.program,
      p.machine,
      { iterations: 100, variant: BASELINE },
      { model: { mechanisms: { ...REFINED_MECHANISMS, onePerPort } } },
    );
  const ph = await loop(PHADDD[0]!, 'SKL');
  assert.notEqual(key(ph, true), key(ph, false));
  // one µop per instruction: nothing to share
  const adds = await loop('add rax, 1\nadd rbx, 1\nimul rcx, rcx', 'SKL');
  assert.ok(adds.program.instructions.every((x) => x.uops.length === 1));
  assert.equal(key(adds, true), key(adds, false));
});
