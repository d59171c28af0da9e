// Which model is the default is decided by measurement. Each committed measured table
// (docs/measure.md, written by tools/measure/table.ts between the markers of the core it predicts:
// the Zen 4 host's and the earlier Intel guest's) gives each model's mean absolute percentage
// error; the default (src/sim/mechanisms.ts DEFAULT_MODEL_NAME, one for every core) must be the
// model with the lower one in every table, and each table must say which model was the default
// when it was made.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MODEL_NAME } from '../../src/sim/mechanisms.js';

const ROOT = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'measure.md'), 'utf8');

/** each core's table section, by the core it predicts */
const sections = [
  ...doc.matchAll(/<!-- measure-table (\S+):begin[^>]*-->([\s\S]*?)<!-- measure-table \1:end -->/g),
].map((m) => ({ arch: m[1]!, text: m[2]! }));

test('docs/measure.md has the Zen 4 host table and the earlier Intel guest table, each in its own section', () => {
  assert.deepEqual(
    sections.map((s) => s.arch),
    ['ZEN4', 'RKL'],
  );
});

for (const { arch, text } of sections) {
  test(`${arch}'s table: the default model is the one with the lower error`, () => {
    const mape = (model: string): number => {
      const m = new RegExp(`\\*\\*uopscope --model ${model} ([\\d.]+) % \\((\\d+) loops\\)\\*\\*`).exec(text);
      assert.ok(m, `the ${arch} table states the ${model} model's error`);
      assert.ok(Number(m[2]) >= 20, `over at least 20 measured loops (${m[2]})`);
      return Number(m[1]);
    };
    const suaca = mape('suaca'),
      refined = mape('refined');
    assert.notEqual(suaca, refined);
    assert.equal(DEFAULT_MODEL_NAME, suaca < refined ? 'suaca' : 'refined', `suaca ${suaca} %, refined ${refined} %`);
    assert.match(
      text,
      new RegExp(`The default model \\(src/sim/mechanisms.ts DEFAULT_MODEL_NAME\\) is ${DEFAULT_MODEL_NAME}\\.`),
    );
  });
}
