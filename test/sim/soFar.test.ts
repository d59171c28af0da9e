// Statistics during a run are over what has completed: the thesis's adc chain (8 cycles per
// iteration on SKL) read half-way through a long run shows 8, not cycles ÷ all iterations (4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { analyse } from '../../src/cli/pipeline.js';
import { createEngine } from '../../src/sim/index.js';
import { BASELINE } from '../../src/sim/types.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('half-way through, the block throughput and the per-line figures are per iteration completed', async () => {
  const a = await analyse({ file: `${ROOT}examples/bin/adc-chain`, arch: 'SKL' });
  const N = 20_000;
  const e = createEngine(a.program, a.params, { iterations: N, variant: BASELINE });
  const end = e.runToEnd().stats;
  assert.equal(end.iterationsCompleted, N);
  assert.equal(end.blockThroughput, end.cycles / N);
  const mid = e.seek(Math.floor(end.cycles / 2)).stats;
  assert.ok(mid.iterationsCompleted > N * 0.45 && mid.iterationsCompleted < N * 0.55, String(mid.iterationsCompleted));
  assert.equal(mid.blockThroughput, mid.cycles / mid.iterationsCompleted);
  assert.ok(
    Math.abs(mid.blockThroughput - end.blockThroughput) < 0.05,
    `${mid.blockThroughput} vs ${end.blockThroughput}`,
  );
  // per-line figures: the same per-iteration rates as the whole run, not half of them
  end.lines.forEach((l, i) => {
    const m = mid.lines[i]!;
    assert.ok(
      Math.abs(m.hadToWait - l.hadToWait) <= 0.05 * Math.max(1, l.hadToWait),
      `line ${l.line} had to wait ${m.hadToWait} vs ${l.hadToWait}`,
    );
    for (const [p, v] of Object.entries(l.ports))
      assert.ok(Math.abs((m.ports[p] ?? 0) - v) < 0.05, `line ${l.line} p${p}`);
  });
  // before anything completes there is no rate yet
  const start = e.seek(0).stats;
  assert.equal(start.iterationsCompleted, 0);
  assert.ok(Number.isNaN(start.blockThroughput));
});

test('mid-run, the rate is over whole iterations complete, not the average of the lines done', async () => {
  // stencil: its loads run far ahead of its store, so the lines' done counts differ widely
  const a = await analyse({ file: `${ROOT}examples/bin/stencil`, arch: 'SKL' });
  const e = createEngine(a.program, a.params, { iterations: 400, variant: BASELINE });
  const end = e.runToEnd().stats;
  const snap = e.seek(Math.floor(end.cycles / 4));
  const done = snap.lineCounts.map((l) => l.done);
  const whole = Math.min(...done);
  assert.ok(whole < Math.max(...done), `the lines' done counts differ at cycle ${snap.cycle}: ${done.join(' ')}`);
  assert.equal(snap.stats.iterationsCompleted, whole);
  assert.equal(snap.stats.blockThroughput, snap.cycle / whole);
  // each line's µops per iteration over its own done instances: one µop per instance, as at the end
  snap.stats.lines.forEach((l, i) => {
    const total = Object.values(l.ports).reduce((x, y) => x + y, 0);
    const atEnd = Object.values(end.lines[i]!.ports).reduce((x, y) => x + y, 0);
    assert.ok(Math.abs(total - atEnd) <= 0.1 * Math.max(1, atEnd), `line ${l.line}: ${total} vs ${atEnd} µops/iter`);
  });
});
