// The event-driven scheduler (the engine's: dependency-blocked instances asleep in a timing wheel,
// only the others and the woken ones visited) against the walk over every waiting instance
// (test/sim/oracles.ts, WalkScheduler): the core's whole state after every cycle, the
// results, the steady-state skip and stepped snapshots are the same, on generated programs, every
// variant, both wait accountings, SUACA's model and the refined mechanisms.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_MODEL,
  REFINED_MECHANISMS,
  SUACA_MECHANISMS,
  allVariants,
  createEngine,
  simulate,
} from '../../src/sim/index.js';
import type { ModelOptions, Snapshot, Variant } from '../../src/sim/index.js';
import { Core } from '../../src/sim/core.js';
import type { CoreState } from '../../src/sim/core.js';
import type { MachineParams, SimProgram } from '../../src/sim/types.js';
import { SKL, program, variants, withRefinedFacts } from './generated.js';
import { refinedProgram } from './generatedRefined.js';
import { MACHINES, stencil } from './thesisPrograms.js';
import { EAGER, eventsOf, uncachedOf, walkOf } from './oracles.js';

const VARIANTS: Variant[] = [...allVariants(), ...variants.filter((v) => v.portCapacity !== undefined)];

/** The saved state without what lies beyond the lists' lengths (left-overs that are never read). */
function norm(st: CoreState): unknown {
  const s = st.scheduler;
  return {
    ...st,
    scheduler: { ...s, waiting: s.waiting.slice(0, s.waitingLen), executing: s.executing.slice(0, s.executingLen) },
  };
}

/** Step both schedulers side by side and compare the whole state after every cycle. */
function lockstep(
  p: SimProgram,
  machine: MachineParams,
  iterations: number,
  variant: Variant,
  model: ModelOptions,
  what: string,
): number {
  const walk = new Core(p, machine, { iterations, variant }, walkOf(model));
  const events = new Core(p, machine, { iterations, variant }, eventsOf(model));
  while (!walk.finished) {
    walk.step();
    events.step();
    assert.deepEqual(norm(events.save()), norm(walk.save()), `${what}, cycle ${walk.cycle}`);
  }
  assert.ok(events.finished, what);
  return walk.cycle;
}

/** Both schedulers' results, stepped and with the steady-state skip. */
function sameResults(
  p: SimProgram,
  machine: MachineParams,
  iterations: number,
  variant: Variant,
  model: ModelOptions,
  what: string,
): void {
  const config = { iterations, variant };
  for (const fullSimulation of [true, false]) {
    const w = simulate(p, machine, config, { model: walkOf(model), fullSimulation });
    const e = simulate(p, machine, config, { model: eventsOf(model), fullSimulation });
    assert.deepEqual(e, w, `${what}, fullSimulation ${fullSimulation}`);
  }
}

test("the event-driven scheduler has the walk's state after every cycle (generated programs, every variant, both wait accountings)", () => {
  let cycles = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const p = program(seed);
    for (const variant of VARIANTS) {
      for (const model of [DEFAULT_MODEL, EAGER]) {
        cycles += lockstep(
          p,
          SKL,
          40,
          variant,
          model,
          `seed ${seed} ${JSON.stringify(variant)} ${JSON.stringify(model)}`,
        );
      }
    }
  }
  assert.ok(cycles > 10_000, `${cycles} cycles compared`);
});

test("the event-driven scheduler gives the walk's results on generated programs (iteration counts, steady skip)", () => {
  for (let seed = 13; seed <= 40; seed++) {
    const p = program(seed);
    for (const variant of VARIANTS) {
      for (const iterations of [1, 7, 130, 1001]) {
        sameResults(
          p,
          SKL,
          iterations,
          variant,
          DEFAULT_MODEL,
          `seed ${seed} ${JSON.stringify(variant)} ${iterations}`,
        );
      }
    }
  }
});

test('the event-driven scheduler stays exact with every refined mechanism (alone and together), cycle by cycle', async () => {
  const { machineParams } = await import('../../src/sim/index.js');
  const { loadMachine } = await import('../../src/data/index.js');
  const machines = [SKL, machineParams(loadMachine('HSW')), machineParams(loadMachine('ICL'))];
  const names = Object.keys(SUACA_MECHANISMS) as (keyof typeof SUACA_MECHANISMS)[];
  let changed = 0;
  for (let seed = 1; seed <= 18; seed++) {
    const machine = machines[seed % machines.length]!;
    const be = refinedProgram(seed);
    const fe = withRefinedFacts(be, seed, machine.arch);
    // the execution side's random facts with the front end's on the same lines
    const p: SimProgram = {
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
    const sets = [...names.map((k) => ({ ...SUACA_MECHANISMS, [k]: true })), { ...REFINED_MECHANISMS }];
    for (const mechanisms of sets) {
      const what = `seed ${seed} ${machine.arch} ${JSON.stringify(mechanisms)} ${JSON.stringify(variant)}`;
      lockstep(p, machine, 30, variant, { mechanisms }, what);
      sameResults(p, machine, 400, variant, { mechanisms }, what);
      const base = simulate(p, machine, { iterations: 400, variant }, { fullSimulation: true });
      const refined = simulate(
        p,
        machine,
        { iterations: 400, variant },
        { model: { mechanisms }, fullSimulation: true },
      );
      if (refined.stats.cycles !== base.stats.cycles) changed++;
    }
  }
  // the mechanisms change many schedules, else the comparison says little about them
  assert.ok(changed > 20, `${changed} runs changed by a mechanism`);
});

test('the event-driven scheduler: the thesis stencil, and stepped snapshots and seeks as with the walk', () => {
  for (const [arch, machine] of Object.entries(MACHINES)) {
    sameResults(stencil(), machine, 3000, allVariants()[0]!, DEFAULT_MODEL, `stencil ${arch}`);
  }
  for (let seed = 50; seed < 56; seed++) {
    const p = program(seed);
    const config = { iterations: 300, variant: VARIANTS[seed % VARIANTS.length]! };
    const w = createEngine(p, SKL, config, { model: walkOf(DEFAULT_MODEL) });
    const e = createEngine(p, SKL, config, { model: eventsOf(DEFAULT_MODEL) });
    let sw: Snapshot = w.snapshot();
    while (!sw.finished) {
      sw = w.step();
      assert.deepEqual(e.step(), sw, `seed ${seed} cycle ${sw.cycle}`);
    }
    // seeks back (restore from a checkpoint, then stepping) and forward
    for (const c of [Math.floor(sw.cycle / 3), 5, sw.cycle - 1, Math.floor(sw.cycle / 2)]) {
      assert.deepEqual(e.seek(c), w.seek(c), `seed ${seed} seek ${c}`);
    }
  }
});

test("the ports' blame cache (several blocked masks per cycle) changes no state or statistic: both schedulers, cycle by cycle, with the cache off", () => {
  // the cache serves the walk and the event-driven walk alike, so the comparison above cannot see
  // a wrong reuse; here each runs against itself with every blocked instance's holders looked up
  let reused = 0;
  for (let seed = 1; seed <= 14; seed++) {
    const p = program(seed);
    for (const variant of VARIANTS) {
      for (const model of [
        DEFAULT_MODEL,
        walkOf(DEFAULT_MODEL),
        { mechanisms: { portChoice: true } },
        walkOf({ mechanisms: { portChoice: true } }),
      ]) {
        const off = new Core(p, SKL, { iterations: 40, variant }, uncachedOf(model));
        const on = new Core(p, SKL, { iterations: 40, variant }, model);
        const what = `seed ${seed} ${JSON.stringify(variant)} ${JSON.stringify(model.mechanisms)} ${model.units?.scheduler?.name ?? 'Scheduler'}`;
        while (!off.finished) {
          off.step();
          on.step();
          reused += on.ports.bcN;
          assert.deepEqual(norm(on.save()), norm(off.save()), `${what}, cycle ${off.cycle}`);
        }
        assert.ok(on.finished, what);
      }
    }
  }
  // masks were cached (and so could be reused wrongly)
  assert.ok(reused > 1000, `${reused} cached masks`);
});

test('the event-driven walk refuses a µop whose ports are all full as Ports does (a station full of port-blocked instances)', () => {
  // many single-µop instructions on few ports, one on the divider, with a perfect front end: most
  // instances in the station are port-blocked every cycle, with masks of one and of several ports
  const PORTS = [[0], [1], [0, 1], [5], [0, 1, 5], [2, 3], [0, 5]];
  const instructions = Array.from({ length: 24 }, (_, i) => ({
    line: i,
    asm: `i${i}`,
    uops: i === 7 ? [[0, 1], [0]] : [PORTS[i % PORTS.length]!.slice(), ...(i % 5 === 0 ? [[2, 3]] : [])],
    latency: 1 + (i % 4),
    latencyByResource: { [`R${i}`]: 1 + (i % 4) },
    divCycles: i === 7 ? 6 : 0,
    unknown: false,
  }));
  const deps = Array.from({ length: 8 }, (_, k) => ({
    from: 3 * k,
    to: 3 * k + 2,
    resource: `R${3 * k}`,
    loopCarried: false,
  }));
  const p = { instructions, deps } as SimProgram;
  let cycles = 0;
  for (const variant of [
    { ...allVariants()[0]!, perfectFrontEnd: true },
    allVariants()[0]!,
    { ...allVariants()[0]!, portCapacity: 2 },
  ]) {
    for (const model of [
      DEFAULT_MODEL,
      { mechanisms: { portChoice: true } },
      { mechanisms: { ...REFINED_MECHANISMS } },
    ]) {
      cycles += lockstep(p, SKL, 60, variant, model, `${JSON.stringify(variant)} ${JSON.stringify(model)}`);
    }
  }
  assert.ok(cycles > 1000, `${cycles} cycles compared`);
});

test("Ports.takeFree (the event walk's shortcut for a µop with a free port) takes the port choose takes, with the same state", async () => {
  const { Ports } = await import('../../src/sim/units/ports.js');
  const { Divider } = await import('../../src/sim/units/divider.js');
  const { BlameRecorder } = await import('../../src/sim/recorder.js');
  const { CompiledProgram } = await import('../../src/sim/compiled.js');
  const { rng } = await import('./generated.js');
  let compared = 0,
    multi = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const cp = new CompiledProgram(program(seed), SKL);
    const r = rng(seed * 31 + 7);
    for (const cap of [1, 2, 3]) {
      const mk = () => {
        const rec = new BlameRecorder(cp);
        return { rec, ports: new Ports(cp, cap, new Divider(), rec) };
      };
      const a = mk(),
        b = mk();
      for (let c = 1; c <= 200; c++) {
        a.ports.newCycle();
        b.ports.newCycle();
        for (let v = 0; v < 12; v++) {
          const i = Math.floor(r() * cp.n);
          const u = Math.floor(r() * cp.uops[i]!);
          if (!(u >= 0 && u < cp.uops[i]!) || (cp.div[i]! > 0 && cp.divUop[i] === u)) continue;
          const g = c * 100 + v; // a new instance each time (holds no port)
          const m = cp.uopMask[i * cp.maxU + u]!;
          const free = m & ~b.ports.full;
          const pa = a.ports.choose(g, i, u, c);
          if (free === 0) {
            assert.equal(pa, -1, `seed ${seed} cycle ${c}: choose found a port with all full`);
            b.ports.choose(g, i, u, c);
            continue;
          }
          const pb = b.ports.takeFree(g, i, u, free);
          if ((free & (free - 1)) !== 0) multi++;
          assert.equal(pb, pa, `seed ${seed} cap ${cap} cycle ${c} line ${i} µop ${u}`);
          assert.deepEqual(b.ports.save(), a.ports.save());
          assert.equal(b.ports.full, a.ports.full);
          assert.equal(b.ports.lastTaker, a.ports.lastTaker);
          compared++;
        }
      }
      assert.deepEqual(b.rec.save(), a.rec.save());
    }
  }
  assert.ok(compared > 10_000 && multi > 1000, `${compared} µops compared, ${multi} with several free ports`);
});
