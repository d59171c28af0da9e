// The estimator that turns a loop's timings at several lengths into the cost of one iteration
// (assets/measure/slope.h, shared by the harness and the validation driver), on synthetic
// timings: each call costs a fixed amount that steps up at some trip counts (on Zen 4 about 26
// cycles at a fixed, irregular set of lengths), which the difference of two lengths does not
// cancel and the Theil–Sen slope over lengths spread from a quarter of the longest does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopLengths } from '../../src/measure/layout.js';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-slope-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const ASSETS = fileURLToPath(new URL('../../assets/measure/', import.meta.url));

// reads k, reps, calls, the k lengths and reps × k samples; prints slope_percentiles' p10 and p50
const MAIN = `#include <stdio.h>
#include <stdlib.h>
#include "slope.h"
int main(void) {
  int k, reps; unsigned long long calls;
  if (scanf("%d %d %llu", &k, &reps, &calls) != 3 || k < 2 || k > SLOPE_MAX_LENGTHS) return 2;
  uint64_t len[SLOPE_MAX_LENGTHS];
  for (int i = 0; i < k; i++) { unsigned long long x; if (scanf("%llu", &x) != 1) return 2; len[i] = x; }
  uint64_t *s = malloc(8 * (size_t)reps * (size_t)k);
  double *scratch = malloc(sizeof(double) * SLOPE_SCRATCH(reps, k));
  for (int i = 0; i < reps * k; i++) { unsigned long long x; if (scanf("%llu", &x) != 1) return 2; s[i] = x; }
  double p10, p50;
  slope_percentiles(len, k, s, reps, calls, scratch, &p10, &p50);
  printf("%.6f %.6f\\n", p10, p50);
  return 0;
}
`;

let exe: string | null = null;
function estimator(): string {
  if (exe) return exe;
  const src = join(dir, 'slope-main.c');
  writeFileSync(src, MAIN);
  const out = join(dir, 'slope-main');
  const r = spawnSync('cc', ['-O2', '-std=gnu11', '-I', ASSETS, '-o', out, src], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  exe = out;
  return out;
}

/** slope_percentiles on the samples: [p10, p50] in ticks per iteration */
function slope(lengths: number[], samples: number[][], calls: number): [number, number] {
  const input = [lengths.length, samples.length, calls, ...lengths, ...samples.flat()].join(' ');
  const r = spawnSync(estimator(), { input, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [p10, p50] = r.stdout.trim().split(' ').map(Number);
  return [p10!, p50!];
}

/** A deterministic generator (xorshift32) for the noise. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

// 7 ticks per iteration, 300 ticks per call, and 180 ticks more at the "dear" trip counts (an
// irregular set: n mod 7 of 0, 3 or 4), TSC-like noise of up to 26 ticks per sample, and one
// repetition in ten disturbed (a length run twice as slow)
const PER = 7;
const dear = (n: number) => [0, 3, 4].includes(n % 7);
const call = (n: number) => 300 + PER * n + (dear(n) ? 180 : 0);
function samples(lengths: number[], reps: number, calls: number, seed: number): number[][] {
  const r = rng(seed);
  return Array.from({ length: reps }, (_, k) =>
    lengths.map((n, i) => {
      const t = calls * call(n) + Math.floor(r() * 26);
      return k % 10 === 3 && i === k % lengths.length ? 2 * t : t;
    }),
  );
}

test('the slope over twelve lengths is not moved by a per-call step that the two-length difference takes in', {
  skip: process.platform !== 'linux' && 'needs a C compiler (Linux)',
}, () => {
  // the harness's lengths for a longest of 382 iterations (gcc's AVX2 copy at 3/4 of the L1d)
  const lengths = loopLengths(382);
  assert.equal(lengths.length, 12);
  assert.ok(lengths.some(dear) && !lengths.every(dear), 'some lengths are dear, some cheap');
  // the old method, two lengths n/2 and n: 191 is cheap and 382 dear, and the step over 191
  // iterations reads as 13 % more per iteration
  const [two] = slope([191, 382], samples([191, 382], 200, 4, 1), 4);
  assert.ok(Math.abs(two / PER - 1) > 0.05, `the two-length difference: ${two} ticks per iteration`);
  // the Theil–Sen slope over the twelve lengths: within 2 %
  const [low, mid] = slope(lengths, samples(lengths, 200, 4, 2), 4);
  assert.ok(Math.abs(low / PER - 1) < 0.02, `10th percentile ${low} ticks per iteration`);
  assert.ok(Math.abs(mid / PER - 1) < 0.02, `median ${mid} ticks per iteration`);
  assert.ok(low <= mid);
});

test('without a step the slope is the cost per iteration, and the lengths follow the layout', {
  skip: process.platform !== 'linux' && 'needs a C compiler (Linux)',
}, () => {
  const lengths = [100, 250, 400, 550];
  const exact = Array.from({ length: 20 }, () => lengths.map((n) => 2 * (50 + 3 * n)));
  assert.deepEqual(slope(lengths, exact, 2), [3, 3]);
  // a quarter of the longest to the longest, evenly; fewer when the longest is short
  assert.deepEqual(loopLengths(2000), [500, 636, 773, 909, 1045, 1182, 1318, 1455, 1591, 1727, 1864, 2000]);
  assert.deepEqual(loopLengths(2), [1, 2]);
  assert.deepEqual(loopLengths(8), [2, 3, 4, 5, 6, 7, 8]);
});
