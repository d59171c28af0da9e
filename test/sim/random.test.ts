// Properties on generated programs (seeded, so every run sees the same programs): the lazy
// accounting of dependency waits gives exactly the figures of looking at every instance every
// cycle; seeking lands on the same snapshots as stepping; invariants of every snapshot hold.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MODEL, createEngine, simulate } from '../../src/sim/index.js';
import type { MachineParams, Resource, SimDep, SimInstruction, SimProgram, Snapshot, Variant } from '../../src/sim/index.js';

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 0x100000000; };
}

const SKL: MachineParams = { arch: 'SKL', ports: [0, 1, 2, 3, 4, 5, 6, 7], issueWidth: 4, rsSize: 97, dividerPort: 0 };
const PORT_SETS = [[0, 1, 5, 6], [0, 6], [2, 3], [4], [0], [1], [5], [0, 1], [0, 1, 5], [2, 3, 7], [6]];

function program(seed: number): SimProgram {
  const r = rng(seed);
  const n = 3 + Math.floor(r() * 10);
  const instructions: SimInstruction[] = [];
  for (let i = 0; i < n; i++) {
    const u = Math.floor(r() * 4);         // 0–3 µops (0: eliminated)
    const uops = Array.from({ length: u }, () => PORT_SETS[Math.floor(r() * PORT_SETS.length)]!.slice());
    const latency = u === 0 ? 0 : 1 + Math.floor(r() * 6);
    const div = u > 0 && r() < 0.1 ? 2 + Math.floor(r() * 10) : 0;
    if (div) uops.push([0]);
    instructions.push({ line: i, asm: `i${i}`, uops, latency: div ? Math.max(latency, div) : latency,
      latencyByResource: { [`R${i}`]: Math.max(1, Math.floor(latency / 2)), [`S${i}`]: latency }, divCycles: div, unknown: false });
  }
  const deps: SimDep[] = [];
  const m = Math.floor(r() * 2 * n);
  for (let d = 0; d < m; d++) {
    const from = Math.floor(r() * n), to = Math.floor(r() * n);
    deps.push({ from, to, resource: (r() < 0.5 ? `R${from}` : `S${from}`) as Resource, loopCarried: from >= to || r() < 0.2 });
  }
  return { instructions, deps };
}

const variants: Variant[] = [
  { perfectFrontEnd: false, infinitePorts: false, noDependencies: false },
  { perfectFrontEnd: true, infinitePorts: false, noDependencies: false },
  { perfectFrontEnd: false, infinitePorts: true, noDependencies: false },
  { perfectFrontEnd: false, infinitePorts: false, noDependencies: false, portCapacity: 2, rsSize: 20, issueWidth: 3 },
];

test('lazy dependency waits give exactly the eager figures', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const p = program(seed);
    for (const variant of variants) {
      const lazy = simulate(p, SKL, { iterations: 37, variant });
      const eager = simulate(p, SKL, { iterations: 37, variant }, { model: { ...DEFAULT_MODEL, lazyWaits: false } });
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
    while (!s.finished) { s = a.step(); checkInvariants(s, p); seen.push(s); }
    assert.deepEqual(s.stats, simulate(p, SKL, { iterations: 30, variant }).stats);
    const r = rng(seed);
    for (let q = 0; q < 8; q++) {
      const c = Math.floor(r() * seen.length);
      assert.deepEqual(a.seek(c), seen[c], `seed ${seed} seek ${c}`);
    }
  }
});
