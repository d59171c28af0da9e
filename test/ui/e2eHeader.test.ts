// End to end in a real pseudo-terminal (tmux, 80x24): two variants on and M's result shown, every
// figure is whole on screen: line 1 keeps the file, region, iterations, model and variant; line 2
// names each pane's rate; the measurement has its own line (esc hides it); the comparison line
// keeps both panes' figures. Then the export holds the measurement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { hasTmux, tmuxServer } from './helpers/tmux.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-header-test', 60_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';

test('80x24, two variants and the measurement: every figure whole, each named', {
  skip: SKIP,
  timeout: 180_000,
}, async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'uopscope-e2e-header-'));
  const session = 'header';
  const keys = async (...k: string[]) => {
    tmux('send-keys', '-t', session, ...k);
    await sleep(200);
  };
  try {
    newSession(
      session,
      ROOT,
      `node --import tsx src/cli/main.cts examples/bin/stencil --arch SNB --iterations 50 --export-dir ${scratch}; sleep 120`,
      { env: [`UOPSCOPE_CACHE_DIR=${join(scratch, 'cache')}`] },
    );
    await waitFor(session, /cycle 0 of \d+/, 'the explorer');
    await keys('f');
    await waitFor(session, /diverge at cycle/, 'the first variant');
    await keys('p');
    await waitFor(session, /perfect FE\+inf\. ports/, 'both variants');
    await keys('M');
    let s = await waitFor(session, /measured|not measurable/, 'the measurement');
    await keys('G');
    s = await waitFor(session, /· finished/, 'the end of the run');
    s = await waitFor(session, /measured \d+\.\d\d c\/it|not measurable|measuring runs on/, 'the result');
    const rows = s.split('\n');
    for (const r of rows) assert.ok(r.length <= 80, r);
    // line 1: the essentials, the file's and region's names cut with … rather than dropped
    assert.match(rows[0]!, /^st\S* · \S.* · SNB · 50 iter · refined \(no front end\) · perfect FE\+inf\. ports$/);
    // line 2: each pane's rate, named, whole
    assert.match(
      rows[1]!,
      /^cycle (\d+) of \1 · .*baseline:? \d+\.\d\d.*perfect FE\+inf\. ports:? \d+\.\d\d.* · finished$/,
    );
    // line 3: the measurement, its own line, whole (or why there is none)
    if (/measured/.test(rows[2]!)) {
      assert.match(rows[2]!, /measured \d+\.\d\d c\/it/);
      assert.doesNotMatch(rows[2]!, /…$/);
    }
    // the comparison line: both panes' figures so far and for the run
    assert.match(s, /baseline \d+\.\d\d\/\d+\.\d\d │ perfect FE\S*( \S+)? \d+\.\d\d\/\d+\.\d\d/);
    // nowhere a figure cut by …
    assert.doesNotMatch(s, /\d…/);

    await keys('x');
    await waitFor(session, /export to: /, 'the export prompt');
    await keys('Enter');
    await waitFor(session, /exported to/, 'the export');
    const file = readdirSync(scratch).find((f) => f.endsWith('.txt'))!;
    const text = readFileSync(join(scratch, file), 'utf8');
    assert.match(text, /\nmeasurement \(M\): /, 'the measurement as shown is in the export');
    assert.match(text, /front-end not modelled/);

    // esc hides the measurement's line; the header's first two lines stay
    await keys('Escape');
    s = await waitFor(session, /^cycle \d+ of \d+[^\n]*\ndiverge/m, 'the measurement hidden');
    assert.doesNotMatch(s, /measured \d/);
  } finally {
    await stopServer();
    rmSync(scratch, { recursive: true, force: true });
  }
});
