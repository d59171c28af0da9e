// The explorer's controller without Ink: the operations the keys run, slow work in slices (a
// long seek shows that it runs, keys wait for it, Esc cancels it, q and Ctrl-C end at once), and
// sliced seeks of a real engine land on the snapshot a direct seek gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Key } from 'ink';
import { ExplorerController, type ControllerOptions } from '../../src/ui/controller.js';
import type { ExplorerSession, QuitHow } from '../../src/ui/types.js';
import { loadRegion } from '../../src/disasm/index.js';
import { buildExplorerSession } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';
import type { ArchName } from '../../src/data/types.js';
import { BASELINE } from '../../src/sim/types.js';
import { SUACA_MECHANISMS } from '../../src/sim/mechanisms.js';
import { noKey } from './helpers/keys.js';
import { scriptedSession, SCRIPT } from './helpers/scriptedEngine.js';

const k = (input: string, key: Partial<Key> = {}) => ({ input, key: { ...noKey, ...key } });
const ESC = k('', { escape: true });

/** A controller whose slices run only when the test says so (`tick`), one prepare step each. */
function harness(
  session: ExplorerSession = scriptedSession('SKL'),
  iterations = 10,
  extra: Partial<ControllerOptions> = {},
) {
  const deferred: (() => void)[] = [];
  const quits: QuitHow[] = [];
  let suspended = 0;
  let clock = 0;
  const c = new ExplorerController({
    session,
    iterations,
    archs: ['SKL', 'HSW'],
    loadArch: async (arch) => scriptedSession(arch),
    saveExport: async (_t, p) => p,
    exportText: () => 'export',
    quit: (how) => quits.push(how),
    suspend: () => {
      suspended++;
    },
    sliceMs: 1,
    now: () => clock++,
    defer: (fn) => {
      deferred.push(fn);
    },
    afterPaint: (fn) => {
      deferred.push(fn);
    },
    ...extra,
  });
  const tick = (n = 1) => {
    for (let i = 0; i < n && deferred.length; i++) deferred.shift()!();
  };
  const settle = () => {
    for (let i = 0; i < 1e6 && deferred.length; i++) deferred.shift()!();
  };
  return { c, tick, settle, quits, suspended: () => suspended, pending: () => deferred.length };
}

test('keys run the operations: steps, seeks, selection, the end', () => {
  const { c, settle } = harness();
  c.handleKey(k('l'));
  c.handleKey(k('l'));
  c.handleKey(k(']'));
  settle();
  assert.equal(c.getState().cycle, 12);
  c.handleKey(k('{'));
  settle();
  assert.equal(c.getState().cycle, 0);
  c.handleKey(k('j'));
  c.handleKey(k('j'));
  assert.equal(c.getState().selected, 2);
  c.ops.openPrompt('goto');
  for (const ch of '999\r') c.handleKey(ch === '\r' ? k('', { return: true }) : k(ch));
  settle();
  assert.equal(c.getState().cycle, 100);
  assert.equal(c.getState().message, 'the run ends at cycle 100: shown there (asked for 999)', 'past the end: said');
  c.handleKey(k('G'));
  settle();
  assert.equal(c.getState().cycle, 100, "G: the run's end");
  assert.ok(c.getState().snaps.every((s) => s.finished));
  c.dispose();
});

test('a long seek runs in slices: busy at once, keys wait their turn, Esc cancels and the cycle stays', () => {
  // 5 lines × 200,000 iterations: the scripted run is 1,000,000 cycles long; each slice moves 512
  const { c, tick, settle } = harness(scriptedSession('SKL'), 200_000);
  c.handleKey(k('l'));
  settle();
  assert.equal(c.getState().cycle, 1, 'a step fits in the first slice: no busy, no deferral');
  assert.equal(c.getState().busy, null);
  c.ops.openPrompt('goto');
  for (const ch of '500000\r') c.handleKey(ch === '\r' ? k('', { return: true }) : k(ch));
  assert.match(c.getState().busy ?? '', /seeking cycle 500000… \(esc cancels\)/, 'the header says that it works');
  assert.equal(c.getState().cycle, 1, 'the screen stays where it was meanwhile');
  tick(5);
  c.handleKey(ESC);
  assert.equal(c.getState().busy, null, 'Esc cancels');
  assert.match(c.getState().message, /cancelled: seeking cycle 500000 \(still at cycle 1\)/);
  settle();
  assert.equal(c.getState().cycle, 1, 'nothing lands after the cancel');
  // and uncancelled, it lands; a key typed meanwhile runs after it
  c.ops.openPrompt('goto');
  for (const ch of '500000\r') c.handleKey(ch === '\r' ? k('', { return: true }) : k(ch));
  c.handleKey(k('j'));
  assert.equal(c.getState().selected, 0, 'a key typed meanwhile waits');
  let slices = 0;
  while (c.getState().busy !== null && slices < 10_000) {
    tick();
    slices++;
  }
  assert.ok(slices > 100, `the seek took ${slices} slices`);
  assert.equal(c.getState().cycle, 500000);
  assert.equal(c.getState().selected, 1, 'the waiting key ran after it');
  c.dispose();
});

test('q and Ctrl-C end the program at once, even in the middle of a seek; nothing runs after', () => {
  for (const [key, how] of [
    [k('q'), 'quit'],
    [k('c', { ctrl: true }), 'interrupt'],
  ] as const) {
    const { c, quits, pending, tick } = harness(scriptedSession('SKL'), 200_000);
    c.ops.home();
    c.handleKey(k('G'));
    c.seek(400_000);
    assert.ok(c.getState().busy);
    c.handleKey(key);
    assert.deepEqual(quits, [how]);
    const before = c.getState();
    tick(pending());
    assert.equal(c.getState(), before, 'the cancelled slices do nothing');
  }
});

test('the help is modal, q closes menus, Ctrl-Z suspends', () => {
  const { c, quits, suspended } = harness();
  c.handleKey(k('?'));
  assert.equal(c.getState().overlay.kind, 'help');
  c.handleKey(k('', { rightArrow: true }));
  c.handleKey(k('f'));
  assert.equal(c.getState().cycle, 0, '→ does nothing behind the help');
  assert.equal(c.getState().layout.panes.length, 1, 'nor does f');
  c.handleKey(k('q'));
  assert.equal(c.getState().overlay.kind, 'none', 'q closes the help');
  for (const open of ['a', 's']) {
    c.handleKey(k(open));
    assert.notEqual(c.getState().overlay.kind, 'none');
    c.handleKey(k('q'));
    assert.equal(c.getState().overlay.kind, 'none', `q closes the menu of ${open}`);
  }
  assert.deepEqual(quits, [], 'nothing quit');
  c.handleKey(k('z', { ctrl: true }));
  assert.equal(suspended(), 1);
  c.handleKey(k('q'));
  assert.deepEqual(quits, ['quit']);
});

test("n and the detail read the displayed cycle through the pane's cursor", () => {
  const { c, settle } = harness();
  c.seek(39);
  settle();
  c.seek(30);
  settle();
  c.handleKey(k('j'));
  c.handleKey(k('j'));
  const d = c.details();
  assert.equal(d[0]!.detail!.line, 2);
  c.handleKey(k('n'));
  settle();
  assert.match(c.getState().message, /line 2 issues at cycle \d+/);
  assert.ok(c.getState().cycle > 30);
  c.dispose();
});

test('a variant, the branches and the architecture rebuild the panes at the displayed cycle', async () => {
  const { c, settle } = harness();
  c.seek(12);
  settle();
  c.handleKey(k('f'));
  settle();
  assert.deepEqual(
    c.getState().layout.panes.map((p) => p.title),
    ['baseline', 'perfect front-end'],
  );
  assert.equal(c.getState().cycle, 12);
  c.handleKey(k('f'));
  c.handleKey(k('b'));
  settle();
  assert.deepEqual(
    c.getState().layout.panes.map((p) => p.title),
    ['fall-through', 'taken'],
  );
  c.handleKey(k('a'));
  c.handleKey(k('', { downArrow: true }));
  c.handleKey(k('', { return: true }));
  await new Promise((r) => setTimeout(r, 10));
  settle();
  assert.equal(c.getState().layout.session.arch, 'HSW');
  assert.match(c.getState().message, /HSW .*still at cycle 12/);
  c.dispose();
  void SCRIPT;
});

test('a seek in slices lands on the snapshot a direct seek gives (a real engine, backward from the end)', async () => {
  const loaded = await loadRegion({ file: 'examples/bin/stencil' } as never);
  const session = await buildExplorerSession(loaded, loadMachine('SKL' as ArchName), { inThread: true });
  const iterations = 3000;
  const { c, settle } = harness(session, iterations, { mechanisms: SUACA_MECHANISMS });
  const direct = session.makeEngine(BASELINE, iterations, SUACA_MECHANISMS);
  const end = direct.totalCycles();
  c.handleKey(k('G'));
  settle();
  assert.equal(c.getState().cycle, end);
  for (const target of [end - 1, Math.floor(end / 2), 7000, end - 3]) {
    c.seek(target);
    settle();
    assert.equal(c.getState().cycle, target);
    assert.deepEqual(c.getState().snaps[0], direct.seek(target), `cycle ${target}`);
  }
  c.dispose();
});
