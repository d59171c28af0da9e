// The cache's own files are input: a FIFO in place of an imported architecture's file, of the
// index or of the embedded data's compiled copy hung `report` and `data list`, and an index
// linked to /dev/zero read without end. And in a cache on a shared directory another user can
// plant those files (or the measured figures): a file another user could have written is
// refused in one line, never taken as data. (Root runs these tests: "another user" is a file
// chown'ed to nobody's uid, or one writable by group or others.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { SMALL, assertOneLine, cli, tempDir } from './helpers.js';

const root = process.getuid?.() === 0;
const NOBODY = 65534;

function imported(): { cache: string; index: string; skl: string } {
  const cache = tempDir('cachefiles');
  const r = cli(['data', 'import', SMALL], { cache });
  assert.equal(r.code, 0, r.err);
  const v2 = join(cache, 'v2');
  const dir = readdirSync(v2).find((n) => n.startsWith('import-'))!;
  return { cache, index: join(v2, 'index.json'), skl: join(v2, dir, 'SKL.json') };
}

const fifo = (path: string): void => {
  rmSync(path, { force: true });
  execFileSync('mkfifo', [path]);
};

const report = (cache: string) =>
  cli(['report', 'examples/bin/branch', '--arch', 'SKL', '--iterations', '5'], {
    cache,
    timeout: 20_000,
  });

test('a FIFO in place of an imported architecture file is one line, not a hang', () => {
  const c = imported();
  fifo(c.skl);
  assertOneLine(report(c.cache), /the cached data .*SKL\.json is not a regular file/);
});

test('a FIFO or a link to /dev/zero in place of the index is one line, not a hang', () => {
  const c = imported();
  fifo(c.index);
  assertOneLine(cli(['data', 'list'], { cache: c.cache, timeout: 20_000 }), /the cache index .* is not a regular file/);
  rmSync(c.index);
  symlinkSync('/dev/zero', c.index);
  assertOneLine(cli(['data', 'list'], { cache: c.cache, timeout: 20_000 }), /the cache index .* is not a regular file/);
});

test("a FIFO in place of the embedded data's compiled copy: the default report still runs", () => {
  const cache = tempDir('embedded');
  assert.equal(cli(['report', 'examples/bin/branch', '--iterations', '5'], { cache }).code, 0);
  const v2 = join(cache, 'v2');
  const dir = join(v2, readdirSync(v2).find((n) => n.startsWith('embedded-'))!);
  for (const f of readdirSync(dir)) fifo(join(dir, f));
  const r = cli(['report', 'examples/bin/branch', '--iterations', '5'], { cache, timeout: 20_000 });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /SKL/);
});

test('an index or data file writable by others in a shared cache is refused', () => {
  const c = imported();
  chmodSync(c.index, 0o666);
  assertOneLine(cli(['data', 'list'], { cache: c.cache }), /the cache index .* is writable by every user/);
  chmodSync(c.index, 0o644);
  chmodSync(c.skl, 0o664);
  chownSync(c.skl, 0, NOBODY);
  assertOneLine(report(c.cache), /the cached data .*SKL\.json is writable by group 65534/);
});

test("another user's index or measured figures in a shared cache are refused", {
  skip: !root && 'needs root to chown',
}, () => {
  const c = imported();
  chownSync(c.index, NOBODY, NOBODY);
  assertOneLine(cli(['data', 'list'], { cache: c.cache }), /the cache index .* is owned by another user \(uid 65534\)/);
  const cache = tempDir('measured');
  const dir = join(cache, 'measured');
  execFileSync('mkdir', ['-p', dir]);
  const shipped = join('assets', 'uarch', 'measured');
  const one = readdirSync(shipped).find((n) => n.endsWith('.json'))!;
  copyFileSync(join(shipped, one), join(dir, one));
  chownSync(join(dir, one), NOBODY, NOBODY);
  assertOneLine(
    cli(['data', 'list'], { cache }),
    new RegExp(`measured figures .*${one.replace('.', '\\.')} is owned by another user`),
  );
});
