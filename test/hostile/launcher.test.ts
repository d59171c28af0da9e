// The package's bin, bin/uopscope.cjs (a sh script that is also CommonJS), does what no JavaScript
// can, since Node acts before any runs:
// - under an address-space limit (`ulimit -v`) too low for Node, Node aborted at start-up with
//   V8's dump (600,000 KiB: "Failed to reserve virtual memory for CodeRange"), and at 1,000,000
//   after its GC dump: now one line saying the limit and what to raise it to, or the command runs;
//   worker threads (each reserves 512 MiB of code range) are started only where the limit leaves
//   room, where a report with workers aborted under 1,500,000;
// - a region at the default bound (20,000 lines) ran under 1,000,000 and 1,500,000 KiB but ended
//   in V8's out-of-memory dump under 2,000,000 to 4,000,000: without guard regions V8 reserved
//   iced-x86's WebAssembly memory at the largest of 4, 3, 2 or 1 GiB that fitted, leaving the
//   heap less than 1 GB whatever the limit. iced.ts now reserves 16 MiB for it;
// - with standard output closed (`>&-`) Node reopened it on /dev/null and a report vanished with
//   exit 0: now one line and exit 74, while a parent that discards the output
//   (`stdio: 'ignore'`) still gets exit 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REGION_BYTES_PER_LINE,
  REGION_FIXED_BYTES,
  refuseRegionOverLimit,
  WORKER_ADDRESS_SPACE,
  workersThatFit,
} from '../../src/cli/addressSpace.js';
import { UserError } from '../../src/errors.js';
import { bigLoop, ROOT, tempDir } from './helpers.js';
import { hasTmux, tmuxServer } from '../ui/helpers/tmux.js';

const BIN = join(ROOT, 'bin', 'uopscope.cjs');
const BUILT = join(ROOT, 'dist', 'cli', 'main.cjs');
const linux = process.platform === 'linux';
const skip = (!linux && 'Linux only') || (!existsSync(BUILT) && 'needs the built CLI (npm run build)');

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** `bin` with `args` through bash, after `setup` (a `ulimit`, a redirection: `exec >&-`). */
function viaShell(setup: string, args: string[], env: NodeJS.ProcessEnv = {}, bin = BIN): Run {
  const r = spawnSync('bash', ['-c', `${setup}; exec "$0" "$@"`, bin, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 90_000,
    maxBuffer: 64 * 2 ** 20,
    env: {
      ...process.env,
      UOPSCOPE_CACHE_DIR: tempDir('launcher'),
      UOPSCOPE_CONFIG_DIR: tempDir('launchercfg'),
      ...env,
    },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function assertLine(r: Run, code: number, re: RegExp): void {
  assert.equal(r.code, code, `exit ${r.code}: ${r.err}`);
  const lines = r.err.replace(/\n$/, '').split('\n');
  assert.equal(lines.length, 1, r.err);
  assert.match(lines[0]!, re);
  assert.doesNotMatch(r.err, /Fatal|#|internal error|please report|\bat .*:\d+/);
}

test('under ulimit -v 300000 and 600000 the bin says in one line that the limit is too low, never blaming the input', {
  skip,
}, () => {
  for (const kib of [300_000, 600_000]) {
    for (const args of [['report', 'examples/bin/branch'], ['--version']]) {
      assertLine(
        viaShell(`ulimit -v ${kib}`, args),
        2,
        new RegExp(
          `^uopscope: the address-space limit \\(ulimit -v ${kib}, in KiB\\) is too low .*raise it \\(ulimit -v 1000000, or unlimited\\)$`,
        ),
      );
    }
  }
});

test('under ulimit -v 1000000 every command runs', { skip, timeout: 300_000 }, () => {
  const out = join(tempDir('launcherout'), 'cfg.dot');
  for (const args of [
    ['report', 'examples/bin/branch', '-i', '20'],
    ['disasm', 'examples/bin/branch'],
    ['regions', 'examples/bin/branch'],
    ['graph', 'examples/bin/branch', '--cfg', out],
    ['data', 'list'],
    ['--version'],
  ]) {
    const r = viaShell('ulimit -v 1000000', args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    assert.doesNotMatch(r.err, /Fatal|internal error|out of memory/i);
  }
});

test('a report that asks for worker threads runs under 1000000, 1500000 and 8000000 (only the workers that fit)', {
  skip,
  timeout: 300_000,
}, () => {
  // every what-if run after the first goes to worker threads, three of them
  const env = { UOPSCOPE_WORKERS: '3', UOPSCOPE_PARALLEL_MIN_MS: '0' };
  const args = ['report', 'examples/bin/branch', '-i', '100000', '--all-variants', '--json'];
  const free = viaShell('ulimit -v unlimited', args, env);
  assert.equal(free.code, 0, free.err);
  for (const kib of [1_000_000, 1_500_000, 8_000_000]) {
    const r = viaShell(`ulimit -v ${kib}`, args, env);
    assert.equal(r.code, 0, `ulimit -v ${kib}: ${r.err}`);
    assert.doesNotMatch(r.err, /Fatal|internal error/);
    assert.equal(r.out, free.out, 'the same figures with fewer workers');
  }
});

/** The largest mapping without access (a reservation) in a Node that imports `modules` under
 *  `ulimit -v kib`, as under the bin (no WebAssembly guard regions), in MiB. */
function largestReservation(kib: number, modules: string[]): number {
  const code = `
    for (const m of ${JSON.stringify(modules)}) await import(m);
    const { readFileSync } = await import('node:fs');
    const sizes = readFileSync('/proc/self/maps', 'utf8').trim().split('\\n')
      .filter((l) => l.split(' ')[1] === '---p')
      .map((l) => l.split(' ')[0].split('-').map((x) => parseInt(x, 16)))
      .map(([s, e]) => (e - s) / 2 ** 20);
    console.log(Math.max(...sizes));`;
  const r = spawnSync(
    'bash',
    [
      '-c',
      `ulimit -v ${kib}; exec "$0" --disable-wasm-trap-handler --input-type=module -e "$1"`,
      process.execPath,
      code,
    ],
    { encoding: 'utf8', cwd: ROOT, timeout: 60_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout);
}

test("the decoder's WebAssembly memory reserves little under a limit", { skip }, () => {
  // Without guard regions V8 reserved the memory's maximum (V8's own: iced-x86 declares none), or
  // 3/4, 1/2, 1/4 of it, whichever fitted: 1 GiB under 3,000,000 KiB, 2 GiB under 4,000,000, 4
  // GiB under 8,000,000. What is left to find is V8's code range (512 MiB).
  for (const kib of [3_000_000, 4_000_000, 8_000_000]) {
    const mib = largestReservation(kib, [`${ROOT}/dist/disasm/iced.js`]);
    assert.ok(mib < 600, `ulimit -v ${kib}: a reservation of ${mib} MiB`);
  }
});

test('a report of 19,999 lines (the default bound is 20,000): runs under 3000000, refused in one line under 1000000', {
  skip,
  timeout: 300_000,
}, () => {
  // it ended in V8's out-of-memory dump under 2,000,000 to 4,000,000 KiB (and under 1,000,000 on
  // some runs), the heap left less than 1 GB by the WebAssembly memory's reservation
  const file = bigLoop(tempDir('launcherbig'), 4999);
  const args = ['report', file, '-i', '1', '--fast'];
  const r = viaShell('ulimit -v 3000000', args, { UOPSCOPE_WORKERS: '0' });
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.err, /Fatal|heap out of memory|internal error/);
  assert.match(r.out, /Block throughput/);
  assertLine(
    viaShell('ulimit -v 1000000', args),
    2,
    /^uopscope: a region of 19,999 lines needs about 455 MiB of address space, but the limit set by ulimit -v \(1,000,000 KiB\) leaves \d+ MiB: raise it \(ulimit -v \d+00000, or unlimited\) or pick a smaller region/,
  );
  // in a batch, that region's error line; the others are reported
  const batch = viaShell('ulimit -v 1000000', ['report', file, 'examples/bin/branch', '--all-regions', '-i', '1']);
  assert.equal(batch.code, 2, batch.err);
  assert.match(batch.out, /^error: .*region 1 .*: a region of 19,999 lines needs about 455 MiB of address space/m);
  assert.match(batch.out, /Block throughput/);
  assert.doesNotMatch(batch.err, /Fatal|internal error/);
});

test('disasm and graph of 99,999 lines (--max-instructions 100000) under ulimit -v 1000000: one line, exit 2', {
  skip,
  timeout: 120_000,
}, () => {
  // both ended in V8's dump ("young object promotion failed") after 5 to 13 s
  const dir = tempDir('launcherlisted');
  const file = bigLoop(dir, 24_999);
  for (const args of [
    ['disasm', file, '--max-instructions', '100000'],
    ['graph', file, '--max-instructions', '100000', '--dg', join(dir, 'dg.dot')],
  ])
    assertLine(
      viaShell('ulimit -v 1000000', args),
      2,
      /^uopscope: a region of 99,999 lines needs about 650 MiB of address space, but the limit set by ulimit -v \(1,000,000 KiB\) leaves \d+ MiB: raise it/,
    );
});

test('the explorer opens under ulimit -v 1000000 (its worker only when it fits) and quits cleanly', {
  skip: skip || (!hasTmux && 'needs tmux'),
  timeout: 90_000,
}, async () => {
  const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-launcher');
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-launcher-ui-'));
  try {
    newSession(
      'ui',
      ROOT,
      `bash -c 'ulimit -v 1000000; ${BIN} examples/bin/branch 2>${dir}/err; echo "EXITED rc=$?"; sleep 60'`,
      { env: [`UOPSCOPE_CACHE_DIR=${dir}/cache`, `UOPSCOPE_CONFIG_DIR=${dir}/cfg`] },
    );
    await waitFor('ui', /cycle/i, 'the explorer', 60_000);
    tmux('send-keys', '-t', 'ui', 'q');
    await waitFor('ui', /EXITED rc=0/, 'a clean exit', 30_000);
    assert.doesNotMatch(readFileSync(join(dir, 'err'), 'utf8'), /Fatal|internal error|out of memory/i);
  } finally {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the explorer on a 19,999-line region under ulimit -v 3000000 opens and quits cleanly', {
  skip: skip || (!hasTmux && 'needs tmux'),
  timeout: 120_000,
}, async () => {
  // Ink's layout engine (yoga) reserved 1.5 GiB for its WebAssembly memory under this limit, and
  // the decoder 1 GiB: the region's analysis had less than 500 MB left
  const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-launcher-big');
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-launcher-big-'));
  try {
    const file = bigLoop(dir, 4999);
    newSession('ui', ROOT, `bash -c 'ulimit -v 3000000; ${BIN} ${file} 2>${dir}/err; echo "EXITED rc=$?"; sleep 60'`, {
      cols: 100,
      rows: 30,
      env: [`UOPSCOPE_CACHE_DIR=${dir}/cache`, `UOPSCOPE_CONFIG_DIR=${dir}/cfg`],
    });
    await waitFor('ui', /cycle/i, 'the explorer', 90_000);
    tmux('send-keys', '-t', 'ui', 'q');
    await waitFor('ui', /EXITED rc=0/, 'a clean exit', 30_000);
    assert.doesNotMatch(readFileSync(join(dir, 'err'), 'utf8'), /Fatal|internal error|out of memory|bad_alloc/i);
  } finally {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with standard output closed, a command that writes there says so in one line, exit 74', { skip }, () => {
  for (const args of [
    ['report', 'examples/bin/branch', '-i', '20'],
    ['disasm', 'examples/bin/branch'],
    ['data', 'list'],
    ['--version'],
  ]) {
    assertLine(viaShell('exec >&-', args), 74, /^uopscope: cannot write to standard output: it is closed \(EBADF/);
  }
  // nothing to write there: runs as in the shell (`true >&-`)
  const out = join(tempDir('launcherclosed'), 'cfg.dot');
  const g = viaShell('exec >&-', ['graph', 'examples/bin/branch', '--cfg', out]);
  assert.equal(g.code, 0, g.err);
  assert.match(readFileSync(out, 'utf8'), /digraph/);
  // a parent that discards the output (descriptor 1 on /dev/null) is not a closed output
  for (const stdio of ['ignore', 'pipe'] as const) {
    const r = spawnSync(BIN, ['report', 'examples/bin/branch', '-i', '20'], {
      cwd: ROOT,
      stdio: [stdio, stdio, 'pipe'],
      env: { ...process.env, UOPSCOPE_CACHE_DIR: tempDir('launcherign') },
    });
    assert.equal(r.status, 0, String(r.stderr));
  }
  assert.equal(viaShell('exec >/dev/null', ['report', 'examples/bin/branch', '-i', '20']).code, 0);
});

test('the bin runs through a chain of symlinks from another directory (npm link, npm install -g)', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-launcher-link-'));
  try {
    symlinkSync(BIN, join(dir, 'first'));
    symlinkSync(join(dir, 'first'), join(dir, 'uopscope'));
    const version = spawnSync(join(dir, 'uopscope'), ['--version'], { cwd: dir, encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout, `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
    const r = viaShell(
      'ulimit -v 1500000',
      ['report', join(ROOT, 'examples/bin/branch'), '-i', '20'],
      {},
      join(dir, 'uopscope'),
    );
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Block throughput/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('workers that fit: all without a limit, else those the room left takes', () => {
  const limits = (v: string) =>
    `Limit                     Soft Limit           Hard Limit           Units\nMax address space         ${v}            ${v}            bytes\n`;
  const status = (kb: number) => `Name:\tnode\nVmSize:\t  ${kb} kB\nVmRSS:\t   40000 kB\n`;
  assert.equal(workersThatFit(3, { limits: limits('unlimited'), status: status(700_000) }), 3);
  const used = 800_000 * 1024;
  const room = (n: number) => ({
    limits: limits(String(used + n * WORKER_ADDRESS_SPACE + 1)),
    status: status(800_000),
  });
  assert.equal(workersThatFit(3, room(0)), 0);
  assert.equal(workersThatFit(3, room(2)), 2);
  assert.equal(workersThatFit(3, room(5)), 3);
  assert.equal(workersThatFit(0, room(5)), 0);
  // each thread's own simulation: the caller's first, then each worker's beside its reservation
  const region = 500 * 2 ** 20;
  assert.equal(workersThatFit(3, room(2), region), 0);
  const roomFor = (n: number) => ({
    limits: limits(String(used + region + n * (WORKER_ADDRESS_SPACE + region) + 1)),
    status: status(800_000),
  });
  assert.equal(workersThatFit(3, roomFor(0), region), 0);
  assert.equal(workersThatFit(3, roomFor(2), region), 2);
});

test('a region is refused when the limit leaves no room for its simulation, never without a limit', () => {
  const limits = (v: string) =>
    `Limit                     Soft Limit           Hard Limit           Units\nMax address space         ${v}            ${v}            bytes\n`;
  const status = (kb: number) => `Name:\tnode\nVmSize:\t  ${kb} kB\nVmRSS:\t   40000 kB\n`;
  const used = 800_000;
  const limitFor = (lines: number) => used * 1024 + REGION_FIXED_BYTES + lines * REGION_BYTES_PER_LINE;
  refuseRegionOverLimit(1_000_000, { limits: limits('unlimited'), status: status(used) });
  refuseRegionOverLimit(10_000, { limits: limits(String(limitFor(10_000))), status: status(used) });
  assert.throws(
    () => refuseRegionOverLimit(10_001, { limits: limits(String(limitFor(10_000))), status: status(used) }),
    (e: Error) =>
      e instanceof UserError &&
      e.exitCode === 2 &&
      /^a region of 10,001 lines needs about 260 MiB of address space, but the limit set by ulimit -v \(1,065,536 KiB\) leaves 259 MiB: raise it \(ulimit -v 1100000, or unlimited\)/.test(
        e.message,
      ),
  );
});
