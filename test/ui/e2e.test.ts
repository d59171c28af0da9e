// End to end in a real pseudo-terminal: `uopscope FILE` runs inside a detached tmux session of
// 80x24; keys go in with send-keys, the screen comes back with capture-pane.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const SOCKET = `uopscope-test-${process.pid}`;

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });

test('uopscope in a real terminal: step, variant, branches, arch switch, export, quit', {
  skip: hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run',
  timeout: 120_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), 'uopscope-e2e-'));
  const session = 'explorer';
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  const waitFor = async (re: RegExp, what: string, ms = 20_000) => {
    const end = Date.now() + ms;
    for (;;) {
      const s = screen();
      if (re.test(s)) return s;
      if (Date.now() > end) assert.fail(`timed out waiting for ${what} (${re}); the screen:\n${s}`);
      await sleep(100);
    }
  };
  const keys = async (...k: string[]) => { tmux('send-keys', '-t', session, ...k); await sleep(150); };
  const cmd = [
    'node --import tsx src/cli/main.ts examples/bin/branch',
    '--uops-xml test/fixtures/thesis/thesis-instructions.xml --arch SKL --iterations 50',
    `--export-dir ${out}`,
    "; echo \"EXITED rc=$?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e '-*icanon' -e '-*echo' | tr '\\n' ' '; echo; sleep 120",
  ].join(' ');
  try {
    tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', '-c', ROOT, cmd);
    let s = await waitFor(/cycle 0 of \d+/, 'the explorer');
    assert.match(s, /branch · IACA region 1 · SKL/);
    assert.match(s, /q quit/, 'the footer lists the keys');
    for (const line of s.split('\n')) assert.ok(line.length <= 80);

    await keys('l', 'l', 'l');
    await waitFor(/cycle 3 of/, 'three steps');
    await keys('Left');
    s = await waitFor(/cycle 2 of/, 'one step back');

    await keys('f');
    s = await waitFor(/diverge at cycle \d+/, 'the variant pane and its divergence');
    assert.match(s, /variant: perfect front end/);
    assert.match(s, /baseline\s+perfect front end/);
    await keys('f', 'b');
    s = await waitFor(/fall-through\s+taken/, 'the branch panes');
    assert.match(s, /not on this path/);
    await keys('b');
    await waitFor(/variant: baseline/, 'back to the baseline');

    await keys(']');
    await waitFor(/cycle 12 of/, '+10');
    await keys('a');
    await waitFor(/❯ SKL/, 'the architecture picker');
    for (let i = 0; i < 10 && !/❯ CFL/.test(screen()); i++) await keys('Down');
    await keys('Enter');
    s = await waitFor(/CFL .*still at cycle 12/s, 'the switch to CFL at the same cycle');
    assert.match(s, /cycle 12 of/);

    await keys('x');
    s = await waitFor(/exported to \S+/, 'the export');
    const files = readdirSync(out).filter((f) => f.endsWith('.txt'));
    assert.equal(files.length, 1, 'one export file, no temporary left');
    const text = readFileSync(join(out, files[0]!), 'utf8');
    assert.match(text, /architecture: CFL/);
    assert.match(text, /current cycle: 12/);
    assert.match(text, /-- Per-line statistics/);
    assert.match(s.replace(/\s+/g, ''), new RegExp(files[0]!.replace(/[.]/g, '\\.')), 'the screen shows the path');

    await keys('q');
    s = await waitFor(/EXITED rc=0/, 'a clean exit');
    assert.match(s, /(^|\s)icanon echo/m, 'the terminal is back in canonical mode with echo');
    assert.doesNotMatch(s, /cycle \d+ of/, 'the alternate screen is gone');
  } finally {
    try { tmux('kill-server'); } catch { /* already gone */ }
    rmSync(out, { recursive: true, force: true });
  }
});
