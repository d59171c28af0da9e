// The region picker: `/` searches the entries by name or label, as the user types; a large
// library's hundreds of thousands of entries stay responsive (each key filters in one pass,
// narrowing the last matches when the text grows); the title is never cut.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import type { Key } from 'ink';
import { RegionPicker, pickerTitle } from '../../src/ui/components/RegionPicker.js';
import { filterRegions, firstView, pickerAction, searched, type RegionChoice } from '../../src/ui/regionSearch.js';
import { KEY, plain, press, tick, until } from './helpers/render.js';
import { pickerLabel } from '../../src/cli/commands/exploreRun.js';

afterEach(() => cleanup());

const N = 300_000;
const big: RegionChoice[] = Array.from({ length: N }, (_, i) => ({
  index: i,
  label: `${i + 1}  loop at 0x${(0x1000 + i * 16).toString(16)} in fn_${i} (${8 + (i % 40)} bytes)`,
}));

test('filterRegions: any case, a narrowing search only looks at the last matches', () => {
  const all = filterRegions(big, 'FN_12345');
  assert.deepEqual(
    all.map((i) => big[i]!.label.match(/fn_\d+/)![0]),
    ['fn_12345', ...Array.from({ length: 10 }, (_, k) => `fn_12345${k}`)],
  );
  assert.deepEqual(filterRegions(big, 'fn_123456', all), [123456]);
  assert.deepEqual(filterRegions(big, 'a.b'), [], 'the text is literal, not a pattern');
  const t0 = performance.now();
  filterRegions(big, 'in fn_9');
  const ms = performance.now() - t0;
  assert.ok(ms < 1500, `one pass over ${N} entries took ${ms.toFixed(0)} ms`);
});

test('the title fits: the file, then its base name, then the count give way', () => {
  const long = `/very/long/path/${'d'.repeat(60)}/libLLVM.so.19.1`;
  for (const w of [60, 80, 120]) {
    const t = pickerTitle(long, N, w, null);
    assert.ok(t.length <= w, t);
    assert.match(t, /300000 regions: pick one/);
    assert.match(t, /\//, 'says that / searches');
  }
  assert.match(pickerTitle(long, N, 80, null), /^libLLVM\.so\.19\.1 holds 300000 regions/);
  assert.ok(pickerTitle(long, N, 80, { query: 'x'.repeat(120), matches: 3 }).length <= 80);
});

test('the keys as actions: q and Esc quit, but while searching letters are text and Esc clears first', () => {
  const ev = (input: string, key: Partial<Key> = {}) => ({ input, key: key as Key });
  assert.deepEqual(pickerAction(null, ev('q')), { type: 'cancel', how: 'quit' });
  assert.deepEqual(pickerAction('fn', ev('q')), { type: 'search', query: 'fnq' });
  assert.deepEqual(pickerAction(null, ev('', { escape: true })), { type: 'cancel', how: 'quit' });
  assert.deepEqual(pickerAction('fn', ev('', { escape: true })), { type: 'search', query: null });
  assert.deepEqual(pickerAction('fn', ev('c', { ctrl: true })), { type: 'cancel', how: 'interrupt' });
  assert.deepEqual(pickerAction(null, ev('j')), { type: 'move', by: 1 });
  assert.deepEqual(pickerAction('fn', ev('j')), { type: 'search', query: 'fnj' });
  assert.deepEqual(pickerAction('fn', ev('', { pageUp: true })), { type: 'move', by: -10 });
  assert.equal(pickerAction(null, ev('', { backspace: true })), null, 'nothing to edit');
  assert.deepEqual(pickerAction('fn', ev('', { delete: true })), { type: 'search', query: 'f' });
  assert.deepEqual(pickerAction(null, ev('/')), { type: 'search', query: '' });
  assert.deepEqual(pickerAction('', ev('a\u0007b')), { type: 'search', query: 'ab' }, 'control characters dropped');
  assert.equal((pickerAction('x'.repeat(199), ev('yz')) as { query: string }).query.length, 200, 'the text is capped');
  assert.equal(pickerAction(null, ev('x')), null);
});

test('a search keeps the highlighted entry while it matches, else highlights the first match', () => {
  const regions: RegionChoice[] = ['fn_a', 'fn_b', 'main', 'fn_c'].map((label, index) => ({ index, label }));
  const at = { ...firstView(regions.length, 3) };
  assert.equal(at.index, 3);
  const fn = searched(at, regions, 'fn');
  assert.deepEqual(fn, { query: 'fn', matches: [0, 1, 3], index: 2 }, 'fn_c stays highlighted');
  assert.deepEqual(searched(fn, regions, 'fn_a'), { query: 'fn_a', matches: [0], index: 0 });
  assert.deepEqual(searched(fn, regions, null), { query: null, matches: null, index: 3 });
  assert.equal(firstView(regions.length, 9).index, 3, 'the initial entry within the list');
});

test('/ filters the list as the user types; enter picks the match; esc clears; q is text while searching', async () => {
  let picked = -1;
  let cancelled = '';
  const r = render(
    <RegionPicker
      file="libbig.so"
      regions={big}
      onPick={(i) => {
        picked = i;
      }}
      onCancel={(how) => {
        cancelled = how;
      }}
    />,
  );
  const frame = () => plain(r.lastFrame());
  await tick(30);
  assert.match(frame(), /libbig\.so holds 300000 regions: pick one \(↑\/↓, enter; \/ searches; q quits\)/);
  await press(r, '/');
  for (const ch of 'fn_29999') {
    const t0 = performance.now();
    await press(r, ch);
    assert.ok(performance.now() - t0 < 2000, `the key ${ch} answered in time`);
  }
  await until(() => /\/fn_29999▏ 11 of 300000 match/.test(frame()), 'the matches counted');
  assert.match(frame(), /❯ 30000 .*in fn_29999 /, 'the first match is highlighted');
  await press(r, KEY.down);
  assert.match(frame(), /❯ 299991 .*in fn_299990 /);
  await press(r, 'q');
  assert.equal(cancelled, '', 'q is part of the search text');
  assert.match(frame(), /no region's name or label holds 'fn_29999q'/);
  await press(r, '\u007F');
  await until(() => /11 of 300000 match/.test(frame()), 'backspace edits the text');
  await press(r, KEY.escape);
  assert.match(frame(), /holds 300000 regions/, 'esc clears the search');
  await press(r, '/', '7', '7', '7', '7', '7', KEY.enter);
  await until(() => picked >= 0, 'the pick');
  assert.ok(big[picked]!.label.includes('77777'), big[picked]!.label);
});

test('Home and End go to the first and the last entry; a list longer than the screen says how many are not shown', async () => {
  const ev = (key: Partial<Key>) => ({ input: '', key: key as Key });
  assert.deepEqual(pickerAction(null, ev({ home: true })), { type: 'move', by: -Number.MAX_SAFE_INTEGER });
  assert.deepEqual(pickerAction('fn', ev({ end: true })), { type: 'move', by: Number.MAX_SAFE_INTEGER });
  const regions: RegionChoice[] = Array.from({ length: 120 }, (_, i) => ({ index: i + 1, label: `entry_${i + 1}` }));
  const r = render(<RegionPicker file="f" regions={regions} onPick={() => {}} onCancel={() => {}} />);
  const frame = () => plain(r.lastFrame());
  await tick(30);
  // ink-testing-library's screen is 24 rows: 21 for the list, its last the count of the rest
  assert.match(frame(), /❯ entry_1\n/);
  assert.match(frame(), /… 100 more\n?$/);
  await press(r, KEY.end);
  await until(() => /❯ entry_120/.test(frame()), 'End: the last entry');
  assert.match(frame(), /… 100 above\n?$/);
  await press(r, KEY.home);
  await until(() => /❯ entry_1\n/.test(frame()), 'Home: the first entry');
});

test("the picker's numbers right-aligned in one column, however many entries", () => {
  const r = { kind: 'loop' as const, start: 0x10, end: 0x20, name: 'loop at 0x10' };
  const labels = [7, 42, 120].map((n) => pickerLabel(n, 120, r, false));
  assert.deepEqual(
    labels.map((l) => l.indexOf('loop')),
    [5, 5, 5],
    labels.join('\n'),
  );
  assert.equal(pickerLabel(3, 9, r, true), ' 3  loop     0x10–0x20  loop at 0x10  (default)');
});
