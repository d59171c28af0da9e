// A character reference beyond U+10FFFF in instructions.xml (&#x110000;) reached
// String.fromCodePoint and ended in "internal error", exit 70, in `data import` and --uops-xml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, smallText, tempDir } from './helpers.js';

for (const ref of ['&#x110000;', '&#99999999999;', '&#xD800;', '&#0;']) {
  test(`a character reference to no character (${ref}): a result or one line, in data import and --uops-xml`, () => {
    const file = join(tempDir('charref'), 'instructions.xml');
    writeFileSync(file, smallText().replace('summary="Add"', `summary="Add ${ref}"`));
    for (const r of [
      cli(['report', '--hex', '4801d8', '--arch', 'SKL', '--uops-xml', file]),
      cli(['data', 'import', file]),
    ]) {
      assert.equal(r.signal, null);
      assert.ok(r.code === 0 || r.code === 2, `exit ${r.code}: ${r.err}`);
      assert.doesNotMatch(r.err, /internal error/);
      if (r.code === 2) assert.equal(r.err.trim().split('\n').length, 1);
    }
  });
}
