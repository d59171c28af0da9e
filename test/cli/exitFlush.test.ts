// The built command exits as soon as nothing is left to run (src/cli/main.cts), without waiting
// for V8's heap teardown. That must never cut its output: a reader that is slow to start (a pipe
// whose 64 KiB buffer fills before anyone reads) gets every byte, as a prompt reader does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.cjs');

// 1,500 `add rax, rbx`: a JSON report of several hundred KiB, far more than a pipe holds
const ARGS = ['report', '--hex', '4801d8'.repeat(1500), '--json', '--fast', '--iterations', '2'];

test('a slow reader of a large report gets all of it, and the same as a prompt reader', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'uopscope-exit-'));
  const env = { ...process.env, NO_COLOR: '1', UOPSCOPE_CACHE_DIR: cache };
  try {
    const prompt = spawnSync(process.execPath, [MAIN, ...ARGS], {
      cwd: ROOT,
      env,
      maxBuffer: 64 << 20,
      timeout: 120_000,
    });
    assert.equal(prompt.status, 0, prompt.stderr.toString());
    assert.ok(prompt.stdout.length > 256 * 1024, `the report is only ${prompt.stdout.length} bytes`);

    const child = spawn(process.execPath, [MAIN, ...ARGS], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pause(); // nobody reads until the command has long written its first 64 KiB
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await sleep(1500);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.resume();
    assert.equal(await exited, 0);
    const slow = Buffer.concat(chunks);
    assert.equal(slow.length, prompt.stdout.length);
    assert.ok(slow.equals(prompt.stdout), 'the slow reader got other bytes');
    JSON.parse(slow.toString('utf8'));
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
