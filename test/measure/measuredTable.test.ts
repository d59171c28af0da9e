// The text of the measured table (tools/measure/tableText.ts, written by tools/measure/table.ts):
// the column of the refined model with the figures measured here beside the refined model without
// them, each column's error, the lines that use measured figures, and loop by loop whether the
// measured figures beat llvm-mca-19. Rows written by hand: nothing is measured here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  effect,
  mape,
  measuredSummary,
  tableSections,
  verdict,
  type Row,
  type Run,
} from '../../tools/measure/tableText.js';

const row = (over: Partial<Row>): Row => ({
  name: 'loop',
  file: 'x.o',
  measured: 1,
  spread: 0,
  canary: [3.98, 3.98],
  dropped: 0,
  uopscope: 2,
  refined: 2,
  measuredHere: 2,
  mca: 1.5,
  linesMeasured: [0, 4],
  ...over,
});

const run = (rows: Row[], over: Partial<Run> = {}): Run => ({
  rows,
  arch: 'ZEN4',
  archFlag: null,
  hostWhy: 'CPUID names ZEN4',
  hostName: 'AMD EPYC (test)',
  machine: 'AMD EPYC (test)',
  started: '2026-11-29T14:00:00.000Z',
  loadStart: [1, 1, 1],
  loadEnd: [1, 1, 1],
  command: 'taskset -c 1 node --import tsx tools/measure/table.ts',
  measuredFiles: [
    { path: 'assets/uarch/measured/ZEN4.json', on: 'AMD EPYC, microcode 0x1, 2026-11-29', forms: 3, failed: 129 },
  ],
  ...over,
});

const ENV = { mcaVersion: 'LLVM version 19.1.7', llvmCpu: 'znver4' };

test('verdict: closer, farther or level than llvm-mca-19 as the table shows the figures; none used; no measurement', () => {
  assert.equal(verdict(row({ measuredHere: 1.05, linesMeasured: [1, 4] })), 'closer');
  assert.equal(verdict(row({ measuredHere: 1.6, linesMeasured: [1, 4] })), 'farther');
  // 0.5 off either way (below and above the measurement): level
  assert.equal(verdict(row({ measuredHere: 0.5, linesMeasured: [1, 4] })), 'level');
  // 1.504 shows as 1.50, as llvm-mca's 1.50: level, not farther
  assert.equal(verdict(row({ measuredHere: 1.504, linesMeasured: [1, 4] })), 'level');
  // two figures the table shows alike are alike: 3.075 and 3.085 both show as 3.08 (as binary
  // numbers they are a little above and below), though 100 × them rounds to 307 and 309
  assert.equal(effect(row({ measured: 2, refined: 3.075, measuredHere: 3.085, linesMeasured: [1, 4] })), 'same');
  // no line uses measured figures: the column is the refined model's, nothing to say of them
  assert.equal(verdict(row({ measuredHere: 1.05, linesMeasured: [0, 4] })), 'unused');
  assert.equal(verdict(row({ measured: undefined, why: 'a fault' })), null);
  assert.equal(verdict(row({ mca: null, linesMeasured: [1, 4] })), null);
});

test('effect: what the measured figures change against the same model without them', () => {
  assert.equal(effect(row({ refined: 2, measuredHere: 1.05, linesMeasured: [1, 4] })), 'better');
  assert.equal(effect(row({ refined: 1.05, measuredHere: 2, linesMeasured: [1, 4] })), 'worse');
  // llvm-mca plays no part: both far from it, the same error as each other
  assert.equal(effect(row({ refined: 1.2, measuredHere: 0.8, mca: 9, linesMeasured: [1, 4] })), 'same');
  assert.equal(effect(row({ refined: 2, measuredHere: 1.05, linesMeasured: [0, 4] })), 'unused');
  assert.equal(effect(row({ refined: null, measuredHere: 1.05, linesMeasured: [1, 4] })), null);
});

test('mape: over the measured rows that have the column', () => {
  const rows = [row({ refined: 1.1 }), row({ refined: 0.8 }), row({ refined: null }), row({ measured: undefined })];
  assert.equal(
    mape(rows, (r) => r.refined),
    '15.0 % (2 loops)',
  );
  assert.equal(
    mape(rows, () => null),
    '–',
  );
});

test('the table: the measured column beside the refined one, its error, lines and verdict per loop', () => {
  const rows = [
    row({ name: 'a', refined: 2, measuredHere: 1.05, linesMeasured: [2, 4] }),
    row({ name: 'b', refined: 1.2, measuredHere: 1.6, linesMeasured: [1, 3] }),
    row({ name: 'c', refined: 1.4, measuredHere: 1.4, linesMeasured: [0, 5] }),
    { name: 'd', file: 'd.o', why: 'a general-protection fault | at line 3' },
    row({ name: 'm', micro: true, measuredHere: 1, linesMeasured: [1, 1] }),
  ];
  const { doc, readme } = tableSections(run(rows), ENV);
  const text = doc.join('\n');
  const header = doc.find((l) => l.startsWith('| loop |'))!;
  const cells = (l: string) => l.split(/(?<!\\)\|/).slice(1, -1);
  assert.deepEqual(
    cells(header).map((c) => c.trim()),
    [
      'loop',
      'measured',
      'spread',
      'canary before/after',
      'suaca',
      'refined',
      'refined, measured here',
      'llvm-mca-19',
      'lines measured here',
      'measured here beats llvm-mca-19',
      'measured here vs without',
    ],
  );
  const line = (name: string) => doc.find((l) => l.startsWith(`| ${name} |`))!;
  // every row of the table has the header's cells, a not measurable one too
  for (const n of ['a', 'b', 'c', 'd', 'm', 'mean absolute % error']) assert.equal(cells(line(n)).length, 11, n);
  assert.deepEqual(
    cells(line('a'))
      .slice(5)
      .map((c) => c.trim()),
    ['2.00', '1.05', '1.50', '2 of 4', 'yes', 'better'],
  );
  assert.deepEqual(
    cells(line('b'))
      .slice(5)
      .map((c) => c.trim()),
    ['1.20', '1.60', '1.50', '1 of 3', 'no', 'worse'],
  );
  assert.deepEqual(
    cells(line('c'))
      .slice(5)
      .map((c) => c.trim()),
    ['1.40', '1.40', '1.50', '0 of 5', 'none used', '–'],
  );
  // each column's error over the corpus's measured loops (the micro-loop is not in it)
  assert.deepEqual(
    cells(line('mean absolute % error'))
      .slice(4, 8)
      .map((c) => c.trim()),
    ['100.0 % (3 loops)', '53.3 % (3 loops)', '35.0 % (3 loops)', '50.0 % (3 loops)'],
  );
  assert.match(text, /\*\*uopscope --model refined 53\.3 % \(3 loops\)\*\*/);
  assert.match(text, /\*\*uopscope --model refined with the figures measured here 35\.0 % \(3 loops\)\*\*/);
  // which file, what it gives, and the loops that use it, counted
  assert.match(
    text,
    /assets\/uarch\/measured\/ZEN4\.json \(measured on AMD EPYC, microcode 0x1, 2026-11-29\): 3 form\(s\) used, 129 failed their checks/,
  );
  assert.match(
    text,
    /2 of the 3 measured loops use them \(3 of 12 lines\)\. On those loops the refined model with them is closer to the measurement than llvm-mca-19 on \*\*1\*\*, farther on \*\*1\*\*, level on 0 \(without them: closer on 1\)\. Against the same model without them \(column "measured here vs without"\), the figures measured here make the prediction better on \*\*1\*\*, worse on \*\*1\*\* and change nothing shown on 0;/,
  );
  assert.match(
    readme[0]!,
    /its refined model 53\.3 % \(3 loops\), the refined model with the figures measured here 35\.0 % \(3 loops\), llvm-mca-19 50\.0 % \(3 loops\)/,
  );
  // the README holds the same table
  assert.ok(readme.includes(header) && readme.includes(line('a')));
});

test('no form passed its checks: the table says no loop uses them and claims nothing', () => {
  const r = run([row({ name: 'a' }), row({ name: 'b' })], {
    measuredFiles: [{ path: 'assets/uarch/measured/ZEN4.json', on: 'AMD EPYC', forms: 0, failed: 132 }],
  });
  const s = measuredSummary(r);
  assert.match(s, /0 form\(s\) used, 132 failed their checks/);
  assert.match(s, /\*\*No loop uses them\*\*: none of the 8 lines of the 2 measured loops/);
  assert.match(s, /cannot say whether measured figures beat LLVM's/);
  assert.doesNotMatch(s, /closer to the measurement/);
});

test('a run saved before the column existed is written again without inventing it', () => {
  const old = run([row({ name: 'a', measuredHere: undefined, linesMeasured: undefined })], {
    measuredFiles: undefined,
  });
  const { doc } = tableSections(old, ENV);
  assert.match(doc.join('\n'), /predates the column of the figures measured here/);
  const a = doc.find((l) => l.startsWith('| a |'))!;
  assert.match(a, /\| 2\.00 \| – \| 1\.50 \| – \| – \| – \|$/);
});
