// Two concurrent `data import`s both exited 0, but the index could name an import directory the
// other process had deleted (its clean-up removed every other import-* directory, also one being
// written), so reports silently fell back to other sources. Publishing now holds a lock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../../src/data/paths.js';
import { ROOT, SMALL, TSX, cli, tempDir } from './helpers.js';

test('an import waits for another one publishing, and never removes the directory it is writing', {
  timeout: 180_000,
}, async () => {
  const cache = tempDir('lock');
  const base = cacheDir(cache);
  // another import, mid-publish: its lock and the directory it is writing
  const other: ChildProcess = spawn('sleep', ['60'], { stdio: 'ignore' });
  mkdirSync(base, { recursive: true });
  const writing = join(base, `import-2026-01-01T00-00-00-000Z-${other.pid}`);
  mkdirSync(writing);
  writeFileSync(join(writing, 'SKL.json'), '{}');
  writeFileSync(join(base, '.import.lock'), String(other.pid));
  const env = { ...process.env, UOPSCOPE_CACHE_DIR: cache, UOPSCOPE_CONFIG_DIR: tempDir('config') };
  const mine = spawn(
    process.execPath,
    ['--import', TSX, join(ROOT, 'src', 'cli', 'main.cts'), 'data', 'import', SMALL],
    { env, stdio: 'ignore' },
  );
  const done = new Promise<number | null>((r) => mine.on('exit', (code) => r(code)));
  try {
    // well past the time the import needs (a few seconds under load): it must still be waiting
    const early = await Promise.race([done, new Promise((r) => setTimeout(() => r('waiting'), 15_000))]);
    assert.equal(early, 'waiting', 'the import did not wait for the lock');
    assert.ok(existsSync(writing), "the other import's directory was removed while it was being written");
  } finally {
    other.kill('SIGKILL');
  }
  // its holder gone, the lock is taken over and the import publishes
  assert.equal(await done, 0);
  const index = JSON.parse(readFileSync(join(base, 'index.json'), 'utf8')) as { dir: string };
  assert.ok(existsSync(join(base, index.dir)), 'the index names a directory that does not exist');
  assert.equal(existsSync(join(base, '.import.lock')), false);
  const list = cli(['data', 'list'], { cache });
  assert.equal(list.code, 0, list.err);
});
