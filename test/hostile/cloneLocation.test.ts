// Tests that run the CLI as another user (outputs.test.ts, as nobody) skip, saying why, when that
// user cannot reach the clone: a clone under a directory only its owner may enter (/root, a
// `mktemp -d` directory) made them fail with "module not found". The check they skip on is this
// one, tried on such a directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userReaches } from './helpers.js';

const NOBODY = 65534;
const root = process.getuid?.() === 0;
const skip =
  (!root && 'needs root to act as another user') ||
  (spawnSync('setpriv', ['--help']).status !== 0 && 'needs setpriv (util-linux)');

test('a clone under a directory only its owner may enter is out of nobody’s reach; under an open one it is not', {
  skip,
}, () => {
  const top = mkdtempSync(join(tmpdir(), 'uopscope-clone-'));
  try {
    const clone = join(top, 'clone');
    mkdirSync(join(clone, 'src'), { recursive: true });
    const file = join(clone, 'src', 'main.cts');
    writeFileSync(file, '// the CLI\n');
    chmodSync(file, 0o644);
    chmodSync(clone, 0o755);
    chmodSync(join(clone, 'src'), 0o755);
    chmodSync(top, 0o700); // as mktemp -d makes it
    assert.equal(userReaches(NOBODY, [file]), false, 'under a 0700 directory');
    chmodSync(top, 0o755);
    assert.equal(userReaches(NOBODY, [file]), true, 'under an open directory');
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
});
