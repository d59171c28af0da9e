// The corpus builds: every kernel × compiler × O-level × ISA tier exists, holds exactly one
// marked region, and that region lies in a loop: a branch in it jumps back to the start marker,
// or to code just before it (clang sometimes rotates a loop so that the loop test or a hoisted
// move sits before the marker; IACA-style analysis then sees the region as the loop body).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import iced from 'iced-x86';
import { END_MARKER, START_MARKER, findMarkedRegion, indexesOf, textSections } from '../../examples/corpus/elf.js';
import { formsText } from '../../examples/corpus/forms.js';

const dir = join(import.meta.dirname, '../../examples/corpus');
const kernels = readdirSync(join(dir, 'src'))
  .filter((f) => f.endsWith('.c'))
  .map((f) => f.slice(0, -2))
  .sort();
const builds = kernels.flatMap((k) =>
  ['gcc', 'clang'].flatMap((cc) =>
    ['O2', 'O3'].flatMap((o) => ['sse2', 'avx2', 'avx512'].map((isa) => `${k}.${cc}.${o}.${isa}.o`)),
  ),
);

test('the corpus has at least 30 kernels, each with the markers', () => {
  assert.ok(kernels.length >= 30, `only ${kernels.length} kernels`);
  for (const k of kernels) {
    const src = readFileSync(join(dir, 'src', `${k}.c`), 'utf8');
    assert.match(src, /#include "\.\.\/marks\.h"/, k);
    assert.equal(src.match(/IACA_START;/g)?.length, 1, `${k}: one IACA_START`);
    assert.equal(src.match(/IACA_END;/g)?.length, 1, `${k}: one IACA_END`);
  }
});

test('every kernel is built for gcc/clang × O2/O3 × sse2/avx2/avx512', () => {
  const missing = builds.filter((b) => !existsSync(join(dir, 'bin', b)));
  assert.deepEqual(missing, [], `missing builds (run sh examples/corpus/build.sh)`);
});

test('each build holds exactly one marked region, and it is a loop', () => {
  const { Decoder, DecoderOptions, OpKind } = iced;
  const problems: string[] = [];
  for (const b of builds) {
    const bytes = new Uint8Array(readFileSync(join(dir, 'bin', b)));
    let starts = 0;
    let ends = 0;
    for (const s of textSections(bytes)) {
      starts += indexesOf(bytes, START_MARKER, s.offset, s.offset + s.size).length;
      ends += indexesOf(bytes, END_MARKER, s.offset, s.offset + s.size).length;
    }
    if (starts !== 1 || ends !== 1) {
      problems.push(`${b}: ${starts} start / ${ends} end markers`);
      continue;
    }
    const r = findMarkedRegion(bytes);
    if (!r) {
      problems.push(`${b}: end marker before start marker`);
      continue;
    }
    if (r.end <= r.start) {
      problems.push(`${b}: empty region`);
      continue;
    }
    const dec = new Decoder(64, bytes.subarray(r.start, r.end), DecoderOptions.None);
    dec.ip = BigInt(r.startVaddr);
    const markerAddr = BigInt(r.startVaddr - START_MARKER.length);
    let loops = false;
    let decodedBytes = 0;
    for (const ins of dec.decodeAll()) {
      decodedBytes += ins.length;
      if (
        ins.opCount > 0 &&
        ins.opKind(0) === OpKind.NearBranch64 &&
        ins.nearBranch64 <= markerAddr &&
        ins.nearBranch64 >= markerAddr - 64n
      )
        loops = true;
      ins.free();
    }
    if (decodedBytes !== r.end - r.start) problems.push(`${b}: region does not decode to whole instructions`);
    if (!loops) problems.push(`${b}: no branch in the region jumps back to (or just before) the start marker`);
  }
  assert.deepEqual(problems, []);
});

test('forms.txt is up to date with the builds', async () => {
  const { text, builds: n } = await formsText(join(dir, 'bin'));
  assert.equal(n, builds.length);
  assert.equal(readFileSync(join(dir, 'forms.txt'), 'utf8'), text, 'run node --import tsx examples/corpus/forms.ts');
});
