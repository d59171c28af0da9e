// A file name with escape sequences reached the terminal raw: the report's header and notes, the
// regions/disasm headings, the imported XML's path in `data list`, export-dir in `config show`
// (docs/hostile-input.md promises \xNN). Now every name read from the user is shown escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMALL, cli, tempDir } from './helpers.js';

const EVIL = 'k\x1b]0;pwned\x07\x1b[31m';

test('an input file named with escape sequences is shown escaped by report, regions and disasm', () => {
  const file = join(tempDir('names'), `${EVIL}.s`);
  writeFileSync(file, '.intel_syntax noprefix\nl: add rax, rbx\ndec rcx\njnz l\n');
  for (const args of [
    ['report', file, '--fast'],
    ['regions', file],
    ['disasm', file],
    ['graph', file],
  ]) {
    const r = cli(args);
    assert.equal(r.code, 0, `${args[0]}: ${r.err}`);
    assert.doesNotMatch(r.out + r.err, /\x1b|\x07/, `${args[0]} printed a raw escape`);
  }
  const r = cli(['report', file, '--fast']);
  assert.match(r.out, /k\\x1b\]0;pwned\\x07\\x1b\[31m\.s/);
});

test("data list and config show escape an imported file's path and export-dir", () => {
  const cache = tempDir('names-cache');
  const xml = join(tempDir('names-xml'), `${EVIL}.xml`);
  copyFileSync(SMALL, xml);
  assert.equal(cli(['data', 'import', xml], { cache }).code, 0);
  const list = cli(['data', 'list'], { cache });
  assert.equal(list.code, 0, list.err);
  assert.doesNotMatch(list.out, /\x1b|\x07/);
  assert.match(list.out, /pwned\\x07/);
  const config = tempDir('names-config');
  const env = { UOPSCOPE_CONFIG_DIR: config };
  const set = cli(['config', 'set', 'export-dir', join(tempDir('names-dir'), EVIL)], { env });
  assert.equal(set.code, 0, set.err);
  const show = cli(['config', 'show'], { env });
  assert.equal(show.code, 0, show.err);
  assert.doesNotMatch(show.out, /\x1b|\x07/);
  assert.match(show.out, /export-dir: .*pwned\\x07/);
});
