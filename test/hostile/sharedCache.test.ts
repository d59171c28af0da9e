// `measure` ran whatever sat in the cache under the harness's name: with the cache on a shared
// directory (mode 1777) another user could plant `measure/harness-<hash>` and have it run with
// the victim's rights, its output taken as measured figures. Now the harness's directory must be
// the user's own and not writable by others, and the file run must be the one uopscope built
// (its digest, kept beside it). Root runs these tests: "another user" is a directory chown'ed to
// nobody's uid, or one writable by others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assertOneLine, cli, tempDir } from './helpers.js';

const root = process.getuid?.() === 0;
const linux = process.platform === 'linux' && process.arch === 'x64';
const NOBODY = 65534;
const hash = createHash('sha256')
  .update(readFileSync(join(ROOT, 'assets', 'measure', 'harness.c')))
  .update(readFileSync(join(ROOT, 'assets', 'measure', 'slope.h')))
  .digest('hex')
  .slice(0, 16);

/** A shared cache (mode 1777) holding a planted program under the harness's name, which leaves
 *  a marker when it runs and prints what could pass for a result. */
function planted(): { cache: string; dir: string; marker: string } {
  const cache = tempDir('shared');
  chmodSync(cache, 0o1777);
  const dir = join(cache, 'measure');
  mkdirSync(dir);
  const marker = join(cache, 'ran');
  writeFileSync(join(dir, `harness-${hash}`), `#!/bin/sh\ntouch ${marker}\necho 'ok 1'\n`, { mode: 0o755 });
  return { cache, dir, marker };
}

const measure = (cache: string) => cli(['measure', 'examples/bin/branch'], { cache, timeout: 120_000 });

test('a harness directory owned by another user is refused, and what it holds never runs', {
  skip: (!root && 'needs root to chown') || (!linux && 'Linux x86-64 only'),
}, () => {
  const p = planted();
  chownSync(p.dir, NOBODY, NOBODY);
  chownSync(join(p.dir, `harness-${hash}`), NOBODY, NOBODY);
  assertOneLine(measure(p.cache), /harness's directory .*measure is owned by another user \(uid 65534\)/);
  assert.equal(existsSync(p.marker), false, 'the planted program ran');
});

test('a harness directory writable by others is refused', { skip: !linux && 'Linux x86-64 only' }, () => {
  const p = planted();
  chmodSync(p.dir, 0o777);
  assertOneLine(measure(p.cache), /harness's directory .*measure is writable by every user/);
  assert.equal(existsSync(p.marker), false, 'the planted program ran');
});

test('a program put in the place of the built harness is rebuilt over, never run', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const p = planted(); // the directory is the user's own: only the file is not what was built
  const r = measure(p.cache);
  assert.equal(existsSync(p.marker), false, 'the planted program ran');
  assert.ok(existsSync(join(p.dir, `harness-${hash}.sha256`)));
  assert.doesNotMatch(readFileSync(join(p.dir, `harness-${hash}`), 'latin1'), /^#!/);
  assert.ok(r.code === 0 || r.code === 2, r.err);
});
