// The measure harness's sandbox fuzzer (test/fuzz/harnessFuzz.ts), bounded here;
// `npm run fuzz -- --only harness --seconds 600` runs it longer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHarnessFuzz } from '../fuzz/harnessFuzz.js';

const linux = process.platform === 'linux' && process.arch === 'x64';

test('harness sandbox fuzz: straight-line regions writing wherever they reach end measured or not measurable, never in the harness', {
  skip: !linux && 'Linux x86-64 only',
  timeout: 300_000,
}, async () => {
  const cache = mkdtempSync(join(tmpdir(), 'uopscope-harness-fuzz-'));
  try {
    const stats = await runHarnessFuzz(0x5a4d, 20, 40, cache);
    console.log(`harness fuzz: ${JSON.stringify(stats)}`);
    assert.ok(stats.cases >= 10, `only ${stats.cases} cases in the time`);
    assert.ok(stats.faulted > 0, JSON.stringify(stats));
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
