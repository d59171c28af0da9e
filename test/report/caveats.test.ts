// What a prediction leaves out is said at the top of the report (text and JSON): an if/else's
// two sides simulated one after the other, an inner loop simulated once as straight-line code, a
// call whose callee is not simulated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-caveats-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function report(...args: string[]): string {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.cts', 'report', '--arch', 'SKL', '--fast', ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(dir, 'config') },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** The text before the first figure. */
const head = (text: string) => text.slice(0, text.indexOf('Block throughput'));

test('an if/else inside the loop: said at the top, pointing to --branch; not said with --branch', () => {
  const t = head(report('test/fixtures/loops/ifelse.gcc-O2.o'));
  assert.match(
    t.replaceAll('\n  ', ' '),
    /Note: the conditional jump at line \d+ is inside the loop: both of its sides are simulated every iteration.*--branch/,
  );
  assert.doesNotMatch(head(report('test/fixtures/loops/ifelse.gcc-O2.o', '--branch')), /inside the loop/);
  const j = JSON.parse(report('test/fixtures/loops/ifelse.gcc-O2.o', '--json')) as { caveats: string[] };
  assert.equal(j.caveats.filter((c) => /--branch/.test(c)).length, 1);
});

test('an outer loop as the region: its inner loop is simulated once per iteration, said', () => {
  // add; L: add; dec rcx; jnz L; dec rdx; jnz 0 — region 2 is the outer loop
  const t = head(report('--hex', '4801d8 4801c8 48ffc9 75f8 48ffca 75f0', '--region', '2')).replaceAll('\n  ', ' ');
  assert.match(
    t,
    /Note: an inner loop \(lines 1–3\) is simulated once per iteration of this loop, as straight-line code/,
  );
});

test('a call inside the region: the callee is not in the prediction, said', () => {
  const t = head(report('--hex', 'e800000000 4801d8')).replaceAll('\n  ', ' ');
  assert.match(t, /Note: the call at line 0: the called code is not in the prediction/);
});

test("a call in a relocatable object: the call's target is the relocation's symbol, not the next instruction", () => {
  const t = report('test/fixtures/loops/call.gcc-O2.o');
  assert.match(
    head(t).replaceAll('\n  ', ' '),
    /Note: the call at line 2 \(to f\): the called code is not in the prediction/,
  );
  assert.match(t, /\|\| L call f\n/);
  const j = JSON.parse(report('test/fixtures/loops/call.gcc-O2.o', '--json')) as {
    lines: { asm: string }[];
  };
  assert.ok(
    j.lines.some((l) => l.asm === 'call f'),
    JSON.stringify(j.lines.map((l) => l.asm)),
  );
});

test("a relocatable object's loop whose front-end result depends on its placement: said, with each placement's figure", () => {
  // hist's loop is at 0x10 of a .text aligned to 16 bytes: the linker may put it 16, 32 or 48
  // bytes further within a 64-byte block, and the front end's 32-byte windows then differ
  const t = head(report('test/fixtures/loops/hist.gcc-O2.o')).replaceAll('\n  ', ' ');
  const m = t.match(
    /Note: a relocatable object: addresses are offsets in \.text \(aligned to 16 bytes\), and the front end's result depends on where the linker places the loop within 32- and 64-byte blocks: (\d+\.\d\d) cycles per iteration here, (\d+\.\d\d) at \+16, (\d+\.\d\d) at \+32, (\d+\.\d\d) at \+48 bytes/,
  );
  assert.ok(m, t);
  const full = report('test/fixtures/loops/hist.gcc-O2.o');
  assert.match(full, new RegExp(`Block throughput: ${m[1]!.replace('.', '\\.')} cycles`));
  assert.notEqual(m[1], m[2]);
  // the same loop at the object's offset +32 (a 32-byte window further: the same windows)
  assert.equal(m[1], m[3]);
});

test('no placement note where the placement is known or cannot matter', () => {
  // a loop in a section aligned to 64 bytes, a linked program, the model without a front end
  assert.doesNotMatch(head(report('test/fixtures/loops/axpy.gcc-O2-align64.o')), /relocatable/);
  assert.doesNotMatch(head(report('examples/bin/stencil')), /relocatable/);
  assert.doesNotMatch(head(report('test/fixtures/loops/hist.gcc-O2.o', '--model', 'suaca')), /relocatable/);
});

test('a plain loop has no note', () => {
  assert.doesNotMatch(head(report('test/fixtures/loops/dot.gcc-O2.o')), /Note:/);
});

test('lines the core cannot run (AVX-512 on SKL): the note names cores that run them, and one of them does', () => {
  const f = 'examples/corpus/bin/daxpy_vec.clang.O2.avx512.o';
  const t = head(report(f)).replaceAll('\n  ', ' ');
  const m =
    /Note: SKL cannot run AVX512F \(lines 0, 1, 2\): ([A-Z0-9, -]+?),? (?:…,? )?run them \(--arch ([A-Z0-9-]+)\)/.exec(
      t,
    );
  assert.ok(m, t);
  assert.ok(m[1]!.split(', ').includes(m[2]!), t);
  const other = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.cts', 'report', '--arch', m[2]!, '--fast', f],
    { encoding: 'utf8', env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(dir, 'config') } },
  );
  assert.equal(other.status, 0, other.stderr);
  assert.doesNotMatch(other.stdout, /INCOMPLETE|cannot run/, `--arch ${m[2]} runs every line`);
});
