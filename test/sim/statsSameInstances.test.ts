// Mid-run, each line's figures are over the same instances as their divisor (its instances done):
// at every cycle of the `npm start` example and of the stencil, a line's port figures add up to its
// µops and the ports' totals to the µops of one iteration (the Statistics title's µops/iter).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { analyse } from '../../src/cli/pipeline.js';
import { createEngine, engineOptionsOf } from '../../src/sim/index.js';
import { mechanismsOf, type ModelName } from '../../src/sim/mechanisms.js';
import { BASELINE } from '../../src/sim/types.js';
import { BUILTIN_DEFAULTS } from '../../src/cli/config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sum = (r: Record<string, number>) => Object.values(r).reduce((x, y) => x + y, 0);
const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

for (const file of ['branch', 'stencil'])
  for (const model of ['refined', 'suaca'] as ModelName[])
    test(`${file} (${model}): every cycle's Statistics add up to the µops of the instances they are over`, async () => {
      const a = await analyse({ file: `${ROOT}examples/bin/${file}`, arch: 'SKL' });
      const N = BUILTIN_DEFAULTS.iterations;
      const e = createEngine(
        a.program,
        a.params,
        { iterations: N, variant: BASELINE },
        engineOptionsOf(mechanismsOf(model)),
      );
      const last = e.runToEnd().cycle;
      let whole = 0;
      for (let c = 0; c <= last; c++) {
        const snap = e.seek(c);
        const st = snap.stats;
        st.lines.forEach((l, i) => {
          const done = snap.lineCounts[i]!.done;
          const where = `cycle ${c}, line ${l.line} (${l.asm}), ${done} done`;
          if (done === 0) {
            assert.deepEqual(l.ports, {}, `${where}: no port figure before an instance is done`);
            assert.ok(Number.isNaN(l.hadToWait), `${where}: no wait figure before an instance is done`);
            return;
          }
          assert.ok(close(sum(l.ports), l.uops), `${where}: ports add up to ${sum(l.ports)}, not ${l.uops} µops`);
          assert.ok(l.hadToWait >= 0, `${where}: had to wait ${l.hadToWait}`);
        });
        if (st.iterationsCompleted > 0) {
          whole++;
          assert.ok(
            close(sum(st.portTotals), st.totalUops),
            `cycle ${c}: the total row adds up to ${sum(st.portTotals)}, the title says ${st.totalUops} µops/iter`,
          );
        } else
          assert.ok(Object.values(st.portTotals).every(Number.isNaN), `cycle ${c}: no total before an iteration is`);
      }
      assert.ok(whole > last / 2, `${whole} of ${last} cycles had a whole iteration complete`);
    });
