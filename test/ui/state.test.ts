// The explorer's state without rendering: src/ui/state.ts's reducer on scripted engines, and the
// key tables the footer and help are drawn from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Key } from 'ink';
import { detailsAt, explorerReducer, initialState, nextIssue, parsePrompt, type Action, type ExplorerState } from '../../src/ui/state.js';
import { ARCH_KEYS, EXPLORER_KEYS, PROMPT_KEYS, lookup, splitKeys } from '../../src/ui/keys.js';
import { helpLines } from '../../src/ui/components/HelpOverlay.js';
import { footerText } from '../../src/ui/components/Footer.js';
import { scriptedSession } from './helpers/scriptedEngine.js';

const run = (s: ExplorerState, ...actions: Action[]) => actions.reduce(explorerReducer, s);
const start = () => initialState(scriptedSession('SKL'), 10, ['SKL', 'HSW', 'SNB']);
const noKey: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
  return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
  super: false, hyper: false, capsLock: false, numLock: false,
};

test('stepping, seeking and the run\'s end', () => {
  let s = start();
  assert.equal(s.cycle, 0);
  s = run(s, { type: 'step', by: 1 }, { type: 'step', by: 1 }, { type: 'step', by: 10 });
  assert.equal(s.cycle, 12);
  s = run(s, { type: 'step', by: -100 });
  assert.equal(s.cycle, 0);
  s = run(s, { type: 'play' });
  assert.equal(s.playing, true);
  s = run(s, { type: 'seek', cycle: 1e9 });
  assert.equal(s.cycle, 100, 'clamped to the run');
  assert.equal(s.playing, false, 'the end stops playback');
  const same = run(s, { type: 'step', by: 1 });
  assert.equal(same, s, 'stepping past the end changes nothing');
});

test('prompts open with the proposed value selected: typing replaces it, backspace edits it, → keeps it', () => {
  let s = run(start(), { type: 'prompt-open', what: 'iterations', text: '20' });
  assert.deepEqual(s.overlay, { kind: 'prompt', what: 'iterations', text: '20', fresh: true });
  s = run(s, { type: 'prompt-type', text: '5' }, { type: 'prompt-type', text: '0' }, { type: 'prompt-type', text: '0' }, { type: 'prompt-type', text: '0' });
  assert.equal(s.overlay.kind === 'prompt' && s.overlay.text, '5000', 'not 205000');
  s = run(start(), { type: 'prompt-open', what: 'goto', text: '42' }, { type: 'prompt-backspace' }, { type: 'prompt-type', text: '7' });
  assert.equal(s.overlay.kind === 'prompt' && s.overlay.text, '47');
  s = run(start(), { type: 'prompt-open', what: 'export', text: '/tmp/a.txt' }, { type: 'prompt-keep' }, { type: 'prompt-type', text: 'x' });
  assert.equal(s.overlay.kind === 'prompt' && s.overlay.text, '/tmp/a.txtx');
  s = run(start(), { type: 'prompt-open', what: 'goto', text: '1' }, { type: 'prompt-type', text: 'a' });
  assert.equal(s.overlay.kind === 'prompt' && s.overlay.text, '1', 'a number prompt takes digits only');
  assert.deepEqual(parsePrompt('iterations', '0'), { error: 'iterations must be a whole number ≥ 1' });
  assert.deepEqual(parsePrompt('goto', '12'), { value: 12 });
});

test('rebuilds keep the cycle, reset the totals; the architecture menu moves one entry per key', () => {
  let s = run(start(), { type: 'seek', cycle: 12 }, { type: 'rebuild', patch: { variants: new Set(['perfectFrontEnd']) } });
  assert.equal(s.panes.length, 2);
  assert.equal(s.cycle, 12);
  assert.deepEqual(s.totals, [null, null]);
  s = run(s, { type: 'total', pane: s.panes[1]!, total: { cycles: 53, blockThroughput: 5.3 } });
  assert.deepEqual(s.totals, [null, { cycles: 53, blockThroughput: 5.3 }]);
  s = run(s, { type: 'overlay', overlay: { kind: 'arch', index: 0 } }, { type: 'arch-move', by: 1 }, { type: 'arch-move', by: 1 }, { type: 'arch-move', by: 1 });
  assert.deepEqual(s.overlay, { kind: 'arch', index: 2 }, 'three Downs: three entries (clamped at the last)');
});

test('n and the detail read the displayed cycle through the pane\'s cursor, wherever the engine stands', () => {
  let s = run(start(), { type: 'seek', cycle: 39 }, { type: 'seek', cycle: 30 }, { type: 'select', by: 2 });
  const eng = s.panes[0]!.engine;
  const d = detailsAt(s);
  assert.equal(eng.snapshot().cycle, 30, 'the detail was computed with the engine at the displayed cycle');
  assert.equal(d[0]!.detail!.line, 2);
  const r = nextIssue(s, 2);
  assert.match(r.message, /line 2 issues at cycle \d+/);
  assert.ok(r.cycle > 30);
  s = run(s, { type: 'seek', cycle: r.cycle });
  assert.equal(s.cycle, r.cycle);
});

test('one key table: lookup, the footer and the help come from it; bursts split into keys', () => {
  assert.equal(lookup('explorer', 'f', noKey)?.what, 'variants');
  assert.equal(lookup('explorer', '', { ...noKey, rightArrow: true })?.what, 'step');
  assert.equal(lookup('arch', 'q', noKey)?.what, 'quit', 'q quits in the architecture menu, as the footer says');
  assert.equal(lookup('prompt', '7', noKey)?.what, 'replace');
  const help = helpLines().join('\n');
  for (const b of [...EXPLORER_KEYS, ...ARCH_KEYS.slice(0, 1)]) assert.ok(help.includes(b.keys), `help lacks ${b.keys}`);
  assert.ok(PROMPT_KEYS.every((b) => b.keys === 'esc' || b.keys === 'enter' || help.includes(b.keys)));
  for (const b of EXPLORER_KEYS.filter((x) => x.priority !== null && x.priority <= 5)) assert.ok(footerText(80, true).includes(b.what), b.what);
  assert.match(footerText(80, true, 'arch'), /q quit/);
  assert.deepEqual(splitKeys('\u007F\u007F7', noKey).map((k) => [k.input, k.key.backspace]), [['', true], ['', true], ['7', false]]);
  assert.deepEqual(splitKeys('42\r', noKey).map((k) => [k.input, k.key.return]), [['4', false], ['2', false], ['', true]]);
});

test('the help explains the notations of the screen', () => {
  const help = helpLines().join('\n');
  for (const n of ['L3#50', '…', '○', '▶', 'W R E D', '–']) assert.ok(help.includes(n), n);
  assert.match(help, /L3#50\s+line 3 of the program, iteration 50/);
});
