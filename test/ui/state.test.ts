// The explorer's state: a pure reducer over plain data (no engines), and the key tables that the
// footer and the help are drawn from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explorerReducer, initialState, parsePrompt, type Action, type ExplorerState } from '../../src/ui/state.js';
import { makeLayout, engineOf } from '../../src/ui/panes.js';
import { ARCH_KEYS, EXPLORER_KEYS, HELP_KEYS, MODEL_KEYS, PROMPT_KEYS, lookup, splitKeys } from '../../src/ui/keys.js';
import { helpLines } from '../../src/ui/components/HelpOverlay.js';
import { footerText } from '../../src/ui/components/Footer.js';
import { comparisonText } from '../../src/ui/components/ComparisonBar.js';
import { noKey } from './helpers/keys.js';
import { scriptedSession } from './helpers/scriptedEngine.js';
import { HELP_KEYS as CLI_HELP_KEYS } from '../../src/cli/commands/explore.js';

const run = (s: ExplorerState, ...actions: Action[]) => actions.reduce(explorerReducer, s);
const layoutOf = (variants: string[] = []) =>
  makeLayout(scriptedSession('SKL'), { variants: new Set(variants as never[]), branches: false, iterations: 10 });
const snapsAt = (l: ReturnType<typeof layoutOf>, c: number) => l.panes.map((p) => engineOf(l, p).seek(c));
const start = () => {
  const l = layoutOf();
  return initialState(l, snapsAt(l, 0), ['SKL', 'HSW', 'SNB']);
};

test('the state is plain data: no engine in it, and the same actions give the same state', () => {
  const s = start();
  const seen = new Set<unknown>();
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    assert.ok(
      !('step' in (v as object) && typeof (v as { step: unknown }).step === 'function'),
      'an engine is in the state',
    );
    for (const x of Object.values(v as object)) walk(x);
  };
  walk({ ...s, layout: { ...s.layout, session: null } });
  const l = s.layout;
  const a = run(s, { type: 'show', snaps: snapsAt(l, 12) }, { type: 'select', by: 2 });
  const b = run(s, { type: 'show', snaps: snapsAt(l, 12) }, { type: 'select', by: 2 });
  assert.deepEqual(a, b);
  assert.equal(a.cycle, 12);
  assert.equal(s.cycle, 0, 'the reducer does not change the state it is given');
});

test("showing the run's end stops playback; play at the end says so", () => {
  let s = run(start(), { type: 'play' });
  assert.equal(s.playing, true);
  s = run(s, { type: 'show', snaps: snapsAt(s.layout, 1e9) });
  assert.equal(s.cycle, 100, 'the engine clamps to the run');
  assert.equal(s.playing, false, 'the end stops playback');
  s = run(s, { type: 'play' });
  assert.equal(s.playing, false);
  assert.match(s.message, /at the end of the run/);
});

test('prompts open with the proposed value selected: typing replaces it, backspace edits it, → keeps it', () => {
  let s = run(start(), { type: 'prompt-open', what: 'iterations', text: '20' });
  assert.deepEqual(s.overlay, { kind: 'prompt', what: 'iterations', text: '20', fresh: true });
  s = run(
    s,
    { type: 'prompt-type', text: '5' },
    { type: 'prompt-type', text: '0' },
    { type: 'prompt-type', text: '0' },
    { type: 'prompt-type', text: '0' },
  );
  assert.equal(s.overlay.kind === 'prompt' && s.overlay.text, '5000', 'not 205000');
  s = run(
    start(),
    { type: 'prompt-open', what: 'goto', text: '42' },
    { type: 'prompt-backspace' },
    { type: 'prompt-type', text: '7' },
  );
  assert.equal(s.overlay.kind === 'prompt' && s.overlay.text, '47');
  s = run(
    start(),
    { type: 'prompt-open', what: 'export', text: '/tmp/a.txt' },
    { type: 'prompt-keep' },
    { type: 'prompt-type', text: 'x' },
  );
  assert.equal(s.overlay.kind === 'prompt' && s.overlay.text, '/tmp/a.txtx');
  assert.deepEqual(parsePrompt('iterations', '0'), { error: 'iterations must be a whole number ≥ 1' });
  assert.deepEqual(parsePrompt('goto', '12'), { value: 12 });
  s = run(
    start(),
    { type: 'prompt-open', what: 'iterations', text: '20' },
    { type: 'prompt-type', text: '1' },
    { type: 'prompt-type', text: '.' },
    { type: 'prompt-type', text: '5' },
  );
  assert.equal(s.overlay.kind === 'prompt' && s.overlay.text, '1.5', 'what is typed is kept');
  assert.deepEqual(
    parsePrompt('iterations', '1.5'),
    { error: "iterations: '1.5' is not a whole number (type digits only, e.g. 200)" },
    'refused, not read as 15',
  );
});

test('a new layout resets the totals and the divergence; a total or divergence of an earlier layout is dropped', () => {
  let s = run(start(), { type: 'show', snaps: snapsAt(start().layout, 12) });
  const old = s.layout;
  const l = layoutOf(['perfectFrontEnd']);
  s = run(s, { type: 'layout', layout: l, snaps: snapsAt(l, 12) });
  assert.equal(s.layout.panes.length, 2);
  assert.equal(s.cycle, 12);
  assert.deepEqual(s.totals, [null, null]);
  assert.deepEqual(s.divergence, { kind: 'searching', upTo: 0 });
  s = run(s, { type: 'total', layout: l, pane: 1, total: { cycles: 53, blockThroughput: 5.3 } });
  assert.deepEqual(s.totals, [null, { cycles: 53, blockThroughput: 5.3 }]);
  const same = run(
    s,
    { type: 'total', layout: old, pane: 0, total: { cycles: 1, blockThroughput: 1 } },
    { type: 'divergence', layout: old, divergence: { kind: 'at', cycle: 3 } },
  );
  assert.equal(same, s, 'results of the earlier layout change nothing');
  s = run(
    s,
    { type: 'overlay', overlay: { kind: 'arch', index: 0 } },
    { type: 'arch-move', by: 1 },
    { type: 'arch-move', by: 1 },
    { type: 'arch-move', by: 1 },
  );
  assert.deepEqual(s.overlay, { kind: 'arch', index: 2 }, 'three Downs: three entries (clamped at the last)');
});

test('one key table: lookup, the footer and the help come from it; bursts split into keys', () => {
  assert.equal(lookup('explorer', 'f', noKey)?.what, 'variants');
  assert.equal(lookup('explorer', '', { ...noKey, rightArrow: true })?.what, 'step');
  assert.equal(lookup('arch', 'q', noKey)?.what, 'cancel', 'q closes the architecture menu (it does not quit)');
  assert.equal(lookup('model', 'q', noKey)?.what, 'close', 'q closes the model menu');
  assert.equal(lookup('help', 'f', noKey), undefined, 'the help is modal: f does nothing behind it');
  assert.equal(
    lookup('help', '', { ...noKey, rightArrow: true })?.what,
    'next page',
    '→ pages the help, nothing behind it',
  );
  assert.equal(lookup('prompt', 'z', { ...noKey, ctrl: true })?.what, 'suspend', 'Ctrl-Z suspends from any context');
  assert.equal(lookup('prompt', '7', noKey)?.what, 'replace');
  const help = helpLines().join('\n');
  for (const b of [...EXPLORER_KEYS, ...ARCH_KEYS, ...MODEL_KEYS, ...HELP_KEYS])
    assert.ok(help.includes(b.keys), `help lacks ${b.keys}`);
  assert.ok(PROMPT_KEYS.every((b) => b.keys === 'esc' || b.keys === 'enter' || help.includes(b.keys)));
  for (const b of EXPLORER_KEYS.filter((x) => x.priority !== null && x.priority <= 5))
    assert.ok(footerText(80, true).includes(b.what), b.what);
  assert.match(footerText(80, true, 'arch'), /esc cancel/);
  assert.match(footerText(80, true, 'help'), /esc close/);
  assert.deepEqual(
    splitKeys('\u007F\u007F7', noKey).map((k) => [k.input, k.key.backspace]),
    [
      ['', true],
      ['', true],
      ['7', false],
    ],
  );
  assert.deepEqual(
    splitKeys('42\r', noKey).map((k) => [k.input, k.key.return]),
    [
      ['4', false],
      ['2', false],
      ['', true],
    ],
  );
});

test('the help explains the notations of the screen', () => {
  const help = helpLines().join('\n');
  for (const n of ['L3#50', '◌', '○', '▶', 'W R E D', '–']) assert.ok(help.includes(n), n);
  assert.match(help, /L3#50\s+line 3 of iteration 50/);
});

test('uopscope --help names the keys the explorer has for the model and the architecture menus', () => {
  assert.equal(lookup('explorer', CLI_HELP_KEYS.modelMenu, noKey)?.what, 'switches');
  assert.equal(lookup('explorer', CLI_HELP_KEYS.archMenu, noKey)?.what, 'arch');
});

test('the comparison line never cuts a figure: the pane names give way', () => {
  const panes = [
    { title: 'baseline', throughput: 6.67, final: 3.13 },
    { title: 'perfect FE+inf. ports+no deps', throughput: 1.5, final: 2.104 },
  ];
  const text = comparisonText({ panes, divergence: 'diverge at cycle 1' }, 80);
  assert.ok(text.length <= 80, text);
  assert.match(text, /6\.67\/3\.13/);
  assert.match(text, /1\.50\/2\.10$/, "the right pane's figures, whole");
  assert.match(text, /…/, 'a name was cut, and says so');
  assert.equal(
    comparisonText({ panes, divergence: 'diverge at cycle 1' }, 200),
    'diverge at cycle 1 │ c/iter done/run: baseline 6.67/3.13 │ perfect FE+inf. ports+no deps 1.50/2.10',
  );
});
