// A what-if variant that removes a limit — a perfect front end, infinitely usable ports, no
// dependencies — is never slower than the run with that limit (docs/engine.md, "Variants that
// remove a limit"): on every bundled example, two builds of every corpus source, the loop fixtures
// and the idiv fixture, on every core with figures, under SUACA's model and the refined one, for
// each of the 8 combinations and each switch it does not have, the run with the switch on takes no
// more cycles. No tolerance: the comparison is of whole runs of the same length. The first test
// shows the greedy port choice's anomaly the rule is for, on the loops where it was reported under
// the refined model and on one where SUACA's model shows it.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseRegion, forArch } from '../../src/cli/pipeline.js';
import type { Analysis } from '../../src/cli/pipeline.js';
import { listMachines, loadMachine } from '../../src/data/index.js';
import {
  BASELINE,
  REFINED_MECHANISMS,
  SUACA_MECHANISMS,
  VARIANT_SWITCHES,
  allVariants,
  createEngine,
  runVariantOf,
  simulate,
  variantKey,
  withSwitches,
} from '../../src/sim/index.js';
import type { MechanismSet } from '../../src/sim/index.js';

const ROOT = join(import.meta.dirname, '../..');
const CORPUS = join(ROOT, 'examples/corpus/bin');
const MODELS: [string, MechanismSet][] = [
  ['suaca', SUACA_MECHANISMS],
  ['refined', REFINED_MECHANISMS],
];

async function analysis(file: string, arch: string): Promise<Analysis> {
  return forArch(await analyseRegion({ file }), loadMachine(arch as never));
}

test('the greedy port choice schedules some loops worse with a perfect front end: the run is then the limited one', async () => {
  // each of these loops with a perfect front end, as the thesis defines it (µops loaded per cycle =
  // the station's capacity), takes more cycles than with the real front end; the variant's run is
  // then the one with the front end put back. The first two are the loops where the anomaly was
  // reported, under the refined model as it was run then (port choice at issue on, an
  // instruction's µops sharing a port; today's refined model schedules them no worse with a
  // perfect front end). The third is SUACA's model on a corpus loop: gcc -O2's 3-D stencil on
  // Alder Lake, found by running the perfect-front-end variant alone against the baseline over the
  // corpus, the examples and the loop fixtures on every core (one of several such pairs under
  // SUACA's model: its greedy port choice at dispatch).
  const reported = { ...REFINED_MECHANISMS, portChoice: true, onePerPort: false };
  const cases: [string, string, string][] = [
    ['crc32_bitwise.clang.O2.sse2.o', 'ICL', 'refined'],
    ['crc32_bitwise.gcc.O2.avx2.o', 'HSW', 'refined'],
    ['stencil3d.gcc.O2.sse2.o', 'ADL-P', 'suaca'],
  ];
  for (const [file, arch, model] of cases) {
    const an = await analysis(join(CORPUS, file), arch);
    const opts = { model: { mechanisms: model === 'suaca' ? SUACA_MECHANISMS : reported } };
    const pf = withSwitches(BASELINE, { perfectFrontEnd: true });
    const chosen = runVariantOf(an.program, an.params, { iterations: 200, variant: pf }, opts);
    assert.equal(variantKey(chosen), 'baseline', `${file} ${arch} ${model}: the perfect front end's run`);
    const base = simulate(an.program, an.params, { iterations: 200, variant: BASELINE }, opts).stats.cycles;
    const withPf = simulate(an.program, an.params, { iterations: 200, variant: pf }, opts).stats.cycles;
    assert.equal(withPf, base, `${file} ${arch} ${model}`);
  }
});

test('a steppable engine of such a variant runs the chosen variant once it needs its whole run, and hands it on', async () => {
  const an = await analysis(join(CORPUS, 'stencil3d.gcc.O2.sse2.o'), 'ADL-P');
  const opts = { model: { mechanisms: SUACA_MECHANISMS } };
  const config = { iterations: 200, variant: withSwitches(BASELINE, { perfectFrontEnd: true }) };
  const base = simulate(an.program, an.params, { iterations: 200, variant: BASELINE }, opts).stats.cycles;
  // stepping alone does not run the whole run: the steps are the variant's own until it is needed
  const e = createEngine(an.program, an.params, config, opts);
  const early = e.seek(20);
  assert.equal(early.cycle, 20);
  assert.equal(e.totalCycles(), base);
  // the engine now shows the chosen run at the cycle it was at, and its end is that run's
  assert.equal(e.snapshot().cycle, 20);
  let s = e.snapshot();
  while (!s.finished) s = e.step();
  assert.equal(s.cycle, base);
  assert.equal(e.finalStats().cycles, base);
  // another engine of the same configuration takes the run over without choosing again
  const other = createEngine(an.program, an.params, config, opts);
  assert.equal(other.adopt(e.wholeRun()), true);
  assert.equal(other.totalCycles(), base);
  assert.equal(other.runToEnd().cycle, base);
});

/** the examples, gcc -O2 and clang -O2 (SSE2) of every corpus source, the loop fixtures, idiv */
function inputs(): string[] {
  return [
    ...['adc-chain', 'branch', 'six-mov', 'stencil', 'mca-markers', 'two-regions'].map((x) =>
      join(ROOT, 'examples/bin', `${x}.o`),
    ),
    ...readdirSync(CORPUS)
      .filter((f) => /\.(gcc|clang)\.O2\.sse2\.o$/.test(f))
      .map((f) => join(CORPUS, f)),
    ...readdirSync(join(ROOT, 'test/fixtures/loops'))
      .filter((f) => f.endsWith('.o'))
      .map((f) => join(ROOT, 'test/fixtures/loops', f)),
    join(ROOT, 'test/fixtures/microcode/idiv.gcc-O2.o'),
  ];
}

test('removing a limit never makes a run slower: every bundled loop, every core, both models, all combinations', async () => {
  // NHM and WSM have neither uops.info figures in the embedded data nor an LLVM model: no run
  const machines = listMachines().filter((m) => m.arch !== 'NHM' && m.arch !== 'WSM');
  assert.ok(machines.length >= 14, `cores: ${machines.map((m) => m.arch)}`);
  const problems: string[] = [];
  let compared = 0;
  for (const file of inputs()) {
    const base = await analyseRegion({ file });
    for (const machine of machines) {
      const an = await forArch(base, machine);
      for (const [name, mechanisms] of MODELS) {
        const opts = { model: { mechanisms } };
        const cycles = new Map<string, number>();
        for (const v of allVariants())
          cycles.set(
            variantKey(v),
            simulate(an.program, an.params, { iterations: 100, variant: v }, opts).stats.cycles,
          );
        for (const v of allVariants())
          for (const s of VARIANT_SWITCHES) {
            if (v[s.field]) continue;
            const before = cycles.get(variantKey(v))!;
            const after = cycles.get(variantKey(withSwitches(v, { [s.field]: true })))!;
            compared++;
            if (after > before)
              problems.push(
                `${file.slice(ROOT.length + 1)} ${machine.arch} ${name}: ${variantKey(v)} ${before} → +${s.field} ${after}`,
              );
          }
      }
    }
  }
  assert.ok(compared > 10_000, `only ${compared} comparisons`);
  assert.deepEqual(problems, []);
});
