// Frame tests on the real pipeline: the thesis's branch example (examples/bin/branch) through
// disasm → data (the thesis fixture in uops.info's schema) → the engine. What the screen says is
// checked against engines the test runs itself.
import { frontEndLine } from '../../src/ui/components/PortsPane.js';
import { SUACA_MECHANISMS } from '../../src/sim/mechanisms.js';
import { test, before, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import { fileURLToPath } from 'node:url';
import { loadRegion, type LoadedRegion } from '../../src/disasm/index.js';
import { regionAnalysis, sessionLoader } from '../../src/cli/explorerSession.js';
import { Explorer } from '../../src/ui/components/Explorer.js';
import { BASELINE, type Snapshot } from '../../src/sim/types.js';
import type { ExplorerSession } from '../../src/ui/types.js';
import { KEY, plain, press, until } from './helpers/render.js';
import { buildReport } from '../../src/cli/commands/reportRun.js';
import { renderText } from '../../src/report/text.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const XML = `${ROOT}examples/thesis/thesis-instructions.xml`;
const ITER = 20;
let loaded: LoadedRegion;
let skl: ExplorerSession;
const sessionFor = (arch: string) => sessionLoader(regionAnalysis(loaded), { uopsXml: XML, inThread: true })(arch);

before(async () => {
  loaded = await loadRegion({ file: `${ROOT}examples/bin/branch` });
  skl = await sessionFor('SKL');
});
afterEach(() => cleanup());

function mount() {
  const exports: string[] = [];
  const r = render(
    <Explorer
      mechanisms={SUACA_MECHANISMS}
      session={skl}
      iterations={ITER}
      archs={[
        { arch: 'SKL', name: 'Skylake' },
        { arch: 'CFL', name: 'Coffee Lake' },
      ]}
      loadArch={sessionFor}
      saveExport={async (t) => {
        exports.push(t);
        return '/tmp/uopscope-real.txt';
      }}
      exportPath={() => 'session.txt'}
      size={{ columns: 80, rows: 24 }}
      color={false}
    />,
  );
  return { r, frame: () => plain(r.lastFrame()), exports };
}

/** What the screen shows of a cycle, compared field by field (not through the UI's own key). */
const visible = (s: Snapshot) =>
  JSON.stringify({ rs: s.rs, ports: s.ports.map((p) => p.uops), d: s.divider, fe: s.frontEnd, done: s.completed });

test('variant f: the divergence cycle is the first cycle at which the two runs differ', async () => {
  const a = skl.makeEngine(BASELINE, ITER);
  const b = skl.makeEngine({ ...BASELINE, perfectFrontEnd: true }, ITER);
  let expected = -1;
  for (let c = 0; c < 1000; c++) {
    if (visible(a.seek(c)) !== visible(b.seek(c))) {
      expected = c;
      break;
    }
  }
  assert.ok(expected >= 0, 'the perfect front end changes the run of the branch example');
  const { r, frame } = mount();
  await press(r, 'f');
  await until(() => /diverge at cycle \d+/.test(frame()), 'the divergence');
  assert.match(frame(), new RegExp(`diverge at cycle ${expected} `));
  await press(r, 'l', 'l', 'l', 'l', 'l');
  const ta = a.seek(5).stats.blockThroughput.toFixed(2);
  const tb = b.seek(5).stats.blockThroughput.toFixed(2);
  await until(() => /perfect FE \d+\.\d\d\/\d/.test(frame()), 'both run lengths');
  const runA = (a.totalCycles() / ITER).toFixed(2);
  const runB = (b.totalCycles() / ITER).toFixed(2);
  assert.match(frame(), new RegExp(`baseline ${ta}/${runA} │ perfect FE ${tb}/${runB}`));
  assert.match(frame(), new RegExp(`[Ss]tation ${a.seek(5).rsUsed}/97 µops.*[Ss]tation ${b.seek(5).rsUsed}/97 µops`));
});

test('b: the two sides of the first conditional jump, in lockstep with their own engines', async () => {
  const { r, frame } = mount();
  await press(r, 'b');
  for (let i = 0; i < 7; i++) await press(r, 'l');
  const f = frame();
  assert.match(f, /branches: jump at line 2/);
  assert.match(f, / fall-through\s+taken/);
  // the thesis's paths: fall-through 0 1 2 3 4 6, taken 0 1 2 5 6
  assert.match(f, /4 M jmp 0x[0-9a-f]+\s+W\d+ R\d+ E\d+ D\d+\s+4 M jmp 0x[0-9a-f]+\s+not on this path/);
  assert.match(f, /5 M add rbx, rax\s+not on this path\s+5 M add rbx, rax\s+W\d+/);
  const [left, right] = skl.branches!.paths;
  const l7 = left.makeEngine(BASELINE, ITER).seek(7);
  const r7 = right.makeEngine(BASELINE, ITER).seek(7);
  assert.match(f, new RegExp(`[Ss]tation ${l7.rsUsed}/97 µops.*[Ss]tation ${r7.rsUsed}/97 µops`));
  assert.match(f, /cycle 7 of/);
});

test("a: switching to CFL keeps the cycle and shows CFL's run there", async () => {
  const { r, frame } = mount();
  await press(r, ']', 'l', 'l');
  await press(r, 'a');
  await until(() => /❯ SKL/.test(frame()), 'the picker');
  await press(r, KEY.down);
  await until(() => /❯ CFL/.test(frame()), 'CFL highlighted');
  await press(r, KEY.enter);
  await until(() => /still at cycle 12/.test(frame()), 'the switch');
  const cfl = await sessionFor('CFL');
  const s = cfl.makeEngine(BASELINE, ITER).seek(12);
  const f = frame();
  assert.match(f, /· CFL \(Coffee Lake\) · 20 iter/);
  assert.match(f, /cycle 12 of/);
  // the rate over the iterations complete: every line's instance of them done (the lines' done
  // counts differ here: their average would run ahead); the statistics count the same
  const done = s.lineCounts.map((l) => l.done);
  const complete = Math.min(...done);
  assert.ok(complete < done.reduce((a, b) => a + b, 0) / done.length, 'the lines are at different iterations');
  assert.equal(s.stats.iterationsCompleted, complete);
  assert.match(f, new RegExp(`${(12 / complete).toFixed(2)} c/iter over ${complete} complete iter\\.`));
  assert.match(f, new RegExp(`Reservation station ${s.rsUsed}/${s.rsCapacity} µops`));
});

test("x: the export holds the inputs, both panes' snapshots and tables, and the selected line's detail", async () => {
  const { r, frame, exports } = mount();
  await press(r, 'd', ']', 'j', 'j', 'j');
  await until(() => /diverge at|identical for all/.test(frame()), 'the comparison');
  await press(r, 'x', KEY.enter);
  await until(() => /exported to \/tmp\/uopscope-real\.txt/.test(frame()), 'the export');
  const t = exports[0]!;
  const base = skl.makeEngine(BASELINE, ITER).seek(10);
  const nd = skl.makeEngine({ ...BASELINE, noDependencies: true }, ITER).seek(10);
  // each pane's front-end line is the screen's, whole
  for (const snap of [base, nd]) assert.ok(t.includes(`\n${frontEndLine(snap, Number.POSITIVE_INFINITY)}\n`), t);
  assert.doesNotMatch(t, /µops loaded this cycle/);
  for (const s of [
    `file: ${ROOT}examples/bin/branch`,
    'region: IACA region 1 (7 instructions)',
    'architecture: SKL (Skylake (client))',
    `iterations: ${ITER}`,
    'variants: no dependencies',
    'current cycle: 10',
    'selected line: 3 add rbx, rax',
    '== Pane: baseline',
    '== Pane: no dependencies',
    `cycle 10: ${base.completed} of ${base.total} instances done`,
    `cycle 10: ${nd.completed} of ${nd.total} instances done`,
    `reservation station: ${base.rsUsed}/97 µops`,
    '== Detail of the selected line (baseline)',
    'Detailed delay information for instruction: add rbx, rax in line 3',
  ]) {
    assert.ok(t.includes(s), `export lacks "${s}"`);
  }
  const e = skl.makeEngine(BASELINE, ITER);
  e.seek(10);
  const detail = e.detail(3);
  assert.ok(t.includes(`Maximum latency: ${detail.maxLatency}`));
  // the detail as of the current cycle: each dependency's delays, as the report renders them
  for (const x of detail.dependencyDelays)
    assert.match(
      t,
      new RegExp(
        `\\b${x.line} \\|\\|\\s+${x.otherDelayedByThis.toFixed(1)} \\|\\|\\s+${x.thisDelayedByOther.toFixed(1)}`,
      ),
    );
});

test("x at the last cycle: the export's per-line table is `uopscope report`'s, line for line", async () => {
  const { r, frame, exports } = mount();
  await press(r, 'p', 'G');
  await until(() => /finished/.test(frame()), 'the end of the run');
  await press(r, 'x', KEY.enter);
  await until(() => exports.length === 1, 'the export');
  const tables = exportTables(exports[0]!);
  assert.equal(tables.length, 2, 'one table per pane (baseline, infinitely usable ports)');
  const report = async (ip: boolean) =>
    renderText(
      (
        await buildReport(
          { file: `${ROOT}examples/bin/branch` },
          { arch: 'SKL', iterations: ITER, uopsXml: XML, model: 'suaca', ...(ip ? { ip: true } : {}) },
        )
      ).model,
    );
  for (const [i, text] of [await report(false), await report(true)].entries()) {
    const t = tables[i]!;
    assert.ok(t.length >= 9, 'header rows, 7 lines and the µop total');
    assert.ok(
      text.includes(`\n${t.join('\n')}\n`),
      `pane ${i}'s table is not the report's:\n${t.join('\n')}\n--- report:\n${text}`,
    );
  }
});

/** Each pane's per-line table in an export, through its "Total number of Uops" line. */
function exportTables(text: string): string[][] {
  const out: string[][] = [];
  const lines = text.split('\n');
  lines.forEach((l, i) => {
    if (!l.startsWith('-- Per-line statistics')) return;
    const end = lines.findIndex((x, j) => j > i && x.startsWith('Total number of Uops:'));
    out.push(lines.slice(i + 1, end + 1));
  });
  return out;
}

test('nothing simulated (no line has figures: AVX-512 instructions on Haswell): no throughput in the header, the comparison or the export', async () => {
  const adl = await sessionLoader(regionAnalysis(await loadRegion({ hex: '62f1744858c2 62f1744859c2' })), {
    inThread: true,
  })('HSW');
  const exports: string[] = [];
  const r = render(
    <Explorer
      mechanisms={SUACA_MECHANISMS}
      session={adl}
      iterations={ITER}
      archs={[{ arch: 'HSW', name: 'Haswell' }]}
      loadArch={async () => adl}
      saveExport={async (t) => {
        exports.push(t);
        return '/tmp/uopscope-adl.txt';
      }}
      exportPath={() => 'adl.txt'}
      size={{ columns: 120, rows: 40 }}
      color={false}
    />,
  );
  const frame = () => plain(r.lastFrame());
  await press(r, ']', ']');
  assert.match(frame(), /no throughput: no line has data, nothing simulated/);
  assert.doesNotMatch(frame(), /\d c\/iter/);
  await press(r, 'G');
  await until(() => /finished/.test(frame()), 'the end');
  await press(r, 'f');
  await until(() => /perfect FE –\/–/.test(frame()), 'the comparison line');
  assert.match(frame(), /baseline –\/–/);
  await press(r, 'x', KEY.enter);
  await until(() => exports.length === 1, 'the export');
  assert.match(exports[0]!, /no throughput: no line of this pane has data, nothing was simulated/);
  assert.doesNotMatch(exports[0]!, /cycles\/iteration/);
});

test('b on a loop whose only conditional jump is its back edge says there is no branch inside to compare', async () => {
  const mca = await sessionLoader(regionAnalysis(await loadRegion({ file: `${ROOT}examples/bin/mca-markers` })), {
    inThread: true,
  })('SKL');
  const r = render(
    <Explorer
      mechanisms={SUACA_MECHANISMS}
      session={mca}
      iterations={ITER}
      archs={[{ arch: 'SKL', name: 'Skylake' }]}
      loadArch={async () => mca}
      saveExport={async () => 'x'}
      size={{ columns: 120, rows: 40 }}
      color={false}
    />,
  );
  await press(r, 'b');
  const f = plain(r.lastFrame());
  assert.match(f, /no branch inside the loop to compare: the only conditional jump \(line 3\) is the loop's own/);
  assert.doesNotMatch(f, /fall-through/);
});

test('the detail is of the displayed cycle, also after stepping back to cycles the cache holds (the engine stands elsewhere)', async () => {
  const it = 200;
  const at = (c: number, line: number) => {
    const e = skl.makeEngine(BASELINE, it);
    e.seek(c);
    return e.detail(line);
  };
  const differs = (a: number, b: number) => a.toFixed(2) !== b.toFixed(2);
  // a line and dependency whose delays differ between cycles 29 and 39 (else this test could not fail)
  let pick: { line: number; dep: number } | null = null;
  for (const { line } of skl.lines) {
    const now = at(29, line);
    const later = at(39, line);
    const d = now.dependencyDelays.find((x) =>
      later.dependencyDelays.some(
        (y) =>
          y.line === x.line &&
          (differs(y.otherDelayedByThis, x.otherDelayedByThis) || differs(y.thisDelayedByOther, x.thisDelayedByOther)),
      ),
    );
    if (d) {
      pick = { line, dep: d.line };
      break;
    }
  }
  assert.ok(pick, "some line's delays differ between cycles 29 and 39");
  const r = render(
    <Explorer
      mechanisms={SUACA_MECHANISMS}
      session={skl}
      iterations={it}
      archs={[{ arch: 'SKL', name: 'Skylake' }]}
      loadArch={sessionFor}
      saveExport={async () => 'x'}
      size={{ columns: 120, rows: 40 }}
      color={false}
    />,
  );
  const frame = () => plain(r.lastFrame());
  for (let i = 0; i < 39; i++) await press(r, 'l');
  assert.match(frame(), /cycle 39 of/);
  await press(r, '[');
  assert.match(frame(), /cycle 29 of/);
  for (let i = 0; i < skl.lines.findIndex((l) => l.line === pick!.line); i++) await press(r, 'j');
  await press(r, KEY.enter);
  const row = (c: number) => {
    const x = at(c, pick!.line).dependencyDelays.find((y) => y.line === pick!.dep)!;
    return new RegExp(
      `\\n\\s+${pick!.dep}\\s+\\S+\\s+\\S+\\s+${x.otherDelayedByThis.toFixed(2)}\\s+${x.thisDelayedByOther.toFixed(2)}\\s*\\n`,
    );
  };
  assert.match(frame(), new RegExp(`Detail of line ${pick.line}`));
  assert.match(frame(), row(29));
  assert.doesNotMatch(frame(), row(39));
});

test('numbers are never cut: 205,000 iterations at cycle 200,000 on 80 columns; the split statistics at 120 keep the ports in use and say which are hidden', async () => {
  const it = 205_000;
  const r = render(
    <Explorer
      mechanisms={SUACA_MECHANISMS}
      session={skl}
      iterations={it}
      archs={[{ arch: 'SKL', name: 'Skylake' }]}
      loadArch={sessionFor}
      saveExport={async () => 'x'}
      size={{ columns: 80, rows: 24 }}
      color={false}
    />,
  );
  const frame = () => plain(r.lastFrame());
  await press(r, 'g');
  r.stdin.write('200000\r');
  await until(() => /cycle 200000 of/.test(frame()), 'cycle 200,000', 20_000);
  // split: two panes of 39 columns
  await press(r, 'f');
  await until(() => /baseline\s+perfect front-end/.test(frame()), 'the split', 20_000);
  for (const tab of ['1', '2', '3', '4']) {
    await press(r, tab);
    const f = frame();
    // (an instruction's text may be cut: `jne 0x4…`; a figure may not)
    assert.doesNotMatch(f, /(?<!0x[0-9a-f]*)\d…|…\d/, `tab ${tab}: a number is cut:\n${f}`);
    for (const l of f.split('\n')) assert.ok(l.length <= 80, l);
  }
  assert.match(frame(), /Statistics|Stats/);
  r.unmount();

  const wide = render(
    <Explorer
      mechanisms={SUACA_MECHANISMS}
      session={skl}
      iterations={ITER}
      archs={[{ arch: 'SKL', name: 'Skylake' }]}
      loadArch={sessionFor}
      saveExport={async () => 'x'}
      size={{ columns: 120, rows: 40 }}
      color={false}
    />,
  );
  await press(wide, 'f', ']', '4');
  await until(() => /perfect front-end/.test(plain(wide.lastFrame())), 'the split');
  const e = skl.makeEngine(BASELINE, ITER);
  const totals = e.seek(10).stats.portTotals;
  const used = Object.keys(totals)
    .filter((p) => totals[p]! > 0)
    .map((p) => `p${p}`);
  assert.ok(used.includes('p6'), 'the branch example uses p6 on SKL');
  const f = plain(wide.lastFrame());
  const header = f.split('\n').find((l) => /ln instruc/.test(l)) ?? assert.fail(f);
  for (const p of used) assert.match(header, new RegExp(`${p}\\b.*${p}\\b`), `both panes show ${p}: ${header}`);
  assert.match(f, /\d unused ports hidden/);
});
