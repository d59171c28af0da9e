// A region note names a command the user can run from any directory (not `uopscope regions
// <stdin>`). Runs the built CLI (npm run build first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'dist', 'cli', 'main.cjs');
const empty = mkdtempSync(join(tmpdir(), 'uopscope-empty-'));
process.on('exit', () => rmSync(empty, { recursive: true, force: true }));

function uopscope(args: string[], input?: Buffer) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: empty,
    encoding: 'utf8',
    env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(empty, '.config'), COLUMNS: '100' },
    ...(input !== undefined ? { input } : {}),
  });
}

test('the note on standard input names a runnable command', () => {
  const r = uopscope(
    ['report', '-', '--arch', 'SKL', '--fast'],
    readFileSync(join(ROOT, 'examples', 'bin', 'two-regions')),
  );
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /regions <stdin>/);
  assert.match(r.stderr, /'uopscope regions -' with the same standard input/);
});
