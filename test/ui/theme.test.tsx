// Colours readable on light and dark terminal themes, Solarized Dark's included: no frame of the
// explorer (panes, split view, menus, help, prompt) draws text in yellow (unreadable on light
// backgrounds), grey / bright black (Solarized Dark's background colour), white or black.
import { test, before, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

process.env.FORCE_COLOR = '1'; // before Ink loads: the frames carry their colours
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// SGR foreground and background codes of the colours that vanish on some theme
const UNREADABLE: Record<string, string> = {
  '30': 'black',
  '33': 'yellow',
  '37': 'white',
  '90': 'grey (bright black)',
  '93': 'bright yellow',
  '97': 'bright white',
  '40': 'black background',
  '43': 'yellow background',
  '47': 'white background',
  '100': 'grey background',
  '103': 'bright yellow background',
  '107': 'bright white background',
};

function unreadable(frame: string): string[] {
  const found = new Set<string>();
  for (const m of frame.matchAll(/\u001b\[([0-9;]*)m/g))
    for (const code of m[1]!.split(';')) if (UNREADABLE[code]) found.add(UNREADABLE[code]!);
  return [...found];
}

let mod: typeof import('./themeHelpers.js');
before(async () => {
  mod = await import('./themeHelpers.js');
});
afterEach(async () => (await import('ink-testing-library')).cleanup());

test('every screen of the explorer, with colour on, avoids the colours some themes hide', async () => {
  const { r, frames } = await mod.mountStencil(`${ROOT}examples/bin/stencil`);
  const { press, KEY, until } = await import('./helpers/render.js');
  await until(() => /cycle 0 of \d+/.test(r.lastFrame() ?? ''), 'the explorer');
  assert.match(r.lastFrame()!, /\u001b\[3\dm/, 'the frames carry colours');
  // the panes, stepped so that every state shows; a split view; the menus, the help, a prompt
  await press(r, ']', ']', KEY.tab, KEY.tab, 'f', ']', 's', KEY.escape, 'a', KEY.escape, '?', KEY.escape, 'g');
  await press(r, KEY.escape);
  for (const f of frames()) assert.deepEqual(unreadable(f), [], f);
});
