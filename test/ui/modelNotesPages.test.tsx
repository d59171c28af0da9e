// The model's notes are readable in full in the explorer at 80×24: the model menu shows what fits
// below its rows and says `n` shows them all; `n` shows every note, a page at a time (→ / ←), the
// footer naming those keys only when there are several pages; esc goes back to the menu's rows.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import { Explorer } from '../../src/ui/components/Explorer.js';
import type { ExplorerProps, ExplorerSession } from '../../src/ui/types.js';
import { scriptedSession } from './helpers/scriptedEngine.js';
import { KEY, plain, press, until } from './helpers/render.js';

afterEach(() => cleanup());

/** Notes long enough to wrap, each naming itself so that a lost one is found. */
const manyNotes = Array.from(
  { length: 14 },
  (_, i) =>
    `mechanism ${i}: the model's note number ${i} on this core, long enough to take more than one row of an eighty column terminal, ending with end-of-note-${i}`,
);

function mount(notes: string[], over: Partial<ExplorerProps> = {}) {
  const session: ExplorerSession = { ...scriptedSession('SKL'), modelNotes: () => notes };
  const props: ExplorerProps = {
    session,
    iterations: 10,
    archs: [{ arch: 'SKL', name: 'Skylake' }],
    loadArch: async () => session,
    saveExport: async () => '/tmp/x.txt',
    size: { columns: 80, rows: 24 },
    color: false,
    ...over,
  };
  const r = render(<Explorer {...props} />);
  return { r, frame: () => plain(r.lastFrame()) };
}

const footer = (f: string) => f.replace(/\n+$/, '').split('\n').at(-1)!;

/** The notes of one page as text: the rows below the title, above the message and the footer. */
function pageNotes(f: string): string[] {
  const rows = f.replace(/\n+$/, '').split('\n');
  const at = rows.findIndex((r) => /^Notes on SKL/.test(r));
  return rows.slice(at + 1, rows.length - 2).filter((r) => r.trim() !== '');
}

/** Wrapped note rows back into whole notes (`note: ` starts one, indented rows continue it). */
function unwrap(rows: string[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (r.startsWith('note: ')) out.push(r.slice(6));
    else out[out.length - 1] += ` ${r.trim()}`;
  }
  return out;
}

test('80×24: the menu says n shows the notes that do not fit; n pages through every note in full', async () => {
  const { r, frame } = mount(manyNotes);
  await until(() => /cycle 0 of/.test(frame()), 'the explorer');
  await press(r, 's', KEY.down, KEY.down);
  const menu = frame();
  assert.match(menu, /… \d+ more note lines: n shows them all/);
  assert.match(footer(menu), /n notes/);
  await press(r, 'n');
  const first = frame();
  const pages = Number(
    /^Notes on SKL \(refined\), page 1 of (\d+) \(→ next, ← back, esc: the menu\)$/m.exec(first)?.[1],
  );
  assert.ok(pages >= 2, first);
  assert.match(footer(first), /→ next page/);
  assert.match(footer(first), /esc menu/);
  const seen: string[] = [];
  for (let p = 1; p <= pages; p++) {
    const f = frame();
    assert.match(f, new RegExp(`page ${p} of ${pages}`));
    for (const l of f.split('\n')) assert.ok(l.length <= 80, l);
    seen.push(...pageNotes(f));
    await press(r, KEY.right);
  }
  assert.match(frame(), new RegExp(`page ${pages} of ${pages}`), '→ on the last page stays there');
  assert.deepEqual(unwrap(seen), manyNotes, 'every note, whole and in order');
  await press(r, KEY.left);
  assert.match(frame(), new RegExp(`page ${pages - 1} of ${pages}`), '← goes back one page');
  await press(r, KEY.escape);
  assert.match(frame(), /❯ \[x\] zero idioms/, 'esc: back to the menu, on the row it was on');
  await press(r, KEY.escape);
  assert.doesNotMatch(frame(), /Model:|Notes on/);
});

test('notes that fit on one page: no paging keys in the footer; none at all: said', async () => {
  const few = mount(manyNotes.slice(0, 2));
  await until(() => /cycle 0 of/.test(few.frame()), 'the explorer');
  await press(few.r, 's', 'n');
  assert.match(few.frame(), /^Notes on SKL \(refined\) \(esc: the menu\)$/m);
  assert.deepEqual(unwrap(pageNotes(few.frame())), manyNotes.slice(0, 2));
  assert.doesNotMatch(footer(few.frame()), /next page|back/);
  assert.match(footer(few.frame()), /esc menu/);
  cleanup();
  const none = mount([]);
  await until(() => /cycle 0 of/.test(none.frame()), 'the explorer');
  await press(none.r, 's', 'n');
  assert.match(none.frame(), /no notes for this model on this core/);
});
