// A measurement where the region's own addresses may coincide (a load and a store on the same
// address stream: a histogram's counters) is said beside the figure, instead of the arrow that
// points at the figure to compare, when it is well above the prediction; a loop without stores,
// or with its loads and stores on distinct streams (a copy), or measured near the prediction, gets
// no caveat.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadRegion } from '../../src/disasm/index.js';
import type { DecodedInstruction } from '../../src/disasm/types.js';
import { type Measurement, renderMeasure, withSharedPageCaveat } from '../../src/cli/commands/measureRun.js';
import { describeLayout, memoryLayout } from '../../src/measure/layout.js';

const CACHES = { l1: 32 << 10, l2: 1 << 20, l3: 32 << 20 };

function measured(cycles: number, instrs: readonly DecodedInstruction[]): Measurement {
  const v = { cyclesPerIteration: cycles, median: cycles, spread: 0 };
  const layout = memoryLayout(
    instrs.filter((i) => !i.branch),
    { caches: CACHES },
  );
  return {
    method: 'tsc',
    methodText: '',
    repetitions: 1,
    pagesMapped: 1,
    ticksPerCycle: null,
    unrolled: { ...v, sizes: [100, 200] },
    loop: v,
    comparable: 'loop',
    closingBranchRemoved: null,
    counterRegister: 'r15',
    lines: instrs.map((i) => i.line),
    startValues: [],
    layout: { fill: 'ordinary', text: describeLayout(layout) },
    mayCoincide: layout.mayCoincide,
    portCounters: { available: false, reason: '' },
  } as unknown as Measurement;
}

test('a histogram measured 3.5 against 1.27 predicted gets the caveat; near the prediction or without stores, none', async () => {
  const hist = await loadRegion({ file: 'test/fixtures/loops/hist.gcc-O2.o' });
  const c = withSharedPageCaveat(measured(3.5, hist.instructions), hist.instructions, 1.27);
  assert.match(
    c.caveat!,
    /^measured 3\.50 against 1\.27 predicted may be the harness's, not the loop's: a load \(line 2\) and a store \(line 2, add dword ptr \[rdi\+rax\*4\], 0x1\) both address rdi's stream/,
  );
  assert.equal(withSharedPageCaveat(measured(1.3, hist.instructions), hist.instructions, 1.27).caveat, undefined);
  const dot = await loadRegion({ file: 'test/fixtures/loops/dot.gcc-O2.o' });
  assert.equal(withSharedPageCaveat(measured(9, dot.instructions), dot.instructions, 2).caveat, undefined);
});

test('a copy loads one stream and stores another: no caveat, however slow', async () => {
  const copy = await loadRegion({ file: 'examples/corpus/bin/stream_copy.gcc.O2.sse2.o' });
  const m = measured(9, copy.instructions);
  assert.equal(m.mayCoincide, null);
  assert.equal(withSharedPageCaveat(m, copy.instructions, 1).caveat, undefined);
});

test('the figure with the caveat gets no "compare with the prediction" arrow; one without it does', async () => {
  const hist = await loadRegion({ file: 'test/fixtures/loops/hist.gcc-O2.o' });
  const render = (m: Measurement): string =>
    renderMeasure({
      measurable: true,
      source: { file: 'hist.gcc-O2.o', region: 'loop' },
      host: null,
      archNotes: [],
      prediction: {
        arch: 'RKL',
        model: 'refined',
        iterations: 200,
        blockThroughput: 1.27,
        figures: '',
        linesWithoutFigures: 0,
      },
      measurement: m,
    });
  const artefact = render(withSharedPageCaveat(measured(3.5, hist.instructions), hist.instructions, 1.27));
  const loopLine = artefact.split('\n').find((l) => /^ {2}loop /.test(l))!;
  assert.doesNotMatch(artefact, /← compare with the prediction/);
  assert.match(
    loopLine,
    /3\.50 cycles\/iteration.*← not comparable with the prediction: likely the harness, see the caveat below$/,
  );
  assert.match(artefact, /^Caveat: measured 3\.50 against 1\.27 predicted/m);
  const plain = render(withSharedPageCaveat(measured(1.3, hist.instructions), hist.instructions, 1.27));
  assert.match(plain.split('\n').find((l) => /^ {2}loop /.test(l))!, /← compare with the prediction$/);
  assert.doesNotMatch(plain, /Caveat|not comparable/);
});
