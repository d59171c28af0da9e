// The loop variant's entries (the harness enters the loop after 12 numbers of instructions and
// keeps the fastest): the output says their range under the loop's figure when it is wider than
// 2 %, and says nothing when the entry does not move the loop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Measurement, renderMeasure } from '../../src/cli/commands/measureRun.js';

function render(entries: { count: number; lowest: number; highest: number } | undefined): string {
  const v = { cyclesPerIteration: 2.02, median: 2.02, spread: 0, sizes: [191, 382] };
  const m = {
    method: 'tsc',
    methodText: '',
    repetitions: 200,
    pagesMapped: 0,
    ticksPerCycle: null,
    unrolled: { ...v, sizes: [100, 200] },
    loop: { ...v, ...(entries ? { entries } : {}) },
    comparable: 'loop',
    closingBranchRemoved: null,
    counterRegister: 'r15',
    ownLoop: null,
    lines: [0],
    startValues: [],
    layout: { fill: 'ordinary', text: [] },
    mayCoincide: null,
    portCounters: { available: false, reason: '' },
  } as unknown as Measurement;
  return renderMeasure({
    measurable: true,
    source: { file: 'daxpy.clang.o', region: 'loop' },
    host: null,
    archNotes: [],
    prediction: {
      arch: 'ZEN4',
      model: 'refined',
      iterations: 200,
      blockThroughput: 2,
      figures: '',
      linesWithoutFigures: 0,
    },
    measurement: m,
  });
}

test("entries that move the loop's figure are said under it, with the range", () => {
  const out = render({ count: 24, lowest: 2.0228, highest: 2.4988 }).split('\n');
  const at = out.findIndex((l) => /^ {2}loop /.test(l));
  assert.ok(at >= 0);
  assert.match(
    out[at + 1]!,
    /^ +entered 24 ways \(12 numbers of instructions before it, each with and without a front-end restart\): 2\.02–2\.50 cycles\/iteration; the fastest entry's figure above/,
  );
});

test('entries within 2 % of each other, or none reported, add no line', () => {
  for (const e of [{ count: 24, lowest: 2.02, highest: 2.06 }, undefined]) {
    const out = render(e);
    assert.doesNotMatch(out, /entered /);
    assert.match(out, /^ {2}loop +2\.02 cycles\/iteration/m);
  }
});
