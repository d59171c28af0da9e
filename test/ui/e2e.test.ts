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
import { hasTmux, tmuxServer } from './helpers/tmux.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-test', 20_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';

/** The first child process of `pid` (Linux /proc, else pgrep). */
function childOf(pid: string): string {
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    if (kids[0]) return kids[0];
  } catch {
    /* not Linux */
  }
  return execFileSync('pgrep', ['-P', pid], { encoding: 'utf8' }).trim().split('\n')[0]!;
}

// after uopscope ends: its exit status and whether the terminal is back to canonical mode with echo
const AFTER =
  "; echo \"EXITED rc=$? TTY: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e '-*icanon' -e '-*echo' | tr '\\n' ' ')END\"; sleep 120";

test('uopscope in a real terminal, as npm start runs it: step, variant, branches, arch switch, export, quit', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const out = mkdtempSync(join(tmpdir(), 'uopscope-e2e-'));
  const session = 'explorer';
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  const waitForHere = (re: RegExp, what: string) => waitFor(session, re, what);
  const keys = async (...k: string[]) => {
    tmux('send-keys', '-t', session, ...k);
    await sleep(150);
  };
  const cmd = [
    // what `npm start` runs (the bundled example, the embedded data), from the sources
    'node --import tsx src/cli/main.cts examples/bin/branch --arch SKL --iterations 50',
    `--export-dir ${out}`,
    AFTER,
  ].join(' ');
  try {
    newSession(session, ROOT, cmd);
    let s = await waitForHere(/cycle 0 of \d+/, 'the explorer');
    assert.match(s, /branch · IACA region 1 · SKL/);
    assert.match(s, /q quit/, 'the footer lists the keys');
    for (const line of s.split('\n')) assert.ok(line.length <= 80);

    await keys('l', 'l', 'l');
    await waitForHere(/cycle 3 of/, 'three steps');
    await keys('Left');
    s = await waitForHere(/cycle 2 of/, 'one step back');

    await keys('f');
    s = await waitForHere(/diverge at cycle \d+/, 'the variant pane and its divergence');
    assert.match(s, /variant: perfect front-end/);
    assert.match(s, /baseline\s+perfect front-end/);
    await keys('f', 'b');
    s = await waitForHere(/fall-through\s+taken/, 'the branch panes');
    assert.match(s, /not on this path/);
    await keys('b');
    await waitForHere(/variant: baseline/, 'back to the baseline');

    await keys(']');
    await waitForHere(/cycle 12 of/, '+10');
    await keys('a');
    await waitForHere(/❯ SKL/, 'the architecture picker');
    for (let i = 0; i < 10 && !/❯ SNB/.test(screen()); i++) await keys('Up');
    await keys('Enter');
    s = await waitForHere(/SNB .*still at cycle 12/s, 'the switch to SNB at the same cycle');
    // at 80 columns the architecture's long name gives way to the model (the header's fallback)
    assert.match(
      s,
      /· SNB( \(Sandy Bridge\))? · 50 iter · refined( \(no front end\))? · /,
      'the default model (refined: the lower measured error)',
    );
    assert.match(s, /cycle 12 of/);

    // the model menu: switch macro-fusion off, live, at the same cycle
    await keys('s');
    s = await waitForHere(/❯ \[x\] macro-fusion/, 'the model menu');
    for (const line of s.split('\n')) assert.ok(line.length <= 80);
    await keys('Enter');
    await waitForHere(/❯ \[ \] macro-fusion/, 'macro-fusion off');
    await keys('Escape');
    s = await waitForHere(
      /· 50 iter · refined −macro-fus( \(no front end\))? · .*model: refined −macro-fus, still at cycle 12/s,
      'the header names the model',
    );

    await keys('x');
    s = await waitForHere(/export to: \S+/, 'the export prompt with the proposed path');
    assert.match(
      s.replace(/\s+/g, ''),
      new RegExp(out.replace(/[.]/g, '\\.').replace(/\s+/g, '')),
      'it proposes the --export-dir',
    );
    await keys('Enter');
    s = await waitForHere(/exported to \S+/, 'the export');
    const files = readdirSync(out).filter((f) => f.endsWith('.txt'));
    assert.equal(files.length, 1, 'one export file, no temporary left');
    const text = readFileSync(join(out, files[0]!), 'utf8');
    assert.match(text, /architecture: SNB/);
    assert.match(text, /ports p0 p1 p2 p3 p4 p5\n/, 'Sandy Bridge has six ports');
    assert.match(text, /current cycle: 12/);
    assert.match(text, /\nmodel: refined −macro-fus \(macro-fusion off, micro-fusion on, /);
    assert.match(text, /-- Per-line statistics/);
    assert.match(s.replace(/\s+/g, ''), new RegExp(files[0]!.replace(/[.]/g, '\\.')), 'the screen shows the path');

    await keys('q');
    s = await waitForHere(/EXITED rc=\d+ TTY: .*END/, 'the end');
    assert.match(s, /EXITED rc=0 /);
    assert.match(s, /TTY: icanon echo END/, 'the terminal is back in canonical mode with echo');
    assert.doesNotMatch(s, /cycle \d+ of/, 'the alternate screen is gone');
  } finally {
    await stopServer();
    rmSync(out, { recursive: true, force: true });
  }
});

test('a file with two regions opens the picker; SIGTERM and NO_COLOR still leave the terminal usable; CI=true does not stop a terminal from being interactive', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const session = 'picker';
  const cmd = `CI=true NO_COLOR=1 node --import tsx src/cli/main.cts examples/bin/two-regions.o --iterations 20${AFTER}`;
  try {
    newSession(session, ROOT, cmd);
    await waitFor(session, /holds 2 regions: pick one/, 'the region picker');
    tmux('send-keys', '-t', session, 'Down');
    await waitFor(session, /❯\s+2 /, 'region 2 highlighted');
    tmux('send-keys', '-t', session, 'Enter');
    const s = await waitFor(session, /cycle 0 of/, 'the explorer on region 2');
    assert.match(s, /IACA region 2/);
    // no colour: the screen's cells carry no foreground colour
    const ansi = tmux('capture-pane', '-p', '-e', '-t', session);
    assert.doesNotMatch(ansi, /\u001B\[(?:[0-9;]*;)?3[1-7]m/, 'NO_COLOR: no colour codes on screen');
    tmux('send-keys', '-t', session, 'l');
    await waitFor(session, /cycle 1 of/, 'a step');
    // a larger terminal: every section at once, no tabs
    tmux('resize-window', '-t', session, '-x', '130', '-y', '45');
    const big = await waitFor(
      session,
      /Statistics \(per iteration, [\d.]+ complete\)/,
      'the layout of a large terminal',
    );
    assert.doesNotMatch(big, /tab: next pane/);
    assert.match(big, /Reservation station \d+\/\d+ µops/);
    assert.match(big, /divider: (free|busy)/);
    // the node process under the pane's shell
    const shell = tmux('display-message', '-p', '-t', session, '#{pane_pid}').trim();
    const pid = childOf(shell);
    process.kill(Number(pid), 'SIGTERM');
    const after = await waitFor(session, /EXITED rc=\d+ TTY: .*END/, 'the end after SIGTERM');
    assert.match(after, /EXITED rc=143/, 'ended by the signal');
    assert.match(after, /TTY: icanon echo END/, 'the terminal is back in canonical mode with echo');
    assert.doesNotMatch(after, /cycle \d+ of/, 'the alternate screen is gone');
  } finally {
    await stopServer();
  }
});

test('what can be checked is checked before asking: no data for the architecture is said before the region picker', {
  skip: SKIP,
  timeout: 60_000,
}, async () => {
  const session = 'nodata';
  // NHM: a core with a machine model but no figures at all (no uops.info data, no LLVM model)
  const cmd = `node --import tsx src/cli/main.cts examples/bin/two-regions.o --arch NHM${AFTER}`;
  try {
    newSession(session, ROOT, cmd);
    const s = await waitFor(session, /EXITED rc=\d+ TTY: .*END|pick one/, 'the error or the picker');
    assert.doesNotMatch(s, /pick one/, 'no picker before the data check');
    assert.match(s, /no figures for NHM/);
    assert.match(s, /EXITED rc=2 /);
  } finally {
    await stopServer();
  }
});

test('Ctrl-C ends the explorer, and the region picker, with status 130 and the terminal restored', {
  skip: SKIP,
  timeout: 90_000,
}, async () => {
  try {
    for (const [session, file, ready] of [
      ['ctrlc-explorer', 'examples/bin/branch', /cycle 0 of/],
      ['ctrlc-picker', 'examples/bin/two-regions.o', /pick one/],
    ] as const) {
      const cmd = `node --import tsx src/cli/main.cts ${file} --arch SKL --iterations 20${AFTER}`;
      newSession(session, ROOT, cmd);
      await waitFor(session, ready, `${session}: ready`);
      tmux('send-keys', '-t', session, 'C-c');
      const s = await waitFor(session, /EXITED rc=\d+ TTY: .*END/, `${session}: the end`);
      assert.match(s, /EXITED rc=130 /, session);
      assert.match(s, /TTY: icanon echo END/, session);
    }
  } finally {
    await stopServer();
  }
});

test('x proposes the export directory of uopscope config, in a prompt the user can change before anything is written', {
  skip: SKIP,
  timeout: 90_000,
}, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'uopscope-e2e-cfg-'));
  const session = 'exportdir';
  const env = `UOPSCOPE_CONFIG_DIR=${tmp}/cfg`;
  try {
    execFileSync('node', ['--import', 'tsx', 'src/cli/main.cts', 'config', 'set', 'export-dir', `${tmp}/out`], {
      cwd: ROOT,
      env: { ...process.env, UOPSCOPE_CONFIG_DIR: `${tmp}/cfg` },
    });
    execFileSync('mkdir', ['-p', `${tmp}/out`, `${tmp}/other`]);
    newSession(session, ROOT, `${env} node --import tsx src/cli/main.cts examples/bin/branch --iterations 20${AFTER}`, {
      cols: 120,
      rows: 40,
    });
    await waitFor(session, /cycle 0 of/, 'the explorer');
    tmux('send-keys', '-t', session, 'x');
    const s = await waitFor(session, /export to: /, 'the prompt');
    assert.match(s, new RegExp(`export to: ${tmp}/out/uopscope-branch-\\d{8}-\\d{6}\\.txt`));
    assert.deepEqual(readdirSync(`${tmp}/out`), [], 'nothing is written before enter');
    // the user types another path: it replaces the proposal
    tmux('send-keys', '-t', session, '-l', `${tmp}/other/mine.txt`);
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor(session, /exported to \S*mine\.txt/, 'the export');
    assert.deepEqual(readdirSync(`${tmp}/other`), ['mine.txt']);
    assert.deepEqual(readdirSync(`${tmp}/out`), []);
    tmux('send-keys', '-t', session, 'q');
    await waitFor(session, /EXITED rc=0 /, 'the end');
  } finally {
    await stopServer();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--function on a function with several loops offers them in the picker (keys in one burst count)', {
  skip: SKIP || (spawnSync('gcc', ['--version']).status === 0 ? false : 'gcc is not installed'),
  timeout: 90_000,
}, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'uopscope-e2e-fn-'));
  const session = 'function';
  try {
    execFileSync('gcc', ['-O1', '-x', 'c', '-c', '-', '-o', `${tmp}/kern.o`], {
      input:
        'long mat(long *a, long n) { long s = 0; for (long i = 0; i < n; i++) for (long j = 0; j < n; j++) s += a[i * n + j]; return s; }\n',
    });
    newSession(
      session,
      ROOT,
      `node --import tsx src/cli/main.cts ${tmp}/kern.o --function mat --arch SKL --iterations 20${AFTER}`,
      { cols: 100, rows: 30 },
    );
    const s = await waitFor(session, /function mat holds \d+ regions: pick one/, "the picker of the function's loops");
    assert.match(s, /the whole function mat, as one straight block/);
    // the main (inner) loop is highlighted first, marked as the default
    assert.match(s, /❯.*in mat .*main loop.*\(default\)|❯.*in mat .*\(default\)/);
    // Up, Down, Down, Enter in one burst: the third entry
    tmux('send-keys', '-t', session, 'Up', 'Down', 'Down', 'Enter');
    const e = await waitFor(session, /cycle 0 of/, 'the explorer');
    assert.match(e, /range 0x[0-9a-f]+:0x[0-9a-f]+|mat/);
    tmux('send-keys', '-t', session, 'q');
    await waitFor(session, /EXITED rc=0 /, 'the end');
  } finally {
    await stopServer();
    rmSync(tmp, { recursive: true, force: true });
  }
});
