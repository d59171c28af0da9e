// End to end in a real pseudo-terminal (tmux): a terminal resized while the explorer is stopped
// (Ctrl-Z) is followed on fg (the terminal sends SIGWINCH to its foreground job only, so the
// program reads the size again when it continues); the region picker is drawn on the alternate
// screen, as the explorer is, and leaves the shell's screen as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { hasTmux, tmuxServer } from './helpers/tmux.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-terminal', 20_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';

test('Ctrl-Z, a resize while stopped, fg: the explorer is drawn at the new size', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const session = 'resume';
  try {
    newSession(session, ROOT, 'PS1="SHELL> " bash --norc --noprofile -i', { cols: 80, rows: 24 });
    await waitFor(session, /SHELL>/, 'the shell');
    tmux('send-keys', '-t', session, '-l', 'node --import tsx src/cli/main.cts examples/bin/branch --arch SKL');
    tmux('send-keys', '-t', session, 'Enter');
    // at 80×24 the panes are tabs
    await waitFor(session, /cycle 0 of \d+[\s\S]*tab: next pane/, 'the explorer at 80×24, its panes as tabs');
    tmux('send-keys', '-t', session, 'C-z');
    await waitFor(session, /Stopped[\s\S]*SHELL>/, "the shell's prompt after Ctrl-Z");
    tmux('resize-window', '-t', session, '-x', '200', '-y', '50');
    tmux('send-keys', '-t', session, '-l', 'fg');
    tmux('send-keys', '-t', session, 'Enter');
    // at 200×50 every pane is on the screen at once: no tab bar
    const s = await waitFor(session, /cycle 0 of \d+[\s\S]*Statistics/, 'the explorer again');
    const end = Date.now() + 10_000;
    let screen = s;
    while (/tab: next pane/.test(screen) && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      screen = tmux('capture-pane', '-p', '-t', session);
    }
    assert.doesNotMatch(screen, /tab: next pane/, `laid out for 200×50, not 80×24:\n${screen}`);
    assert.ok(
      screen.split('\n').some((l) => l.trimEnd().length > 80),
      `lines wider than 80 columns:\n${screen}`,
    );
    tmux('send-keys', '-t', session, 'q');
  } finally {
    await stopServer();
  }
});

test("the region picker on the alternate screen: the shell's screen as it was after q", {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const session = 'picker';
  const modes = () => tmux('display', '-p', '-t', session, 'alternate #{alternate_on}').trim();
  try {
    newSession(session, ROOT, 'PS1="SHELL> " bash --norc --noprofile -i', { cols: 80, rows: 24 });
    await waitFor(session, /SHELL>/, 'the shell');
    tmux('send-keys', '-t', session, '-l', 'echo before-the-picker');
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor(session, /^before-the-picker$/m, 'the line before');
    tmux('send-keys', '-t', session, '-l', 'node --import tsx src/cli/main.cts examples/bin/two-regions --arch SKL');
    tmux('send-keys', '-t', session, 'Enter');
    const s = await waitFor(session, /2 regions: pick one/, 'the picker');
    assert.doesNotMatch(s, /before-the-picker/, 'the picker is on a screen of its own');
    assert.equal(modes(), 'alternate 1');
    tmux('send-keys', '-t', session, 'q');
    const after = await waitFor(
      session,
      /before-the-picker\nSHELL> node [^\n]*two-regions --arch SKL\nSHELL>/,
      "the shell's screen again",
    );
    assert.doesNotMatch(after, /pick one/, 'nothing of the picker left');
    assert.equal(modes(), 'alternate 0');
  } finally {
    await stopServer();
  }
});
