// --function on a gcc-compiled object: a function with loops is analysed as its main loop
// (the explorer offers them), a loop-free one whole, and the report says which it did; a file of
// several regions analysed without a choice says so on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRegion } from '../../src/disasm/index.js';

const hasGcc = spawnSync('gcc', ['--version']).status === 0;
const SRC = `long dot(long *a, long *b, long n) { if (n <= 0) return 0; long s = 0; for (long i = 0; i < n; i++) s += a[i] * b[i]; return s; }
long mat(long *a, long n) { long s = 0; for (long i = 0; i < n; i++) for (long j = 0; j < n; j++) s += a[i * n + j]; return s; }
long flat(long a, long b) { return a * b + 3; }
`;

function uopscope(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('--function: the main (innermost) loop of a function with loops, a loop-free function whole; the report says which', {
  skip: hasGcc ? false : 'gcc is not installed',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-fn-'));
  try {
    const obj = join(dir, 'kern.o');
    writeFileSync(join(dir, 'kern.c'), SRC);
    execFileSync('gcc', ['-O1', '-c', join(dir, 'kern.c'), '-o', obj]);
    const dot = await loadRegion({ file: obj, function: 'dot' });
    assert.equal(dot.region.kind, 'loop');
    assert.match(dot.region.note!, /^function dot: analysing its loop/);
    assert.ok(!dot.instructions.some((i) => i.mnemonic === 'RET'), 'not the whole function');
    const mat = await loadRegion({ file: obj, function: 'mat' });
    assert.equal(mat.region.kind, 'loop');
    assert.match(mat.region.note!, /^function mat: analysing the innermost loop \(region \d+ is an outer loop\)$/);
    const flat = await loadRegion({ file: obj, function: 'flat' });
    assert.equal(flat.region.kind, 'function');
    assert.match(flat.region.note!, /function flat has no loop: analysed whole/);
    const whole = await loadRegion({ file: obj, function: 'dot', wholeFunction: true });
    assert.ok(whole.instructions.some((i) => i.mnemonic === 'RET'));

    const r = uopscope(['report', obj, '--function', 'mat', '--fast']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^Region: loop at 0x[0-9a-f]+ in mat .*\n\(function mat: analysing the innermost loop \(/m);
    assert.match(r.stderr, /^uopscope: note: function mat: analysing the innermost loop/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file of several regions analysed without a choice says so on stderr', () => {
  for (const args of [['report', 'examples/bin/two-regions.o', '--fast'], ['examples/bin/two-regions.o']]) {
    const r = uopscope(args);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(
      r.stderr,
      "uopscope: note: examples/bin/two-regions.o holds 2 regions; analysing region 1 (IACA region 1); choose another with --region N (see 'uopscope regions examples/bin/two-regions.o')\n",
    );
  }
  assert.equal(uopscope(['report', 'examples/bin/two-regions.o', '--region', '2', '--fast']).stderr, '');
});
