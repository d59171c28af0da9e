// Gathers and their figures. uops.info names a gather's memory operand by its vector index
// (VSIB_XMM). Forms whose figures depend on the microcode (src/data/microcode.ts: gathers) take the
// figures measured on this machine before every other source, an imported uops.info file included;
// every other form keeps the sources' order. On gcc's gather loop (test/fixtures/loops/gather.c, two
// vgatherdpd ymm per iteration) with the hand-written fixtures test/fixtures/gathers/
// instructions.xml (uops.info's schema, not its figures; not in test/fixtures/data, whose every XML
// file is read as embedded data by test/data/embedded.test.ts) and test/fixtures/measured/
// SKX-gather.json and ZEN4-gather.json (the measured format, not measurements).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { analyse } from '../../src/cli/pipeline.js';
import { importUopsXml } from '../../src/data/cache.js';
import { resetArchDataMemo } from '../../src/data/archData.js';
import { userMeasuredPath } from '../../src/data/measuredFormat.js';
import { microcodeDependence } from '../../src/data/microcode.js';
import { measuredLayer } from '../../src/data/providers/measured.js';
import { FIXTURES, tempDir } from './helpers.js';

const LOOP = join(FIXTURES, '..', 'loops', 'gather.gcc-O3-skylake.o');
const XML = join(FIXTURES, '..', 'gathers', 'instructions.xml');
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

test('gathers and only gathers are forms whose figures depend on the microcode', () => {
  for (const m of ['VGATHERDPD', 'VGATHERQPS', 'VPGATHERDD', 'VPGATHERQQ', 'VGATHERDPS', 'VPGATHERDQ'])
    assert.equal(microcodeDependence({ mnemonic: m }), 'gather', m);
  for (const m of ['VGATHERPF0DPS', 'VSCATTERDPD', 'VMOVUPD', 'VADDPD', 'GATHER'])
    assert.equal(microcodeDependence({ mnemonic: m }), null, m);
});

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

test('figures measured on this machine win for gathers over an imported file; other forms keep the order', async () => {
  const { gathers, adds } = await run({ imported: true, measured: true });
  for (const g of gathers) {
    assert.equal(g.origin, 'measured');
    assert.equal(g.uops, 5);
    assert.equal(Math.max(...Object.values(g.latencyByResource)), 33);
    assert.match(
      g.provenance!.text,
      /^measured by uopscope on TEST FIXTURE .*\(VGATHERDPD \(YMM, M64, YMM\)\); measured on this machine, ranked before every other source: a gather's figures depend on the microcode$/,
    );
    assert.equal(g.provenance!.detail!.rankedFirst, 'gather');
  }
  // vaddpd is in both files: the imported one wins, as for every form whose figures do not depend
  // on the microcode
  assert.ok(adds.length > 0);
  for (const a of adds) assert.equal(a.origin, 'uops.info');
  // --no-measured leaves the measured figures out: the imported file's again
  const without = await run({ imported: true, measured: true, noMeasured: true });
  for (const g of without.gathers) assert.equal(g.origin, 'uops.info');
});

test('only the figures measured on this machine rank first: not the file shipped with uopscope', () => {
  assert.equal(typeof measuredLayer({ user: MEASURED })?.hostLookup, 'function');
  assert.equal(measuredLayer({ shipped: MEASURED })?.hostLookup, undefined);
  assert.equal(typeof measuredLayer({ user: MEASURED, shipped: MEASURED })?.hostLookup, 'function');
});

test("a gather measured by `data measure` (keyed VSIB_XMM) gives gcc's vgatherdpd its figures on ZEN4", async () => {
  // test/fixtures/measured/ZEN4-gather.json: the measured format as `data measure` writes a gather
  // (its key names the vector index, its latency from the index o1.index; not a measurement)
  const cacheDir = tempDir('measured-gather');
  try {
    mkdirSync(join(cacheDir, 'measured'));
    copyFileSync(join(FIXTURES, '..', 'measured', 'ZEN4-gather.json'), userMeasuredPath('ZEN4', cacheDir));
    resetArchDataMemo();
    const a = await analyse({ file: LOOP, arch: 'ZEN4', cacheDir });
    const gathers = a.region.instructions.filter((i) => i.mnemonic === 'VGATHERDPD').map((i) => a.resolved[i.line]!);
    assert.equal(gathers.length, 2);
    for (const g of gathers) {
      assert.equal(g.origin, 'measured');
      assert.equal(g.form?.string, 'VGATHERDPD (YMM, VSIB_XMM, YMM)');
      assert.equal(g.uops, 7);
      // the index → result figure (19) is the result's latency: the largest of its pairs
      assert.equal(Math.max(...Object.values(g.latencyByResource)), 19);
      assert.equal(g.provenance!.detail!.rankedFirst, 'gather');
    }
    resetArchDataMemo();
    const without = await analyse({ file: LOOP, arch: 'ZEN4', cacheDir, measured: false });
    for (const i of without.region.instructions.filter((x) => x.mnemonic === 'VGATHERDPD'))
      assert.notEqual(without.resolved[i.line]!.origin, 'measured');
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    resetArchDataMemo();
  }
});
