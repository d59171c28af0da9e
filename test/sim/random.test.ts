// Properties on generated programs (seeded, so every run sees the same programs): the lazy
// accounting of dependency waits gives exactly the figures of looking at every instance every
// cycle; seeking lands on the same snapshots as stepping; invariants of every snapshot hold.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MODEL, createEngine, simulate } from '../../src/sim/index.js';
import type { SimProgram, Snapshot } from '../../src/sim/index.js';
import { SKL, program, rng, variants } from './generated.js';
import { EAGER } from './oracles.js';

test('lazy dependency waits give exactly the eager figures', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const p = program(seed);
    for (const variant of variants) {
      const lazy = simulate(p, SKL, { iterations: 37, variant });
      const eager = simulate(p, SKL, { iterations: 37, variant }, { model: { ...DEFAULT_MODEL, ...EAGER } });
      assert.deepEqual(lazy, eager, `seed ${seed} ${JSON.stringify(variant)}`);
    }
  }
});

function checkInvariants(s: Snapshot, p: SimProgram): void {
  assert.ok(s.rsUsed >= 0 && s.rsUsed <= s.rsCapacity, `rs ${s.rsUsed}/${s.rsCapacity}`);
  assert.ok(s.completed <= s.total);
  const n = p.instructions.length;
  let prev = -1;
  for (const e of s.rs) {
    const g = e.iteration * n + p.instructions.findIndex((x) => x.line === e.line);
    assert.ok(g > prev, 'station entries in program order');
    prev = g;
    assert.ok(e.loaded <= e.uops && e.assigned <= e.loaded);
    if (e.state.kind === 'executing') assert.ok(e.state.cyclesLeft >= 0 && e.state.cyclesDone >= 1);
  }
  for (const port of s.ports) if (port.uops.length > 1) assert.ok(port.uops.length <= 4, 'capacity bound');
}

test('seeking equals stepping, and snapshot invariants hold, on generated programs', () => {
  for (let seed = 100; seed < 112; seed++) {
    const p = program(seed);
    const variant = variants[seed % variants.length]!;
    const a = createEngine(p, SKL, { iterations: 30, variant });
    const seen: Snapshot[] = [a.snapshot()];
    let s = a.snapshot();
    while (!s.finished) {
      s = a.step();
      checkInvariants(s, p);
      seen.push(s);
    }
    assert.deepEqual(s.stats, simulate(p, SKL, { iterations: 30, variant }).stats);
    const r = rng(seed);
    for (let q = 0; q < 8; q++) {
      const c = Math.floor(r() * seen.length);
      assert.deepEqual(a.seek(c), seen[c], `seed ${seed} seek ${c}`);
    }
  }
});
