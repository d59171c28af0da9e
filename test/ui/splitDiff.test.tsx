// Split views mark the figures that differ between their two sides at the displayed cycle (▸ in
// the space before the figure, which is drawn bold): a differing cell (or station entry, divider
// line, ready list) is marked, an equal one is not, and the marking moves and cuts nothing (at 80×24 the marked frame is the unmarked one with
// ▸ in some of its spaces). On scripted snapshots (exact cells) and on the real pipeline (the
// bundled stencil, baseline beside the perfect front end; the branch example's two sides).
import { test, before, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { render, cleanup } from 'ink-testing-library';
import { loadRegion, type LoadedRegion } from '../../src/disasm/index.js';
import { buildExplorerSession, regionAnalysis } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';
import { Explorer } from '../../src/ui/components/Explorer.js';
import { PaneColumn } from '../../src/ui/components/PaneColumn.js';
import { ProgramPane } from '../../src/ui/components/ProgramPane.js';
import { PortsPane } from '../../src/ui/components/PortsPane.js';
import { RsPane } from '../../src/ui/components/RsPane.js';
import { StatsPane } from '../../src/ui/components/StatsPane.js';
import { computeLayout } from '../../src/ui/layout.js';
import { lineStates } from '../../src/ui/lineStates.js';
import { DIFF_MARK, splitDiff } from '../../src/ui/splitDiff.js';
import { REFINED_MECHANISMS } from '../../src/sim/mechanisms.js';
import { BASELINE, type Snapshot } from '../../src/sim/types.js';
import type { ExplorerSession } from '../../src/ui/types.js';
import { TABS } from '../../src/ui/types.js';
import { scriptedSession } from './helpers/scriptedEngine.js';
import { KEY, plain, press, until } from './helpers/render.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ITER = 40;
let stencil: LoadedRegion;
let branch: LoadedRegion;
const sessionOf = (r: LoadedRegion) =>
  buildExplorerSession(regionAnalysis(r), loadMachine('SKL'), { inThread: true }) as Promise<ExplorerSession>;

before(async () => {
  stencil = await loadRegion({ file: `${ROOT}examples/bin/stencil` });
  branch = await loadRegion({ file: `${ROOT}examples/bin/branch` });
});
afterEach(() => cleanup());

/** A scripted snapshot (test/ui/helpers/scriptedEngine.ts) at `cycle`, deep-copied to edit. */
function scripted(cycle: number): Snapshot {
  const e = scriptedSession().makeEngine(BASELINE, 10);
  return structuredClone(e.seek(cycle));
}

const rowOf = (frame: string, re: RegExp) => frame.split('\n').find((l) => re.test(l)) ?? '';

test('two equal snapshots: nothing is marked', () => {
  const d = splitDiff(scripted(7), scripted(7));
  assert.equal(d.program.size + d.ports.size + d.rs.size + d.stats.size + d.totals.size, 0);
  assert.equal(d.divider || d.ready, false);
});

test('Reservation: an entry whose state differs is marked on its instance, equal entries are not', () => {
  const a = scripted(7);
  const b = scripted(7);
  const ready = b.rs.findIndex((e) => e.state.kind === 'waiting-port');
  assert.ok(ready >= 0, 'the script has a ready entry');
  b.rs[ready]!.state = { kind: 'executing', cyclesLeft: 2, cyclesDone: 0 }; // it got its port there
  b.rs.pop(); // and the youngest entry is not in flight there
  const d = splitDiff(a, b);
  const name = (e: Snapshot['rs'][number]) => `L${e.line}#${e.iteration}`;
  assert.deepEqual([...d.rs].sort(), [name(a.rs[ready]!), name(a.rs.at(-1)!)].sort());
  const later = { ...a.rs.at(-1)!, iteration: 99 };
  b.rs.push(later); // one in flight there only
  const both = splitDiff(a, b).rs;
  assert.deepEqual([...both].sort(), [name(a.rs[ready]!), name(a.rs.at(-1)!), name(later)].sort(), 'both sides');
  b.rs.push({ ...later, line: 99 }); // a line the other side does not have: not compared
  assert.deepEqual([...splitDiff(a, b).rs].sort(), [...both].sort(), 'a line of one side only');
  assert.deepEqual([...splitDiff(b, a).rs].sort(), [...both].sort(), 'the same set whichever side is first');
  const f = plain(render(<RsPane width={60} height={6} snapshot={a} selectedLine={null} diff={d.rs} />).lastFrame());
  const rows = f.split('\n').slice(1);
  assert.equal(rows.length, a.rs.length, f);
  a.rs.forEach((e, k) => {
    const marked = d.rs.has(name(e));
    assert.equal(rows[k]!.startsWith(`${rows[k]![0]}▸${name(e)} `), marked, rows[k]);
    if (!marked) assert.doesNotMatch(rows[k]!, /▸/);
  });
});

test('Ports pane: the divider line and the ready list are marked when they differ', () => {
  const a = scripted(7);
  const b = scripted(7);
  b.divider = { busy: true, cyclesLeft: 3, owner: { line: 3, iteration: 0 } };
  const d = splitDiff(a, b);
  assert.deepEqual([d.divider, d.ready], [true, false]);
  b.ready = [];
  assert.deepEqual([splitDiff(a, b).divider, splitDiff(a, b).ready], [true, true]);
  const frame = (s: Snapshot, dv: boolean, rd: boolean) =>
    plain(render(<PortsPane width={60} snapshot={s} dividerDiffers={dv} readyDiffers={rd} />).lastFrame());
  const f = frame(b, true, true);
  assert.match(rowOf(f, /^divider/), /^divider:▸busy, 3 cycles left, held by L3#0$/);
  assert.match(rowOf(f, /^ready/), /^ready:▸none$/);
  const g = frame(a, true, false);
  assert.match(rowOf(g, /^divider/), /^divider:▸free$/);
  assert.doesNotMatch(rowOf(g, /^ready/), /▸/);
  assert.equal(g.replaceAll('▸', ' '), frame(a, false, false), 'the marks only take spaces');
});

test('Statistics: the differing cell is marked, an equal one and a difference below 0.005 are not', () => {
  const a = scripted(7);
  const b = scripted(7);
  b.stats.lines[1]!.hadToWait = 0.75; // line 1: wait 0.50 here, 0.75 there
  b.stats.lines[2]!.causedToWait = 0.2501; // prints as 0.25 on both sides
  b.stats.lines[3]!.ports = { '0': 1, '5': 0.5 }; // a port used there only
  const d = splitDiff(a, b);
  assert.deepEqual([...d.stats.keys()], [1, 3]);
  const f = (s: Snapshot) =>
    plain(
      render(
        <StatsPane width={80} height={10} stats={s.stats} ports={[0, 1, 5, 6]} selectedLine={null} diff={d} />,
      ).lastFrame(),
    );
  const left = f(a);
  assert.match(rowOf(left, /^\s+1 cmp/), / {2}1 ▸0\.50 {3}0\.25 /, 'wait marked, caused not');
  assert.doesNotMatch(rowOf(left, /^\s+0 add/), new RegExp(DIFF_MARK), 'an equal line has no mark');
  assert.doesNotMatch(rowOf(left, /^\s+2 jne/), new RegExp(DIFF_MARK), '0.25 vs 0.2501 print alike');
  // line 3: the blank p5 cell says the other side has a figure there; the other side marks its figure
  assert.match(rowOf(left, /^\s+3 imul/), /1\.00 {9}▸$/);
  assert.match(rowOf(f(b), /^\s+3 imul/), /1\.00 {5}▸0\.50$/);
  assert.match(rowOf(f(b), /^\s+1 cmp/), / {2}1 ▸0\.75 /);
});

test('Program: only the counts that differ take the mark, on their own line', () => {
  const a = scripted(7);
  const b = scripted(7);
  const lc = b.lineCounts.find((x) => x.line === 3)!;
  lc.executing += 1; // E only: one more instance executes there, one fewer is still to load
  lc.notLoaded -= 1;
  const d = splitDiff(a, b);
  assert.deepEqual([...d.program.keys()], [3]);
  const lines = scriptedSession().lines;
  const states = (s: Snapshot) => lineStates(s, [0, 1, 2, 3, 4]);
  const f = plain(
    render(
      <ProgramPane width={60} height={7} lines={lines} states={states(b)} selected={0} diff={d.program} />,
    ).lastFrame(),
  );
  assert.match(rowOf(f, /^\s+3 imul/), /imul rbx, rbx\s+W\d+ R\d+▸E2 D\d+$/);
  for (const l of [0, 1, 2, 4]) assert.doesNotMatch(rowOf(f, new RegExp(`^.\\s+${l} `)), /▸/, `line ${l}`);
});

test('Ports: the µop now and the count that differ are marked, in their own port', () => {
  const a = scripted(7);
  const b = scripted(7);
  b.ports[2]!.cumulative += 3; // p5
  b.ports[3]!.uops = [{ line: 4, iteration: 1 }]; // p6: a µop there only
  const d = splitDiff(a, b);
  assert.deepEqual(d.ports.get(5), { now: false, count: true });
  assert.deepEqual(d.ports.get(6), { now: true, count: false });
  assert.equal(d.ports.has(0) || d.ports.has(1), false);
  const f = plain(render(<PortsPane width={60} snapshot={b} diff={d.ports} />).lastFrame()).split('\n');
  const at = f.findIndex((l) => /^ p0 +p1 +p5 +p6$/.test(l));
  assert.ok(at >= 0, f.join('\n'));
  assert.match(f[at + 1]!, /^ \S+ +\S+ +\S+ +▸L4#1$/, 'the µop now on p6');
  assert.match(f[at + 2]!, /^ \d+ +\d+ +▸\d+ +\d+$/, 'the count of p5');
});

test('80×24, the real stencil beside its perfect front end: the marks cut nothing, in every tab', async () => {
  const s = await sessionOf(stencil);
  const a = s.makeEngine(BASELINE, ITER, REFINED_MECHANISMS);
  const b = s.makeEngine({ ...BASELINE, perfectFrontEnd: true }, ITER, REFINED_MECHANISMS);
  const [sa, sb] = [a.seek(20), b.seek(20)];
  const d = splitDiff(sa, sb);
  assert.ok(d.program.size > 0 && d.ports.size > 0 && d.stats.size > 0, 'the runs differ at cycle 20');
  const all = s.lines.map((l) => l.line);
  for (const tab of TABS) {
    const layout = computeLayout(80, 24, 2, s.lines.length, tab.id, s.ports.length);
    for (const snap of [sa, sb]) {
      const col = (diff: typeof d | null) =>
        plain(
          render(
            <PaneColumn
              title="side"
              layout={layout}
              snapshot={snap}
              lines={s.lines}
              states={lineStates(snap, all)}
              selected={0}
              ports={s.ports}
              diff={diff}
            />,
          ).lastFrame(),
        );
      const marked = col(d);
      const unmarked = col(null);
      assert.ok(marked.includes(DIFF_MARK), `${tab.id}: marks`);
      // (a mark before a blank cell at a row's end is its last character: the row without it ends sooner)
      const trimmed = (f: string) => f.replace(/ +$/gm, '');
      assert.equal(
        trimmed(marked.replaceAll(DIFF_MARK, ' ')),
        trimmed(unmarked),
        `${tab.id}: the marks only take spaces`,
      );
      for (const l of marked.split('\n')) assert.ok(l.length <= layout.paneWidth, `${tab.id}: ${l}`);
    }
  }
});

function mount(s: ExplorerSession) {
  const r = render(
    <Explorer
      mechanisms={REFINED_MECHANISMS}
      session={s}
      iterations={ITER}
      archs={[{ arch: s.arch, name: s.archName }]}
      loadArch={async () => s}
      saveExport={async () => '/tmp/x.txt'}
      size={{ columns: 80, rows: 24 }}
      color={false}
    />,
  );
  return { r, frame: () => plain(r.lastFrame()) };
}

test('the explorer at 80×24 without colour: no mark before the runs diverge, marks after, nothing wider', async () => {
  const { r, frame } = mount(await sessionOf(stencil));
  await until(() => /cycle 0 of \d+/.test(frame()), 'the explorer', 20_000);
  await press(r, 'f');
  await until(() => /diverge at cycle \d+/.test(frame()), 'the split view', 20_000);
  assert.doesNotMatch(frame(), /▸/, 'cycle 0: the sides agree');
  await press(r, ']', ']');
  await until(() => /cycle 20 of/.test(frame()), 'cycle 20');
  for (const tab of ['1', '3', '4']) {
    await press(r, tab);
    const f = frame();
    assert.match(f, /▸/, `tab ${tab}`);
    for (const l of f.split('\n')) assert.ok(l.length <= 80, l);
  }
});

test('the two sides of a branch (b): lines on one path only are not compared', async () => {
  const s = await sessionOf(branch);
  const paths = s.branches!.paths;
  const one = paths[0]!.lines.filter((l) => !paths[1]!.lines.includes(l));
  assert.ok(one.length > 0, 'the fall-through path has a line the taken one lacks');
  const [a, b] = paths.map((p) => p.makeEngine(BASELINE, ITER, REFINED_MECHANISMS).seek(10));
  const d = splitDiff(a!, b!);
  for (const l of one) assert.equal(d.program.has(l) || d.stats.has(l), false, `line ${l}`);
  const rsLines = [...d.rs].map((x) => Number(/^L(\d+)#/.exec(x)![1]));
  assert.ok(
    a!.rs.some((e) => one.includes(e.line)),
    'the fall-through side has such a line in flight',
  );
  assert.equal(rsLines.filter((l) => one.includes(l)).length, 0, 'nor its station entries');
  const { r, frame } = mount(s);
  await until(() => /cycle 0 of \d+/.test(frame()), 'the explorer', 20_000);
  await press(r, 'b', ']', '3');
  await until(() => /cycle 10 of/.test(frame()) && /fall-through/.test(frame()), 'the branch sides at cycle 10');
  assert.match(frame(), /▸/);
  await press(r, KEY.escape);
});
