// The report's runs in worker threads (src/cli/simPool.ts) give exactly the figures of running
// them one after the other in the calling thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate, BASELINE } from '../../src/sim/index.js';
import type { MachineParams, SimProgram, Variant } from '../../src/sim/index.js';
import { simulateAll } from '../../src/cli/simPool.js';
import { runReport, runHereFor, PARALLEL_MIN_INSTANCES, PARALLEL_MIN_MS } from '../../src/cli/commands/reportRun.js';

const SNB: MachineParams = { arch: 'SNB', ports: [0, 1, 2, 3, 4, 5], issueWidth: 4, rsSize: 54, dividerPort: 0 };
// a small loop with a loop-carried chain, a divider µop and port pressure
const program: SimProgram = {
  instructions: [
    { line: 0, asm: 'a', uops: [[0, 1, 5]], latency: 1, latencyByResource: {}, divCycles: 0, unknown: false },
    {
      line: 1,
      asm: 'b',
      uops: [
        [2, 3],
        [0, 1, 5],
      ],
      latency: 5,
      latencyByResource: {},
      divCycles: 0,
      unknown: false,
    },
    { line: 2, asm: 'c', uops: [[0]], latency: 8, latencyByResource: {}, divCycles: 6, unknown: false },
    { line: 3, asm: 'd', uops: [[5]], latency: 1, latencyByResource: {}, divCycles: 0, unknown: false },
  ],
  deps: [
    { from: 0, to: 1, resource: 'RAX', loopCarried: false },
    { from: 1, to: 2, resource: 'RBX', loopCarried: false },
    { from: 2, to: 0, resource: 'RCX', loopCarried: true },
    { from: 3, to: 3, resource: 'RDX', loopCarried: true },
  ],
};
const variants: Variant[] = [
  BASELINE,
  { ...BASELINE, perfectFrontEnd: true },
  { ...BASELINE, infinitePorts: true },
  { ...BASELINE, noDependencies: true },
  { ...BASELINE, portCapacity: 2, issueWidth: 3, rsSize: 10 },
];

for (const workers of [0, 1, 2]) {
  test(`simulateAll with ${workers} worker(s) = simulate one after the other, in order`, async () => {
    const configs = variants.map((variant) => ({ iterations: 300, variant }));
    const got = await simulateAll(program, SNB, configs, { workers });
    assert.deepEqual(
      got,
      configs.map((c) => simulate(program, SNB, c)),
    );
  });
}

test('report of the stencil above the parallel threshold: the same JSON with and without worker threads', async () => {
  const iterations = Math.ceil(PARALLEL_MIN_INSTANCES / 8); // the stencil's region has 8 instructions
  const args = {
    arch: 'IVB',
    iterations,
    json: true,
    allVariants: true,
    uopsXml: 'examples/thesis/thesis-instructions.xml',
  };
  const run = async (workers: string) => {
    const before = process.env.UOPSCOPE_WORKERS,
      minMs = process.env.UOPSCOPE_PARALLEL_MIN_MS;
    process.env.UOPSCOPE_WORKERS = workers;
    // offload even though the stencil's runs take a millisecond each (the steady state)
    process.env.UOPSCOPE_PARALLEL_MIN_MS = '0';
    try {
      return await runReport({ file: 'examples/bin/stencil' }, args);
    } finally {
      if (before === undefined) delete process.env.UOPSCOPE_WORKERS;
      else process.env.UOPSCOPE_WORKERS = before;
      if (minMs === undefined) delete process.env.UOPSCOPE_PARALLEL_MIN_MS;
      else process.env.UOPSCOPE_PARALLEL_MIN_MS = minMs;
    }
  };
  const inline = await run('0');
  assert.equal(JSON.parse(inline).iterations, iterations);
  assert.equal(await run('2'), inline);
});

test("a large report's runs go one after the other here until they have taken PARALLEL_MIN_MS; only the rest go to worker threads", () => {
  // a clock that each run moves on by its cost (ms)
  const runWith = (costs: number[], ms: number) => {
    let now = 0;
    const ran: number[] = [];
    const rest = runHereFor(
      costs.map((c, i) => ({ i, c })),
      (x) => {
        ran.push(x.i);
        now += x.c;
      },
      ms,
      () => now,
    );
    return { ran, rest: rest.map((x) => x.i) };
  };
  // the IVB stencil's five runs, cold: the first ≈ 40 ms, together ≈ 65 ms: all here
  assert.deepEqual(runWith([40, 20, 1, 1, 2], PARALLEL_MIN_MS), { ran: [0, 1, 2, 3, 4], rest: [] });
  // and on a busy machine (the first 150 ms)
  assert.deepEqual(runWith([150, 40, 1, 1, 2], PARALLEL_MIN_MS), { ran: [0, 1, 2, 3, 4], rest: [] });
  // long runs: the first here, as many more as fit in the time, the rest to the workers
  assert.deepEqual(runWith([60, 60, 60, 60], 100), { ran: [0, 1], rest: [2, 3] });
  assert.deepEqual(runWith([500, 500, 500], 100), { ran: [0], rest: [1, 2] });
  // 0 ms (the tests' UOPSCOPE_PARALLEL_MIN_MS=0): the first here, every other one offloaded
  assert.deepEqual(runWith([1, 1, 1], 0), { ran: [0], rest: [1, 2] });
  assert.deepEqual(runWith([], 100), { ran: [], rest: [] });
});
