// A report shares a run whose engine inputs are those of a run made already (sharingIdenticalRuns,
// e.g. macro-fusion switched off in a loop without a fused pair): the report's text and JSON are
// exactly those of simulating every run, on corpus loops and several cores, and on the stencil
// at 100,000 iterations through the CLI's path (the runs above the parallel threshold).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport, PARALLEL_MIN_INSTANCES } from '../../src/cli/commands/reportRun.js';
import { simulate } from '../../src/sim/index.js';
import type { Simulate } from '../../src/sim/index.js';
import { renderText } from '../../src/report/text.js';
import { reportJson } from '../../src/report/json.js';
import type { ReportArgs } from '../../src/cli/commands/args.js';

const dir = join(import.meta.dirname, '../../examples/corpus/bin');
const builds = readdirSync(dir)
  .filter((f) => f.endsWith('.o'))
  .sort();

/** The report built the default way (shared runs), and with every run simulated (a plain Simulate
 *  handed in shares nothing), with the number of runs each made. */
async function both(
  input: { file: string },
  a: ReportArgs,
): Promise<{ shared: string[]; every: string[]; sharedRuns: number; everyRuns: number }> {
  let everyRuns = 0;
  const counting: Simulate = (p, m, c, o) => {
    everyRuns++;
    return simulate(p, m, c, o);
  };
  const s = await buildReport(input, a);
  const e = await buildReport(input, a, counting);
  // the shared report's runs, counted the same way: through sharingIdenticalRuns over a counting sim
  const { sharingIdenticalRuns } = await import('../../src/sim/index.js');
  let sharedRuns = 0;
  await buildReport(
    input,
    a,
    sharingIdenticalRuns((p, m, c, o) => {
      sharedRuns++;
      return simulate(p, m, c, o);
    }),
  );
  const out = (m: typeof s.model) => [renderText(m), JSON.stringify(reportJson(m))];
  return { shared: out(s.model), every: out(e.model), sharedRuns, everyRuns };
}

test('corpus loops on four cores: the report with shared runs is the report with every run simulated', async () => {
  const sample = builds.filter((_, i) => i % 60 === 0);
  assert.ok(sample.length >= 8, `${sample.length} builds`);
  let fewer = 0,
    reports = 0;
  for (const b of sample) {
    for (const arch of ['IVB', 'SKL', 'ICL', 'ADL-P']) {
      const r = await both({ file: join(dir, b) }, { arch, iterations: 300, model: 'refined' });
      assert.deepEqual(r.shared, r.every, `${b} ${arch}`);
      assert.ok(r.sharedRuns <= r.everyRuns);
      if (r.sharedRuns < r.everyRuns) fewer++;
      reports++;
    }
  }
  // runs were shared in many of them (else the comparison says little)
  assert.ok(fewer > reports / 2, `${fewer} of ${reports} reports shared a run`);
});

test("the stencil at 100,000 iterations (the CLI's runs above the parallel threshold): the same report, 4 runs instead of 12", async () => {
  const args = { arch: 'IVB', iterations: 100_000, uopsXml: 'examples/thesis/thesis-instructions.xml' };
  assert.ok(100_000 * 8 >= PARALLEL_MIN_INSTANCES);
  const r = await both({ file: 'examples/bin/stencil' }, args);
  assert.deepEqual(r.shared, r.every);
  assert.equal(r.everyRuns, 13);
  // macro-fusion (no Jcc in the region), micro-fusion (the thesis's data has no fused-domain
  // figures), zero idioms, move elimination, the front end (not modelled on IVB), load/store ports,
  // store forwarding, the port rule (no instruction has two µops that may use one port) and
  // per-operand latencies (no load-op form) change
  // nothing the engine reads: only the main run and its three what-ifs are simulated (port choice,
  // which would change it, is off in the refined model)
  assert.equal(r.sharedRuns, 4);
  assert.match(r.shared[0]!, /without one-per-port: +\d+\.\d\d cycles \(change ±0\.00\)/);
  assert.match(r.shared[0]!, /\n {2}off: port-choice /);
});
