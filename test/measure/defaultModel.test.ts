// Issue 13 item 4: which model is the default is decided by measurement. The committed measured
// table (docs/measure.md, written by tools/measure/table.ts) gives each model's mean absolute
// percentage error; the default (src/sim/mechanisms.ts DEFAULT_MODEL_NAME) must be the model with
// the lower one, and the table must say which model was the default when it was made.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MODEL_NAME } from '../../src/sim/mechanisms.js';

const ROOT = join(import.meta.dirname, '..', '..');

test('the default model is the one with the lower error in the measured table', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'measure.md'), 'utf8');
  const mape = (model: string): number => {
    const m = new RegExp(`\\*\\*uopscope --model ${model} ([\\d.]+) % \\((\\d+) loops\\)\\*\\*`).exec(doc);
    assert.ok(m, `docs/measure.md states the ${model} model's error`);
    assert.ok(Number(m[2]) >= 20, `over at least 20 measured loops (${m[2]})`);
    return Number(m[1]);
  };
  const suaca = mape('suaca'),
    refined = mape('refined');
  assert.notEqual(suaca, refined);
  assert.equal(DEFAULT_MODEL_NAME, suaca < refined ? 'suaca' : 'refined', `suaca ${suaca} %, refined ${refined} %`);
  assert.match(
    doc,
    new RegExp(`The default model \\(src/sim/mechanisms.ts DEFAULT_MODEL_NAME\\) is ${DEFAULT_MODEL_NAME}\\.`),
  );
});
