// src/cli/stdio.ts: a report is written to descriptor 1 without Node's stream objects (≈ 2 ms of
// start-up for a pipe), and the handlers run.ts puts on the streams are put there when something
// creates them. The built command (dist/, as users run it) is checked through Node's own list of
// the modules it loaded; tsx would load Node's net module itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.cjs');
const STDIO = pathToFileURL(join(ROOT, 'src', 'cli', 'stdio.ts')).href;

/** The built command on `args`, stdout a pipe; with the modules Node loaded. */
function builtWithModules(args: string[]): {
  status: number | null;
  stdout: string;
  stderr: string;
  modules: string[];
} {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-stdio-'));
  try {
    const list = join(dir, 'modules.txt');
    const preload = join(dir, 'list.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, MAIN, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, UOPSCOPE_CACHE_DIR: dir },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, modules: readFileSync(list, 'utf8').split('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a report into a pipe is written whole without creating process.stdout (Node's net module stays unloaded)", () => {
  const r = builtWithModules(['report', 'examples/bin/stencil', '--iterations', '1']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Region: IACA region 1 in examples\/bin\/stencil\n/);
  assert.match(r.stdout, /Source: .* no figures\n$/);
  assert.ok(
    !r.modules.includes('NativeModule net'),
    'net was loaded: something created process.stdout or process.stderr',
  );
});

test('control: a command that writes through process.stdout (disasm) does load it', () => {
  const r = builtWithModules(['disasm', 'examples/bin/stencil']);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.modules.includes('NativeModule net'));
});

test('a report into a reader that has stopped: status 0, nothing on stderr (EPIPE through writeSync)', async () => {
  // the reader's end is closed before the child writes: its write fails with EPIPE
  const r = await new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'report', 'examples/bin/stencil', '--iterations', '1'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
});

test("whenFirstUsed runs its setup when the stream is first used, once, and the stream is Node's", () => {
  const code = `
    const { whenFirstUsed, writeStdout } = await import(${JSON.stringify(STDIO)});
    const seen = [];
    whenFirstUsed('stderr', (s) => seen.push(s));
    const before = seen.length;
    process.stderr.write('x');
    process.stderr.write('y');
    const after = seen.length;
    writeStdout(JSON.stringify({ before, after, same: seen[0] === process.stderr, writable: typeof process.stderr.write }) + '\\n');
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, 'xy');
  assert.deepEqual(JSON.parse(r.stdout), { before: 0, after: 1, same: true, writable: 'function' });
});

test('standard output that cannot be written (/dev/full): one line, exit 74, no "internal error" (the report\'s writeSync, a stream\'s error, --help from its cache alike)', {
  skip: !existsSync('/dev/full') && 'no /dev/full',
}, () => {
  const cache = mkdtempSync(join(tmpdir(), 'uopscope-stdio-'));
  // --help rendered once by yargs (which prints through console.log: Node's console ignores write
  // errors, so that path cannot report one), then from its cache (start.ts's fast path; a report
  // makes the cache directory, and the help is kept only in an existing one)
  for (const args of [['report', 'examples/bin/stencil', '--iterations', '1'], ['--help']]) {
    spawnSync(process.execPath, [MAIN, ...args], {
      cwd: ROOT,
      stdio: 'ignore',
      timeout: 60_000,
      env: { ...process.env, UOPSCOPE_CACHE_DIR: cache },
    });
  }
  for (const args of [
    ['report', 'examples/bin/stencil', '--iterations', '1'],
    ['disasm', 'examples/bin/stencil'],
    ['--help'],
  ]) {
    const out = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [MAIN, ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        stdio: ['ignore', out, 'pipe'],
        env: { ...process.env, UOPSCOPE_CACHE_DIR: cache },
      });
      assert.equal(r.status, 74, `${args[0]}: ${r.stderr}`);
      assert.equal(
        r.stderr,
        'uopscope: cannot write to standard output (ENOSPC: no space left on device); check where it goes (a full disk, a closed device) and run again\n',
      );
    } finally {
      closeSync(out);
    }
  }
  rmSync(cache, { recursive: true, force: true });
});
