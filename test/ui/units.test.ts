// The explorer's plain helpers: layout, per-line states, footer, NO_COLOR, the snapshot cache and
// the background worker, on the real pipeline where it matters.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadRegion } from '../../src/disasm/index.js';
import { buildExplorerSession } from '../../src/cli/explorerSession.js';
import { JobQueue, workerOffload } from '../../src/cli/offload.js';
import { forArch } from '../../src/cli/pipeline.js';
import { loadMachine } from '../../src/data/machines.js';
import { regionAnalysis } from '../../src/cli/explorerSession.js';
import { BASELINE } from '../../src/sim/types.js';
import type { ExplorerSession } from '../../src/ui/types.js';
import { computeLayout, scrollStart } from '../../src/ui/layout.js';
import { lineStates } from '../../src/ui/lineStates.js';
import { footerText } from '../../src/ui/components/Footer.js';
import { colorEnabled } from '../../src/ui/theme.js';
import { PaneCursor } from '../../src/ui/snapshotCache.js';
import { continueScan, snapshotKey, startScan } from '../../src/ui/compare.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const XML = `${ROOT}examples/thesis/thesis-instructions.xml`;
let session: ExplorerSession;
before(async () => {
  session = await buildExplorerSession(await loadRegion({ file: `${ROOT}examples/bin/branch` }), loadMachine('SKL'), {
    uopsXml: XML,
    inThread: true,
  });
});

test('layout: tabs at 80×24 with the program on top, every section in a large terminal, split width', () => {
  const small = computeLayout(80, 24, 1, 7, 'rs');
  assert.equal(small.mode, 'tabs');
  assert.deepEqual(
    small.sections.map((s) => s.tab),
    ['program', 'rs'],
  );
  assert.ok(small.sections.reduce((n, s) => n + s.rows, 0) <= small.bodyRows);
  assert.equal(computeLayout(80, 24, 1, 60, 'program').sections.length, 1);
  const big = computeLayout(120, 50, 1, 7, 'rs');
  assert.equal(big.mode, 'grid');
  assert.deepEqual(big.sections.map((s) => s.tab).sort(), ['ports', 'program', 'rs', 'stats']);
  assert.ok(big.sections.reduce((n, s) => n + s.rows, 0) <= big.bodyRows);
  const split = computeLayout(80, 24, 2, 7, 'rs');
  assert.equal(split.paneWidth, 39);
  assert.ok(split.paneWidth * 2 + 1 <= 80);
  assert.equal(computeLayout(400, 60, 1, 7, 'rs').twoColumns, true);
  assert.equal(scrollStart(0, 100, 10), 0);
  assert.equal(scrollStart(50, 100, 10), 45);
  assert.equal(scrollStart(99, 100, 10), 90);
});

test('layout: the grid only when every section has its rows, and every row of the body is used', () => {
  let grids = 0;
  let tabs = 0;
  for (let columns = 60; columns <= 330; columns += 9)
    for (let rows = 12; rows <= 70; rows++)
      for (const panes of [1, 2])
        for (const lines of [1, 7, 30])
          for (const tab of ['program', 'rs', 'ports', 'stats'] as const) {
            const l = computeLayout(columns, rows, panes, lines, tab);
            const at = `${columns}x${rows}, ${panes} panes, ${lines} lines, ${tab}`;
            // header, message, footer and the row Ink needs; two panes add the comparison line
            // and their titles; tabs add the tab bar
            assert.equal(l.rows - l.bodyRows, (panes > 1 ? 7 : 5) + (l.mode === 'tabs' ? 1 : 0), at);
            const rowsOf = (t: string) => l.sections.find((s) => s.tab === t)?.rows ?? 0;
            if (l.mode === 'tabs') {
              tabs++;
              assert.equal(l.twoColumns, false, at);
              assert.equal(
                l.sections.reduce((n, s) => n + s.rows, 0),
                l.bodyRows,
                at,
              );
              continue;
            }
            grids++;
            assert.ok(rowsOf('rs') >= 6, `${at}: the reservation station has ${rowsOf('rs')} rows`);
            assert.equal(rowsOf('program'), Math.min(lines + 2, 18), at);
            if (l.twoColumns) {
              assert.ok(l.paneWidth >= 150, at);
              const split = l.leftSections ?? 2;
              const sum = (ss: typeof l.sections) => ss.reduce((n, s) => n + s.rows, 0);
              assert.equal(sum(l.sections.slice(0, split)), l.bodyRows, at);
              assert.equal(sum(l.sections.slice(split)), l.bodyRows, at);
              // the ports under the statistics whenever the left column has their rows: the
              // station alone on the right, no column with rows to spare beside a full one
              const under = rowsOf('program') + Math.min(lines + 3, 16);
              if (under + 8 <= l.bodyRows) {
                assert.equal(split, 3, at);
                assert.equal(rowsOf('rs'), l.bodyRows, at);
                assert.equal(rowsOf('stats'), Math.min(lines + 3, 16), at);
              }
            } else
              assert.equal(
                l.sections.reduce((n, s) => n + s.rows, 0),
                l.bodyRows,
                at,
              );
          }
  assert.ok(grids > 0 && tabs > 0);
});

test('footer: fits the width, keeps step, variants, branches, arch, export, help, quit at 80 columns', () => {
  for (const w of [80, 100, 160]) {
    const t = footerText(w, w < 100);
    assert.ok(t.length <= w, `${w}: ${t}`);
    for (const k of ['step', 'variants', 'branches', 'arch', 'export', 'help', 'quit'])
      assert.ok(t.includes(k), `${w}: ${k}`);
  }
  assert.ok(footerText(160, false).includes('go to'));
});

test('NO_COLOR: any non-empty value turns colour off', () => {
  assert.equal(colorEnabled({}), true);
  assert.equal(colorEnabled({ NO_COLOR: '1' }), false);
  assert.equal(colorEnabled({ NO_COLOR: '' }), true);
});

test("per-line states add up to the iterations, and match the engine's reservation station", () => {
  const e = session.makeEngine(BASELINE, 20);
  const lines = session.lines.map((l) => l.line);
  for (const c of [0, 1, 3, 7, 15, 30]) {
    const s = e.seek(c);
    const st = lineStates(s, lines);
    for (const x of st)
      assert.equal(x.notLoaded + x.waiting + x.ready + x.executing + x.done, 20, `cycle ${c} line ${x.line}`);
    const inRs = st.reduce((n, x) => n + x.waiting + x.ready + x.executing, 0);
    assert.equal(inRs, s.rs.filter((r) => r.state.kind !== 'done').length, `cycle ${c}`);
  }
  const end = e.runToEnd();
  // the last cycle: every instance done, or executing in it (its last cycle)
  assert.ok(lineStates(end, lines).every((x) => x.done + x.executing === 20 && x.notLoaded === 0));
  assert.equal(end.completed, end.total);
});

test('the snapshot cache returns what the engine returns, in any order of cycles', () => {
  const cursor = new PaneCursor(session.makeEngine(BASELINE, 50), 64, 8);
  const ref = session.makeEngine(BASELINE, 50);
  const order = [5, 4, 3, 40, 39, 12, 13, 0, 90, 60, 59, 58, 101, 100, 7, 7, 200];
  for (const c of order) assert.equal(snapshotKey(cursor.at(c)), snapshotKey(ref.seek(c)), `cycle ${c}`);
  assert.equal(JSON.stringify(cursor.at(58).stats), JSON.stringify(ref.seek(58).stats));
});

test('the worker computes the same run length and divergence as the UI thread; cancelled jobs reject', async () => {
  const ra = regionAnalysis(await loadRegion({ file: `${ROOT}examples/bin/branch` }));
  const a = await forArch(ra, loadMachine('SKL'), { uopsXml: XML });
  const queue = new JobQueue();
  const off = workerOffload(() => a.program, a.params, queue);
  try {
    const pf = { ...BASELINE, perfectFrontEnd: true };
    const total = await off.wholeRun({ variant: BASELINE, branch: null }, 30).promise;
    const here = session.makeEngine(BASELINE, 30);
    assert.equal(total.cycles, here.totalCycles());
    assert.equal(total.blockThroughput, here.runToEnd().stats.blockThroughput);
    const scan = startScan(
      session.makeEngine(BASELINE, 30),
      session.makeEngine({ ...BASELINE, noDependencies: true }, 30),
    );
    let local = scan.result;
    while (local.kind === 'searching') local = continueScan(scan, 100);
    assert.deepEqual(
      await off.divergence(
        { variant: BASELINE, branch: null },
        { variant: { ...BASELINE, noDependencies: true }, branch: null },
        30,
      ).promise,
      local,
    );
    const slow = off.wholeRun({ variant: pf, branch: null }, 200_000);
    const queued = off.wholeRun({ variant: BASELINE, branch: null }, 200_000);
    queued.cancel();
    slow.cancel();
    await assert.rejects(slow.promise, /cancelled/);
    await assert.rejects(queued.promise, /cancelled/);
    // the queue goes on after a cancel
    assert.deepEqual(await off.wholeRun({ variant: BASELINE, branch: null }, 30).promise, total);
  } finally {
    queue.stop();
  }
});
