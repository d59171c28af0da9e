// Issue 14 item 1: the explorer's worker computes a pane's whole run; the pane's engine adopts it
// (Engine.wholeRun / adopt) so that G, the run's length and far seeks do not simulate it again on
// the interface thread. The adopted run is the worker's, posted: a structured clone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASELINE, createEngine } from '../../src/sim/index.js';
import { Core } from '../../src/sim/core.js';
import { runRequest } from '../../src/cli/simWorker.js';
import { SKL, program } from './generated.js';

function countingSteps(): { count: () => number; restore: () => void } {
  const orig = Core.prototype.step;
  let n = 0;
  Core.prototype.step = function (this: Core) {
    n++;
    return orig.call(this);
  };
  return {
    count: () => n,
    restore: () => {
      Core.prototype.step = orig;
    },
  };
}

test("an engine that adopts a worker's run knows its length, statistics and end without simulating it", () => {
  for (const seed of [3, 11, 42, 97]) {
    const p = program(seed);
    const config = { iterations: 3000, variant: BASELINE };
    const total = runRequest({ kind: 'total', program: p, machine: SKL, config });
    assert.ok('run' in total && total.run, 'the worker returns its run');
    const posted = structuredClone(total.run);
    const fresh = createEngine(p, SKL, config);
    const e = createEngine(p, SKL, config);
    const steps = countingSteps();
    try {
      assert.equal(e.adopt(posted), true);
      assert.equal(e.totalCycles(), total.cycles);
      assert.equal(e.finalStats().blockThroughput, total.blockThroughput);
      assert.equal(steps.count(), 0, 'the length and statistics came from the adopted run');
    } finally {
      steps.restore();
    }
    assert.equal(e.totalCycles(), fresh.totalCycles());
    assert.deepEqual(e.finalStats(), fresh.finalStats());
    // the end and far seeks as a fresh engine has them
    assert.deepEqual(e.runToEnd(), fresh.runToEnd());
    const mid = Math.floor(fresh.totalCycles() * 0.6);
    assert.deepEqual(e.seek(mid), fresh.seek(mid));
    assert.deepEqual(e.seek(5), fresh.seek(5));
  }
});

test('a run of another program or iteration count is not adopted', () => {
  const p = program(5);
  const run = createEngine(p, SKL, { iterations: 400, variant: BASELINE }).wholeRun();
  assert.equal(createEngine(p, SKL, { iterations: 401, variant: BASELINE }).adopt(structuredClone(run)), false);
  const e = createEngine(p, SKL, { iterations: 401, variant: BASELINE });
  e.adopt(run);
  assert.equal(e.totalCycles(), createEngine(p, SKL, { iterations: 401, variant: BASELINE }).totalCycles());
});
