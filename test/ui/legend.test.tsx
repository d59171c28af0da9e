// The legend and the keys: `?` opens on the legend, whose lines are never cut (they wrap); the
// footer lists only keys that act on the screen shown; `/` searches the program.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import { Explorer } from '../../src/ui/components/Explorer.js';
import { helpLines } from '../../src/ui/components/HelpOverlay.js';
import { footerText } from '../../src/ui/components/Footer.js';
import { LEGEND } from '../../src/ui/keys.js';
import { MECHANISM_INFO } from '../../src/sim/mechanisms.js';
import type { ExplorerProps } from '../../src/ui/types.js';
import { scriptedSession } from './helpers/scriptedEngine.js';
import { KEY, plain, press, tick } from './helpers/render.js';

afterEach(() => cleanup());

function mount(over: Partial<ExplorerProps> = {}) {
  const props: ExplorerProps = {
    session: scriptedSession('SKL'),
    iterations: 10,
    archs: [{ arch: 'SKL', name: 'Skylake' }],
    loadArch: async (a) => scriptedSession(a),
    saveExport: async () => '/tmp/x.txt',
    size: { columns: 80, rows: 24 },
    color: false,
    ...over,
  };
  const r = render(<Explorer {...props} />);
  return { r, frame: () => plain(r.lastFrame()) };
}

test('the help never cuts its own text: long lines wrap under their key, at any width', () => {
  for (const w of [60, 80, 120]) {
    const lines = helpLines(w);
    for (const l of lines) assert.ok(l.length <= w, `${w}: ${l}`);
    assert.doesNotMatch(lines.join('\n'), /…$/m, 'no line ends cut');
    // every word of every explanation is there
    const text = lines.join(' ').replace(/\s+/g, ' ');
    for (const sec of LEGEND)
      for (const [k, what] of sec.rows) {
        assert.ok(text.includes(k.replace(/\s+/g, ' ')), `${w}: ${k}`);
        assert.ok(text.includes(what.replace(/\s+/g, ' ')), `${w}: ${what}`);
      }
  }
  // one table for the mechanisms' names: every abbreviation beside its full label
  const help = helpLines(80).join('\n');
  for (const m of MECHANISM_INFO)
    assert.match(
      help,
      new RegExp(`^${m.short.replace(/[/]/g, '\\/')}\\s+${m.label.slice(0, 20).replace(/[()+]/g, '\\$&')}`, 'm'),
    );
});

test("? opens on the legend, → and ← page it, and the footer shows the help's own keys", async () => {
  const { r, frame } = mount();
  await tick(30);
  await press(r, '?');
  let f = frame();
  assert.match(f, /Legend and keys, page 1 of (\d+)/);
  assert.match(f, /W R E D\s+instances/);
  assert.match(f, /F\s+a macro-fused pair/);
  assert.match(f, /next page .*esc close|esc close/);
  assert.doesNotMatch(f, /fpd variants/, 'the explorer keys are not in the help footer');
  await press(r, KEY.right);
  assert.match(frame(), /page 2 of/);
  await press(r, KEY.left);
  assert.match(frame(), /page 1 of/);
  await press(r, KEY.escape);
  f = frame();
  assert.doesNotMatch(f, /Legend and keys/);
  assert.match(f, /tab pane/, 'tabs at 80×24: tab switches panes');
});

test('the footer follows the screen: no tab key without tabs, the detail names its own close key', async () => {
  assert.doesNotMatch(footerText(160, false, 'explorer', false), /tab/);
  assert.match(footerText(160, false, 'explorer', true), /tab pane/);
  const big = mount({ size: { columns: 140, rows: 50 } });
  await tick(30);
  assert.doesNotMatch(big.frame(), /tab pane|tab: next pane/, 'every section shown: no tabs');
  cleanup();
  const { r, frame } = mount();
  await tick(30);
  await press(r, KEY.enter);
  assert.match(frame(), /Detail of line 0/);
  assert.match(frame(), /⏎ close detail/);
  await press(r, KEY.enter);
  assert.doesNotMatch(frame(), /Detail of line/);
  assert.doesNotMatch(frame(), /close detail/);
});

test('/ searches the program: the next matching line is selected, / enter finds the next one', async () => {
  const { r, frame } = mount();
  await tick(30);
  // the scripted program: 0 add rax, rbx · 1 cmp rax, rcx · 2 jne · 3 imul rbx, rbx · 4 dec rdx
  await press(r, '/');
  assert.match(frame(), /search the program for:/);
  await press(r, 'R', 'B', 'X', KEY.enter);
  assert.match(frame(), /line 3: imul rbx, rbx \(match 2 of 2 for 'RBX'; \/ enter: the next\)/);
  assert.match(frame(), />\s+3 imul/, 'the line after the selected one is selected');
  await press(r, '/');
  assert.match(frame(), /search the program for: RBX/, 'the last search is proposed');
  await press(r, KEY.enter);
  assert.match(frame(), /line 0: add rax, rbx \(match 1 of 2/, 'it wraps to the first');
  assert.match(frame(), />\s+0 add/);
  await press(r, '/', 'z', 'z', 'q', KEY.enter);
  assert.match(frame(), /search: no line holds 'zzq'/);
  assert.match(frame(), />\s+0 add/, 'the selection stays');
});
