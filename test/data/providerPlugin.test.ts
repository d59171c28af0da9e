// A data source is one file: test/fixtures/providers/portZeroSource.ts registers its origin and
// provider, and every output shows it — the report's letter, legend and summary, the JSON, the
// listing, `data list` — and the engine runs on its figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { runReport } from '../../src/cli/commands/reportRun.js';
import { listDataSources } from '../../src/data/sources.js';
import { loadArchData, resolveInstructions } from '../../src/data/index.js';
import { dataFootnote, dataColumns } from '../../src/report/listing.js';
import { loadRegion } from '../../src/disasm/index.js';
import { ORIGIN, register, unregister } from '../fixtures/providers/portZeroSource.js';
import { tempDir } from './helpers.js';

test('a source registered from one file is asked first and shows its letter everywhere', async () => {
  const cacheDir = tempDir('plugin');
  const before = await runReport(
    { file: 'examples/bin/six-mov' },
    { arch: 'SKL', iterations: 200, fast: true, model: 'suaca' },
  );
  assert.match(before, /^Block throughput: 1\.50 cycles$/m);
  register();
  try {
    const text = await runReport(
      { file: 'examples/bin/six-mov' },
      { arch: 'SKL', iterations: 200, fast: true, model: 'suaca' },
    );
    // six moves on port 0 alone: six cycles per iteration (the thesis's figures give 1.5)
    assert.match(text, /^Block throughput: 6\.00 cycles$/m);
    assert.match(text, /^Figures: 6 lines: 6 port-zero test source$/m);
    assert.equal(text.match(/\|\| Z mov rax, 0x6$/gm)?.length, 6, text);
    assert.match(
      text,
      /^Source: Z port-zero test source, M measured by uops\.info, T SUACA thesis, L LLVM 19 model, \? no figures$/m,
    );
    const json = JSON.parse(
      await runReport({ file: 'examples/bin/six-mov' }, { arch: 'SKL', iterations: 20, fast: true, json: true }),
    ) as { origins: string[] };
    assert.deepEqual(json.origins, Array(6).fill(ORIGIN));
    // the listing: its column letter and the footnote naming the layer first
    const region = await loadRegion({ file: 'examples/bin/six-mov' });
    const data = await loadArchData('SKL', { cacheDir });
    const resolved = resolveInstructions(region.instructions, data);
    assert.deepEqual(
      region.instructions.map((i) => dataColumns(resolved)[0]!.value(i)),
      Array(6).fill('Z'),
    );
    assert.match(
      dataFootnote(data, resolved),
      /^SKL: the port-zero test source \(made-up figures\), then embedded data \(.*Figures: 6 lines: 6 port-zero test source \(src: Z port-zero test source, M /,
    );
    // data list: its row first among SKL's
    const rows = listDataSources({ cacheDir }).filter((r) => r.arch === 'SKL');
    assert.deepEqual(
      rows.map((r) => r.kind),
      ['port-zero', 'embedded', 'corrections', 'llvm'],
    );
  } finally {
    unregister();
    rmSync(cacheDir, { recursive: true, force: true });
  }
  const after = await runReport(
    { file: 'examples/bin/six-mov' },
    { arch: 'SKL', iterations: 200, fast: true, model: 'suaca' },
  );
  assert.equal(after, before);
});
