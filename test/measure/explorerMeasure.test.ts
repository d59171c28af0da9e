// The explorer's measurement runner (src/cli/explorerMeasure.ts) on the real harness: it runs in
// the background (the event loop keeps turning), and cancelling kills the harness and its child.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRegion } from '../../src/disasm/index.js';
import { measureRunner } from '../../src/cli/explorerMeasure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const linux = process.platform === 'linux' && process.arch === 'x64';
const cache = mkdtempSync(join(tmpdir(), 'uopscope-xmeasure-'));
process.on('exit', () => rmSync(cache, { recursive: true, force: true }));

/** Processes whose command line names the scratch cache (the harness and its forked child). */
function harnessProcesses(): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(cache)) pids.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return pids;
}

test('the runner measures a chain of 4 dependent adds in the background', {
  skip: !linux && 'Linux x86-64 only',
}, async () => {
  const region = await loadRegion({ hex: '4801c3'.repeat(4) });
  const runner = measureRunner(region, { cacheDir: cache, repetitions: 20 });
  assert.equal(runner.unavailable, undefined);
  let ticks = 0;
  const timer = setInterval(() => {
    ticks++;
  }, 5);
  const o = await runner.run().promise;
  clearInterval(timer);
  assert.ok(o.ok && !('sides' in o), JSON.stringify(o));
  assert.equal(o.variant, 'unrolled');
  assert.ok(o.cyclesPerIteration >= 2 && o.cyclesPerIteration <= 12, `${o.cyclesPerIteration}`);
  assert.ok(ticks > 0, 'the event loop turned while the harness ran');
});

test('a refused region resolves with the reason; cancelling kills the harness and its child', {
  skip: !linux && 'Linux x86-64 only',
}, async () => {
  // ud2 is refused before the harness runs it (it always raises an exception)
  const bad = await measureRunner(await loadRegion({ hex: '0f0b' }), { cacheDir: cache, repetitions: 10 }).run()
    .promise;
  assert.equal(bad.ok, false);
  assert.match(
    (bad as { reason: string }).reason,
    /^not measurable: line 0 \(ud2\) always raises an exception: the harness does not run it$/,
  );
  // test rcx, rcx; je +3; add rbx, rax; add rax, rbx: each side of the je, as straight-line code
  const branch = await measureRunner(await loadRegion({ hex: '4885c974034801c34801d8' }), {
    cacheDir: cache,
    repetitions: 20,
  }).run().promise;
  assert.ok(branch.ok && 'sides' in branch, JSON.stringify(branch));
  assert.deepEqual(
    branch.sides.map((x) => x.label),
    ['fall-through', 'taken'],
  );
  // fall-through: test, add rbx, rax, add rax, rbx (a chain of 2 through rax and rbx); taken: test, add rax, rbx
  const [ft, tk] = branch.sides.map((x) => x.cyclesPerIteration!);
  assert.ok(ft! >= 1 && ft! <= 8 && tk! >= 0.5 && tk! <= 5, `${ft} ${tk}`);
  // a loop exit: refused, no side to measure
  const exit = await measureRunner(
    await loadRegion({ file: join(ROOT, 'examples/corpus/bin/memcmp_loop.gcc.O2.sse2.o') }),
    { cacheDir: cache },
  ).run().promise;
  assert.match(
    (exit as { reason: string }).reason,
    /^not measurable: line 2 \(je 0x2a\) jumps out of the region \(a loop exit/,
  );
  // 100 chained 64-bit divisions per copy, 10000 repetitions: seconds of work, cancelled early
  const slow = measureRunner(await loadRegion({ hex: '48f7f1'.repeat(100) }), { cacheDir: cache, repetitions: 10000 });
  const job = slow.run();
  const deadline = Date.now() + 20_000;
  while (harnessProcesses().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(harnessProcesses().length >= 1, 'the harness runs');
  job.cancel();
  await assert.rejects(job.promise);
  const gone = Date.now() + 5000;
  while (harnessProcesses().length && Date.now() < gone) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(harnessProcesses(), [], 'no harness process is left');
});
