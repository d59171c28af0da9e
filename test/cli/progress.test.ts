// A long simulation shows its progress on stderr when stderr is a terminal, and nothing anywhere
// else: the engine's progress callback (results unchanged), the bar's drawing (delay, rate,
// final line, silence off a terminal), and `report -i 100000000` in a real terminal: the bar
// shows, stdout gets nothing from it, Ctrl-C ends the run at once with the status of SIGINT.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunsProgress } from '../../src/cli/progress.js';
import { analyse, loopFor } from '../../src/cli/pipeline.js';
import { BASELINE, simulate, PROGRESS_CYCLES } from '../../src/sim/index.js';
import { engineOptionsOf } from '../../src/sim/whatIf.js';
import { REFINED_MECHANISMS } from '../../src/sim/mechanisms.js';
import { hasTmux, tmuxServer } from '../ui/helpers/tmux.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.cjs');

function fakeStream(isTTY: boolean, columns = 80) {
  const writes: string[] = [];
  const stream = { isTTY, columns, write: (s: string) => writes.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, writes };
}

test('the engine reports its progress every PROGRESS_CYCLES cycles, and the results are the same', async () => {
  const a = await analyse({ file: join(ROOT, 'examples/bin/stencil'), arch: 'SKL', loop: loopFor(20_000) });
  const config = { iterations: 20_000, variant: { ...BASELINE } };
  for (const full of [false, true]) {
    // with port choice at issue the stencil on SKL never repeats (docs/engine.md, "Steady state"):
    // the run without fullSimulation simulates every cycle too, and reports as it goes
    const mechanisms = { ...REFINED_MECHANISMS, portChoice: true };
    const opts = { ...engineOptionsOf(mechanisms), ...(full ? { fullSimulation: true } : {}) };
    const seen: [number, number][] = [];
    const withProgress = simulate(a.program, a.params, config, {
      ...opts,
      onProgress: (d, t) => {
        seen.push([d, t]);
      },
    });
    assert.deepEqual(withProgress, simulate(a.program, a.params, config, opts), 'the callback changes nothing');
    const cycles = withProgress.stats.cycles;
    if (full) assert.equal(seen.length, Math.floor(cycles / PROGRESS_CYCLES), 'one call per PROGRESS_CYCLES cycles');
    assert.ok(seen.length >= 1, `a run of ${cycles} cycles reports at least once`);
    const total = 20_000 * a.program.instructions.length;
    for (let k = 0; k < seen.length; k++) {
      assert.equal(seen[k]![1], total);
      assert.ok(
        seen[k]![0] <= total && (k === 0 || seen[k]![0] >= seen[k - 1]![0]),
        'completed grows, up to the total',
      );
    }
  }
});

test('the bar: silent for the first 500 ms and off a terminal, at most 10 redraws a second, one final line', () => {
  let now = 0;
  const tty = fakeStream(true, 60);
  const p = new RunsProgress(tty.stream, () => now);
  const run = p.local();
  run.onProgress(10, 100);
  assert.deepEqual(tty.writes, [], 'nothing before 500 ms');
  now = 600;
  run.onProgress(50, 100);
  now = 650;
  run.onProgress(60, 100);
  assert.equal(tty.writes.length, 1, 'not again within 100 ms');
  assert.equal(tty.writes[0], '\r\x1b[2Ksimulating: 50% · 0 of 1 run done · 0 s');
  const slots = p.slots(2); // two runs in worker threads
  Atomics.store(slots, 0, 3);
  Atomics.store(slots, 1, 4);
  now = 61_000;
  p.tick();
  assert.equal(tty.writes[1], '\r\x1b[2Ksimulating: 45% · 0 of 3 runs done · 1 min 01 s');
  run.end();
  p.done();
  assert.equal(tty.writes.at(-1), '\r\x1b[2Kuopscope: simulated 3 runs in 1 min 01 s\n');
  // a narrow terminal: the line is cut to its width (one column left for the cursor)
  const narrow = fakeStream(true, 20);
  const q = new RunsProgress(narrow.stream, () => now, 0);
  q.local().onProgress(1, 2);
  assert.equal(narrow.writes[0], '\r\x1b[2Ksimulating: 50% · 0');
  q.done(false);
  assert.equal(narrow.writes.at(-1), '\r\x1b[2K', 'after a failure the bar is only erased');
  // not a terminal, or a short run: nothing at all
  const pipe = fakeStream(false);
  const r = new RunsProgress(pipe.stream, () => now, 0);
  r.local().onProgress(1, 2);
  r.done();
  assert.deepEqual(pipe.writes, []);
  const quick = fakeStream(true);
  const s = new RunsProgress(quick.stream, () => 0);
  s.local().end();
  s.done();
  assert.deepEqual(quick.writes, []);
});

test('report -i 100000000 in a real terminal: the bar on stderr, nothing on stdout, Ctrl-C stops it', {
  skip: !hasTmux,
  timeout: 90_000,
}, async () => {
  const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-progress');
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-progress-'));
  const out = join(dir, 'stdout');
  try {
    // --port-choice: a run that never repeats (the default configuration repeats and ends at once);
    // the shell traps SIGINT (a handler: reset to the default in node) so that it lives on to
    // print node's exit status
    newSession(
      'progress',
      ROOT,
      `bash -c 'trap "echo; echo INTERRUPTED" INT; UOPSCOPE_CACHE_DIR=${dir}/cache node ${MAIN} report examples/bin/stencil --fast --port-choice --iterations 100000000 >${out}; echo "EXITED rc=$?"; sleep 60'`,
    );
    await waitFor('progress', /simulating: \d+% · 0 of 1 run done · \d+ s/, 'the progress bar', 40_000);
    tmux('send-keys', '-t', 'progress', 'C-c');
    const s = await waitFor('progress', /EXITED rc=\d+/, 'the exit after Ctrl-C', 10_000);
    assert.match(s, /EXITED rc=130/, 'ended by SIGINT (128 + 2)');
    assert.doesNotMatch(s, /internal error|at .*\.js:\d+/, 'no stack trace');
    assert.equal(readFileSync(out, 'utf8'), '', 'nothing on stdout');
  } finally {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  }
});
