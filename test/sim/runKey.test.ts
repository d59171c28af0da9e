// A run is shared (src/sim/whatIf.ts, sharingIdenticalRuns) only when runKey says its engine
// inputs are identical: the engine reads nothing of a compiled program that engineKey leaves out,
// the core reads no mechanism switch but port choice itself, and every run handed out through the
// sharing gives exactly what simulating it gives, on generated programs where the mechanisms change
// the compiled program and where they do not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledProgram, NOT_SIMULATED } from '../../src/sim/compiled.js';
import { Core } from '../../src/sim/core.js';
import { runToEndSteady } from '../../src/sim/steady.js';
import { detailOf, statsOf, statsStateOf } from '../../src/sim/stats.js';
import {
  MECHANISMS,
  REFINED_MECHANISMS,
  SUACA_MECHANISMS,
  machineParams,
  runKey,
  sharingIdenticalRuns,
  simulate,
  withMechanism,
} from '../../src/sim/index.js';
import type { MachineParams, MechanismSet, SimProgram, SimResult, Variant } from '../../src/sim/index.js';
import { loadMachine } from '../../src/data/index.js';
import type { ArchName } from '../../src/data/types.js';
import { analyse, programAt } from '../../src/cli/pipeline.js';
import { SKL, variants, withRefinedFacts } from './generated.js';
import { refinedProgram } from './generatedRefined.js';
import { EAGER, walkOf } from './oracles.js';

const MACHINES: MachineParams[] = [SKL, machineParams(loadMachine('HSW')), machineParams(loadMachine('ICL'))];

/** The execution side's random facts (idioms, moves, memory) with the front end's (lengths, fused
 *  µops, a fusing Jcc) on the same lines (as test/sim/steady.test.ts builds them). */
function programOf(seed: number, machine: MachineParams): SimProgram {
  const be = refinedProgram(seed);
  const fe = withRefinedFacts(be, seed, machine.arch);
  return {
    deps: be.deps,
    instructions: fe.instructions.map((x, i) => {
      const b = be.instructions[i]!.refined!;
      return { ...x, refined: { ...x.refined!, idiom: b.idiom, moveElimination: b.moveElimination, memory: b.memory } };
    }),
  };
}

/** simulate() on a given compiled program and core options (what simulate does, spelled out). */
function simulateWith(
  cp: CompiledProgram,
  program: SimProgram,
  machine: MachineParams,
  iterations: number,
  variant: Variant,
  mechanisms: MechanismSet,
): SimResult {
  const core = new Core(program, machine, { iterations, variant }, { mechanisms }, cp);
  runToEndSteady(core);
  const st = statsStateOf(core);
  return { stats: statsOf(cp, program, st), details: program.instructions.map((_, i) => detailOf(cp, program, st, i)) };
}

const unreadable = (what: string) => ({
  get(): never {
    throw new Error(`the engine read ${what}`);
  },
  configurable: true,
});

test('the engine reads nothing of a compiled program that engineKey leaves out (those fields made unreadable)', () => {
  let withPlan = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const machine = MACHINES[seed % MACHINES.length]!;
    const p = programOf(seed, machine);
    for (const variant of [variants[0]!, variants[seed % variants.length]!]) {
      const cp = new CompiledProgram(p, machine, REFINED_MECHANISMS);
      for (const k of NOT_SIMULATED) Object.defineProperty(cp, k, unreadable(k));
      // of the front end's limits, only the plan
      if (cp.frontEnd !== null) {
        const plan = cp.frontEnd.plan;
        if (plan !== null) withPlan++;
        const fe = {};
        Object.defineProperty(fe, 'plan', { value: plan });
        for (const k of ['applied', 'notApplied']) Object.defineProperty(fe, k, unreadable(`frontEnd.${k}`));
        Object.defineProperty(cp, 'frontEnd', { value: fe });
      }
      const got = simulateWith(cp, p, machine, 300, variant, REFINED_MECHANISMS);
      assert.deepEqual(
        got,
        simulate(p, machine, { iterations: 300, variant }, { model: { mechanisms: REFINED_MECHANISMS } }),
        `seed ${seed}`,
      );
    }
  }
  assert.ok(withPlan > 0, 'some runs have a front-end plan');
});

test('the core reads no mechanism switch but port choice and the port rule: the compiled program carries the others', () => {
  let differ = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const machine = MACHINES[seed % MACHINES.length]!;
    const p = programOf(seed, machine);
    for (const [portChoice, onePerPort] of [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      const compiledFor = { ...REFINED_MECHANISMS, portChoice, onePerPort };
      const cp = new CompiledProgram(p, machine, compiledFor);
      const want = simulate(
        p,
        machine,
        { iterations: 300, variant: variants[0]! },
        { model: { mechanisms: compiledFor } },
      );
      // the core told every other mechanism is off: the same run
      const partsOnly = { ...SUACA_MECHANISMS, portChoice, onePerPort };
      assert.deepEqual(
        simulateWith(cp, p, machine, 300, variants[0]!, partsOnly),
        want,
        `seed ${seed} portChoice ${portChoice} onePerPort ${onePerPort}`,
      );
      if (
        want.stats.cycles !==
        simulate(p, machine, { iterations: 300, variant: variants[0]! }, { model: { mechanisms: partsOnly } }).stats
          .cycles
      )
        differ++;
    }
  }
  // the mechanisms change these programs' runs (else the comparison says little)
  assert.ok(differ > 20, `${differ} runs differ`);
});

test('sharingIdenticalRuns: each run gives what simulating it gives; only runs whose engine inputs are identical are shared', () => {
  let shared = 0,
    simulated = 0,
    sharedDiffering = 0;
  const keyDiffers = new Set<string>();
  for (let seed = 1; seed <= 24; seed++) {
    const machine = MACHINES[seed % MACHINES.length]!;
    const p = programOf(seed, machine);
    for (const base of [REFINED_MECHANISMS, SUACA_MECHANISMS]) {
      const asked: string[] = [];
      const sim = sharingIdenticalRuns((pp, m, config, opts) => {
        asked.push(runKey(pp, m, config, opts));
        return simulate(pp, m, config, opts);
      });
      const config = { iterations: 400, variant: variants[seed % variants.length]! };
      const main = runKey(p, machine, config, { model: { mechanisms: base } });
      assert.deepEqual(
        sim(p, machine, config, { model: { mechanisms: base } }),
        simulate(p, machine, config, { model: { mechanisms: base } }),
      );
      for (const k of MECHANISMS) {
        const mechanisms = withMechanism(base, k, !base[k]);
        const before = asked.length;
        const got = sim(p, machine, config, { model: { mechanisms } });
        const direct = simulate(p, machine, config, { model: { mechanisms } });
        assert.deepEqual(got, direct, `seed ${seed} ${k} ${base[k] ? 'off' : 'on'}`);
        const key = runKey(p, machine, config, { model: { mechanisms } });
        if (asked.length === before) {
          shared++;
          // shared: with the main run or a flip before it, whose key is the same
          assert.ok(asked.includes(key), `seed ${seed} ${k}: shared, yet no run with its key was made`);
        } else {
          simulated++;
          keyDiffers.add(k);
          assert.notEqual(key, main);
          if (direct.stats.cycles !== simulate(p, machine, config, { model: { mechanisms: base } }).stats.cycles)
            sharedDiffering++;
        }
      }
    }
  }
  // both kinds occur, and many simulated runs have other figures than the main run (so that sharing
  // them by mistake fails the comparison above)
  assert.ok(shared > 20, `${shared} shared`);
  assert.ok(simulated > 20, `${simulated} simulated`);
  assert.ok(sharedDiffering > 10, `${sharedDiffering} simulated runs differ from the main run`);
  assert.deepEqual(
    [...keyDiffers].sort(),
    [...MECHANISMS].sort(),
    'every mechanism changes the inputs of some program',
  );
});

test('runKey: a different iteration count, variant, port capacity or core option is a different run', () => {
  const p = programOf(3, SKL);
  const opts = { model: { mechanisms: REFINED_MECHANISMS } };
  const k = runKey(p, SKL, { iterations: 100, variant: variants[0]! }, opts);
  assert.equal(
    runKey(
      p,
      SKL,
      { iterations: 100, variant: { ...variants[0]! } },
      { model: { mechanisms: { ...REFINED_MECHANISMS } } },
    ),
    k,
  );
  assert.notEqual(runKey(p, SKL, { iterations: 101, variant: variants[0]! }, opts), k);
  assert.notEqual(runKey(p, SKL, { iterations: 100, variant: { ...variants[0]!, infinitePorts: true } }, opts), k);
  assert.notEqual(runKey(p, SKL, { iterations: 100, variant: { ...variants[0]!, portCapacity: 2 } }, opts), k);
  assert.notEqual(
    runKey(p, SKL, { iterations: 100, variant: { ...variants[0]!, portCapacity: Infinity } }, opts),
    runKey(p, SKL, { iterations: 100, variant: { ...variants[0]!, portCapacity: NaN } }, opts),
  );
  assert.notEqual(
    runKey(p, SKL, { iterations: 100, variant: variants[0]! }, { model: { ...opts.model, ...EAGER } }),
    k,
  );
  assert.notEqual(runKey(p, SKL, { iterations: 100, variant: variants[0]! }, { model: walkOf(opts.model!) }), k);
  assert.notEqual(
    runKey(
      p,
      SKL,
      { iterations: 100, variant: variants[0]! },
      { model: { mechanisms: { ...REFINED_MECHANISMS, portChoice: !REFINED_MECHANISMS.portChoice } } },
    ),
    k,
  );
});

test("sharingIdenticalRuns: a run's key is that of what it was asked with, whatever the caller changes afterwards", () => {
  const p = programOf(5, SKL);
  const sim = sharingIdenticalRuns();
  const config = { iterations: 200, variant: { ...variants[0]! } };
  const mechanisms = { ...REFINED_MECHANISMS };
  const first = sim(p, SKL, config, { model: { mechanisms } });
  // the caller reuses its objects for other runs: not the first run's inputs any more
  config.iterations = 300;
  const second = sim(p, SKL, config, { model: { mechanisms } });
  assert.deepEqual(second, simulate(p, SKL, config, { model: { mechanisms } }));
  assert.notEqual(second.stats.cycles, first.stats.cycles);
  config.iterations = 200;
  config.variant.perfectFrontEnd = !config.variant.perfectFrontEnd;
  mechanisms.portChoice = !mechanisms.portChoice;
  assert.deepEqual(sim(p, SKL, config, { model: { mechanisms } }), simulate(p, SKL, config, { model: { mechanisms } }));
});

test("runKey across programs: a loop placed elsewhere with its key runs exactly as the key's other program (the report's placements)", async () => {
  // the report simulates a relocatable object's loop at the placements the linker may give it
  // only when its key differs from a run's made already: the core reads the compiled program only
  const opts = { model: { mechanisms: REFINED_MECHANISMS } };
  let same = 0;
  let differ = 0;
  for (const file of [
    'test/fixtures/loops/hist.gcc-O2.o',
    'test/fixtures/loops/saxpy.gcc-O2.o',
    'examples/bin/branch.o',
  ]) {
    const a = await analyse({ file, arch: 'SKL' as ArchName });
    const config = { iterations: 200, variant: variants[0]! };
    const k0 = runKey(a.program, a.params, config, opts);
    const c0 = simulate(a.program, a.params, config, opts).stats.cycles;
    for (const shift of [16, 32, 48]) {
      const moved = programAt(a, shift);
      const r = simulate(moved, a.params, config, opts).stats;
      if (runKey(moved, a.params, config, opts) === k0) {
        same++;
        assert.equal(r.cycles, c0, `${file} +${shift}`);
      } else differ++;
    }
  }
  // both cases met: placements that change the front end's plan, and some that do not
  assert.ok(same > 0 && differ > 0, `${same} with the same key, ${differ} with another`);
  // neither the figures' lookup (a load-op form's register form, asked of LLVM's model) nor the
  // placements formatted an instruction's AT&T text (made on first read: a formatter costs ms)
  const a = await analyse({ file: 'test/fixtures/loops/saxpy.gcc-O2.o', arch: 'SKL' as ArchName });
  programAt(a, 16);
  for (const i of a.region.instructions)
    assert.ok(Object.getOwnPropertyDescriptor(i, 'att')?.get, `${i.intel}: its AT&T text was made`);
});
