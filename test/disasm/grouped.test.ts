import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grouped } from '../../src/disasm/limits.js';

test('grouped writes whole numbers as toLocaleString(en-US) does', () => {
  for (const n of [0, 7, 999, 1000, 9999, 20_000, 300_000, 1_234_567, 10_000_000, 2 ** 53 - 1])
    assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
});
