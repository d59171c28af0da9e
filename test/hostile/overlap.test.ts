// Issue 10, defect 1: code sections that overlap in the file. Each byte of the file is decoded
// under at most one section, so the loop search costs the file's size, not sections × size.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inputFromBytes, listRegions } from '../../src/disasm/index.js';
import { mergeOverlappingSections } from '../../src/disasm/formats/image.js';
import { readBinary } from '../../src/disasm/input.js';
import { coff, coffBodyOffset, elf, loopCode, macho, machoBodyOffset, universal } from '../fuzz/objects.js';
import { cli, tempDir } from './helpers.js';

const codeBytes = (input: ReturnType<typeof inputFromBytes>): number =>
  input.sections.reduce((n, s) => n + s.data.length, 0);

/** the COFF reproducer: 999 sections whose raw data all cover bytes 0..60000 */
function coff999(): Uint8Array {
  const body = loopCode(60000 - coffBodyOffset(999));
  return coff({ body, sections: Array.from({ length: 999 }, () => ({ rawPtr: 0, rawSize: 60000 })) });
}
/** the ELF reproducer: n sections covering the same 32 KiB */
function elfN(n: number): Uint8Array {
  return elf({ body: loopCode(32768), sections: Array.from({ length: n }, () => ({ offset: 64, size: 32768 })) });
}

test('defect 1: 999 COFF sections over the same 60 KB are decoded as one range', () => {
  const data = coff999();
  assert.equal(data.length, 60004); // + the empty string table's size field
  const input = inputFromBytes(data, 'overlap.obj');
  assert.ok(codeBytes(input) <= data.length, `${codeBytes(input)} code bytes in a ${data.length}-byte file`);
  assert.equal(input.sections.length, 1);
  const single = inputFromBytes(
    coff({ body: loopCode(60000 - coffBodyOffset(1)), sections: [{ rawPtr: 0, rawSize: 60000 }] }),
    'one.obj',
  );
  assert.ok(listRegions(input).length > 1000);
  // the same loops as the code decoded once (the section table's bytes differ, so compare the
  // body's; its first loop may differ too: whether its head dominates its jump back depends on
  // how the table's bytes before it decode)
  const bodyLoops = (i: typeof input, from: number) => listRegions(i).filter((r) => r.start >= from + 64).length;
  assert.equal(bodyLoops(input, coffBodyOffset(999)), bodyLoops(single, coffBodyOffset(999)));
});

test('defect 1: 1,000 and 2,000 ELF sections over the same 32 KiB: one range, same loops as one section', () => {
  const one = listRegions(inputFromBytes(elfN(1), 'one.o'));
  for (const n of [1000, 2000]) {
    const data = elfN(n);
    const input = inputFromBytes(data, `overlap${n}.o`);
    assert.ok(codeBytes(input) <= data.length);
    assert.equal(input.sections.length, 1);
    assert.deepEqual(
      listRegions(input).map((r) => [r.start, r.end]),
      one.map((r) => [r.start, r.end]),
    );
  }
});

test('defect 1: the same bytes at different addresses are decoded once (later sections keep only new bytes)', () => {
  const sections = Array.from({ length: 500 }, (_, i) => ({ offset: 64, size: 32768 - (i % 3) * 8, addr: 0x1000 * i }));
  sections.push({ offset: 64 + 16384, size: 32768, addr: 0x9000000 }); // half overlapping, half new
  const data = elf({ body: loopCode(65536), sections });
  const input = inputFromBytes(data, 'shifted.o');
  assert.ok(codeBytes(input) <= data.length);
  assert.deepEqual(
    input.sections.map((s) => [s.address, s.data.length]),
    [
      [0, 32768],
      [0x9000000 + 16384, 16384],
    ],
  );
});

test('defect 1: Mach-O and universal files with 1,000 overlapping sections', () => {
  const n = 1000;
  const body = loopCode(32768);
  const at = machoBodyOffset(n);
  const thin = macho({ body, sections: Array.from({ length: n }, () => ({ offset: at, size: 32768, addr: 0x100 })) });
  const a = inputFromBytes(thin, 'overlap.macho.o');
  assert.ok(codeBytes(a) <= thin.length);
  assert.equal(a.sections.length, 1);
  const fat = universal([{ cputype: 0x01000007, offset: 4096, size: thin.length }], thin, 4096);
  const b = inputFromBytes(fat, 'overlap.universal');
  assert.ok(codeBytes(b) <= fat.length);
  assert.equal(listRegions(b).length, listRegions(a).length);
});

test('defect 1: PE images with overlapping sections', () => {
  const body = loopCode(16384);
  const at = coffBodyOffset(300, true);
  const data = coff({
    image: true,
    body,
    sections: Array.from({ length: 300 }, (_, i) => ({
      rawPtr: at,
      rawSize: 16384,
      vaddr: 0x1000 + (i % 2) * 0x100000,
    })),
  });
  const input = inputFromBytes(data, 'overlap.exe');
  assert.ok(codeBytes(input) <= data.length);
  assert.equal(input.sections.length, 1);
});

test('defect 1: files without overlapping sections are read as before (every example binary)', () => {
  for (const f of readdirSync('examples/bin')) {
    const data = new Uint8Array(readFileSync(join('examples/bin', f)));
    let img: ReturnType<typeof readBinary>;
    try {
      img = readBinary(data, f);
    } catch {
      continue;
    }
    if (!img) continue;
    assert.equal(mergeOverlappingSections(img), img, f);
  }
});

test('defect 1: symbols of a merged section follow it', () => {
  const img = {
    format: 'elf64' as const,
    bitness: 64 as const,
    machine: 'x86-64',
    symbols: [{ name: 'f', address: 8, size: null, section: '.b' }],
    sections: [] as { name: string; address: number; data: Uint8Array; executable: boolean }[],
  };
  const buf = new Uint8Array(64);
  img.sections = [
    { name: '.a', address: 0, data: buf.subarray(0, 32), executable: true },
    { name: '.b', address: 8, data: buf.subarray(8, 48), executable: true },
  ];
  const m = mergeOverlappingSections(img);
  assert.deepEqual(
    m.sections.map((s) => [s.name, s.address, s.data.length]),
    [['.a', 0, 48]],
  );
  assert.equal(m.symbols[0]!.section, '.a');
});

test('defect 1 through the CLI: regions on the 2,000-section ELF lists the loops of one section, once each', () => {
  const dir = tempDir('overlap');
  writeFileSync(join(dir, 'overlap2000.o'), elfN(2000));
  writeFileSync(join(dir, 'one.o'), elfN(1));
  const r = cli(['regions', join(dir, 'overlap2000.o')], { timeout: 60_000 });
  const one = cli(['regions', join(dir, 'one.o')], { timeout: 60_000 });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /loop at 0x0/);
  assert.equal(r.out.split('\n').length, one.out.split('\n').length);
});
