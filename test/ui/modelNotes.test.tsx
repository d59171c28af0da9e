// The report's model notes in the explorer and its export, the model menu's rows, the header's
// first line at 80 columns, what a toggle changed, and the export's own text (on the real
// pipeline: the bundled stencil and branch examples, the embedded data and LLVM's model).
import { test, before, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { render, cleanup } from 'ink-testing-library';
import { loadRegion, type LoadedRegion } from '../../src/disasm/index.js';
import { buildExplorerSession, regionAnalysis } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';
import { Explorer } from '../../src/ui/components/Explorer.js';
import { REFINED_MECHANISMS } from '../../src/sim/mechanisms.js';
import type { ExplorerSession } from '../../src/ui/types.js';
import { buildReport } from '../../src/cli/commands/reportRun.js';
import { renderText } from '../../src/report/text.js';
import { freeName } from '../../src/cli/commands/exploreRun.js';
import { KEY, plain, press, until } from './helpers/render.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ITER = 40;
let stencil: LoadedRegion;
let branch: LoadedRegion;
const session = (r: LoadedRegion, arch: string) =>
  buildExplorerSession(regionAnalysis(r), loadMachine(arch as never), { inThread: true });

before(async () => {
  stencil = await loadRegion({ file: `${ROOT}examples/bin/stencil` });
  branch = await loadRegion({ file: `${ROOT}examples/bin/branch` });
});
afterEach(() => cleanup());

function mount(s: ExplorerSession, columns = 80, rows = 24) {
  const exports: string[] = [];
  const r = render(
    <Explorer
      mechanisms={REFINED_MECHANISMS}
      session={s}
      iterations={ITER}
      archs={[{ arch: s.arch, name: s.archName }]}
      loadArch={async () => s}
      saveExport={async (t) => {
        exports.push(t);
        return '/tmp/uopscope-notes.txt';
      }}
      exportPath={() => 'notes.txt'}
      size={{ columns, rows }}
      color={false}
    />,
  );
  return { r, frame: () => plain(r.lastFrame()), exports };
}

test('a core whose front end is not modelled (SNB): the header, the model menu and the export say so; no [x] front end', async () => {
  const snb = await session(stencil, 'SNB');
  const { r, frame, exports } = mount(snb);
  await until(() => /cycle 0 of \d+/.test(frame()), 'the explorer');
  const line1 = frame().split('\n')[0]!;
  assert.match(line1, /refined \(no front end\)/, line1);
  await press(r, 's');
  await until(() => /Model: refined/.test(frame()), 'the model menu');
  const menu = frame();
  assert.doesNotMatch(menu, /\[x\] front end/);
  assert.match(menu, /\[-\] front end: not modelled on SNB/);
  // the report's note, under the rows
  assert.match(menu, /note: front end: delivery \(LSD, µop cache, legacy decoders\) not modelled/);
  await press(r, KEY.escape, 'x', KEY.enter);
  await until(() => exports.length === 1, 'the export');
  const text = exports[0]!;
  assert.doesNotMatch(text, /front-end on/);
  assert.match(text, /front-end not modelled/);
  assert.match(text, /\nnot modelled on SNB: the front end's delivery/);
  // every note the report prints for this model is in the export
  const report = renderText(
    (await buildReport({ file: `${ROOT}examples/bin/stencil` }, { arch: 'SNB', iterations: ITER, model: 'refined' }))
      .model,
  );
  const notes = report
    .split('\n  note: ')
    .slice(1)
    .map((n) =>
      n
        .split('\n')
        .filter((l) => /^ {8}\S/.test(l) || !/^\s/.test(l))[0]!
        .trim(),
    );
  assert.ok(notes.length >= 1, 'the report prints notes');
  for (const n of notes) assert.ok(text.includes(n), `the export lacks the report's note: ${n}`);
});

test('a core that models its front end (SKL): [x] front end, the notes of what it did, front-end on', async () => {
  const skl = await session(stencil, 'SKL');
  const { r, frame, exports } = mount(skl);
  await until(() => /cycle 0 of \d+/.test(frame()), 'the explorer');
  assert.doesNotMatch(frame().split('\n')[0]!, /no front end/);
  await press(r, 's');
  await until(() => /Model: refined/.test(frame()), 'the model menu');
  assert.match(frame(), /\[x\] front end/);
  assert.match(frame(), /note: front end: the loop is delivered by/);
  await press(r, KEY.escape, 'x', KEY.enter);
  await until(() => exports.length === 1, 'the export');
  assert.match(exports[0]!, /front-end on/);
  assert.match(exports[0]!, /note: front end: the loop is delivered by/);
});

test('toggling a mechanism that changes nothing on this loop says so once the run is known', async () => {
  const skl = await session(stencil, 'SKL');
  const { r, frame } = mount(skl);
  await until(() => /cycle 0 of \d+ ·/.test(frame()), 'the run length');
  // the stencil has no zero idiom: switching zero idioms off changes nothing
  await press(r, 's', KEY.down, KEY.down);
  await until(() => /❯ \[x\] zero idioms/.test(frame()), 'zero idioms highlighted');
  await press(r, KEY.enter);
  const flat = () => frame().replace(/\s+/g, ' ');
  await until(() => /no change on this loop: the whole run takes \d+ cycles either way/.test(flat()), 'no change');
  // the front end does change it
  await press(r, KEY.down, KEY.down);
  await until(() => /❯ \[x\] front end/.test(frame()), 'front end highlighted');
  await press(r, KEY.enter);
  await until(() => /c\/iter of the whole run \d+\.\d\d → \d+\.\d\d/.test(flat()), 'the change');
});

test('after b replaced the split pane, the menu does not show [x] split pane', async () => {
  const skl = await session(branch, 'SKL');
  const { r, frame } = mount(skl);
  await until(() => /cycle 0 of/.test(frame()), 'the explorer');
  await press(r, 's');
  for (let i = 0; i < 20; i++) await press(r, KEY.down);
  await until(() => /❯ \[ \] split pane/.test(frame()), 'the split row');
  await press(r, KEY.enter);
  await until(() => /❯ \[x\] split pane/.test(frame()), 'the split on');
  await press(r, KEY.escape, 'b');
  await until(() => /fall-through/.test(frame()), 'the branch sides');
  await press(r, 's');
  await until(() => /split pane/.test(frame()), 'the menu');
  assert.doesNotMatch(frame(), /\[x\] split pane/);
  assert.match(frame(), /\[ \] split pane: compare with suaca \(all off\) — on again once b is off/);
});

test('header line 1 at 80 columns with two variants: file, region, iterations, model and variant all there', async () => {
  const snb = await session(stencil, 'SNB');
  const { r, frame } = mount(snb);
  await until(() => /cycle 0 of/.test(frame()), 'the explorer');
  await press(r, 'f', 'p');
  await until(() => /perfect FE\+inf\. ports/.test(frame().split('\n')[0]!), 'both variants in the header');
  const line1 = frame().split('\n')[0]!;
  assert.ok(line1.length <= 80, line1);
  assert.match(line1, /^st\S*… · IACA\S* … · SNB · 40 iter · refined \(no front end\) · perfect FE\+inf\. ports$/);
  // each pane's rate named on line 2; before an iteration completes, no figure
  const line2 = frame().split('\n')[1]!;
  assert.match(line2, /c\/iter: baseline – │ perfect FE\+inf\. ports –/);
});

test('the export: the state word once, long instructions end with …, the measurement as shown', async () => {
  const skl = await session(stencil, 'SKL');
  const { r, frame, exports } = mount(skl);
  await until(() => /cycle 0 of/.test(frame()), 'the explorer');
  await press(r, ']', 'x', KEY.enter);
  await until(() => exports.length === 1, 'the export');
  const t = exports[0]!;
  assert.doesNotMatch(t, /executing\s+executing/);
  assert.match(t, /µops {2}executing, \d+ cycles? left/);
  // 'vaddsd xmm3, xmm2, qword ptr [r14+r15*8+0x10]' is longer than the column
  assert.match(t, /vaddsd xmm3, xmm2, qword ptr \[r14\+r… /);
  assert.doesNotMatch(t, /measurement \(M\)/, 'no measurement shown: none exported');
});

test('an existing export file is never replaced: the next free name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-free-'));
  try {
    const p = join(dir, 'x.txt');
    assert.equal(freeName(p), p);
    writeFileSync(p, 'kept');
    assert.equal(freeName(p), join(dir, 'x-2.txt'));
    writeFileSync(join(dir, 'x-2.txt'), 'kept');
    assert.equal(freeName(p), join(dir, 'x-3.txt'));
    assert.equal(readFileSync(p, 'utf8'), 'kept');
    // a directory or a device is not a file to keep: written (or refused) as named
    assert.equal(freeName(dir), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
