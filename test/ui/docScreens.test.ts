// The screens docs/explorer.md shows are the explorer's own: rendered again here from the bundled
// examples exactly as `npm run docs:screens` renders them (tools/docScreens.ts), each compared
// with the one between its markers in the page; so is the table of the colours' contrast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DOC, SCREENS, blockInDoc, markedBlocks, renderBlocks, spliceBlocks } from '../../tools/docScreens.js';

const FIX = 'run `npm run docs:screens` to write the explorer’s current screens into docs/explorer.md';

/** Where two screens first differ, for the failure message. */
function firstDifference(doc: string, now: string): string {
  const a = doc.split('\n');
  const b = now.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if (a[i] !== b[i])
      return `line ${i + 1}: the page has ${JSON.stringify(a[i] ?? '(nothing)')}, npm run docs:screens renders ${JSON.stringify(b[i] ?? '(nothing)')}`;
  return 'no line differs';
}

/** Every screen the page should show and does not: what differs, or that its markers are missing. */
function staleScreens(doc: string, screens: ReadonlyMap<string, string>): string[] {
  const stale: string[] = [];
  for (const [name, now] of screens) {
    const shown = blockInDoc(doc, name);
    if (shown === undefined) stale.push(`${name}: no <!-- generated:${name} begin … --> … end markers`);
    else if (shown !== now) stale.push(`${name}: ${firstDifference(shown, now)}`);
  }
  for (const name of markedBlocks(doc))
    if (!screens.has(name)) stale.push(`${name}: nothing in tools/docScreens.ts writes it`);
  return stale;
}

test('docs/explorer.md shows the screens the explorer draws today', { timeout: 240_000 }, async () => {
  const screens = await renderBlocks();
  assert.deepEqual([...screens.keys()], [...SCREENS.map((s) => s.name), 'colour-contrast']);
  const doc = readFileSync(DOC, 'utf8');
  const stale = staleScreens(doc, screens);
  assert.deepEqual(stale, [], `docs/explorer.md is out of date (${FIX}):\n${stale.join('\n')}`);

  // the check notices a changed line and a lost block; the writer puts the page right
  const [name, screen] = [...screens][0]!;
  const line = screen.split('\n')[2]!;
  const edited = doc.replace(
    line,
    line.replace(/\d/, (d: string) => String((Number(d) + 1) % 10)),
  );
  assert.notEqual(edited, doc);
  assert.match(staleScreens(edited, screens).join('\n'), new RegExp(`^${name}: line 3: `));
  const lost = doc.replace(`<!-- generated:${name} begin`, '<!-- generated begin');
  assert.match(staleScreens(lost, screens).join('\n'), /no <!-- generated:.* markers/);
  assert.equal(spliceBlocks(edited, screens), doc);
});
