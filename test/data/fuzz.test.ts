// Structure-aware fuzz of the uops.info XML reader for `data import` and `--uops-xml`
// (test/fuzz/xmlFuzz.ts): the schema with hostile values, and malformed files. Bounded here;
// `npm run fuzz -- --seconds 600` runs it longer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runXmlFuzz } from '../fuzz/xmlFuzz.js';

test('structure-aware XML fuzz: a result or one line, figures within bounds, a failed import leaves the cache byte-identical', {
  timeout: 120_000,
}, async () => {
  const stats = await runXmlFuzz(0x8a11, 4, 3000);
  console.log(`xml fuzz: ${JSON.stringify(stats)}`);
  assert.ok(stats.cases >= 200, `only ${stats.cases} cases in the time`);
  assert.ok(stats.accepted > stats.cases / 10 && stats.refused > stats.cases / 10, JSON.stringify(stats));
  assert.ok(
    stats.imports > 20 && stats.importsRefused > 5 && stats.importsRefused < stats.imports,
    JSON.stringify(stats),
  );
});
