// Zen 4 micro-loops measured on a Zen 4 host with `uopscope measure` (cycles per pass of the
// block, TSC calibrated by an add chain): the default model on ZEN4 predicts each within 10 %.
// The blocks are assembled by GNU as from the sources beside them
// (test/fixtures/zen4-micro/build.sh); the figures are the host's, not fitted to the model: where
// the model missed one (4 stores, LLVM's one store per cycle), a cited correction fixed the store's
// figures for every plain integer store (assets/uarch/corrections/zen-stores.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildReport } from '../../src/cli/commands/reportRun.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import { loadRegion } from '../../src/disasm/index.js';
import { DEFAULT_MODEL_NAME } from '../../src/sim/mechanisms.js';

const DIR = join(import.meta.dirname, '../fixtures/zen4-micro');

/** file → cycles per pass measured on the Zen 4 host, and what bounds it */
const MEASURED: [string, number, string][] = [
  ['addsd-chain', 12, '4 dependent addsd, latency 3'],
  ['mulsd-chain', 12, '4 dependent mulsd, latency 3'],
  ['fma-chain', 16, '4 dependent vfmadd231sd, latency 4'],
  ['loads6', 2, '6 independent 64-bit loads, three per cycle'],
  ['addps8', 4, '8 independent addps, two FP add pipes'],
  ['mulps8', 4, '8 independent mulps, two FP multiply pipes'],
  ['vaddps512x8', 8, '8 independent 512-bit vaddps, each a 256-bit pipe twice'],
  ['stores4', 2, '4 independent 64-bit stores, two per cycle'],
  ['imul4', 4, '4 independent imul r64, r64, one multiplier pipe'],
];

for (const [name, measured, what] of MEASURED) {
  test(`ZEN4, ${DEFAULT_MODEL_NAME} model: ${what}: within 10 % of the measured ${measured}`, async () => {
    const { model } = await buildReport(
      { file: join(DIR, `${name}.o`) },
      { arch: 'ZEN4', iterations: 200, model: DEFAULT_MODEL_NAME, fast: true },
    );
    const got = model.main.stats.blockThroughput;
    assert.ok(Math.abs(got - measured) / measured <= 0.1, `${name}: predicted ${got.toFixed(2)}, measured ${measured}`);
  });
}

test('ZEN4: a plain store is one AGU µop and one store-pipe µop by the cited correction', async () => {
  const region = await loadRegion({ file: join(DIR, 'stores4.o') });
  // the cited correction itself, not the figures measured on this machine that override it
  const data = await loadArchData('ZEN4', { measured: false });
  const res = resolveInstructions(region.instructions, data, { machine: loadMachine('ZEN4') });
  for (const r of res) {
    assert.equal(r.origin, 'cited');
    // the figures say where they came from: the LLVM record, what was corrected, and AMD's guide
    assert.match(r.provenance?.text ?? '', /corrected: µops and ports .* → 1\*p678\+1\*pFG/);
    assert.match(r.provenance?.text ?? '', /A maximum of two of the memory operations can be stores/);
  }
});

// Zen 2 has one store pipe (AnandTech: 'one 256-bit write per cycle'), where LLVM's znver2 model
// gives a store only its AGU (three per cycle): the cited correction makes four stores take 4 cycles.
// Nothing here was measured on a Zen 2: the figure is the source's rate, not a measurement.
test('ZEN2: four independent stores take 4 cycles by the cited correction (one store per cycle)', async () => {
  const file = join(DIR, 'stores4.o');
  const { model } = await buildReport(
    { file },
    { arch: 'ZEN2', iterations: 200, model: DEFAULT_MODEL_NAME, fast: true },
  );
  const got = model.main.stats.blockThroughput;
  assert.ok(Math.abs(got - 4) / 4 <= 0.1, `stores4 on ZEN2: predicted ${got.toFixed(2)}, one store per cycle gives 4`);
  const region = await loadRegion({ file });
  const res = resolveInstructions(region.instructions, await loadArchData('ZEN2'), { machine: loadMachine('ZEN2') });
  for (const r of res) {
    assert.equal(r.origin, 'cited');
    assert.match(r.provenance?.text ?? '', /corrected: µops and ports .* → 1\*p456\+1\*pB/);
    assert.match(r.provenance?.text ?? '', /one 256-bit write per cycle/);
  }
});
