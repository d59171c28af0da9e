// The steady-state skip (src/sim/steady.ts) gives exactly the figures of simulating every cycle:
// generated programs, all eight switch combinations and the knob variant, both model options,
// several iteration counts (periods that do not divide them, counts too small to skip anything).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MODEL, allVariants, createEngine, simulate } from '../../src/sim/index.js';
import type { Snapshot } from '../../src/sim/index.js';
import { Core } from '../../src/sim/core.js';
import { runToEndSteady } from '../../src/sim/steady.js';
import { coreStats } from '../../src/sim/stats.js';
import { SKL, program, rng, variants } from './generated.js';
import { MACHINES, stencil } from './thesisPrograms.js';
import { refinedProgram } from './generatedRefined.js';
import { SUACA_MECHANISMS } from '../../src/sim/index.js';
import { EAGER } from './oracles.js';

const VARIANTS = [...allVariants(), ...variants.filter((v) => v.portCapacity !== undefined)];
const COUNTS = [1, 5, 37, 250, 1001];

test("the steady-state skip gives exactly the full simulation's figures on generated programs", () => {
  let runs = 0,
    skippedRuns = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const p = program(seed);
    for (const variant of VARIANTS) {
      for (const iterations of COUNTS) {
        for (const model of [DEFAULT_MODEL, { ...DEFAULT_MODEL, ...EAGER }]) {
          if (model !== DEFAULT_MODEL && iterations > 250) continue;
          const what = `seed ${seed} ${JSON.stringify(variant)} ${iterations} ${JSON.stringify(model)}`;
          const full = simulate(p, SKL, { iterations, variant }, { model, fullSimulation: true });
          const fast = simulate(p, SKL, { iterations, variant }, { model });
          assert.deepEqual(fast, full, what);
          const core = new Core(p, SKL, { iterations, variant }, model);
          if (runToEndSteady(core) > 0) skippedRuns++;
          runs++;
        }
      }
    }
  }
  // the comparison means something only if runs were skipped: most long runs are periodic
  assert.ok(skippedRuns > runs / 4, `${skippedRuns} of ${runs} runs skipped a periodic part`);
});

test("the thesis stencil skips all but its transient, with the full simulation's figures", () => {
  for (const N of [1000, 12_345, 100_000]) {
    const config = { iterations: N, variant: allVariants()[0]! };
    const core = new Core(stencil(), MACHINES.IVB!, config);
    const skipped = runToEndSteady(core);
    assert.ok(skipped > core.cycle - 2000, `skipped ${skipped} of ${core.cycle}`);
    assert.deepEqual(
      coreStats(core, stencil()),
      simulate(stencil(), MACHINES.IVB!, config, { fullSimulation: true }).stats,
    );
  }
});

test('the engine seeks through the periodic part and runs to the end with the stepped snapshots', () => {
  let periodic = 0;
  for (let seed = 200; seed < 216; seed++) {
    const p = program(seed);
    const variant = VARIANTS[seed % VARIANTS.length]!;
    const config = { iterations: 3000, variant };
    const stepped = createEngine(p, SKL, config);
    const r = rng(seed);
    const want = new Map<number, Snapshot>();
    let s = stepped.snapshot();
    // cycles exactly whole periods after the period's start too (no cycle simulated after the move)
    const exact = new Set<number>();
    runToEndSteady(new Core(p, SKL, config), (per) => {
      for (const j of [3, 7, per.periods]) exact.add(per.cycle + j * per.dc);
    });
    while (!s.finished) {
      s = stepped.step();
      if ((s.cycle > 5000 && r() < 0.002) || exact.has(s.cycle)) want.set(s.cycle, s);
    }
    want.set(s.cycle, s);
    const end = s.cycle;
    const a = createEngine(p, SKL, config);
    assert.equal(a.totalCycles(), end);
    assert.deepEqual(a.finalStats(), s.stats);
    // far seeks forward and back, in a shuffled order
    const order = [...want.keys()].sort(() => r() - 0.5);
    for (const c of order) assert.deepEqual(a.seek(c), want.get(c), `seed ${seed} seek ${c}`);
    assert.deepEqual(createEngine(p, SKL, config).runToEnd(), s, `seed ${seed} runToEnd`);
    const core = new Core(p, SKL, config);
    if (runToEndSteady(core) > 0) periodic++;
  }
  assert.ok(periodic >= 8, `${periodic} of 16 runs periodic`);
});

test("the steady-state skip stays exact with the refined model's execution-side mechanisms on", () => {
  const names = [
    'zeroIdioms',
    'moveElimination',
    'loadStorePorts',
    'storeForwarding',
    'portChoice',
    'onePerPort',
  ] as const;
  let runs = 0,
    skippedRuns = 0,
    changed = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const p = refinedProgram(seed);
    const r = rng(seed + 1000);
    // every mechanism alone, all of them, and a random subset
    const sets = [...names.map((k) => [k]), [...names], names.filter(() => r() < 0.5)];
    for (const on of sets) {
      const mechanisms = { ...SUACA_MECHANISMS, ...Object.fromEntries(on.map((k) => [k, true])) };
      for (const variant of [VARIANTS[0]!, VARIANTS[seed % VARIANTS.length]!]) {
        for (const iterations of [1, 37, 400]) {
          const model = { mechanisms };
          const what = `seed ${seed} ${on.join('+')} ${JSON.stringify(variant)} ${iterations}`;
          const full = simulate(p, SKL, { iterations, variant }, { model, fullSimulation: true });
          const fast = simulate(p, SKL, { iterations, variant }, { model });
          assert.deepEqual(fast, full, what);
          if (fast.stats.cycles !== simulate(p, SKL, { iterations, variant }).stats.cycles) changed++;
          if (runToEndSteady(new Core(p, SKL, { iterations, variant }, model)) > 0) skippedRuns++;
          runs++;
        }
      }
    }
  }
  assert.ok(skippedRuns > runs / 4, `${skippedRuns} of ${runs} runs skipped a periodic part`);
  // and the mechanisms change the schedule in many of them (else the comparison says little)
  assert.ok(changed > runs / 10, `${changed} of ${runs} runs differ from SUACA's cycles`);
});

test('the engine seeks through the periodic part with the refined mechanisms on (stepped snapshots)', () => {
  const mechanisms = {
    ...SUACA_MECHANISMS,
    zeroIdioms: true,
    moveElimination: true,
    loadStorePorts: true,
    storeForwarding: true,
    portChoice: true,
    onePerPort: true,
  };
  for (let seed = 300; seed < 306; seed++) {
    const p = refinedProgram(seed);
    const config = { iterations: 1500, variant: VARIANTS[0]! };
    const opts = { model: { mechanisms } };
    const stepped = createEngine(p, SKL, config, opts);
    const want = new Map<number, Snapshot>();
    let s = stepped.snapshot();
    const r = rng(seed);
    while (!s.finished) {
      s = stepped.step();
      if (r() < 0.003) want.set(s.cycle, s);
    }
    want.set(s.cycle, s);
    const a = createEngine(p, SKL, config, opts);
    assert.equal(a.totalCycles(), s.cycle);
    assert.deepEqual(a.finalStats(), s.stats);
    for (const c of [...want.keys()].reverse()) assert.deepEqual(a.seek(c), want.get(c), `seed ${seed} seek ${c}`);
  }
});

test('with the refined mechanisms on, skipping dependency-blocked instances gives the figures of looking at every instance every cycle', () => {
  const mechanisms = {
    ...SUACA_MECHANISMS,
    zeroIdioms: true,
    moveElimination: true,
    loadStorePorts: true,
    storeForwarding: true,
    portChoice: true,
    onePerPort: true,
  };
  for (let seed = 500; seed < 540; seed++) {
    const p = refinedProgram(seed);
    for (const variant of [VARIANTS[0]!, VARIANTS[seed % VARIANTS.length]!]) {
      const config = { iterations: 120, variant };
      const lazy = simulate(p, SKL, config, { model: { mechanisms }, fullSimulation: true });
      const eager = simulate(p, SKL, config, { model: { mechanisms, ...EAGER }, fullSimulation: true });
      assert.deepEqual(lazy, eager, `seed ${seed} ${JSON.stringify(variant)}`);
    }
  }
});

test('the steady-state skip stays exact with the front-end mechanisms on (macro-, micro-fusion, front end)', async () => {
  const { SUACA_MECHANISMS, MECHANISMS } = await import('../../src/sim/mechanisms.js');
  const { withRefinedFacts } = await import('./generated.js');
  const { machineParams } = await import('../../src/sim/index.js');
  const { loadMachine } = await import('../../src/data/index.js');
  const FE = ['macroFusion', 'microFusion', 'frontEnd'] as const;
  assert.ok(FE.every((k) => MECHANISMS.includes(k)));
  // every combination of the three (the other mechanisms off), on SKL (µop cache, JCC erratum,
  // no LSD) and HSW / ICL (LSD), programs with random facts
  const machines = [SKL, machineParams(loadMachine('HSW')), machineParams(loadMachine('ICL'))];
  let runs = 0,
    skippedRuns = 0;
  for (let seed = 1; seed <= 24; seed++) {
    for (let c = 1; c < 8; c++) {
      const mechanisms = {
        ...SUACA_MECHANISMS,
        macroFusion: (c & 1) !== 0,
        microFusion: (c & 2) !== 0,
        frontEnd: (c & 4) !== 0,
      };
      const machine = machines[(seed + c) % machines.length]!;
      const p = withRefinedFacts(program(seed), seed, machine.arch);
      const variant = VARIANTS[(seed * 3 + c) % VARIANTS.length]!;
      for (const iterations of [1, 37, 1001]) {
        const model = { ...DEFAULT_MODEL, mechanisms };
        const what = `seed ${seed} ${machine.arch} ${JSON.stringify(mechanisms)} ${JSON.stringify(variant)} ${iterations}`;
        const full = simulate(p, machine, { iterations, variant }, { model, fullSimulation: true });
        const fast = simulate(p, machine, { iterations, variant }, { model });
        assert.deepEqual(fast, full, what);
        const core = new Core(p, machine, { iterations, variant }, model);
        if (runToEndSteady(core) > 0) skippedRuns++;
        if (iterations > 1000) runs++;
      }
    }
  }
  // the comparison means something only if runs were skipped: most long runs are periodic
  assert.ok(skippedRuns > runs / 2, `${skippedRuns} of ${runs} runs of 1001 iterations skipped a periodic part`);
  // and the engine's seeks through the period match stepping
  for (let seed = 300; seed < 306; seed++) {
    const mechanisms = { ...SUACA_MECHANISMS, macroFusion: true, microFusion: true, frontEnd: true };
    const p = withRefinedFacts(program(seed), seed, 'SKL');
    const config = { iterations: 2000, variant: VARIANTS[0]! };
    const opts = { model: { mechanisms } };
    const stepped = createEngine(p, SKL, config, opts);
    let s = stepped.snapshot();
    const want = new Map<number, Snapshot>();
    const r = rng(seed);
    while (!s.finished) {
      s = stepped.step();
      if (r() < 0.003) want.set(s.cycle, s);
    }
    want.set(s.cycle, s);
    const a = createEngine(p, SKL, config, opts);
    assert.equal(a.totalCycles(), s.cycle);
    for (const [c, snap] of want) assert.deepEqual(a.seek(c), snap, `seed ${seed} seek ${c}`);
  }
});

test('the steady-state skip stays exact with every mechanism on together (the refined model)', async () => {
  const { REFINED_MECHANISMS } = await import('../../src/sim/mechanisms.js');
  const { withRefinedFacts } = await import('./generated.js');
  const { machineParams } = await import('../../src/sim/index.js');
  const { loadMachine } = await import('../../src/data/index.js');
  const machines = [SKL, machineParams(loadMachine('HSW')), machineParams(loadMachine('ICL'))];
  let long = 0,
    skipped = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const machine = machines[seed % machines.length]!;
    // the execution side's random facts (idioms, moves, memory) with the front end's (lengths,
    // fused µops, a fusing Jcc) on the same lines
    const be = refinedProgram(seed);
    const fe = withRefinedFacts(be, seed, machine.arch);
    const p = {
      deps: be.deps,
      instructions: fe.instructions.map((x, i) => {
        const b = be.instructions[i]!.refined!;
        return {
          ...x,
          refined: { ...x.refined!, idiom: b.idiom, moveElimination: b.moveElimination, memory: b.memory },
        };
      }),
    };
    const variant = VARIANTS[seed % VARIANTS.length]!;
    for (const iterations of [1, 53, 1500]) {
      const model = { ...DEFAULT_MODEL, mechanisms: { ...REFINED_MECHANISMS } };
      const full = simulate(p, machine, { iterations, variant }, { model, fullSimulation: true });
      const fast = simulate(p, machine, { iterations, variant }, { model });
      assert.deepEqual(fast, full, `seed ${seed} ${machine.arch} ${JSON.stringify(variant)} ${iterations}`);
      if (iterations > 1000) {
        long++;
        if (runToEndSteady(new Core(p, machine, { iterations, variant }, model)) > 0) skipped++;
      }
    }
  }
  assert.ok(skipped > long / 2, `${skipped} of ${long} long runs skipped a periodic part`);
});

test("with ports assigned at issue (portChoice) the port order is no part of the state: the stencil's period is found after its transient, with the full simulation's figures and ports", () => {
  const model = { ...DEFAULT_MODEL, mechanisms: { ...SUACA_MECHANISMS, portChoice: true } };
  const portsOf = (c: Core) => {
    const s = c.save();
    return { usage: s.ports.usage, order: s.ports.order, queued: s.policy.queued };
  };
  for (const N of [12_345, 100_000]) {
    const config = { iterations: N, variant: allVariants()[0]! };
    const core = new Core(stencil(), MACHINES.IVB!, config, model);
    const skipped = runToEndSteady(core);
    // the period (528 cycles) repeats from about cycle 2,400: confirmed by cycle 3,462 (keying the
    // port order, which nothing reads with port choice, delayed it to cycle 8,214)
    assert.ok(skipped > core.cycle - 4000, `skipped ${skipped} of ${core.cycle}`);
    const full = new Core(stencil(), MACHINES.IVB!, config, model);
    full.runToEnd();
    assert.deepEqual(coreStats(core, stencil()), coreStats(full, stencil()));
    assert.deepEqual(portsOf(core), portsOf(full));
  }
  let runs = 0,
    skippedRuns = 0;
  for (let seed = 1; seed <= 20; seed++) {
    const p = refinedProgram(seed);
    for (const variant of VARIANTS) {
      const config = { iterations: 600, variant };
      const what = `seed ${seed} ${JSON.stringify(variant)}`;
      assert.deepEqual(
        simulate(p, SKL, config, { model }),
        simulate(p, SKL, config, { model, fullSimulation: true }),
        what,
      );
      const core = new Core(p, SKL, config, model);
      if (runToEndSteady(core) > 0) skippedRuns++;
      const full = new Core(p, SKL, config, model);
      full.runToEnd();
      assert.deepEqual(portsOf(core), portsOf(full), what);
      runs++;
    }
  }
  assert.ok(skippedRuns > runs / 2, `${skippedRuns} of ${runs} runs skipped a periodic part`);
});
