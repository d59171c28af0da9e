// `uopscope report FILE… [--all-regions]`: one result per region, each the very report a single
// run of that region prints (text, or its JSON on one line); a bad input or region is its own
// line, the rest still reported, exit status 2; the same output with worker threads as without.
// Runs the built command (npm run build first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.cjs');
const TWO = join(ROOT, 'examples', 'bin', 'two-regions');
const STENCIL = join(ROOT, 'examples', 'bin', 'stencil');

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const oneLine = (json: string) => JSON.stringify(JSON.parse(json));

test('--all-regions prints each region’s own report, in order (text and JSON lines)', () => {
  const single = [1, 2].map((n) => run(['report', TWO, '--region', String(n), '-i', '50']));
  for (const s of single) assert.equal(s.status, 0, s.stderr);
  const batch = run(['report', TWO, '--all-regions', '-i', '50']);
  assert.equal(batch.status, 0, batch.stderr);
  assert.equal(batch.stdout, single.map((s) => `${s.stdout}\n`).join(''));

  const json = [1, 2].map((n) => run(['report', TWO, '--region', String(n), '-i', '50', '--json']).stdout);
  const lines = run(['report', TWO, '--all-regions', '-i', '50', '--json']).stdout.trimEnd().split('\n');
  assert.deepEqual(lines, json.map(oneLine));
});

test('several files: each file’s default region; a bad file is its line, the rest go on, exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-batch-'));
  try {
    const bad = join(dir, 'notes.txt');
    writeFileSync(bad, 'not a binary\n');
    const r = run(['report', STENCIL, bad, TWO, '--fast', '-i', '20', '--json']);
    assert.equal(r.status, 2);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0], oneLine(run(['report', STENCIL, '--fast', '-i', '20', '--json']).stdout));
    const err = JSON.parse(lines[1]!) as { file: string; error: string };
    assert.equal(err.file, bad);
    assert.match(err.error, /unknown format/);
    assert.equal(lines[2], oneLine(run(['report', TWO, '--fast', '-i', '20', '--json']).stdout));
    assert.match(r.stderr, /1 of 3 regions failed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('worker threads give the output of the calling thread alone', () => {
  // more regions than BATCH_WORKERS_FROM, so that workers start: the two files, many times
  const files = Array.from({ length: 10 }, () => [TWO, STENCIL]).flat();
  const args = ['report', ...files, '--all-regions', '-i', '30', '--json'];
  const alone = run(args, { UOPSCOPE_WORKERS: '0' });
  const threads = run(args, { UOPSCOPE_WORKERS: '2' });
  assert.equal(alone.status, 0, alone.stderr);
  assert.equal(threads.status, 0, threads.stderr);
  assert.equal(alone.stdout.trimEnd().split('\n').length, 30);
  assert.equal(threads.stdout, alone.stdout);
});

test('bad flags are refused before any input is read', () => {
  const r = run(['report', TWO, STENCIL, '--iterations', 'many']);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /--iterations/);
  const sel = run(['report', TWO, '--all-regions', '--region', '1']);
  assert.equal(sel.status, 2);
  assert.match(sel.stderr, /--all-regions reports every region/);
});
