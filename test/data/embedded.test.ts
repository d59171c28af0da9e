import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  embeddedFiles,
  embeddedSummary,
  loadEmbeddedArch,
  parseEmbedded,
  resetEmbeddedMemo,
} from '../../src/data/embedded.js';
import { importUopsXml } from '../../src/data/cache.js';
import { loadArchData, resetArchDataMemo } from '../../src/data/archData.js';
import { plainForm } from '../../src/data/cacheFormat.js';
import { CACHE_VERSION } from '../../src/data/paths.js';
import { parseUopsXmlText } from '../../src/data/uopsXml.js';
import type { ArchForm, InstructionForm } from '../../src/data/types.js';
import { parseArchName } from '../../src/data/machines.js';
import { writeSyntheticXml } from '../../bench/synthUops.js';
import { FIXTURES, SMALL, tempDir } from './helpers.js';

const key = (f: ArchForm) => `${f.string}|${JSON.stringify(f.attributes)}`;

test('embedded-style data: first load parses the XML and caches it, later loads read the cache', () => {
  const cacheDir = tempDir('emb');
  resetEmbeddedMemo();
  const first = loadEmbeddedArch('SKL', cacheDir, FIXTURES)!;
  assert.equal(first.length, 13);
  const dirs = readdirSync(join(cacheDir, `v${CACHE_VERSION}`)).filter((d) => d.startsWith('embedded-'));
  assert.equal(dirs.length, 1);
  resetEmbeddedMemo();
  const again = loadEmbeddedArch('SKL', cacheDir, FIXTURES)!;
  assert.deepEqual(again.map(plainForm), first.map(plainForm));
  // every file of the directory: small-instructions.xml (SKL, SNB, ZEN2) and zen-instructions.xml
  // (ZEN4's 3 forms; its ZEN+ measurements are left out, the integer ones without `ports` too:
  // ZEN+ has no record with pipe names)
  assert.deepEqual(embeddedSummary(cacheDir, FIXTURES).archs, { SKL: 13, SNB: 1, ZEN2: 1, ZEN4: 3 });
  assert.equal(loadEmbeddedArch('ICL', cacheDir, FIXTURES), null);
});

test('a damaged compiled copy of the embedded data is dropped and parsed again, silently', () => {
  const cacheDir = tempDir('emb-damaged');
  resetEmbeddedMemo();
  const first = loadEmbeddedArch('SKL', cacheDir, FIXTURES)!;
  const dir = readdirSync(join(cacheDir, `v${CACHE_VERSION}`)).find((d) => d.startsWith('embedded-'))!;
  writeFileSync(join(cacheDir, `v${CACHE_VERSION}`, dir, 'SKL.json'), 'garbage');
  resetEmbeddedMemo();
  const again = loadEmbeddedArch('SKL', cacheDir, FIXTURES)!;
  assert.deepEqual(again.map(plainForm), first.map(plainForm));
  assert.ok(
    !existsSync(join(cacheDir, `v${CACHE_VERSION}`, dir, 'SKL.json')) ||
      readFileSync(join(cacheDir, `v${CACHE_VERSION}`, dir, 'SKL.json'), 'utf8') !== 'garbage',
    'the damaged file is not left in place',
  );
});

/** Imports a synthetic file seeded with `seed` and checks the seed's figures came through unchanged. */
async function syntheticMatches(seed: InstructionForm[], reference: Map<string, ArchForm[]>, archs: string[]) {
  const dir = tempDir('synth');
  const file = join(dir, 'instructions.xml');
  await writeSyntheticXml(file, { forms: seed.length + 40, seed, archs: ['SNB', 'SKL', 'ICL', 'ZEN4'] });
  const cacheDir = join(dir, 'cache');
  const idx = await importUopsXml(file, { cacheDir });
  assert.equal(idx.forms, seed.length + 40);
  resetArchDataMemo();
  let compared = 0;
  for (const arch of archs) {
    const want = reference.get(arch) ?? [];
    if (want.length === 0) continue;
    const got = new Map((await loadArchData(parseArchName(arch)!, { cacheDir })).forms.map((f) => [key(f), f]));
    for (const f of want) {
      const g = got.get(key(f));
      assert.ok(g, `${arch} ${f.string} imported`);
      assert.deepEqual(plainForm(g!), plainForm(f), `${arch} ${f.string}`);
      compared++;
    }
  }
  return compared;
}

test('the synthetic generator writes the seed forms so that an import gives the same figures', async () => {
  const seed: InstructionForm[] = [];
  parseUopsXmlText(readFileSync(SMALL, 'utf8'), SMALL, { onForm: (f) => seed.push(f) });
  const reference = parseEmbedded([SMALL]).archs;
  const n = await syntheticMatches(seed, reference, ['SKL', 'SNB']);
  assert.equal(n, 14);
});

test('the synthetic file imports to the same figures as the embedded data (assets/uarch/embedded)', async (t) => {
  const files = embeddedFiles();
  if (files.length === 0) {
    t.skip('no embedded XML files on this branch yet');
    return;
  }
  const seed: InstructionForm[] = [];
  for (const f of files) parseUopsXmlText(readFileSync(f, 'utf8'), f, { onForm: (x) => seed.push(x) });
  const reference = parseEmbedded(files).archs;
  // the first definition of a form wins in the embedded data, as in an import
  const n = await syntheticMatches(seed, reference, [...reference.keys()]);
  assert.ok(n > 0);
});

test('a change of one figure in an embedded file (same size) gives a new compiled copy with the new figure', () => {
  const src = tempDir('emb-src');
  const cacheDir = tempDir('emb-change');
  const text = readFileSync(SMALL, 'utf8');
  writeFileSync(join(src, 'a.xml'), text);
  resetEmbeddedMemo();
  const before = loadEmbeddedArch('SKL', cacheDir, src)!;
  const i = text.indexOf('uops="1"');
  assert.ok(i > 0);
  writeFileSync(join(src, 'a.xml'), `${text.slice(0, i)}uops="7"${text.slice(i + 8)}`);
  resetEmbeddedMemo();
  const after = loadEmbeddedArch('SKL', cacheDir, src)!;
  const dirs = readdirSync(join(cacheDir, `v${CACHE_VERSION}`)).filter((d) => d.startsWith('embedded-'));
  assert.ok(dirs.length >= 1);
  assert.equal(before.filter((f) => f.m.uops === 7).length, 0);
  assert.equal(after.filter((f) => f.m.uops === 7).length, 1, 'the changed figure is read, not the old compiled copy');
});
