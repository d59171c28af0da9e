// Gathers and uops.info's figures: uops.info names a gather's memory operand by its vector index
// (VSIB_XMM). On gcc's gather loop (test/fixtures/loops/gather.c, two
// vgatherdpd ymm per iteration) with the hand-written fixtures test/fixtures/data/
// gather-instructions.xml (uops.info's schema, not its figures) and test/fixtures/measured/
// SKX-gather.json (the measured format, not a measurement).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { analyse } from '../../src/cli/pipeline.js';
import { importUopsXml } from '../../src/data/cache.js';
import { resetArchDataMemo } from '../../src/data/archData.js';
import { userMeasuredPath } from '../../src/data/measuredFormat.js';
import { FIXTURES, tempDir } from './helpers.js';

const LOOP = join(FIXTURES, '..', 'loops', 'gather.gcc-O3-skylake.o');
const XML = join(FIXTURES, 'gather-instructions.xml');
const MEASURED = join(FIXTURES, '..', 'measured', 'SKX-gather.json');

async function run(opts: { imported: boolean; measured: boolean; noMeasured?: boolean }) {
  const cacheDir = tempDir('microcode-rank');
  try {
    if (opts.imported) await importUopsXml(XML, { cacheDir });
    if (opts.measured) {
      mkdirSync(join(cacheDir, 'measured'));
      copyFileSync(MEASURED, userMeasuredPath('SKX', cacheDir));
    }
    resetArchDataMemo();
    const a = await analyse({ file: LOOP, arch: 'SKX', cacheDir, ...(opts.noMeasured ? { measured: false } : {}) });
    const lines = (mnemonic: string) =>
      a.region.instructions.filter((i) => i.mnemonic === mnemonic).map((i) => a.resolved[i.line]!);
    return { gathers: lines('VGATHERDPD'), adds: lines('VADDPD') };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    resetArchDataMemo();
  }
}

test("an imported uops.info file gives gcc's vgatherdpd its figures (VSIB_XMM matches the decoded M64)", async () => {
  const { gathers } = await run({ imported: true, measured: false });
  assert.equal(gathers.length, 2);
  for (const g of gathers) {
    assert.equal(g.origin, 'uops.info');
    assert.equal(g.form?.string, 'VGATHERDPD (YMM, VSIB_XMM, YMM)');
    assert.equal(g.uops, 6);
    assert.equal(Math.max(...Object.values(g.latencyByResource)), 17);
  }
});
