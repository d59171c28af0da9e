// End to end in a real pseudo-terminal (tmux, 80x24): a long seek never freezes the explorer
// (it shows that it runs, Esc cancels it, q ends the program at once), a step back from the end
// of a run that never repeats shows the cycle before at once (checkpoints, not a replay from
// cycle 0), and Ctrl-Z suspends it to the shell as terminal programs do (fg resumes it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { hasTmux, tmuxServer } from './helpers/tmux.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-seek', 20_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';
const AFTER = '; echo "EXITED rc=$?"; sleep 120';

/** Sends keys and polls the pane (every 10 ms) until `re` shows: the milliseconds it took. */
async function timed(session: string, keys: string[], re: RegExp, what: string, ms = 30_000): Promise<number> {
  const t0 = Date.now();
  tmux('send-keys', '-t', session, ...keys);
  for (;;) {
    const s = tmux('capture-pane', '-p', '-t', session);
    if (re.test(s)) return Date.now() - t0;
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what} (${re}); the screen:\n${s}`);
    await sleep(10);
  }
}

// The machine these tests run on may be shared and loaded (npm test runs files in parallel):
// the bounds below are an order of magnitude under what a blocking seek or a replay from cycle
// 0 takes (10 s and more for these runs), and the measured times are printed.
const SHOWN_MS = 1_500;
const EXIT_MS = 2_000;

test('stencil at 5,000,000 iterations: G before the end is known and a far seek show that they run and Esc cancels them; G then ← steps back from the end at once', {
  skip: SKIP,
  timeout: 400_000,
}, async (t) => {
  const session = 'seek';
  // port choice at issue keeps the run from repeating: no period to jump by, only checkpoints
  const cmd = `node --import tsx src/cli/main.cts examples/bin/stencil --arch SKL --port-choice --iterations 5000000${AFTER}`;
  try {
    newSession(session, ROOT, cmd);
    await waitFor(session, /cycle 0 of/, 'the explorer', 60_000);
    // G before the worker knows the run's end: the explorer waits for it, says so, Esc cancels
    let ms = await timed(session, ['G'], /running to the end… \(esc cancels\)/, "G's busy status");
    t.diagnostic(`G: busy shown after ${ms} ms`);
    assert.ok(ms < SHOWN_MS, `G's busy status after ${ms} ms`);
    ms = await timed(session, ['Escape'], /cancelled: running to the end \(still at cycle 0\)/, 'the cancel');
    t.diagnostic(`Esc: cancelled after ${ms} ms`);
    assert.ok(ms < SHOWN_MS);
    // a far seek before then has nothing but the run's start to begin from: it runs in slices
    tmux('send-keys', '-t', session, 'g');
    tmux('send-keys', '-t', session, '-l', '13000000');
    ms = await timed(session, ['Enter'], /seeking cycle 13000000… \(esc cancels\)/, 'the far seek');
    t.diagnostic(`g 13000000: busy shown after ${ms} ms`);
    assert.ok(ms < SHOWN_MS, `the far seek's busy status after ${ms} ms`);
    ms = await timed(session, ['Escape'], /cancelled: seeking cycle 13000000 \(still at cycle 0\)/, 'the cancel');
    assert.ok(ms < SHOWN_MS);
    await timed(session, ['l'], /cycle 1 of/, 'a step after the cancel');
    // the worker's run (the whole run: about 2.75 cycles an iteration), then G lands on its end at once
    const screen = await waitFor(session, /cycle 1 of \d+/, "the run's length", 300_000);
    const end = Number(/cycle 1 of (\d+)/.exec(screen)![1]);
    assert.ok(end > 13_000_000, `a run of ${end} cycles`);
    await timed(session, ['G'], new RegExp(`cycle ${end} of ${end} .*finished`), 'the end');
    // ← from the end starts from the checkpoint the worker's run left near its end, not from
    // cycle 0 (a replay of 13 million cycles took 10 s and more here)
    ms = await timed(session, ['Left'], new RegExp(`cycle ${end - 1} of ${end} · `), 'the cycle before the end');
    t.diagnostic(`← from the end: cycle ${end - 1} shown after ${ms} ms`);
    assert.ok(ms < SHOWN_MS, `← from the end took ${ms} ms`);
    ms = await timed(session, ['Left'], new RegExp(`cycle ${end - 2} of ${end} · `), 'two before the end');
    assert.ok(ms < SHOWN_MS, `the next ← took ${ms} ms`);
    // far back, then forward again near the end: checkpoints both ways
    tmux('send-keys', '-t', session, 'g');
    tmux('send-keys', '-t', session, '-l', String(end - 5_000_000));
    ms = await timed(session, ['Enter'], new RegExp(`cycle ${end - 5_000_000} of ${end} · `), 'a far seek back');
    t.diagnostic(`g ${end - 5_000_000} from the end: shown after ${ms} ms`);
    await timed(session, ['G'], new RegExp(`cycle ${end} of ${end} .*finished`), 'the end again');
    await timed(session, ['Left'], new RegExp(`cycle ${end - 1} of ${end} · `), 'the cycle before the end again');
    ms = await timed(session, ['q'], /EXITED rc=0/, 'the end after q');
    assert.ok(ms < EXIT_MS, `q took ${ms} ms`);
  } finally {
    await stopServer();
  }
});

test('q during a long seek ends the program at once', { skip: SKIP, timeout: 120_000 }, async (t) => {
  const session = 'quit';
  const cmd = `node --import tsx src/cli/main.cts examples/bin/stencil --arch SKL --port-choice --iterations 5000000${AFTER}`;
  try {
    newSession(session, ROOT, cmd);
    await waitFor(session, /cycle 0 of/, 'the explorer', 60_000);
    // (the worker is still running the whole run: the seek begins at cycle 0)
    tmux('send-keys', '-t', session, 'g');
    tmux('send-keys', '-t', session, '-l', '14000000');
    await timed(session, ['Enter'], /seeking cycle 14000000… \(esc cancels\)/, 'the far seek');
    const ms = await timed(session, ['q'], /EXITED rc=0/, 'the end after q');
    t.diagnostic(`q during the seek: exited after ${ms} ms`);
    assert.ok(ms < EXIT_MS, `q took ${ms} ms`);
  } finally {
    await stopServer();
  }
});

test('Ctrl-Z suspends the explorer to the shell; fg resumes it where it was', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const session = 'suspend';
  try {
    newSession(session, ROOT, 'PS1="SHELL> " bash --norc --noprofile -i');
    await waitFor(session, /SHELL>/, 'the shell');
    // one job of the shell (sh and the explorer): Ctrl-Z stops both, fg continues both
    tmux(
      'send-keys',
      '-t',
      session,
      '-l',
      `sh -c 'node --import tsx src/cli/main.cts examples/bin/branch --arch SKL --iterations 20; echo "EXITED rc=$?"'`,
    );
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor(session, /cycle 0 of/, 'the explorer');
    tmux('send-keys', '-t', session, 'l', 'l');
    // the run's length too (it comes from the worker): after that the frame does not change by
    // itself, so whatever is on the screen after fg is the resume's own doing
    const before = await waitFor(session, /cycle 2 of \d+/, 'two steps and the run length');
    // the terminal's state as tmux keeps it: cursor shown, alternate screen on
    const modes = () => tmux('display', '-p', '-t', session, 'cursor #{cursor_flag} alternate #{alternate_on}').trim();
    assert.equal(modes(), 'cursor 0 alternate 1', 'the explorer on the alternate screen, the cursor hidden');
    tmux('send-keys', '-t', session, 'C-z');
    let s = await waitFor(session, /Stopped[\s\S]*SHELL>/, "the shell's prompt after Ctrl-Z");
    assert.doesNotMatch(s, /cycle 2 of/, 'the alternate screen is left');
    assert.equal(modes(), 'cursor 1 alternate 0', 'the terminal as the shell had it');
    // what is typed now goes to the shell, not to the stopped program
    tmux('send-keys', '-t', session, '-l', 'echo typed-to-the-shell');
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor(session, /^typed-to-the-shell$/m, 'the shell ran the command');
    tmux('send-keys', '-t', session, '-l', 'fg');
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor(session, /cycle 2 of/, 'the explorer again, where it was');
    // the whole frame, not only what changed since the last one (nothing has)
    for (const end = Date.now() + 10_000; ; await sleep(100)) {
      s = tmux('capture-pane', '-p', '-t', session);
      if (s === before || Date.now() > end) break;
    }
    assert.equal(s, before, 'the whole screen is drawn again, as it was');
    assert.equal(modes(), 'cursor 0 alternate 1', 'the alternate screen again, the cursor hidden');
    tmux('send-keys', '-t', session, 'l');
    await waitFor(session, /cycle 3 of/, 'keys work after the resume');
    tmux('send-keys', '-t', session, 'q');
    s = await waitFor(session, /EXITED rc=\d+/, 'the end');
    assert.match(s, /EXITED rc=0/);
    assert.equal(modes(), 'cursor 1 alternate 0', 'the terminal put back after the resume too');
  } finally {
    await stopServer();
  }
});

test('a stopped explorer ended by a signal (kill %1) leaves the shell its screen as it was', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const session = 'killed';
  try {
    newSession(session, ROOT, 'PS1="SHELL> " bash --norc --noprofile -i');
    await waitFor(session, /SHELL>/, 'the shell');
    tmux('send-keys', '-t', session, '-l', 'node --import tsx src/cli/main.cts examples/bin/branch --arch SKL');
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor(session, /cycle 0 of \d+/, 'the explorer');
    tmux('send-keys', '-t', session, 'C-z');
    await waitFor(session, /Stopped[\s\S]*SHELL>/, "the shell's prompt after Ctrl-Z");
    // bash sends a stopped job SIGTERM, then SIGCONT: the explorer dies of the first and must
    // not take the terminal again on the second, nor leave the alternate screen a second time
    // (which moves the cursor back to where the explorer started, over the shell's lines)
    // the process itself is watched, not bash's `wait`: that returns at once (128 + the stop
    // signal) while bash's job table still has the job stopped, before the SIGCHLD of its
    // continuation; bash says how the job ended ("Terminated") before its next prompt
    tmux(
      'send-keys',
      '-t',
      session,
      '-l',
      'p=$(jobs -p %1); n=0; kill %1; while [ -d /proc/$p ] && [ $n -lt 40 ]; do n=$((n+1)); sleep 0.25; done; echo "GONE n=$n"',
    );
    tmux('send-keys', '-t', session, 'Enter');
    const s = await waitFor(session, /GONE n=\d+[\s\S]*SHELL>/, 'the end of the job');
    const lines = s.split('\n').filter((l) => l.trim());
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    assert.ok(at(/Stopped/) >= 0 && at(/Stopped/) < at(/kill %1/), `the job's stop, then the kill:\n${s}`);
    assert.ok(at(/GONE n=([0-9]|[1-3][0-9])$/) > at(/kill %1/), `the job gone within 10 s of the kill:\n${s}`);
    assert.ok(at(/Terminated/) > at(/kill %1/), `the job's end by SIGTERM:\n${s}`);
    const modes = tmux('display', '-p', '-t', session, 'cursor #{cursor_flag} alternate #{alternate_on}').trim();
    assert.equal(modes, 'cursor 1 alternate 0');
  } finally {
    await stopServer();
  }
});
