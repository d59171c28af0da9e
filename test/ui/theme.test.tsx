// Colours readable on light and dark terminal themes: every colour a frame of the explorer (panes,
// split view, menus, help, prompt) draws text in keeps WCAG 2.x's 3:1 contrast against the
// background of Solarized Dark, Solarized Light, and xterm's palette on white and on black, in its
// normal and its bright form (tools/themeContrast.ts has the palettes, their sources and the
// formula); faint text, whose colour is the terminal's own choice, is not drawn at all.
import { test, before, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import {
  ANSI_NAMES,
  MIN_CONTRAST,
  THEMES,
  contrastOn,
  contrastRatio,
  relativeLuminance,
  sgrForeground,
  twin,
  type AnsiName,
} from '../../tools/themeContrast.js';

process.env.FORCE_COLOR = '1'; // before Ink loads: the frames carry their colours
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the frames set: foreground colours, background codes (40–47, 100–107, 48;…), faint. */
function attributes(frames: string[]): {
  colours: Set<AnsiName>;
  backgrounds: Set<string>;
  other: Set<string>;
  faint: boolean;
} {
  const out = { colours: new Set<AnsiName>(), backgrounds: new Set<string>(), other: new Set<string>(), faint: false };
  for (const f of frames)
    for (const m of f.matchAll(/\u001b\[([0-9;]*)m/g)) {
      const codes = m[1]!.split(';').map(Number);
      for (const c of codes) {
        const fg = sgrForeground(c);
        if (fg) out.colours.add(fg);
        else if ((c >= 40 && c <= 47) || (c >= 100 && c <= 107)) out.backgrounds.add(String(c));
        else if (c === 38 || c === 48) out.other.add(m[1]!);
        else if (c === 2) out.faint = true;
      }
    }
  return out;
}

/** Every theme on which a colour (or its bright twin) stays under the minimum, with its ratio. */
function tooLow(colour: AnsiName): string[] {
  return [colour, twin(colour)].flatMap((c) =>
    THEMES.filter((t) => contrastOn(t, c) < MIN_CONTRAST).map(
      (t) => `${c} ${contrastOn(t, c).toFixed(2)}:1 on ${t.name}`,
    ),
  );
}

test('the contrast formula gives WCAG 2.x figures', () => {
  assert.equal(contrastRatio('#000000', '#ffffff'), 21);
  assert.equal(contrastRatio('#777777', '#777777'), 1);
  // #767676 on white is the lightest grey that passes 4.5:1, #777777 the first that does not
  assert.ok(contrastRatio('#767676', '#ffffff') >= 4.5 && contrastRatio('#777777', '#ffffff') < 4.5);
  assert.equal(relativeLuminance('#ffffff'), 1);
  assert.equal(ANSI_NAMES.length, 16);
  // the check can fail: the colours the theme gave up do not pass it
  for (const c of ['yellow', 'green', 'cyan', 'blue', 'blackBright'] as const) assert.notDeepEqual(tooLow(c), [], c);
  assert.deepEqual(tooLow('magenta'), []);
  assert.deepEqual(tooLow('red'), []);
  assert.ok(THEMES.every((t) => contrastOn(t, 'foreground') >= MIN_CONTRAST));
});

test('whatever colour a component asks for, the theme draws one readable on every theme', async () => {
  const { tint } = await import('../../src/ui/theme.js');
  const drawn = new Set([...ANSI_NAMES, 'gray', 'grey'].map((c) => tint(true, c)));
  for (const c of drawn) if (c !== undefined) assert.deepEqual(tooLow(c as AnsiName), [], c);
  assert.ok(drawn.has(undefined), 'the rest: the terminal’s own text colour');
  assert.equal(tint(false, 'red'), undefined, 'no colour with NO_COLOR');
});

let mod: typeof import('./themeHelpers.js');
before(async () => {
  mod = await import('./themeHelpers.js');
});
afterEach(async () => (await import('ink-testing-library')).cleanup());

test('every screen of the explorer, with colour on, draws text only in colours readable on every theme', async () => {
  const { r, frames } = await mod.mountStencil(`${ROOT}examples/bin/stencil`);
  const { press, KEY, until } = await import('./helpers/render.js');
  await until(() => /cycle 0 of \d+/.test(r.lastFrame() ?? ''), 'the explorer');
  assert.match(r.lastFrame()!, /\u001b\[3\dm/, 'the frames carry colours');
  // the panes, stepped so that every state shows; a split view; the menus, the help, a prompt
  await press(r, ']', ']', KEY.tab, KEY.tab, 'f', ']', 's', KEY.escape, 'a', KEY.escape, '?', KEY.escape, 'g');
  await press(r, KEY.escape);
  const seen = attributes(frames());
  assert.ok(seen.colours.size > 0, 'the walk saw colours');
  assert.deepEqual([...seen.colours].flatMap(tooLow), [], `colours drawn: ${[...seen.colours].join(', ')}`);
  assert.deepEqual([...seen.backgrounds], [], 'no background colour (inverse video uses the theme’s own pair)');
  assert.deepEqual([...seen.other], [], 'no 256-colour or RGB colour (the palettes above do not have them)');
  assert.equal(
    seen.faint,
    false,
    'no faint text: no palette gives its colour (each terminal dims the foreground its own way), so its contrast cannot be checked',
  );
});
