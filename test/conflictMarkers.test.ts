import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..');

// A merge that was committed half-resolved reads as prose to every other test.
test('no tracked text file holds a merge conflict marker', () => {
  const files = execFileSync('git', ['ls-files', '-z', '--', '*.md', '*.ts', '*.tsx', '*.json', '*.mjs', '.ci/*'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  assert.ok(files.length > 50, `git ls-files found only ${files.length} files`);
  const marked = files.filter((f) => /^(<{7} |={7}$|>{7} )/m.test(readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(marked, []);
});
