// An object with 100,000 symbols sharing one 1,024-byte name took ~17 s and 3.4 GB (names built
// one `+=` per byte, kept as ropes); with 1,000,000 symbols V8 ran out of heap and aborted with a
// native stack trace. Names are now flat strings, shared by offset, within a budget per file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { elf, LOOP } from '../fuzz/objects.js';
import { ROOT, TSX, tempDir } from './helpers.js';

/** An ELF object: the loop in .text, `n` symbols, the name of symbol k at string-table offset nameOf(k). */
function manySymbols(n: number, strtab: Buffer, nameOf: (k: number) => number): Uint8Array {
  const eh = 64;
  const symOff = eh + LOOP.length;
  const symtab = Buffer.alloc(n * 24);
  for (let k = 0; k < n; k++) {
    symtab.writeUInt32LE(nameOf(k), k * 24);
    symtab[k * 24 + 4] = 0x12; // global function
    symtab.writeUInt16LE(1, k * 24 + 6); // in .text
    symtab.writeBigUInt64LE(8n, k * 24 + 16);
  }
  const strOff = symOff + symtab.length;
  return elf({
    body: Buffer.concat([LOOP, symtab, strtab]),
    shstrtab: '\0.text\0.shstrtab\0.symtab\0.strtab\0',
    shstrndx: 4,
    sections: [
      { name: 1, type: 1, flags: 6, offset: eh, size: LOOP.length },
      { name: 17, type: 2, flags: 0, offset: symOff, size: symtab.length, link: 3, entsize: 24 },
      { name: 25, type: 3, flags: 0, offset: strOff, size: strtab.length },
    ],
  });
}

function run(name: string, data: Uint8Array) {
  const file = join(tempDir('symbols'), name);
  writeFileSync(file, data);
  const t0 = performance.now();
  // with a 1 GiB heap: the ropes needed 3.4 GB for 100,000 names
  const r = spawnSync(
    process.execPath,
    ['--max-old-space-size=1024', '--import', TSX, join(ROOT, 'src', 'cli', 'main.cts'), 'report', file, '--fast'],
    {
      encoding: 'utf8',
      timeout: 300_000,
      maxBuffer: 64 * 2 ** 20,
      env: { ...process.env, UOPSCOPE_CACHE_DIR: tempDir('cache'), UOPSCOPE_CONFIG_DIR: tempDir('config') },
    },
  );
  return { code: r.status, err: r.stderr, signal: r.signal, seconds: (performance.now() - t0) / 1000 };
}

const shared = Buffer.concat([Buffer.from([0]), Buffer.alloc(1024, 0x41), Buffer.from([0])]);

for (const n of [100_000, 1_000_000]) {
  test(`${n.toLocaleString('en-US')} symbols sharing one 1,024-byte name: a result, in bounded time`, {
    timeout: 600_000,
  }, () => {
    const r = run(
      `shared-${n}.o`,
      manySymbols(n, shared, () => 1),
    );
    assert.equal(r.signal, null, r.err.slice(0, 300));
    assert.equal(r.code, 0, r.err.slice(0, 300));
    assert.ok(r.seconds < 120, `${r.seconds.toFixed(0)} s`);
  });
}

test('1,000,000 symbols at overlapping offsets of a long name: a result or one line, never an abort', {
  timeout: 600_000,
}, () => {
  const long = Buffer.concat([Buffer.from([0]), Buffer.alloc(1_001_024, 0x42), Buffer.from([0])]);
  const r = run(
    'overlapping.o',
    manySymbols(1_000_000, long, (k) => 1 + k),
  );
  assert.equal(r.signal, null, r.err.slice(0, 300));
  assert.ok(r.code === 0 || r.code === 2, `exit ${r.code}: ${r.err.slice(0, 300)}`);
  if (r.code === 2) assert.match(r.err, /^uopscope: .*total more than \d+ MiB/);
  assert.doesNotMatch(r.err, /internal error|FATAL|heap/);
});
