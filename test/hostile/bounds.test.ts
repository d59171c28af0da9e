// A few bytes of assembly that expand without bound, and an assembly interrupted or without a
// usable temporary directory: refused in one line, bounded in time and memory, nothing left
// behind. The bound (src/disasm/limits.ts) is raised with --max-instructions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TSX, assertOneLine, cli, tempDir } from './helpers.js';
import { assemble } from '../../src/disasm/assemble.js';
import { UserError } from '../../src/errors.js';

const write = (name: string, text: string): string => {
  const file = join(tempDir('bounds'), name);
  writeFileSync(file, text);
  return file;
};

test('.rept 10000000 of one instruction (25 bytes) is refused in one line, at once', () => {
  const file = write('rept.s', '.rept 10000000\nnop\n.endr\n');
  const t0 = performance.now();
  const r = cli(['report', file], { timeout: 60_000 });
  const s = (performance.now() - t0) / 1000;
  assertOneLine(r, /expands too much.*--max-instructions/);
  // the assembler alone used to run 12 s and 375 MB, then uopscope past a minute at 880 MB;
  // now it stops at its first large allocation (the machine running the tests may be loaded)
  assert.ok(s < 20, `${s.toFixed(1)} s`);
});

test(".fill 100000000 inside a loop is refused by the assembler's output bound", () => {
  const r = cli(['report', write('fill.s', 'l: .fill 100000000, 1, 0x90\njmp l\n')], { timeout: 60_000 });
  assertOneLine(r, /wrote more than \d+ MiB.*--max-instructions/);
});

test('.include "/dev/zero" stops at the assembler\'s memory bound', () => {
  const r = cli(['report', write('zero.s', '.include "/dev/zero"\n')], { timeout: 90_000 });
  assertOneLine(r, /needed more than \d+ MiB|ran longer than/);
});

test('a region beyond the bound is refused before decoding; --max-instructions raises it', () => {
  const file = write('nops.s', '.rept 25000\nnop\n.endr\n');
  assertOneLine(cli(['disasm', file]), /holds more than 20,000 instructions.*--max-instructions N/);
  const ok = cli(['disasm', file, '--max-instructions', '30000']);
  assert.equal(ok.code, 0, ok.err);
  const raw = join(tempDir('bounds'), 'nops.bin');
  writeFileSync(raw, Buffer.alloc(400_000, 0x90));
  assertOneLine(cli(['report', '--raw', raw]), /spans 400,000 bytes.*--max-instructions/);
  assertOneLine(cli(['disasm', file, '--max-instructions', 'lots']), /--max-instructions 'lots': not a whole number/);
});

test('an unusable TMPDIR (a file, missing) is one line, not an internal error', () => {
  // in-process: the test runner's own loader (tsx) keeps its cache in TMPDIR too
  const file = write('k.s', 'l: add rax, rbx\njnz l\n');
  const notDir = write('not-a-directory', '');
  const saved = process.env.TMPDIR;
  try {
    for (const [tmp, code] of [
      [notDir, 'ENOTDIR'],
      [join(notDir, 'missing'), 'ENOTDIR'],
      [join(tempDir('gone'), 'missing'), 'ENOENT'],
    ] as const) {
      process.env.TMPDIR = tmp;
      assert.throws(
        () => assemble(file),
        (e: unknown) =>
          e instanceof UserError &&
          new RegExp(`temporary directory .* unusable \\(${code}\\); set TMPDIR`).test(e.message),
      );
    }
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});

test('SIGTERM while the assembler runs leaves no temporary directory and no assembler behind', {
  skip: process.platform !== 'linux' && 'Linux only',
}, async () => {
  const tmp = tempDir('tmpdir');
  const file = write('slow.s', '.rept 2500000\nnop\n.endr\n');
  const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src', 'cli', 'main.cts'), 'report', file], {
    env: { ...process.env, TMPDIR: tmp, UOPSCOPE_CACHE_DIR: tempDir('cache'), UOPSCOPE_CONFIG_DIR: tempDir('config') },
    stdio: 'ignore',
  });
  // wait until the assembler has its directory, then end uopscope as `timeout` would
  const deadline = Date.now() + 60_000;
  const mine = () => readdirSync(tmp).filter((f) => f.startsWith('uopscope-asm-'));
  while (mine().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.ok(mine().length > 0, 'the assembler never started');
  const asDir = join(tmp, mine()[0]!);
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  const gone = Date.now() + 10_000;
  const running = () => spawnSync('pgrep', ['-f', asDir], { encoding: 'utf8' }).stdout.trim();
  while ((existsSync(asDir) || running()) && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
  assert.equal(existsSync(asDir), false, `${asDir} left behind`);
  assert.equal(running(), '', 'an assembler still runs');
});
