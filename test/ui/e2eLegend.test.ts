// End to end in a real pseudo-terminal (tmux, 80x24): every notation the screens show is in the
// legend that `?` opens on; `/` finds a line of the program; rows that do not fit are counted
// ("… N more"); a terminal too small for the panes says so, and the screen comes back when it
// grows again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { hasTmux, tmuxServer } from './helpers/tmux.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-legend', 30_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';
const AFTER = '; echo "EXITED rc=$?"; sleep 120';

/** Words and abbreviations a pane prints that need explaining (when they are on screen). */
const NOTATIONS = [
  'W',
  'R',
  'E',
  'D',
  'F',
  'MITE',
  'DSB',
  'LSD',
  'IDQ',
  'FE',
  'c/iter',
  'µops/c',
  'done/run',
  'wait',
  'caused',
];

/** The notations of a screen: its symbols (every character outside plain ASCII) and the words
 *  above where they stand alone. */
function notationsOf(screen: string): Set<string> {
  const out = new Set<string>();
  for (const ch of screen) if (ch.charCodeAt(0) > 126) out.add(ch);
  for (const n of NOTATIONS)
    if (new RegExp(`(^|[\\s(])${n.replace(/[/]/g, '\\/')}(?=[\\s\\d:)]|$)`, 'm').test(screen)) out.add(n);
  // a model with a mechanism switched: the abbreviation after − or +
  for (const m of screen.matchAll(/ [−+]([a-z/-]+(?: [a-z]+)?)/g)) out.add(m[1]!);
  return out;
}

test('80x24: every notation on screen is in the legend (?), / searches, "… N more", too small at 40x10', {
  skip: SKIP,
  timeout: 240_000,
}, async () => {
  const session = 'legend';
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  const keys = async (...k: string[]) => {
    tmux('send-keys', '-t', session, ...k);
    await sleep(250);
  };
  const cmd = `node --import tsx src/cli/main.cts examples/bin/stencil --arch SKL --iterations 2000${AFTER}`;
  try {
    newSession(session, ROOT, cmd);
    await waitFor(session, /cycle 0 of \d+/, 'the explorer', 60_000);
    const seen: string[] = [];
    await keys('}', '}', ']');
    await waitFor(session, /cycle 210 of/, 'cycle 210');
    for (const tab of ['1', '2', '3', '4']) {
      await keys(tab);
      seen.push(screen());
    }
    assert.match(seen[2]!, /FE DSB|front end: DSB/, 'the front end names its source');
    // a split (perfect front end beside the baseline): the statistics cannot show every line
    await keys('f');
    const split = await waitFor(session, /diverge at cycle \d+/, 'the split view');
    assert.match(split, /… \d+ more lines? \(in the total\)/, 'the lines that do not fit are counted');
    seen.push(split);
    await keys('3');
    seen.push(screen());
    await keys('f', 's');
    seen.push(await waitFor(session, /❯ \[x\] macro-fusion/, 'the model menu'));
    await keys('Enter');
    await waitFor(session, /❯ \[ \] macro-fusion/, 'macro-fusion off');
    await keys('Escape');
    seen.push(await waitFor(session, /refined −macro-fus/, 'a mechanism off in the header'));
    await keys('s', 'Enter');
    await waitFor(session, /❯ \[x\] macro-fusion/, 'macro-fusion on');
    await keys('Escape');
    await waitFor(session, /· refined · /, 'back to the refined model');
    await keys('1', 'Down', 'Down', 'Enter');
    seen.push(await waitFor(session, /Detail of line 2/, 'the detail'));
    await keys('Escape', 'a');
    seen.push(await waitFor(session, /❯ SKL/, 'the architecture menu'));
    await keys('Escape');
    await waitFor(session, /cycle 210 of/, 'the panes again');

    // the legend: ? opens on it; page through to the last page
    await keys('?');
    // the help's own lines only: below its title, above the message line and the footer
    const body = (screenText: string) => {
      const rows = screenText.replace(/\n+$/, '').split('\n');
      const at = rows.findIndex((r) => /^Legend and keys, page \d+ of \d+/.test(r));
      return rows.slice(at + 1, rows.length - 2).join('\n');
    };
    let page = await waitFor(session, /Legend and keys, page 1 of (\d+)/, 'the legend');
    const pages = Number(/page 1 of (\d+)/.exec(page)![1]);
    let known = body(page);
    for (let p = 2; p <= pages; p++) {
      await keys('Right');
      page = await waitFor(session, new RegExp(`page ${p} of ${pages}`), `legend page ${p}`);
      known += `\n${body(page)}`;
    }
    for (const l of known.split('\n')) assert.ok(l.length <= 80 && !/…$/.test(l.trim()), `a help line is cut: ${l}`);
    const missing = new Set<string>();
    for (const s of seen) for (const n of notationsOf(s)) if (!known.includes(n)) missing.add(n);
    assert.deepEqual(
      [...missing],
      [],
      `notations on screen that the legend does not explain: ${[...missing].join(' ')}`,
    );
    await keys('Escape');
    await waitFor(session, /cycle 210 of/, 'the help closed');

    // / searches the program
    await keys('/');
    await waitFor(session, /search the program for:/, 'the search prompt');
    tmux('send-keys', '-t', session, '-l', 'inc');
    await keys('Enter');
    const found = await waitFor(session, /line \d+: inc r15 \(match 1 of 1 for 'inc'\)/, 'the search result');
    assert.match(found, />\s+\d+ .*inc r15/, 'the line is selected');

    // too small: said, and the screen back when the terminal grows
    tmux('resize-window', '-t', session, '-x', '40', '-y', '10');
    const small = await waitFor(session, /terminal too small/, 'the too-small message');
    assert.match(small.replace(/\s+/g, ' '), /need at least 60×\d+ \(this one is 40×10\)/);
    for (const l of small.split('\n')) assert.ok(l.length <= 40, l);
    tmux('resize-window', '-t', session, '-x', '80', '-y', '24');
    await waitFor(session, /cycle 210 of/, 'the explorer again');
    await keys('q');
    await waitFor(session, /EXITED rc=0/, 'the end');
  } finally {
    await stopServer();
  }
});

test('80x24: / in the region picker keeps the entries whose label holds the text; enter picks', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const session = 'pickersearch';
  const cmd = `node --import tsx src/cli/main.cts examples/bin/two-regions.o --arch SKL --iterations 20${AFTER}`;
  try {
    newSession(session, ROOT, cmd);
    const s = await waitFor(session, /holds 2 regions: pick one \(↑\/↓, enter; \/ searches; q quits\)/, 'the picker');
    for (const l of s.split('\n')) assert.ok(l.length <= 80, l);
    tmux('send-keys', '-t', session, '/');
    tmux('send-keys', '-t', session, '-l', 'region 2');
    const f = await waitFor(session, /\/region 2▏ 1 of 2 match/, 'the search');
    assert.match(f, /❯\s+2 /);
    assert.doesNotMatch(f, /^\s+1 /m, 'region 1 is filtered out');
    tmux('send-keys', '-t', session, 'Enter');
    const e = await waitFor(session, /cycle 0 of/, 'the explorer on region 2');
    assert.match(e, /IACA region 2/);
    tmux('send-keys', '-t', session, 'q');
    await waitFor(session, /EXITED rc=0/, 'the end');
  } finally {
    await stopServer();
  }
});
