// `-` as an output: every `-` argument became the standard-input placeholder before yargs, so
// `graph f --cfg -` wrote a file named `<stdin>` and `config set export-dir -` saved `./<stdin>`.
// `graph - --cfg in.bin < in.bin` overwrote the input binary (standard input redirected from
// it), and `--cfg X --dg X` wrote one graph and replaced it with the other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TSX, assertOneLine, cli, tempDir } from './helpers.js';

const BIN = join(ROOT, 'examples', 'bin', 'branch');

test('graph --cfg - and --dg - write standard output, no file named <stdin>', () => {
  const cwd = tempDir('dash');
  for (const flag of ['--cfg', '--dg']) {
    const r = cli(['graph', BIN, flag, '-'], { cwd });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^digraph "(cfg|dg)"/);
  }
  assert.deepEqual(readdirSync(cwd), []);
});

test("config set export-dir - saves a directory named '-', not <stdin>", () => {
  const cwd = tempDir('dashcfg');
  const config = tempDir('dashcfgdir');
  const env = { UOPSCOPE_CONFIG_DIR: config };
  assert.equal(cli(['config', 'set', 'export-dir', '-'], { cwd, env }).code, 0);
  const saved = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8'));
  assert.equal(saved['export-dir'], join(cwd, '-'));
});

test('--uops-xml - does not read a file named <stdin>', () => {
  const r = cli(['report', BIN, '--uops-xml', '-'], { cwd: tempDir('dashxml') });
  assert.doesNotMatch(r.err, /<stdin>/);
});

test('graph - --cfg in.bin < in.bin is refused: the output is the input', () => {
  const dir = tempDir('stdinout');
  const bin = join(dir, 'in.bin');
  copyFileSync(BIN, bin);
  const before = readFileSync(bin);
  const fd = openSync(bin, 'r');
  const r = spawnSync(
    process.execPath,
    ['--import', TSX, join(ROOT, 'src', 'cli', 'main.cts'), 'graph', '-', '--cfg', bin],
    {
      encoding: 'utf8',
      cwd: dir,
      stdio: [fd, 'pipe', 'pipe'],
      env: { ...process.env, UOPSCOPE_CACHE_DIR: tempDir('cache') },
    },
  );
  closeSync(fd);
  assertOneLine({ code: r.status, out: r.stdout, err: r.stderr, signal: r.signal }, /in\.bin: is the input/);
  assert.deepEqual(readFileSync(bin), before);
});

test('graph --cfg X --dg X is refused before either is written', () => {
  const dir = tempDir('twice');
  const x = join(dir, 'x.dot');
  assertOneLine(
    cli(['graph', BIN, '--cfg', x, '--dg', x]),
    /x\.dot: named for both the control-flow graph and the dependency graph/,
  );
  assert.equal(existsSync(x), false);
});
