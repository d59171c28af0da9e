// Frame tests of the explorer on scripted snapshots: press keys, assert on what the screen shows.
import {
  DEFAULT_MODEL_NAME,
  MECHANISMS,
  REFINED_MECHANISMS,
  SUACA_MECHANISMS,
  mechanismLabel,
  mechanismsOf,
} from '../../src/sim/mechanisms.js';
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import { Explorer } from '../../src/ui/components/Explorer.js';
import type { ExplorerProps } from '../../src/ui/types.js';
import { scriptedSession } from './helpers/scriptedEngine.js';
import { KEY, plain, press, tick, until } from './helpers/render.js';

afterEach(() => cleanup());

function mount(over: Partial<ExplorerProps> = {}) {
  const exports: string[] = [];
  const loaded: string[] = [];
  let quit = 0;
  const props: ExplorerProps = {
    session: scriptedSession('SKL'),
    iterations: 10,
    archs: [
      { arch: 'SKL', name: 'Skylake' },
      { arch: 'HSW', name: 'Haswell' },
    ],
    loadArch: async (a) => {
      loaded.push(a);
      return scriptedSession(a);
    },
    saveExport: async (t) => {
      exports.push(t);
      return '/tmp/uopscope-session.txt';
    },
    exportPath: () => '/tmp/proposed.txt',
    size: { columns: 80, rows: 24 },
    color: false,
    onQuit: () => {
      quit++;
    },
    ...over,
  };
  const r = render(<Explorer {...props} />);
  const frame = () => plain(r.lastFrame());
  return { r, frame, exports, loaded, quits: () => quit };
}

test('steps forward and back one, ten and a hundred cycles', async () => {
  const { r, frame } = mount();
  await tick(30);
  assert.match(frame(), /cycle 0 of/);
  await press(r, KEY.right, 'l', 'l');
  assert.match(frame(), /cycle 3 of 100 /);
  await press(r, KEY.left);
  assert.match(frame(), /cycle 2 of/);
  await press(r, 'h');
  assert.match(frame(), /cycle 1 of/);
  await press(r, ']');
  assert.match(frame(), /cycle 11 of/);
  await press(r, '[', '[');
  assert.match(frame(), /cycle 0 of/);
  await press(r, '}');
  assert.match(frame(), /cycle 100 of 100 .*finished/);
  await press(r, '{');
  assert.match(frame(), /cycle 0 of/);
  await press(r, 'G');
  await until(() => /cycle 100 of 100 .*finished/.test(frame()), 'G: the end of the run');
  await press(r, KEY.home);
  assert.match(frame(), /cycle 0 of 100/);
});

test('the program pane shows per-line states and the RS its entries with reasons', async () => {
  const { r, frame } = mount();
  await press(r, 'l', 'l', 'l');
  const f = frame();
  // cycle 3 of the script: L0#0 done, L1#0 executing, L2#0 ready behind it, L3#0 waiting on L2#0
  assert.match(f, />\s+0 add rax, rbx\s+W0 R0 E0 D1/);
  assert.match(f, /1 cmp rax, rcx\s+W0 R0 E1 D0/);
  assert.match(f, /▶ L1#0\s+1µ executing, 1 cycle left/);
  assert.match(f, /○ L2#0\s+1µ p0 busy by L1#0/);
  assert.match(f, /◌ L3#0\s+1µ waits on L2#0 \(RAX\)/);
  assert.match(f, /Reservation station 3\/8 µops/);
});

test('at 80x24 the frame fits, panes are tabs, the footer lists the main keys; no colour when off', async () => {
  const { r } = mount();
  await press(r, 'l');
  const raw = r.lastFrame() ?? '';
  assert.doesNotMatch(raw, /\u001B\[3[0-9]m/, 'no colour codes with color=false');
  const lines = plain(raw).split('\n');
  assert.ok(lines.length <= 23, `${lines.length} lines`);
  for (const l of lines) assert.ok(l.length <= 80, `too wide: ${l}`);
  const f = plain(raw);
  assert.match(f, /\[2 Reservation\]/);
  for (const k of ['←→ step', 'fpd variants', 'b branches', 'a arch', 'x export', '? help', 'q quit'])
    assert.ok(f.includes(k), k);
  await press(r, KEY.tab);
  assert.match(plain(r.lastFrame()), /\[3 Ports\]/);
  assert.match(plain(r.lastFrame()), /p0\s+p1\s+p5\s+p6/);
  assert.match(plain(r.lastFrame()), /divider: free/);
  await press(r, '4');
  assert.match(plain(r.lastFrame()), /Statistics \(per iteration, [\d.]+ complete\)/);
});

test('a larger terminal shows every section at once and re-lays out on resize', async () => {
  const { r, frame } = mount({ size: { columns: 120, rows: 50 } });
  await press(r, 'l');
  let f = frame();
  for (const s of ['Program', 'Reservation station', 'Ports:', 'Statistics']) assert.ok(f.includes(s), s);
  assert.doesNotMatch(f, /tab: next pane/);
  r.rerender(
    <Explorer
      session={scriptedSession('SKL')}
      iterations={10}
      archs={[]}
      loadArch={async (a) => scriptedSession(a)}
      saveExport={async () => 'x'}
      size={{ columns: 80, rows: 24 }}
      color={false}
    />,
  );
  await tick(30);
  f = frame();
  assert.match(f, /tab: next pane/);
});

test('variant f: split pane beside the baseline, both throughputs and the divergence cycle', async () => {
  const { r, frame } = mount();
  await press(r, 'f');
  await until(() => /diverge at cycle \d+/.test(frame()), 'divergence');
  const f = frame();
  // the script keeps both runs identical up to cycle 6, then the variant finishes one per cycle
  assert.match(f, /diverge at cycle 7/);
  assert.match(f, / baseline\s+perfect front-end/);
  assert.match(f, /c\/iter done\/run: baseline –\/10\.00 │ perfect FE –\/5\.30/);
  assert.match(f, /variant: perfect front-end/);
  await press(r, ...'llllllll'.split(''));
  assert.match(frame(), /cycle 8 of/);
  await press(r, 'f');
  assert.doesNotMatch(frame(), /diverge/);
  assert.match(frame(), /variant: baseline/);
});

test('variants that never differ are reported as identical', async () => {
  const { r, frame } = mount();
  await press(r, 'd'); // the script ignores noDependencies: same snapshots throughout
  await until(() => /identical for all \d+ cycles/.test(frame()), 'no divergence');
  assert.match(frame(), /identical for all 100 cycles/);
});

test('b: the two sides of the jump side by side in lockstep', async () => {
  const { r, frame } = mount();
  await press(r, 'b', 'l', 'l', 'l', 'l');
  const f = frame();
  assert.match(f, /branches: jump at line 2/);
  assert.match(f, / fall-through\s+taken/);
  assert.match(f, /3 imul rbx, rbx\s+W\d R\d E\d D\d\s+.*3 imul rbx, rbx\s+not on this path/);
  await until(() => /cycle 4 of 100 /.test(frame()), "the longer path's run length (100 cycles) in the header");
  await press(r, 'b');
  assert.doesNotMatch(frame(), /fall-through/);
});

test('a: switching architecture keeps the cycle', async () => {
  const { r, frame, loaded } = mount();
  await press(r, ']', 'l', 'l');
  assert.match(frame(), /cycle 12 of/);
  await press(r, 'a');
  assert.match(frame(), /Switch architecture/);
  await until(() => /❯ SKL/.test(frame()), 'the picker');
  await tick(30);
  await press(r, KEY.down);
  await until(() => /❯ HSW/.test(frame()), 'HSW highlighted');
  await press(r, KEY.enter);
  await until(() => /still at cycle/.test(frame()), 'arch switch');
  assert.deepEqual(loaded, ['HSW']);
  assert.match(frame(), /· HSW .*10 iter/);
  assert.match(frame(), /cycle 12 of/);
  assert.match(frame(), /still at cycle 12/);
});

test('g goes to a typed cycle, i changes the iterations, n runs until the selected line issues', async () => {
  const { r, frame } = mount();
  await press(r, 'g');
  assert.match(frame(), /go to cycle: 0 /, 'the prompt proposes the current cycle');
  await press(r, '4', '2', KEY.enter);
  assert.match(frame(), /cycle 42 of/);
  await press(r, 'i');
  assert.match(frame(), /iterations: 10 /);
  await press(r, '\u007F', '\u007F', '3', KEY.enter);
  await until(() => /3 iter/.test(frame()), 'the new iteration count');
  await until(() => /cycle 30 of 30 /.test(frame()), '3 iterations end at cycle 30: the cycle is clamped');
  await press(r, '{', 'j', 'j'); // select line 2
  await press(r, 'n');
  // in the script, instance k holds a port at cycle 2k: line 2's first instance at cycle 4
  await until(() => /line 2 issues at cycle 4/.test(frame()), 'n');
  assert.match(frame(), /cycle 4 of/);
  await press(r, 'n');
  await until(() => /line 2 issues at cycle 14/.test(frame()), 'n again');
});

test('x exports the session; the screen shows the path', async () => {
  const { r, frame, exports } = mount();
  await press(r, 'f', 'l', 'l', 'l', 'j');
  await until(() => /diverge at/.test(frame()), 'divergence');
  await press(r, 'x');
  assert.match(frame(), /export to: \/tmp\/proposed\.txt/, 'the prompt shows the path before writing');
  await press(r, KEY.enter);
  await until(() => /exported to/.test(frame()), 'export');
  assert.match(frame(), /exported to \/tmp\/uopscope-session\.txt/);
  assert.equal(exports.length, 1);
  const t = exports[0]!;
  for (const s of [
    'file: loop.o',
    'region: IACA region 1',
    'architecture: SKL',
    'iterations: 10',
    'variants: perfect front-end',
    'current cycle: 3',
    'comparison: diverge at cycle 7',
    '== Pane: baseline',
    '== Pane: perfect front-end',
    '-- Snapshot',
    'cycle 3: 1 of 50 instances done',
    'L2#0',
    'p0 busy by L1#0',
    '-- Per-line statistics',
    'selected line: 1 cmp rax, rcx',
    '== Detail of the selected line (baseline)',
    'Detailed delay information for instruction: asm of 1 in line 1',
    'Maximum latency: 3',
  ]) {
    assert.ok(t.includes(s), `export lacks "${s}"`);
  }
});

test('enter shows the detail of the selected line, ? the help, q quits', async () => {
  const { r, frame, quits } = mount();
  await press(r, 'j', KEY.enter);
  assert.match(frame(), /Detail of line 1: asm of 1/);
  // the scripted detail: latency 3 to line 0, line 0 waited 0.5, port 0: this 0.25, others 0.75
  assert.match(frame(), /maximum latency 3/);
  assert.match(frame(), /\n\s+0\s+3\s+–\s+0\.50\s+0\.00\n/);
  assert.match(frame(), /p0\s+0\.25\s+0\.75/);
  await press(r, KEY.escape);
  await tick(40);
  assert.doesNotMatch(frame(), /Detail of line/);
  await press(r, '?');
  const pages = Number(/Legend and keys, page 1 of (\d+) \(\? or → next, ← back, esc closes\)/.exec(frame())?.[1]);
  assert.ok(pages >= 2, frame());
  assert.match(frame(), /Header and comparison line/, 'the help opens on the legend');
  let seen = frame();
  for (let k = 2; k <= pages; k++) {
    await press(r, '?');
    seen += frame();
  }
  assert.match(frame(), new RegExp(`page ${pages} of ${pages}`));
  assert.match(seen, /L3#50\s+line 3 of iteration 50/, 'the notations are explained');
  assert.match(seen, /run until the selected line next issues/);
  assert.match(seen, /○ ▶ ✓\s+loading, waiting on an operand, ready/);
  assert.match(seen, /In the model menu \(s\)/);
  await press(r, '?');
  assert.doesNotMatch(frame(), /Legend and keys/);
  await press(r, 'q');
  assert.equal(quits(), 1);
});

test('space plays and pauses', async () => {
  const { r, frame } = mount();
  await press(r, '+', '+'); // 10 → 20 → 50 cycles per second
  await press(r, ' ');
  assert.match(frame(), /playing 50\/s/);
  await tick(200);
  await press(r, ' ');
  const m = /cycle (\d+) of/.exec(frame());
  assert.ok(m && Number(m[1]) > 0, 'advanced while playing');
  const c = Number(m![1]);
  await tick(100);
  assert.match(frame(), new RegExp(`cycle ${c} of`));
  assert.match(frame(), /paused/);
});

test('keys in one burst all count: the architecture menu, the prompts, and a key right after the one that opens them', async () => {
  const { r, frame, loaded } = mount({
    archs: [
      { arch: 'SKL', name: 'Skylake' },
      { arch: 'HSW', name: 'Haswell' },
      { arch: 'SNB', name: 'Sandy Bridge' },
    ],
  });
  await tick(30);
  // one chunk: a, Down, Down, Enter
  r.stdin.write(`a${KEY.down}${KEY.down}${KEY.enter}`);
  await until(() => loaded.length === 1, 'the switch');
  assert.deepEqual(loaded, ['SNB'], 'two Downs moved two entries');
  await until(() => /· SNB /.test(frame()), 'SNB on screen');
  // one chunk: i, two backspaces over the proposed 10, 7, enter
  r.stdin.write('i\u007F\u007F7\r');
  await until(() => /· 7 iter/.test(frame()), '7 iterations');
  r.stdin.write('g25\r');
  await until(() => /cycle 25 of/.test(frame()), 'g 25 in one chunk');
  // q in the architecture menu closes it (it does not quit), as the footer says
  await press(r, 'a');
  assert.match(frame(), /esc cancel/);
  await press(r, 'q');
  assert.match(frame(), /cycle 25 of/);
});

test('the iterations prompt proposes the current value selected: typing replaces it (5000, not 105000)', async () => {
  const { r, frame } = mount();
  await press(r, 'i');
  assert.match(frame(), /iterations: 10 \(type to replace/);
  await press(r, '5', '0', '0', '0');
  assert.match(frame(), /iterations: 5000▏/);
  await press(r, KEY.enter);
  await until(() => /· 5000 iter/.test(frame()), '5000 iterations');
});

test('a status message goes with the next key; a long one wraps and keeps its reason', async () => {
  const { r, frame } = mount({
    saveExport: async () => {
      throw new Error(
        '/nonexistent/directory/that/is/long/uopscope-loop.o-20261123-190000.txt: cannot write: no such directory; create it or give another path',
      );
    },
    exportPath: () => '/nonexistent/directory/that/is/long/uopscope-loop.o-20261123-190000.txt',
  });
  await press(r, 'i', KEY.enter);
  await until(() => /10 iterations, cycle 0/.test(frame()), 'the message');
  await press(r, 'l');
  assert.doesNotMatch(frame(), /10 iterations, cycle 0/, 'cleared by the next action');
  await press(r, 'x', KEY.enter);
  await until(() => /export failed/.test(frame()), 'the failure');
  const f = frame();
  assert.match(f.replace(/\n/g, ' '), /create it or give another path/, 'the reason is on screen');
  for (const l of f.split('\n')) assert.ok(l.length <= 80, l);
  assert.ok(f.split('\n').length <= 23, 'the frame still fits');
});

test('a long seek shows that it works, keys wait for it, Esc cancels it; a short one answers at once', async () => {
  // 5 lines × 200,000 iterations: a million cycles; the seek runs in slices between frames
  const { r, frame } = mount({ iterations: 200_000 });
  await press(r, 'g', '9', '0', '0', '0', '0', '0', KEY.enter);
  await until(() => /seeking cycle 900000… \(esc cancels\)/.test(frame()), 'the busy status');
  assert.match(frame(), /cycle 0 of/, 'the screen stays where it was meanwhile');
  await press(r, KEY.escape);
  await until(() => /cancelled: seeking cycle 900000 \(still at cycle 0\)/.test(frame()), 'the cancel');
  const before = r.frames.length;
  await press(r, ']');
  assert.match(frame(), /cycle 10 of/);
  assert.ok(
    r.frames.slice(before).every((f) => !/seeking/.test(plain(f))),
    'a short seek never shows as busy',
  );
});

test('s: the model menu toggles a mechanism, the header names the model, the engines get the switches; presets and the model comparison', async () => {
  const got: (Partial<Record<string, boolean>> | undefined)[] = [];
  const base = scriptedSession('SKL');
  const session = {
    ...base,
    makeEngine: (v: Parameters<typeof base.makeEngine>[0], it: number, m?: Parameters<typeof base.makeEngine>[2]) => {
      got.push(m && { ...m });
      return base.makeEngine(v, it, m);
    },
  };
  // without a model given, the explorer starts with the default model (src/sim/mechanisms.ts)
  const dflt = mount({ session });
  await tick(30);
  assert.ok(
    dflt.frame().includes(`· 10 iter · ${mechanismLabel(mechanismsOf(DEFAULT_MODEL_NAME))} · `),
    'the default model in the header',
  );
  assert.deepEqual(got.at(-1), mechanismsOf(DEFAULT_MODEL_NAME), 'the engine is made with every switch named');
  dflt.r.unmount();
  // from SUACA's model (every switch off)
  const { r, frame, exports } = mount({ session, mechanisms: { ...SUACA_MECHANISMS } });
  await tick(30);
  assert.match(frame(), /· 10 iter · suaca · /, 'the model given (suaca) in the header');
  assert.equal(got.at(-1)?.macroFusion, false, 'the engine is made with every switch named (all off)');
  await press(r, 's');
  assert.match(frame(), /Model: suaca \(↑\/↓, enter toggles, esc closes\)/);
  assert.match(frame(), /❯ \[ \] macro-fusion/);
  assert.match(frame(), /\[ \] port choice at issue/);
  assert.match(frame(), /split pane: compare with refined/);
  const lines = frame().split('\n');
  assert.ok(lines.length <= 23, `the menu fits 80×24: ${lines.length} lines`);
  for (const l of lines) assert.ok(l.length <= 80, `too wide: ${l}`);
  await press(r, KEY.enter);
  await until(() => /· 10 iter · suaca \+macro-fus · /.test(frame()), 'the header names the toggled model');
  assert.match(frame(), /❯ \[x\] macro-fusion/, 'the menu stays open and shows the switch on');
  assert.deepEqual(got.at(-1), {
    macroFusion: true,
    microFusion: false,
    zeroIdioms: false,
    moveElimination: false,
    frontEnd: false,
    loadStorePorts: false,
    storeForwarding: false,
    portChoice: false,
    onePerPort: false,
    operandLatency: false,
  });
  // the refined preset (after the mechanisms and the SUACA preset), then the comparison row
  await press(r, ...MECHANISMS.map(() => 'j'), 'j', KEY.enter);
  await until(() => /· 10 iter · refined · /.test(frame()), 'refined: its mechanisms on');
  assert.deepEqual(got.at(-1), REFINED_MECHANISMS);
  await press(r, 'j', KEY.enter);
  await press(r, KEY.escape);
  await until(
    () => /c\/iter done\/run: refined .*│ suaca /.test(frame()),
    'the split pane compares refined with suaca',
  );
  await press(r, 'x', KEY.enter);
  await until(() => exports.length === 1, 'export');
  assert.match(exports[0]!, /\nmodel: refined \(macro-fusion on, micro-fusion on, /);
  assert.match(exports[0]!, /\nmodel comparison: on \(beside suaca\)\n/);
});
