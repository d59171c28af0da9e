// What the snapshot says each instance waits in (RsEntry.queues) agrees with the queues' own
// occupancy, cycle by cycle: with macro-op entries an instance holds at most one entry per queue,
// so the instances naming a queue are its entries. Checked on the scheduler-capacity loop of the
// Zen microbenchmark and on the stencil example, every Zen record, and seeking gives the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadRegion } from '../../src/disasm/index.js';
import { buildExplorerSession, regionAnalysis } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';
import { DEFAULT_MODEL_NAME, mechanismsOf } from '../../src/sim/mechanisms.js';
import { BASELINE } from '../../src/sim/types.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

for (const file of ['test/fixtures/zen/sched.o', 'examples/bin/stencil'])
  for (const arch of ['ZEN2', 'ZEN3', 'ZEN4', 'ZEN5'] as const)
    test(`${file} on ${arch}: the instances naming a queue are its entries, every cycle`, async () => {
      const base = regionAnalysis(await loadRegion({ file: `${ROOT}${file}` }));
      const session = await buildExplorerSession(base, loadMachine(arch));
      const mk = () => session.makeEngine(BASELINE, 30, mechanismsOf(DEFAULT_MODEL_NAME));
      const e = mk();
      const seen = [];
      let stalls = 0;
      for (let c = 1; c <= 400; c++) {
        const s = e.step();
        seen.push(s);
        const q = s.queues;
        assert.ok(q, 'a Zen core has queues');
        if (q.unit !== 'macro-op') continue;
        if (q.stalledOn) stalls++;
        for (const x of q.list) {
          const n = s.rs.filter((r) => r.queues?.includes(x.name)).length;
          assert.equal(n, x.used, `cycle ${c}: ${x.name} ${x.used}/${x.size}, ${n} instances name it`);
        }
        for (const r of s.rs) assert.ok(r.queues, `cycle ${c}: L${r.line}#${r.iteration} says its queues`);
        if (s.finished) break;
      }
      if (file.includes('sched')) assert.ok(stalls > 0, 'the sched loop stalls on a queue');
      // far seeks land on the same snapshots
      const f = mk();
      for (const c of [seen.length, 7, seen.length >> 1, 1]) assert.deepEqual(f.seek(c), seen[c - 1], `seek ${c}`);
    });
