// `--function` on a function with 50,000 loops printed a note of hundreds of KB listing every
// other loop. The note names a few and counts the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from './helpers.js';

test('--function on a function with 50,000 loops: a short note', { timeout: 300_000 }, () => {
  const lines = ['.text', '.globl f', 'f:'];
  for (let i = 0; i < 50_000; i++) lines.push(`L${i}: dec %rcx`, `jnz L${i}`);
  lines.push('ret');
  const file = join(tempDir('loops'), 'loops.s');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = cli(['report', file, '--function', 'f', '--fast'], { timeout: 240_000 });
  assert.equal(r.code, 0, r.err.slice(0, 300));
  const longest = Math.max(...r.err.split('\n').map((l) => l.length));
  assert.ok(longest < 1000, `a stderr line of ${longest} characters`);
  assert.match(r.err, /\d+ more loops/);
});
