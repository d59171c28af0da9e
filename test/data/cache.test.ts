import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importUopsXml, readIndex } from '../../src/data/cache.js';
import { decodeArch, encodeArch, plainForm } from '../../src/data/cacheFormat.js';
import { loadArchData, resetArchDataMemo } from '../../src/data/archData.js';
import { parseArchName } from '../../src/data/machines.js';
import { listDataSources } from '../../src/data/sources.js';
import { CACHE_VERSION, cacheRoot } from '../../src/data/paths.js';
import { parseUopsXmlText } from '../../src/data/uopsXml.js';
import { UserError } from '../../src/errors.js';
import { SMALL, smallText, tempDir } from './helpers.js';

test('encode/decode of the cache format gives identical forms', () => {
  const parsed = parseUopsXmlText(smallText(), SMALL);
  for (const [arch, forms] of parsed.archs) {
    const back = decodeArch(JSON.parse(JSON.stringify(encodeArch(1, arch, forms))));
    assert.deepEqual(back.map(plainForm), forms.map(plainForm), arch);
  }
});

test('import → cache → load gives the same figures as the file', async () => {
  const cacheDir = tempDir('cache');
  const idx = await importUopsXml(SMALL, { cacheDir });
  assert.equal(idx.forms, 13);
  assert.equal(idx.date, '2023-07-31');
  assert.deepEqual(idx.archs, { SKL: 13, SNB: 1, ZEN2: 1 });
  assert.deepEqual(readIndex(cacheDir), idx);
  resetArchDataMemo();
  const fromCache = await loadArchData('SKL', { cacheDir });
  const fromFile = await loadArchData('SKL', { uopsXml: SMALL });
  assert.equal(fromCache.source.kind, 'imported');
  assert.equal(fromCache.source.path, SMALL);
  assert.equal(fromFile.source.kind, 'file');
  assert.deepEqual(fromCache.forms.map(plainForm), fromFile.forms.map(plainForm));
  // the layout: versioned directory, one file per architecture, no temp leftovers
  const v = join(cacheDir, `v${CACHE_VERSION}`);
  const dirs = readdirSync(v).filter((d) => d.startsWith('import-'));
  assert.equal(dirs.length, 1);
  assert.deepEqual(readdirSync(join(v, dirs[0]!)).sort(), ['SKL.json', 'SNB.json', 'ZEN2.json']);
  assert.ok(!readdirSync(v).some((d) => d.includes('.tmp-')));
});

test('inheritance: KBL and CFL use SKL data, stated in the source', async () => {
  const kbl = await loadArchData(parseArchName('kbl')!, { uopsXml: SMALL });
  assert.equal(kbl.arch, 'KBL');
  assert.equal(kbl.source.inheritedFrom, 'SKL');
  assert.equal(kbl.source.inheritedForms, 13);
  assert.equal(kbl.forms.length, 13);
  await assert.rejects(
    loadArchData('ICL', { uopsXml: SMALL }),
    (e: unknown) => e instanceof UserError && /no measurements for ICL — pick one of SKL, SNB, ZEN2/.test(e.message),
  );
});

test('a failed import leaves the previous import in place and nothing half-written', async () => {
  const cacheDir = tempDir('cache');
  const first = await importUopsXml(SMALL, { cacheDir });
  const bad = join(tempDir('bad'), 'bad.xml');
  writeFileSync(
    bad,
    smallText().replace('</extension>\n  <extension name="SSE2">', '</extension>\n  <extensio name="SSE2">'),
  );
  await assert.rejects(
    importUopsXml(bad, { cacheDir }),
    (e: unknown) => e instanceof UserError && /bad\.xml:\d+:\d+:/.test(e.message),
  );
  assert.deepEqual(readIndex(cacheDir), first);
  const v = join(cacheDir, `v${CACHE_VERSION}`);
  assert.deepEqual(
    readdirSync(v).filter((d) => d.startsWith('import-')),
    [first.dir],
  );
  assert.ok(!readdirSync(v).some((d) => d.includes('.tmp-')));
  // a re-import replaces the old one
  const second = await importUopsXml(SMALL, { cacheDir });
  assert.notEqual(second.dir, first.dir);
  assert.deepEqual(
    readdirSync(v).filter((d) => d.startsWith('import-')),
    [second.dir],
  );
});

test('a damaged cache is reported, not crashed on', async () => {
  const cacheDir = tempDir('cache');
  const idx = await importUopsXml(SMALL, { cacheDir });
  writeFileSync(join(cacheDir, `v${CACHE_VERSION}`, idx.dir, 'SKL.json'), '{"version":1,');
  resetArchDataMemo();
  await assert.rejects(
    loadArchData('SKL', { cacheDir }),
    (e: unknown) => e instanceof UserError && /damaged/.test(e.message),
  );
});

test('data list shows imported, inherited and missing architectures', async () => {
  const cacheDir = tempDir('cache');
  await importUopsXml(SMALL, { cacheDir });
  const rows = listDataSources({ cacheDir });
  const find = (arch: string, kind: string) => rows.find((r) => r.arch === arch && r.kind === kind);
  assert.deepEqual(find('SKL', 'imported'), {
    arch: 'SKL',
    name: 'Skylake (client)',
    kind: 'imported',
    origin: 'uops.info',
    path: SMALL,
    forms: 13,
    active: true,
    date: '2023-07-31',
  });
  assert.equal(find('KBL', 'inherited')!.path, 'SKL');
  assert.ok(find('ZEN2', 'imported'));
  // the embedded XML follows, counted per origin: the thesis's forms on SKL, uops.info's pages on ADL-P
  assert.deepEqual([find('SKL', 'embedded')!.origin, find('SKL', 'embedded')!.forms], ['thesis', 6]);
  assert.deepEqual([find('ADL-P', 'embedded')!.origin, find('ADL-P', 'embedded')!.forms], ['uops.info', 2]);
  // then LLVM's model, for every Intel core from Sandy Bridge on; its placeholders counted apart
  const l = find('HSW', 'llvm')!;
  assert.equal(l.origin, 'llvm');
  assert.ok(l.forms > 1000 && l.placeholders! > 0, JSON.stringify(l));
  assert.match(l.path, /LLVM 19\.\d+\.\d+ haswell/);
  assert.equal(find('NHM', 'llvm'), undefined);
  // the order of the rows is the order the resolver tries the sources (SKL's integer divisions
  // have cited corrections)
  assert.deepEqual(
    rows.filter((r) => r.arch === 'SKL').map((r) => r.kind),
    ['imported', 'embedded', 'corrections', 'llvm'],
  );
  // every machine model appears, with or without data
  for (const a of [
    'NHM',
    'WSM',
    'SNB',
    'IVB',
    'HSW',
    'BDW',
    'SKL',
    'SKX',
    'KBL',
    'CFL',
    'CLX',
    'ICL',
    'TGL',
    'RKL',
    'ADL-P',
    'SPR',
  ]) {
    assert.ok(
      rows.some((r) => r.arch === a),
      a,
    );
  }
});

test('cache location: option, UOPSCOPE_CACHE_DIR, XDG_CACHE_HOME, ~/.cache', () => {
  const saved = { u: process.env.UOPSCOPE_CACHE_DIR, x: process.env.XDG_CACHE_HOME };
  try {
    process.env.UOPSCOPE_CACHE_DIR = '/tmp/a';
    assert.equal(cacheRoot('/tmp/b'), '/tmp/b');
    assert.equal(cacheRoot(), '/tmp/a');
    delete process.env.UOPSCOPE_CACHE_DIR;
    process.env.XDG_CACHE_HOME = '/tmp/xdg';
    assert.equal(cacheRoot(), '/tmp/xdg/uopscope');
    delete process.env.XDG_CACHE_HOME;
    assert.match(cacheRoot(), /\/\.cache\/uopscope$/);
  } finally {
    if (saved.u === undefined) delete process.env.UOPSCOPE_CACHE_DIR;
    else process.env.UOPSCOPE_CACHE_DIR = saved.u;
    if (saved.x === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved.x;
  }
  void existsSync;
  void readFileSync;
});

test('a file without instructions is refused', async () => {
  const dir = tempDir('empty');
  const f = join(dir, 'empty.xml');
  writeFileSync(f, '<?xml version="1.0"?>\n<root date="2023-01-01">\n</root>\n');
  await assert.rejects(
    importUopsXml(f, { cacheDir: join(dir, 'cache') }),
    (e: unknown) => e instanceof UserError && /holds no <instruction> elements/.test(e.message),
  );
  assert.equal(readIndex(join(dir, 'cache')), null);
});
