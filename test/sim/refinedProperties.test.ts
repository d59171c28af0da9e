// Properties of the refined model's mechanisms on generated programs with random facts of both
// halves (the front end's: lengths, fused µops, macro-fusion, JCC erratum — withRefinedFacts; the
// execution side's: idioms, move candidates, memory accesses — refinedProgram), under random
// subsets of the mechanisms and every what-if variant: the lazy accounting of dependency waits
// gives the eager figures, seeking equals stepping, every figure is finite and non-negative, and
// the block throughput never beats the fused-domain issue bound (µops issued per iteration ÷ the
// issue width) — what random.test.ts checks for SUACA's model.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASELINE, MECHANISMS, createEngine, simulate } from '../../src/sim/index.js';
import type { MechanismSet, SimProgram, Snapshot, Variant } from '../../src/sim/index.js';
import { CompiledProgram } from '../../src/sim/compiled.js';
import { SKL, rng, variants, withRefinedFacts } from './generated.js';
import { refinedProgram } from './generatedRefined.js';
import { EAGER } from './oracles.js';

/** both generators' facts on one program */
function bothFacts(seed: number): SimProgram {
  const exec = refinedProgram(seed);
  const fe = withRefinedFacts(exec, seed);
  return {
    deps: exec.deps,
    instructions: fe.instructions.map((x, i) => ({
      ...x,
      refined: {
        ...exec.instructions[i]!.refined!,
        ...x.refined!,
        idiom: exec.instructions[i]!.refined!.idiom,
        moveElimination: exec.instructions[i]!.refined!.moveElimination,
        memory: exec.instructions[i]!.refined!.memory,
      },
    })),
  };
}

/** all on, then random subsets */
function mechanismSets(seed: number): MechanismSet[] {
  const r = rng(seed * 31 + 5);
  const all = Object.fromEntries(MECHANISMS.map((m) => [m, true])) as MechanismSet;
  const subset = Object.fromEntries(MECHANISMS.map((m) => [m, r() < 0.5])) as MechanismSet;
  return [all, subset];
}

const isBase = (v: Variant): boolean =>
  !v.perfectFrontEnd &&
  !v.infinitePorts &&
  !v.noDependencies &&
  v.issueWidth === undefined &&
  v.portCapacity === undefined;

function finite(s: Snapshot['stats'], what: string): void {
  const nums = [s.cycles, s.blockThroughput, s.uopsPerCycle, s.totalUops, ...Object.values(s.portTotals)];
  for (const l of s.lines) for (const v of Object.values(l)) if (typeof v === 'number') nums.push(v);
  for (const v of nums) assert.ok(Number.isFinite(v) && v >= 0, `${what}: ${v}`);
}

test('refined model: lazy dependency waits give the eager figures; figures finite; issue bound holds', () => {
  let changed = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const p = bothFacts(seed);
    const suaca = simulate(p, SKL, { iterations: 37, variant: BASELINE });
    for (const mechanisms of mechanismSets(seed)) {
      for (const variant of variants) {
        const what = `seed ${seed} ${JSON.stringify(mechanisms)} ${JSON.stringify(variant)}`;
        const lazy = simulate(p, SKL, { iterations: 37, variant }, { model: { mechanisms } });
        const eager = simulate(p, SKL, { iterations: 37, variant }, { model: { mechanisms, ...EAGER } });
        assert.deepEqual(lazy, eager, what);
        finite(lazy.stats, what);
        if (isBase(variant) && lazy.stats.cycles !== suaca.stats.cycles) changed++;
        if (!variant.perfectFrontEnd && variant.issueWidth === undefined) {
          const cp = new CompiledProgram(p, SKL, mechanisms);
          const issued = cp.refinedIssue ? Array.from(cp.fused).reduce((a, b) => a + b, 0) : cp.totalUops;
          assert.ok(
            lazy.stats.blockThroughput + 1e-9 >= issued / SKL.issueWidth,
            `${what}: ${lazy.stats.blockThroughput} < ${issued}/${SKL.issueWidth}`,
          );
        }
      }
    }
  }
  // the facts reach the mechanisms: most programs' baseline changes with them
  assert.ok(changed >= 30, `only ${changed} of 60 refined baseline runs differ from SUACA's`);
});

test('refined model: seeking equals stepping on generated programs', () => {
  for (let seed = 200; seed < 210; seed++) {
    const p = bothFacts(seed);
    const mechanisms = mechanismSets(seed)[seed % 2]!;
    const variant = variants[seed % variants.length]!;
    const a = createEngine(p, SKL, { iterations: 25, variant }, { model: { mechanisms } });
    const seen: Snapshot[] = [a.snapshot()];
    let s = a.snapshot();
    while (!s.finished) {
      s = a.step();
      assert.ok(s.rsUsed >= 0 && s.rsUsed <= s.rsCapacity, `seed ${seed}: rs ${s.rsUsed}/${s.rsCapacity}`);
      seen.push(s);
    }
    assert.deepEqual(
      s.stats,
      simulate(p, SKL, { iterations: 25, variant }, { model: { mechanisms } }).stats,
      `seed ${seed}`,
    );
    const r = rng(seed);
    for (let q = 0; q < 6; q++) {
      const c = Math.floor(r() * seen.length);
      assert.deepEqual(a.seek(c), seen[c], `seed ${seed} seek ${c}`);
    }
  }
});
