// The memory `uopscope measure` gives a region (src/measure/layout.ts, mapped by
// assets/measure/harness.c): each address stream its own memory, placed apart within 4 KiB, sized
// for the run, filled with ordinary data (non-zero, small indices inside the stream they index),
// the pointer and index registers set accordingly. Checked on gcc- and clang-built loops, and in
// the harness itself: where it put each stream, and what the data lets the region do.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeRegion } from '../../src/disasm/decode.js';
import { loadRegion } from '../../src/disasm/index.js';
import type { DecodedInstruction } from '../../src/disasm/types.js';
import { type HarnessResult, notMeasurable, runHarness } from '../../src/measure/harness.js';
import { describeLayout, harnessMemory, loopLengths, memoryLayout, ORDINARY_MAX } from '../../src/measure/layout.js';
import { prepareRegion } from '../../src/measure/prepare.js';
import { assemble } from './asm.js';

const CACHES = { l1: 32 << 10, l2: 1 << 20, l3: 32 << 20 };
const linux = process.platform === 'linux' && process.arch === 'x64';
const cache = mkdtempSync(join(tmpdir(), 'uopscope-layout-'));
process.on('exit', () => rmSync(cache, { recursive: true, force: true }));

async function body(file: string): Promise<DecodedInstruction[]> {
  return (await loadRegion({ file })).instructions.filter((i) => !i.branch);
}

test('a histogram: the keys index the counters (small, in range), the counters are their own stream', async () => {
  const l = memoryLayout(await body('test/fixtures/loops/hist.gcc-O2.o'), { caches: CACHES });
  assert.deepEqual(
    l.streams.map((s) => [s.register, s.advance, s.fill, s.role]),
    [
      ['rsi', 1, { kind: 'int', element: 1 }, 'indices into rdi (line 2)'],
      ['rdi', 0, { kind: 'int', element: 4 }, null],
    ],
  );
  assert.deepEqual(l.indices, ['rax']);
  // every counter a key can reach lies inside the counters' memory
  const counters = l.streams[1]!;
  assert.ok(counters.offset + 4 * ORDINARY_MAX + 4 <= counters.size);
  assert.deepEqual(l.mayCoincide, { load: 2, store: 2, stream: 'rdi' });
});

test('streams start apart within 4 KiB and cover the run; the run is cut to stay within 3/4 of L1d', async () => {
  for (const file of [
    'examples/corpus/bin/stream_copy.gcc.O2.sse2.o',
    'examples/corpus/bin/stream_triad.clang.O3.avx2.o',
    'examples/corpus/bin/int_div.gcc.O2.sse2.o',
    'test/fixtures/loops/saxpy.clang-O3.o',
  ]) {
    const l = memoryLayout(await body(file), { caches: CACHES });
    assert.ok(l.streams.length >= 2, file);
    const starts = l.streams.map((s) => s.offset % 4096);
    for (let a = 0; a < starts.length; a++)
      for (let b = a + 1; b < starts.length; b++) {
        const d = Math.abs(starts[a]! - starts[b]!);
        assert.ok(Math.min(d, 4096 - d) >= 4096 / starts.length - 64, `${file}: starts ${starts}`);
      }
    const longest = Math.max(l.loop.at(-1)!, l.unrolled[1]);
    for (const s of l.streams) {
      assert.ok(s.advance !== null && s.advance !== 0, `${file} ${s.register}`);
      assert.ok(s.offset + Math.abs(s.advance!) * longest <= s.size, `${file} ${s.register} covers the run`);
    }
    assert.ok(l.bytes <= l.target.bytes, `${file}: ${l.bytes} bytes within ${l.target.bytes}`);
    assert.equal(l.target.bytes, 24 << 10);
    // the loop's lengths: 12, evenly spread from a quarter of the longest to the longest
    assert.equal(l.loop.length, 12);
    assert.equal(l.loop[0], Math.ceil(l.loop.at(-1)! / 4));
    assert.deepEqual(l.loop, loopLengths(l.loop.at(-1)!));
  }
  const copy = memoryLayout(await body('examples/corpus/bin/stream_copy.gcc.O2.sse2.o'), { caches: CACHES });
  assert.equal(copy.mayCoincide, null, 'a copy loads one stream and stores another');
  assert.deepEqual(copy.loop, [384, 489, 593, 698, 803, 907, 1012, 1116, 1221, 1326, 1430, 1535]);
  assert.match(copy.bounded!, /^at most 1535 iterations \(not 2000\)/);
  assert.match(describeLayout(copy).join('\n'), /loop 12 lengths from 384 to 1535 iterations, unrolled ×100 and ×200/);
});

test('working sets: l2, l3 and memory lengthen the run to 3/4 of L2, L3, or 4 × L3', async () => {
  const b = await body('examples/corpus/bin/stream_copy.gcc.O2.sse2.o');
  const per = 16; // two streams of 8 bytes per iteration
  for (const [ws, bytes] of [
    ['l2', (CACHES.l2 * 3) / 4],
    ['l3', (CACHES.l3 * 3) / 4],
    ['memory', 4 * CACHES.l3],
  ] as const) {
    const l = memoryLayout(b, { caches: CACHES, workingSet: ws });
    assert.equal(l.target.bytes, bytes);
    assert.ok(l.loop.at(-1)! * per <= bytes && l.loop.at(-1)! * per > bytes * 0.9, `${ws}: ${l.loop}`);
  }
});

test('a list walk: the loaded values are pointers into their own stream; a --fill constant', async () => {
  const walk = await body('examples/corpus/bin/list_walk.gcc.O2.sse2.o');
  const l = memoryLayout(walk, { caches: CACHES });
  assert.deepEqual(l.streams[0]!.fill, { kind: 'pointer', to: 'rdi' });
  const c = memoryLayout(await body('examples/corpus/bin/int_div.gcc.O2.sse2.o'), {
    caches: CACHES,
    fill: { kind: 'constant', value: 0n },
  });
  assert.ok(c.streams.every((s) => s.fill.kind === 'constant' && s.fill.value === 0n));
  const d = memoryLayout(await body('examples/corpus/bin/daxpy_vec.gcc.O3.avx512.o'), { caches: CACHES });
  // vfmadd…pd zmm0, zmm1, [rdx+rax] reads zmm1, the multiplier the program set before the loop
  assert.ok(d.vectorInputs.length >= 1, JSON.stringify(d.vectorInputs));
  // it starts with ordinary doubles (1.0, 2.0, …), the type the FMA reads, never 0 or a denormal
  assert.ok(
    d.vectorInputs.every((v) => v.fill.kind === 'double'),
    JSON.stringify(d.vectorInputs, (_, x) => (typeof x === 'bigint' ? `${x}` : x)),
  );
  assert.match(
    describeLayout(d).join('\n'),
    /^ {2}[xyz]mm\d+: lanes 1\.0, 2\.0, … \(1 \+ k mod 127, doubles, as line \d+ vfmadd/m,
  );
  assert.deepEqual(
    d.streams.map((s) => s.fill),
    [
      { kind: 'double', element: 8 },
      { kind: 'double', element: 8 },
    ],
  );
});

type Ok = Extract<HarnessResult, { ok: true }>;
async function harnessRun(file: string, fill?: bigint): Promise<{ r: HarnessResult; starts: number[] }> {
  const instrs = (await loadRegion({ file })).instructions;
  const p = prepareRegion(instrs);
  assert.ok(p.ok, file);
  const b = p.region.lines.map((line) => instrs.find((i) => i.line === line)!);
  const m = harnessMemory(
    b,
    p.region,
    fill === undefined ? {} : { fill: { kind: 'constant', value: fill } },
    instrs.find((i) => i.line === p.region.closingBranch),
  );
  const r = runHarness(m.code, {
    counter: p.region.counter.number,
    stash: p.region.stash,
    startValues: m.startValues,
    layout: m.args,
    cacheDir: cache,
    repetitions: 10,
    // every access inside the streams: a page outside them is refused
    maxPages: 2,
  });
  return { r, starts: m.layout.streams.map((s) => s.offset % 4096) };
}

test('the harness maps each stream where the layout says, and the region stays inside them', {
  skip: !linux && 'Linux x86-64 only',
}, async () => {
  for (const file of [
    'test/fixtures/loops/hist.gcc-O2.o',
    'examples/corpus/bin/histogram.clang.O3.avx2.o',
    'examples/corpus/bin/stream_copy.gcc.O2.sse2.o',
    'examples/corpus/bin/int_div.gcc.O2.sse2.o',
    'examples/corpus/bin/list_walk.gcc.O2.sse2.o',
  ]) {
    const { r, starts } = await harnessRun(file);
    assert.ok(r.ok, `${file}: ${JSON.stringify(r)}`);
    const o = r as Ok;
    assert.equal(o.streams.length, starts.length);
    // distinct memory: 2 MiB-aligned mappings, each start the layout's offset within 4 KiB
    assert.deepEqual(
      o.streams.map((a) => a % 4096),
      starts,
    );
    assert.equal(new Set(o.streams.map((a) => Math.floor(a / (1 << 21)))).size, starts.length);
    assert.ok(o.pages <= 1, `${file}: ${o.pages} pages outside the streams`);
  }
});

test('a division by loaded values runs on the ordinary fill; with --fill 0 it divides by zero', {
  skip: !linux && 'Linux x86-64 only',
}, async () => {
  const file = 'examples/corpus/bin/int_div.gcc.O2.sse2.o';
  assert.ok((await harnessRun(file)).r.ok);
  const zero = (await harnessRun(file, 0n)).r;
  assert.equal(zero.ok, false);
  assert.match(notMeasurable(zero as Extract<HarnessResult, { ok: false }>), /division by zero/);
});

/** The harness's memory for a region that closes with its own branch. */
function ownLoopMemory(instrs: DecodedInstruction[]) {
  const p = prepareRegion(instrs);
  assert.ok(p.ok);
  const b = p.region.lines.map((line) => instrs.find((i) => i.line === line)!);
  return harnessMemory(
    b,
    p.region,
    { caches: CACHES },
    instrs.find((i) => i.line === p.region.closingBranch),
  );
}

test("the loop closes with the region's own compare and branch, its bound register set for the run's lengths", async () => {
  const own = async (file: string) => ownLoopMemory((await loadRegion({ file })).instructions);
  // add rax, 1; cmp rdx, rax; jne: rax (an index) starts at 0, rdx at each length
  const saxpy = await own('test/fixtures/loops/saxpy.gcc-O2.o');
  assert.equal(saxpy.ownLoop?.bound, 'rdx');
  assert.deepEqual(saxpy.args.slice(-2), ['J=2', `B=2,-1,${saxpy.layout.loop.join(',')}`]);
  // add rsi, 1; …; cmp rsi, rdx; jne: rsi is the keys' stream (stream 0): rdx = its start + n
  const hist = await own('test/fixtures/loops/hist.gcc-O2.o');
  assert.deepEqual(hist.layout.loop, loopLengths(2000));
  assert.deepEqual(hist.args.slice(-2), ['J=2', `B=2,0,${loopLengths(2000).join(',')}`]);
  assert.ok(hist.args.includes(`L=${loopLengths(2000).join(',')}`));
  // the jump back: jne rel8 to the body's start
  assert.deepEqual([...hist.code.slice(-2)], [0x75, (256 - hist.code.length) & 0xff]);
  // an IACA-marked loop jumps back to its start marker: the same
  assert.equal((await own('examples/corpus/bin/daxpy.gcc.O2.sse2.o')).ownLoop?.bound, 'rdx');
  // a loop closed otherwise keeps the harness's dec/jnz
  assert.equal((await own('examples/corpus/bin/list_walk.gcc.O2.sse2.o')).ownLoop, null);
});

test('a loop that counts a register to zero closes with its own branch, the register started n steps before 0', async () => {
  const own = async (instrs: DecodedInstruction[]) => ownLoopMemory(instrs);
  // clang's complex multiply: …; add r8, 0x20; add r9, -2; jne: r9 starts at 2n for n iterations
  const cmul = await own(
    (await loadRegion({ file: 'test/fixtures/measure-loops/cmul.clang-O2.o', region: 1 })).instructions,
  );
  assert.equal(cmul.ownLoop?.bound, 'r9');
  assert.deepEqual(cmul.args.slice(-2), ['J=2', `B=9,-1,${cmul.layout.loop.map((n) => 2 * n).join(',')}`]);
  // counting up to zero: add r9, 1 starts at -n (two's complement)
  const up = await own(decoded('top:\nmovsd xmm0, [rsi+r8]\nadd r8, 8\nadd r9, 1\njne top'));
  assert.equal(up.ownLoop?.bound, 'r9');
  const n = BigInt(up.layout.loop[0]!);
  assert.equal(up.args.at(-1)?.split(',')[2], String(2n ** 64n - n));
  // the count register read by another line (an index), or a 32-bit count: the harness's dec/jnz
  assert.equal((await own(decoded('top:\nmovsd xmm0, [rsi+r9*8]\nadd r9, 1\njne top'))).ownLoop, null);
  assert.equal((await own(decoded('top:\nmovsd xmm0, [rsi+r8]\nadd r8, 8\nadd r9d, 1\njne top'))).ownLoop, null);
});

const decoded = (intel: string) => decodeRegion(assemble(intel), 0, 64, 'the test code');

test('vector registers read before written start with ordinary lanes as their first reader uses them', () => {
  const l = memoryLayout(
    decoded(
      [
        'mulpd xmm1, xmm0',
        'addps xmm3, xmm2',
        'paddw xmm5, xmm4',
        'vfmadd231sd xmm7, xmm6, xmm1',
        'movq rax, xmm8',
      ].join('\n'),
    ),
    { caches: CACHES },
  );
  const starts = Object.fromEntries(l.vectorInputs.map((v) => [v.register, v.fill]));
  // xmm1 is read first by mulpd (doubles); xmm7, an FMA's accumulator, is read before written too
  assert.deepEqual(starts, {
    xmm1: { kind: 'double', element: 8 },
    xmm0: { kind: 'double', element: 8 },
    xmm3: { kind: 'float', element: 4 },
    xmm2: { kind: 'float', element: 4 },
    xmm5: { kind: 'int', element: 2 },
    xmm4: { kind: 'int', element: 2 },
    xmm7: { kind: 'double', element: 8 },
    xmm6: { kind: 'double', element: 8 },
    xmm8: { kind: 'int', element: 8 },
  });
  // loaded as the region uses it: a register only legacy SSE code touches keeps its upper bits
  // clean (a 16-byte movdqu), one a VEX instruction uses is loaded by VEX at its widest name
  const loads = Object.fromEntries(l.vectorInputs.map((v) => [v.register, v.load]));
  assert.equal(loads.xmm0, 'sse');
  assert.equal(loads.xmm1, 'xmm');
  assert.equal(loads.xmm6, 'xmm');
  const wide = memoryLayout(decoded('vfmadd231pd zmm2, zmm1, zmm0\nvaddpd ymm4, ymm3, ymm3'), { caches: CACHES });
  assert.deepEqual(
    wide.vectorInputs.map((v) => [v.register, v.load]),
    [
      ['zmm2', 'zmm'],
      ['zmm1', 'zmm'],
      ['zmm0', 'zmm'],
      ['ymm3', 'ymm'],
    ],
  );
  const text = describeLayout(l).join('\n');
  assert.match(text, /^ {2}xmm0: lanes 1\.0, 2\.0, … \(1 \+ k mod 127, doubles, as line 0 mulpd reads it\)$/m);
  assert.match(text, /^ {2}xmm2: lanes 1\.0, 2\.0, 3\.0, 4\.0, … \(1 \+ k mod 127, floats, as line 1 addps/m);
  assert.match(text, /^ {2}xmm4: lanes 1, 2, 3, 4, … \(1 \+ k mod 127, 2-byte integers, as line 2 paddw/m);
  // and what every other register starts at, MXCSR included (the harness's own value)
  assert.match(readFileSync('assets/measure/harness.c', 'utf8'), /#define REGION_MXCSR \(0x1F80 \| 0x8000 \| 0x0040\)/);
  assert.match(
    text,
    /^Other registers: general-purpose ones not set above start at 0x2324000 \+ n × 0x240 \(n the register's number\), vector ones at 0; MXCSR 0x9fc0 \(the default with denormals-are-zero and flush-to-zero\)$/m,
  );
  // a register written first (a load, a zeroing idiom) is no input
  const w = memoryLayout(decoded(['movupd xmm0, [rsi]', 'xorps xmm1, xmm1', 'mulpd xmm0, xmm1'].join('\n')), {
    caches: CACHES,
  });
  assert.deepEqual(w.vectorInputs, []);
});

test('--fill N fills floating-point streams and registers with N as a float or double, never its bits', () => {
  const l = memoryLayout(
    decoded(['movupd xmm1, [rsi]', 'mulpd xmm1, xmm0', 'movupd [rdi], xmm1', 'add rsi, 16'].join('\n')),
    {
      caches: CACHES,
      fill: { kind: 'constant', value: 3n },
    },
  );
  const m = harnessMemory(
    decoded(['movupd xmm1, [rsi]', 'mulpd xmm1, xmm0', 'movupd [rdi], xmm1', 'add rsi, 16'].join('\n')),
    { body: new Uint8Array(1), startValues: [], counter: { name: 'r15' } },
    { caches: CACHES, fill: { kind: 'constant', value: 3n } },
  );
  // 3.0 as a double is 0x4008000000000000 (the bits 3 would be a denormal, 1.5e-323)
  const three = 0x4008000000000000n;
  assert.ok(
    m.args.some((a) => a === `V=0,c,8,${three},s`),
    m.args.join(' '),
  );
  assert.ok(
    m.args.filter((a) => a.startsWith('M=')).every((a) => a.endsWith(`,c,8,${three}`)),
    m.args.join(' '),
  );
  assert.match(describeLayout(l).join('\n'), /^ {2}xmm0: every lane 3\.0 \(doubles\), as line 1 mulpd reads it$/m);
  assert.match(describeLayout(l).join('\n'), /fill every element 3\.0 \(doubles\)/);
  // an integer stream keeps the integer
  const i = harnessMemory(
    decoded(['mov rax, [rsi]', 'add rsi, 8'].join('\n')),
    { body: new Uint8Array(1), startValues: [], counter: { name: 'r15' } },
    { caches: CACHES, fill: { kind: 'constant', value: 3n } },
  );
  assert.ok(
    i.args.some((a) => a.startsWith('M=6,') && a.endsWith(',c,8,3')),
    i.args.join(' '),
  );
});

test('the harness starts a vector input with its lanes: a divisor converted from xmm0 is 1, not 0', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  // cvttsd2si of xmm0's first lane: 1.0 → 1 with the V= start; 0 (a division error) without it
  const code = ['cvttsd2si rcx, xmm0', 'xor edx, edx', 'div rcx'].join('\n');
  const body = decoded(code);
  const l = memoryLayout(body, { caches: CACHES });
  assert.deepEqual(
    l.vectorInputs.map((v) => [v.register, v.fill.kind]),
    [['xmm0', 'double']],
  );
  const run = (layout: string[]) =>
    runHarness(assemble(code), { counter: 15, stash: 15, repetitions: 10, layout, cacheDir: cache, maxPages: 2 });
  const m = harnessMemory(
    body,
    { body: assemble(code), startValues: [], counter: { name: 'r15' } },
    { caches: CACHES },
  );
  const ok = run(m.args);
  assert.ok(ok.ok, JSON.stringify(ok));
  const without = run(m.args.filter((a) => !a.startsWith('V=')));
  assert.equal(without.ok, false);
  assert.match(notMeasurable(without as Extract<HarnessResult, { ok: false }>), /division by zero/);
});
