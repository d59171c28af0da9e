// Engine.detail() is a function of the state of the cycle the current snapshot shows, whatever
// the engine did before (trace replay, seeks back and forth, a run to the end, the final
// statistics); and a core's checkpoint is saved and restored by unit name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from '../../src/sim/index.js';
import type { Engine, SimConfig, SimProgram } from '../../src/sim/index.js';
import { Core } from '../../src/sim/core.js';
import { coreStats } from '../../src/sim/stats.js';
import { SKL, program, rng, variants } from './generated.js';
import { MACHINES, stencil } from './thesisPrograms.js';

/** the details of every line from a fresh engine stepped exactly to `cycle` */
function freshDetails(p: SimProgram, config: SimConfig, cycle: number, machine = SKL): unknown[] {
  const e = createEngine(p, machine, { ...config, trace: false });
  while (e.snapshot().cycle < cycle && !e.snapshot().finished) e.step();
  assert.equal(e.snapshot().cycle, cycle);
  return p.instructions.map((x) => e.detail(x.line));
}

function check(e: Engine, p: SimProgram, config: SimConfig, what: string, machine = SKL): void {
  const c = e.snapshot().cycle;
  assert.deepEqual(
    p.instructions.map((x) => e.detail(x.line)),
    freshDetails(p, config, c, machine),
    `${what} at cycle ${c}`,
  );
}

test('detail() follows the shown snapshot through trace replay, seeks and runs to the end', () => {
  const p = stencil();
  for (const trace of [false, true]) {
    const config: SimConfig = { iterations: 40, variant: variants[0]!, trace };
    const e = createEngine(p, MACHINES.IVB!, config);
    for (let k = 0; k < 39; k++) e.step();
    check(e, p, config, `trace ${trace} stepped`, MACHINES.IVB);
    e.seek(30);
    check(e, p, config, `trace ${trace} seek back`, MACHINES.IVB);
    e.step();
    check(e, p, config, `trace ${trace} step after seek back`, MACHINES.IVB);
    e.runToEnd();
    e.finalStats();
    check(e, p, config, `trace ${trace} end`, MACHINES.IVB);
    e.seek(12);
    check(e, p, config, `trace ${trace} seek back from the end`, MACHINES.IVB);
  }
});

test('detail() after random steps and seeks equals a fresh engine stepped to the shown cycle', () => {
  for (let seed = 1; seed <= 24; seed++) {
    const p = program(seed);
    const config: SimConfig = { iterations: 200, variant: variants[seed % variants.length]!, trace: seed % 2 === 0 };
    const e = createEngine(p, SKL, config);
    const r = rng(seed + 1000);
    for (let op = 0; op < 8; op++) {
      const x = r();
      if (x < 0.4) e.step();
      else if (x < 0.8) e.seek(Math.floor(r() * 300));
      else if (x < 0.9) e.runToEnd();
      else e.totalCycles();
      if (r() < 0.4) check(e, p, config, `seed ${seed} op ${op}`);
    }
  }
});

test('a core saves its state by unit name and continues identically from a restore', () => {
  const p = program(7);
  const config: SimConfig = { iterations: 300, variant: variants[0]! };
  const a = new Core(p, SKL, config);
  for (let k = 0; k < 50; k++) a.step();
  const saved = a.save();
  assert.deepEqual(Object.keys(saved).sort(), [
    'cycle',
    'divider',
    'frontEnd',
    'policy',
    'ports',
    'scheduler',
    'stats',
  ]);
  assert.equal(saved.cycle, 50);
  const b = new Core(p, SKL, config);
  b.restore(saved);
  a.runToEnd();
  b.runToEnd();
  assert.deepEqual(coreStats(b, p), coreStats(a, p));
  // the checkpoint is a copy: running on did not change it
  assert.equal(saved.cycle, 50);
  assert.notEqual(saved.scheduler.completed, a.scheduler.completed);
});
