// The README's and --help's `examples/…` paths work from any directory: the package's copy is read
// when the path is missing where it is typed, and said on stderr; a user's own file wins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packagedExample } from '../../src/cli/examplePath.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli', 'main.cts');
const TSX = import.meta.resolve('tsx');

test('only a missing relative examples/ path that the package has is swapped', () => {
  const here = new Set(['examples/mine.s']);
  const exists = (p: string) => here.has(p) || p === join(ROOT, 'examples/bin/branch');
  assert.equal(packagedExample('examples/bin/branch', exists), join(ROOT, 'examples/bin/branch'));
  assert.equal(packagedExample('./examples/bin/branch', exists), join(ROOT, 'examples/bin/branch'));
  assert.equal(packagedExample('examples/mine.s', exists), undefined, "the user's own file wins");
  assert.equal(packagedExample('examples/bin/nothing', exists), undefined);
  assert.equal(packagedExample('examples/../package.json', exists), undefined, 'no way out of examples/');
  assert.equal(packagedExample(join(ROOT, 'examples/bin/branch'), exists), undefined, 'absolute paths as given');
  assert.equal(packagedExample('bin/branch', exists), undefined);
});

test('a report of examples/bin/branch from an empty directory, and a file of the same name there', () => {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-exdir-'));
  const env = { ...process.env, UOPSCOPE_CACHE_DIR: join(dir, '.cache'), UOPSCOPE_CONFIG_DIR: join(dir, '.config') };
  const run = () =>
    spawnSync(process.execPath, ['--import', TSX, CLI, 'disasm', 'examples/bin/branch', '--arch', 'SKL'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
  try {
    const r = run();
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /examples\/bin\/branch is not in this directory; reading uopscope's own example /);
    assert.match(r.stdout, /vdivpd|add|jne|jnz/);
    // the user's own examples/bin/branch (here a text file, not a binary) is the one read
    mkdirSync(join(dir, 'examples', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'examples', 'bin', 'branch'), 'imul rax, rbx\n');
    const own = run();
    assert.equal(own.status, 2, own.stderr);
    assert.match(own.stderr, /^uopscope: examples\/bin\/branch: unknown format \(a text file\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
