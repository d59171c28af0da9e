// Seeking through checkpoints (src/sim/checkpoints.ts): on real loops and cores, runs that repeat
// and runs that never do (port choice at issue on the stencil), an engine seeking to random cycles
// backwards and forwards — after running to the end itself or after adopting a worker's run —
// shows exactly the snapshots of a core stepped from cycle 0; a step back from the end simulates
// a bounded number of cycles, not the run again; the states kept stay within their bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { analyse } from '../../src/cli/pipeline.js';
import { createEngine } from '../../src/sim/index.js';
import { Core, PROGRESS_CYCLES } from '../../src/sim/core.js';
import { Checkpoints } from '../../src/sim/checkpoints.js';
import { snapshotOf } from '../../src/sim/snapshot.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS, type MechanismSet } from '../../src/sim/mechanisms.js';
import { BASELINE, type Engine, type MachineParams, type SimProgram, type Snapshot } from '../../src/sim/types.js';
import { rng } from './generated.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PORT_CHOICE: MechanismSet = { ...REFINED_MECHANISMS, portChoice: true };

interface Case {
  file: string;
  arch: Uppercase<string>;
  m: MechanismSet;
  iterations: number;
  /** whether the run repeats (steady.ts finds a period): both kinds are covered */
  periodic: boolean;
}

const CASES: Case[] = [
  { file: 'examples/bin/stencil', arch: 'SKL', m: PORT_CHOICE, iterations: 20_000, periodic: false },
  { file: 'examples/bin/stencil', arch: 'ADL-P', m: PORT_CHOICE, iterations: 15_000, periodic: false },
  { file: 'test/fixtures/loops/dot.gcc-O2.o', arch: 'SKL', m: REFINED_MECHANISMS, iterations: 12_000, periodic: true },
  {
    file: 'examples/corpus/bin/int_div.gcc.O2.sse2.o',
    arch: 'HSW',
    m: SUACA_MECHANISMS,
    iterations: 4_000,
    periodic: true,
  },
];

async function load(c: Case): Promise<{ program: SimProgram; machine: MachineParams }> {
  const a = await analyse({ file: `${ROOT}${c.file}`, arch: c.arch });
  return { program: a.program, machine: a.params };
}

const config = (c: Case) => ({ iterations: c.iterations, variant: BASELINE });

/** The snapshots at `cycles` of a core stepped from cycle 0 (no checkpoint, no period). */
function replayed(c: Case, program: SimProgram, machine: MachineParams, cycles: number[]): Map<number, Snapshot> {
  const core = new Core(program, machine, config(c), { mechanisms: c.m });
  const want = new Set(cycles);
  const out = new Map<number, Snapshot>();
  if (want.has(0)) out.set(0, snapshotOf(core, program));
  while (!core.finished) {
    core.step();
    if (want.has(core.cycle)) out.set(core.cycle, snapshotOf(core, program));
  }
  return out;
}

/** Counts the cycles simulated (every core) while `fn` runs. */
function stepsOf(fn: () => void): number {
  const orig = Core.prototype.step;
  let n = 0;
  Core.prototype.step = function (this: Core) {
    n++;
    orig.call(this);
  };
  try {
    fn();
  } finally {
    Core.prototype.step = orig;
  }
  return n;
}

/** Seeks in slices, as the explorer does (PaneCursor.prepare): at most `budget` cycles a call. */
function sliced(e: Engine, cycle: number, budget: number): Snapshot {
  for (let k = 0; k < 1_000_000; k++) {
    const s = e.seekToward(cycle, budget);
    if (s.cycle === cycle || s.finished) return s;
  }
  throw new Error('the sliced seek did not arrive');
}

for (const c of CASES) {
  test(`seeks through checkpoints show a replay's snapshots: ${c.file.split('/').pop()} on ${c.arch} (${c.periodic ? 'repeats' : 'never repeats'})`, async () => {
    const { program, machine } = await load(c);
    const worker = createEngine(program, machine, config(c), { model: { mechanisms: c.m } }).wholeRun();
    const end = worker.cycles;
    assert.equal((worker.state as { period: unknown }).period !== null, c.periodic, 'the kind of run');
    const r = rng(end);
    const random = Array.from({ length: 12 }, () => Math.floor(r() * (end + 1)));
    // from the end: steps back, then random cycles backwards and forwards, and the end again
    const targets = [end, end - 1, end - 2, end - 17, end - 40, ...random, end, end - 1, 3, 0, end - 5000];
    const want = replayed(c, program, machine, targets);
    for (const how of ['own run', 'adopted', 'sliced'] as const) {
      const e = createEngine(program, machine, config(c), { model: { mechanisms: c.m } });
      if (how === 'own run') assert.equal(e.runToEnd().cycle, end);
      else assert.equal(e.adopt(structuredClone(worker)), true);
      for (const t of targets) {
        const s = how === 'sliced' ? sliced(e, t, 97) : e.seek(t);
        assert.deepEqual(s, want.get(t), `${how}: cycle ${t} as a replay from 0 shows it`);
      }
    }
  });
}

test('a step back from the end of a run that never repeats simulates a bounded number of cycles', async () => {
  const c: Case = { ...CASES[0]!, iterations: 100_000 };
  const { program, machine } = await load(c);
  const worker = structuredClone(createEngine(program, machine, config(c), { model: { mechanisms: c.m } }).wholeRun());
  assert.ok(worker.cycles > 10 * PROGRESS_CYCLES, `a long run (${worker.cycles} cycles)`);
  for (const how of ['own run', 'adopted'] as const) {
    const e = createEngine(program, machine, config(c), { model: { mechanisms: c.m } });
    if (how === 'own run') e.runToEnd();
    else e.adopt(worker);
    assert.equal(
      stepsOf(() => e.seek(worker.cycles)),
      0,
      `${how}: the end is the run's final state`,
    );
    // the explorer steps back by seeking a little further back (PaneCursor's window of 16)
    let steps = stepsOf(() => e.seek(worker.cycles - 17));
    assert.ok(steps <= PROGRESS_CYCLES, `${how}: ${steps} cycles simulated for a step back from the end`);
    // further back, each seek simulates less than the one before it needed (fine checkpoints)
    let back = worker.cycles - 17;
    const costs: number[] = [];
    for (let k = 0; k < 40; k++) {
      back -= 17;
      costs.push(stepsOf(() => e.seek(back)));
    }
    steps = Math.max(...costs.slice(5));
    assert.ok(steps <= PROGRESS_CYCLES / 8, `${how}: steps back cost ${costs.join(' ')} cycles`);
  }
});

test('the checkpoints kept stay within their bound, and every cycle has one within an interval before it', async () => {
  const c: Case = { ...CASES[0]!, iterations: 100_000 };
  const { program, machine } = await load(c);
  const core = new Core(program, machine, config(c), { mechanisms: c.m });
  const cps = new Checkpoints(core.save());
  while (!core.finished) {
    core.step();
    cps.passed(core);
    if ((core.cycle & (PROGRESS_CYCLES - 1)) === 0) cps.passedFar(core);
  }
  const n = core.cycle;
  const size = cps.size;
  assert.ok(size.coarse <= size.coarseLimit && size.coarse >= size.coarseLimit / 2, JSON.stringify(size));
  const gap = (2 * n) / size.coarseLimit;
  const r = rng(7);
  for (let k = 0; k < 200; k++) {
    const t = Math.floor(r() * n);
    const at = cps.nearest(t).cycle;
    assert.ok(at <= t && t - at <= gap, `cycle ${t}: checkpoint at ${at} (gap at most ${gap})`);
  }
  // seeks lay fine ones near their target, never more than the bound
  for (let k = 0; k < 30; k++) {
    const t = Math.floor(r() * n);
    core.restore(cps.nearest(t));
    cps.aim(core.cycle, t);
    while (core.cycle < t) {
      core.step();
      cps.passed(core);
    }
  }
  assert.ok(cps.size.fine > 0 && cps.size.fine <= cps.size.fineLimit, JSON.stringify(cps.size));
});
