// `--max-instructions` allowed up to 10,000,000 for every command, but the simulation costs
// about 15 KB per instruction even with one iteration and --fast (100,000 lines: 1.3-1.5 GB;
// 1,000,000: killed at 4.3 GB after two minutes, no output). The commands that simulate now take
// at most what they serve (100,000), refused at once in one line; disasm and graph keep the
// larger bound, which they serve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertOneLine, cli, tempDir } from './helpers.js';

const SOURCE = '.intel_syntax noprefix\n.L1:\nadd rax, rbx\ndec rcx\njnz .L1\n';

test('report --max-instructions beyond what the simulation serves is one line, at once', () => {
  const file = join(tempDir('maxins'), 'loop.s');
  writeFileSync(file, SOURCE);
  const t0 = Date.now();
  assertOneLine(
    cli(['report', file, '--iterations', '1', '--fast', '--max-instructions', '1000000']),
    /--max-instructions 1,000,000: the simulation takes at most 100,000 instructions/,
  );
  assert.ok(Date.now() - t0 < 20_000);
  const ok = cli(['report', file, '--iterations', '5', '--max-instructions', '100000']);
  assert.equal(ok.code, 0, ok.err);
});

test('disasm keeps the larger bound (no simulation)', () => {
  const file = join(tempDir('maxinsd'), 'loop.s');
  writeFileSync(file, SOURCE);
  const r = cli(['disasm', file, '--max-instructions', '1000000']);
  assert.equal(r.code, 0, r.err);
});
