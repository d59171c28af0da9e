// End to end in a real pseudo-terminal (tmux, 80x24): M in the explorer runs the region on this
// machine in the background and shows measured vs the model in the header; quitting while it
// measures leaves no harness process and the terminal restored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { hasTmux, tmuxServer } from './helpers/tmux.js';
import { hostCore } from '../../src/measure/host.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const linux = process.platform === 'linux' && process.arch === 'x64';
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-measure-test', 60_000);
const SKIP = !hasTmux
  ? 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run'
  : !linux
    ? 'measuring runs on Linux x86-64 only'
    : false;

function harnessProcesses(cache: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(join(cache, 'measure'));
      } catch {
        return false;
      }
    })
    .map(Number);
}

const AFTER =
  "; echo \"EXITED rc=$? TTY: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e '-*icanon' -e '-*echo' | tr '\\n' ' ')END\"; sleep 120";

test("M in a real terminal: measured vs the model in the header, for the host's architecture; q while measuring", {
  skip: SKIP,
  timeout: 180_000,
}, async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'uopscope-e2e-measure-'));
  const cache = join(scratch, 'cache');
  const host = hostCore()?.arch ?? null;
  const session = 'measure';
  const keys = async (...k: string[]) => {
    tmux('send-keys', '-t', session, ...k);
    await sleep(150);
  };
  // the host's architecture when uopscope models it (then the header compares), else the default
  const arch = host ? `--arch ${host}` : '';
  try {
    newSession(
      session,
      ROOT,
      `node --import tsx src/cli/main.cts examples/bin/adc-chain ${arch} --iterations 50${AFTER}`,
      { env: [`UOPSCOPE_CACHE_DIR=${cache}`] },
    );
    await waitFor(session, /cycle 0 of \d+/, 'the explorer');
    await keys('M');
    await keys('l');
    let s = await waitFor(session, /measured \d+\.\d\d c\/it|not measurable/, 'the measurement');
    // the header's first line keeps the essentials; the measurement has the third line
    assert.match(s.split('\n')[0]!, /adc-chain · IACA region 1 · /);
    const head = s.split('\n')[2]!;
    assert.ok(head.length <= 80, head);
    if (host)
      assert.match(head, /measured \d+\.\d\d c\/it \((TSC(-calibrated)?|perf( cycles)?), unrolled\) · model \d+\.\d\d/);
    // at 80 columns the wording shortens, the figure stays whole
    else
      assert.match(
        head,
        /host \((no uopscope model|not modelled)\) measured \d+\.\d\d c\/it .*not (compared with|vs) \w+/,
      );
    // again, and quit at once: the harness is killed with the explorer
    await keys('M');
    await keys('q');
    s = await waitFor(session, /EXITED rc=\d+ TTY: .*END/, 'the end');
    assert.match(s, /EXITED rc=0 /);
    assert.match(s, /TTY: icanon echo END/, 'the terminal is back in canonical mode with echo');
    const end = Date.now() + 5000;
    while (harnessProcesses(cache).length && Date.now() < end) await sleep(50);
    assert.deepEqual(harnessProcesses(cache), [], 'no harness process left');
  } finally {
    await stopServer();
    rmSync(scratch, { recursive: true, force: true });
  }
});
