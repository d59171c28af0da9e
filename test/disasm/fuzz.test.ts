// Fuzz: seeded mutations of the example binaries (every format) must each end in a result or a
// UserError — no other exception, no hang. 12,000 mutations in a bounded run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { UserError } from '../../src/errors.js';
import {
  branchPaths,
  buildCfg,
  buildDependencyGraph,
  inputFromBytes,
  listRegions,
  selectRegion,
} from '../../src/disasm/index.js';
import { IACA_END, IACA_START } from '../../src/disasm/regions.js';
import { rng } from '../fuzz/rng.js';

const SEEDS = [
  'branch',
  'branch.o',
  'branch.obj',
  'branch.exe',
  'branch.dll',
  'branch.macho.o',
  'branch.universal.o',
  'branch-i386.elf32.o',
  'stencil.o',
  'adc-chain.macho.o',
  'two-regions.obj',
];
const MUTATIONS = 12_000;

function mutate(src: Uint8Array, next: () => number): Uint8Array {
  const b = Uint8Array.from(src);
  const kind = next() % 7;
  const pos = () => next() % b.length;
  switch (kind) {
    case 0: // flip bits
      for (let k = 1 + (next() % 8); k > 0; k--) b[pos()]! ^= 1 << (next() % 8);
      return b;
    case 1: // random bytes in the first 512 bytes (headers)
      for (let k = 1 + (next() % 4); k > 0; k--) b[next() % Math.min(512, b.length)] = next() & 0xff;
      return b;
    case 2: // truncate
      return b.subarray(0, next() % b.length);
    case 3: {
      // large value into a 32-bit field of the headers
      const o = next() % Math.max(1, Math.min(512, b.length - 4));
      const v = [0xffffffff, 0x7fffffff, 0x80000000, 0x10000, b.length, b.length + 1][next() % 6]!;
      new DataView(b.buffer).setUint32(o, v >>> 0, true);
      return b;
    }
    case 4: {
      // a marker pattern somewhere
      const m = next() % 2 ? IACA_START : IACA_END;
      const o = next() % Math.max(1, b.length - m.length);
      b.set(m.subarray(0, Math.min(m.length, b.length - o)), o);
      return b;
    }
    case 5: {
      // random run inside the body (code)
      const o = pos();
      for (let k = 0; k < 16 && o + k < b.length; k++) b[o + k] = next() & 0xff;
      return b;
    }
    default: // zero a run
      b.fill(0, pos(), pos());
      return b;
  }
}

function exercise(data: Uint8Array, name: string): 'ok' | 'user-error' {
  try {
    const input = inputFromBytes(data, name);
    const regions = listRegions(input);
    const r = selectRegion(input, regions.length > 1 ? { region: 1 + (data.length % regions.length) } : {});
    buildCfg(r.instructions, { loop: true });
    buildDependencyGraph(r.instructions, { loop: true });
    const p = branchPaths(r.instructions);
    if (p) buildDependencyGraph(r.instructions, { loop: false });
    return 'ok';
  } catch (e) {
    if (e instanceof UserError) {
      assert.ok(!e.message.includes('\n'), `multi-line message: ${e.message}`);
      return 'user-error';
    }
    throw e;
  }
}

test(`fuzz: ${MUTATIONS} seeded mutations of ${SEEDS.length} example binaries end in a result or a UserError`, {
  timeout: 120_000,
}, () => {
  const seeds = SEEDS.map((f) => ({ f, data: new Uint8Array(readFileSync(`examples/bin/${f}`)) }));
  const next = rng(0x5eed);
  const counts = { ok: 0, 'user-error': 0 };
  for (let i = 0; i < MUTATIONS; i++) {
    const s = seeds[i % seeds.length]!;
    const m = mutate(s.data, next);
    try {
      counts[exercise(m, `${s.f}#${i}`)]++;
    } catch (e) {
      assert.fail(
        `mutation ${i} of ${s.f} threw ${e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e)}`,
      );
    }
  }
  console.log(`fuzz outcomes: ${JSON.stringify(counts)}`);
  // both outcomes occur: the fuzzing reaches past the header checks
  assert.ok(counts.ok > MUTATIONS / 10, JSON.stringify(counts));
  assert.ok(counts['user-error'] > MUTATIONS / 20, JSON.stringify(counts));
});

// Structure-aware: object files built from their parts with drawn counts, offsets, sizes and
// indices (test/fuzz/objectFuzz.ts). Bounded here; `npm run fuzz -- --seconds 600` runs it longer.
test('structure-aware fuzz of ELF, PE/COFF, Mach-O and universal files: a result or one line, work bounded by the file size', {
  timeout: 120_000,
}, async () => {
  const { runObjectFuzz } = await import('../fuzz/objectFuzz.js');
  const stats = runObjectFuzz(0x0b1ec7, 4, 3000);
  console.log(`structure-aware object fuzz: ${JSON.stringify(stats)}`);
  assert.ok(stats.cases >= 200, `only ${stats.cases} cases in the time`);
  // every format is reached, and cases get past the headers as well as failing in them
  for (const k of ['elf', 'coff', 'macho', 'universal'])
    assert.ok((stats.kinds[k] ?? 0) > stats.cases / 8, JSON.stringify(stats.kinds));
  assert.ok(stats.ok > stats.cases / 10 && stats.userError > stats.cases / 10, JSON.stringify(stats));
});
