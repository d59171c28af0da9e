// A measurement the harness may have made (every load and store on one page: a histogram's
// counters become a store-forwarding chain) is said beside the figure, instead of the arrow that
// points at the figure to compare, when it is well above the prediction; a loop without stores,
// or one measured near the prediction, gets no caveat.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadRegion } from '../../src/disasm/index.js';
import { type Measurement, renderMeasure, withSharedPageCaveat } from '../../src/cli/commands/measureRun.js';

function measured(cycles: number, lines: number[]): Measurement {
  const v = { cyclesPerIteration: cycles, median: cycles, spread: 0 };
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
    lines,
    startValues: [],
    portCounters: { available: false, reason: '' },
  } as unknown as Measurement;
}

test('a histogram measured 3.5 against 1.27 predicted gets the caveat; near the prediction or without stores, none', async () => {
  const hist = await loadRegion({ file: 'test/fixtures/loops/hist.gcc-O2.o' });
  const lines = hist.instructions.map((i) => i.line);
  const c = withSharedPageCaveat(measured(3.5, lines), hist.instructions, 1.27);
  assert.match(
    c.caveat!,
    /^measured 3\.50 against 1\.27 predicted may be the harness's, not the loop's: .*one page.*store \(line \d+, add dword ptr \[rdi\+rax\*4\], 0x1\)/,
  );
  assert.equal(withSharedPageCaveat(measured(1.3, lines), hist.instructions, 1.27).caveat, undefined);
  const dot = await loadRegion({ file: 'test/fixtures/loops/dot.gcc-O2.o' });
  assert.equal(
    withSharedPageCaveat(
      measured(
        9,
        dot.instructions.map((i) => i.line),
      ),
      dot.instructions,
      2,
    ).caveat,
    undefined,
  );
});

test('the figure with the caveat gets no "compare with the prediction" arrow; one without it does', async () => {
  const hist = await loadRegion({ file: 'test/fixtures/loops/hist.gcc-O2.o' });
  const lines = hist.instructions.map((i) => i.line);
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
  const artefact = render(withSharedPageCaveat(measured(3.5, lines), hist.instructions, 1.27));
  const loopLine = artefact.split('\n').find((l) => /^ {2}loop /.test(l))!;
  assert.doesNotMatch(artefact, /← compare with the prediction/);
  assert.match(
    loopLine,
    /3\.50 cycles\/iteration.*← not comparable with the prediction: likely the harness, see the caveat below$/,
  );
  assert.match(artefact, /^Caveat: measured 3\.50 against 1\.27 predicted/m);
  const plain = render(withSharedPageCaveat(measured(1.3, lines), hist.instructions, 1.27));
  assert.match(plain.split('\n').find((l) => /^ {2}loop /.test(l))!, /← compare with the prediction$/);
  assert.doesNotMatch(plain, /Caveat|not comparable/);
});
