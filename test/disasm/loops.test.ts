// Loops as compilers find them, on real compiler output (test/fixtures/loops: a dot product, a
// sum, saxpy, a histogram and an if/else loop, each built by gcc -O2, gcc -O3 -march=native
// (rocketlake), gcc -O3 -ffast-math and clang-19 -O3; build.sh there): only natural loops are
// listed (no function epilogue reached by a backward jump, no path of an if/else), and without a
// region option the main loop is analysed (clang's unrolled loop, not its remainder), saying why.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { branchPaths, listRegions, loadInput, loadRegion } from '../../src/disasm/index.js';
import { prepareSide } from '../../src/measure/prepare.js';
import { runCli } from '../helpers/cli.js';

const FIX = 'test/fixtures/loops';

/** Per object: each listed loop as 'start–end role' (role '' when the function has one loop). */
const EXPECTED: Record<string, string[]> = {
  'dot.gcc-O2.o': ['0x10–0x27 main'],
  'dot.gcc-O3-native.o': ['0x30–0x65 main'],
  'dot.gcc-O3-fast-math.o': ['0x20–0x3b main'],
  'dot.clang-O3.o': ['0x30–0x77 main', '0x90–0xa6 remainder'],
  'sum.gcc-O2.o': ['0x10–0x1d main'],
  'sum.gcc-O3-native.o': ['0x30–0x60 main'],
  'sum.gcc-O3-fast-math.o': ['0x30–0x3f main'],
  'sum.clang-O3.o': ['0x30–0x68 main', '0x80–0x8d remainder'],
  'saxpy.gcc-O2.o': ['0x10–0x2c main'],
  'saxpy.gcc-O3-native.o': ['0x30–0x49 main'],
  'saxpy.gcc-O3-fast-math.o': ['0x30–0x4b main'],
  'saxpy.clang-O3.o': ['0x20–0x50 main', '0x60–0x7b remainder'],
  'hist.gcc-O2.o': ['0x10–0x20 main'],
  'hist.gcc-O3-native.o': ['0x10–0x1e main'],
  'hist.gcc-O3-fast-math.o': ['0x10–0x20 main'],
  'hist.clang-O3.o': ['0x20–0x50 main', '0x60–0x6f remainder'],
  'ifelse.gcc-O2.o': ['0x10–0x37 main'],
  'ifelse.gcc-O3-native.o': ['0x10–0x37 main'],
  'ifelse.gcc-O3-fast-math.o': ['0x10–0x37 main'],
  'ifelse.clang-O3.o': ['0x30–0x85 main'],
};

test('gcc and clang builds: regions lists only the natural loops, labelled', async () => {
  for (const [file, want] of Object.entries(EXPECTED)) {
    const regions = listRegions(await loadInput({ file: `${FIX}/${file}` }));
    assert.deepEqual(
      regions.map((r) => `0x${r.start.toString(16)}–0x${r.end.toString(16)} ${r.role}`),
      want,
      file,
    );
    assert.ok(
      regions.every((r) => r.kind === 'loop'),
      file,
    );
    // remainder loops say whose remainder they are, in `regions` and in the picker (the name)
    for (const r of regions.filter((x) => x.role === 'remainder'))
      assert.match(r.name, /remainder of the loop at 0x/, file);
    if (regions.length > 1) assert.match(regions.find((r) => r.role === 'main')!.name, /main loop/, file);
  }
});

test('without a region option the main loop is analysed, and the note says why', async () => {
  for (const [file, want] of Object.entries(EXPECTED)) {
    const r = await loadRegion({ file: `${FIX}/${file}` });
    const main = want.findIndex((w) => w.endsWith(' main'));
    assert.equal(`0x${r.region.start.toString(16)}–0x${r.region.end.toString(16)}`, want[main]!.split(' ')[0], file);
    assert.ok(
      r.instructions.every((i) => i.branch?.kind !== 'return'),
      `${file}: a loop holds no ret`,
    );
    if (want.length > 1) {
      assert.match(
        r.region.note ?? '',
        new RegExp(
          `analysing region ${main + 1} of ${want.length}, the main loop of \\w+ \\(of its 2 innermost loops, the one with the widest vectors, then the most instructions.*region 2 is its remainder`,
        ),
        file,
      );
    } else {
      assert.match(r.region.note ?? '', /analysing the only loop of \w+/, file);
    }
  }
});

test('uopscope report FILE (no region option) prints the choice before the figures', () => {
  const res = runCli(['report', `${FIX}/dot.clang-O3.o`, '--iterations', '20']);
  assert.equal(res.code, 0, res.err);
  const lines = res.out.split('\n');
  const why = lines.findIndex((l) => /the main loop of dot/.test(l));
  const tp = lines.findIndex((l) => /^Block throughput/.test(l));
  assert.ok(why >= 0 && why < tp, res.out);
  assert.match(res.err, /note: analysing region 1 of 2, the main loop of dot/);
});

test('--function with a main loop and its remainder takes the main loop and names the other', async () => {
  const r = await loadRegion({ file: `${FIX}/dot.clang-O3.o`, function: 'dot' });
  assert.equal(r.region.start, 0x30);
  assert.match(
    r.region.note!,
    /^function dot: analysing the main loop \(of its 2 innermost loops, .*; region 2 is its remainder\)$/,
  );
  assert.doesNotMatch(r.region.note!, /innermost of its/);
  // the explorer's picker takes a function's loop by its number
  const second = await loadRegion({ file: `${FIX}/dot.clang-O3.o`, function: 'dot', functionLoop: 2 });
  assert.equal(second.region.start, 0x90);
});

test('gcc -O2 rotated if/else: one loop laid out from its test, with both paths as a branch inside', async () => {
  const r = await loadRegion({ file: `${FIX}/ifelse.gcc-O2.o` });
  // the loop's test (0x20) first, the path gcc placed before it (0x10) after the closing branch
  assert.deepEqual(r.region.segments, [
    { start: 0x20, end: 0x37 },
    { start: 0x10, end: 0x20 },
  ]);
  assert.deepEqual(
    r.instructions.map((i) => i.address),
    [0x20, 0x23, 0x26, 0x28, 0x2b, 0x2f, 0x32, 0x35, 0x10, 0x14, 0x18, 0x1b, 0x1e],
  );
  assert.equal(r.instructions[2]!.branch!.targetLine, 8);
  assert.equal(r.instructions[7]!.branch!.targetLine, 0);
  const paths = branchPaths(r.instructions);
  assert.ok(paths, 'a branch inside the loop');
  assert.equal(paths.branchLine, 2);
  // fall-through: the else path up to the closing branch; taken: the then path
  assert.deepEqual(paths.left, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(paths.right, [0, 1, 2, 8, 9, 10, 11, 12]);
  // and both sides can be measured (M in the explorer): the loop's exit is left out of a side
  for (const side of [paths.left, paths.right]) {
    const p = prepareSide(r.instructions, side, paths.branchLine);
    assert.ok(p.ok, p.ok ? '' : p.why);
  }
});

test('C++ functions are named demangled', async () => {
  const [r] = listRegions(await loadInput({ file: `${FIX}/scale.gcc-O2.o` }));
  assert.match(r!.name, /in kern::scale\(float\*, unsigned long, float\)/);
});

test('a region holding a ret says so before the figures', async () => {
  // the whole function: its ret is the last line (a listing, said nothing about); a range that
  // runs over the ret into the code after it does
  const r = await loadRegion({ file: `${FIX}/dot.gcc-O3-native.o`, function: 'dot', wholeFunction: true });
  const rets = r.instructions.filter((i) => i.branch?.kind === 'return');
  assert.ok(rets.length > 1);
  assert.match(r.region.note ?? '', /\(ret\) .*leave the code for good \(a return or an indirect jump\)/);
  const loop = await loadRegion({ file: `${FIX}/dot.gcc-O3-native.o` });
  assert.doesNotMatch(loop.region.note ?? '', /leave/);
});

test('the loop search reports its progress in bytes of code, up to the total, and finds the same loops', async () => {
  // two functions, each with its loop (the search reports after each function)
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-loops-'));
  const file = join(dir, 'two.s');
  const fn = (name: string, reg: string) =>
    `.globl ${name}\n.type ${name},@function\n${name}:\n1: dec %${reg}\njnz 1b\nret\n.size ${name}, .-${name}\n`;
  writeFileSync(file, `.text\n${fn('f', 'rdi')}${fn('g', 'rsi')}`);
  try {
    const input = await loadInput({ file });
    const seen: [number, number][] = [];
    const withProgress = listRegions(input, (d, t) => seen.push([d, t]));
    const code = input.sections.filter((s) => s.executable).reduce((n, s) => n + s.data.length, 0);
    assert.equal(withProgress.length, 2);
    assert.ok(seen.length >= 2, 'after each function');
    for (let k = 0; k < seen.length; k++) {
      assert.equal(seen[k]![1], code);
      assert.ok(seen[k]![0] <= code && (k === 0 || seen[k]![0] > seen[k - 1]![0]));
    }
    assert.equal(seen.at(-1)![0], code, 'the last call: all of it');
    assert.deepEqual(withProgress, listRegions(await loadInput({ file })));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
