// The refined model (every mechanism on) over every corpus build on three cores (SKL, ICL, ADL-P;
// the embedded data, as a first run sees it): no exception, every figure finite and non-negative,
// and the block throughput never below a physical bound — the fused-domain µops issued per
// iteration ÷ the issue width, and for every set S of ports the lines that need a port of S (a µop
// that may use only ports of S) ÷ |S| (counted by lines, not µops: SUACA's model lets an
// instruction's own µops share a port in one cycle, thesis §3.3, and the refined model keeps that).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyseRegion, forArch } from '../../src/cli/pipeline.js';
import { loadMachine } from '../../src/data/index.js';
import { BASELINE, REFINED_MECHANISMS, simulate } from '../../src/sim/index.js';
import { CompiledProgram } from '../../src/sim/compiled.js';

const dir = join(import.meta.dirname, '../../examples/corpus/bin');
const builds = readdirSync(dir)
  .filter((f) => f.endsWith('.o'))
  .sort();
const ARCHS = ['SKL', 'ICL', 'ADL-P'] as const;

/** max over port sets S of (lines with a µop confined to S) / |S|; lines executed at rename take none */
function portBound(cp: CompiledProgram): number {
  const lines: number[][] = [];
  for (let l = 0; l < cp.n; l++) {
    if (cp.renamed[l]) continue;
    const masks: number[] = [];
    for (let u = 0; u < cp.uops[l]!; u++) {
      const m = cp.uopMask[l * cp.maxU + u]!;
      if (m) masks.push(m);
    }
    if (masks.length) lines.push(masks);
  }
  let best = 0;
  for (let S = 1; S < 1 << cp.P; S++) {
    let k = 0;
    for (let x = S; x; x &= x - 1) k++;
    let c = 0;
    for (const masks of lines) if (masks.some((m) => (m & ~S) === 0)) c++;
    best = Math.max(best, c / k);
  }
  return best;
}

test('the refined model on every corpus build (SKL, ICL, ADL-P): finite figures, above the issue and port bounds', async () => {
  assert.ok(builds.length >= 500, `only ${builds.length} builds`);
  const machines = ARCHS.map((a) => loadMachine(a));
  const problems: string[] = [];
  let runs = 0;
  for (const b of builds) {
    const base = await analyseRegion({ file: join(dir, b) });
    for (const machine of machines) {
      const what = `${b} ${machine.arch}`;
      try {
        const an = await forArch(base, machine);
        const r = simulate(
          an.program,
          an.params,
          { iterations: 100, variant: BASELINE },
          { model: { mechanisms: REFINED_MECHANISMS } },
        );
        runs++;
        const s = r.stats;
        const nums = [s.cycles, s.blockThroughput, s.uopsPerCycle, s.totalUops, ...Object.values(s.portTotals)];
        for (const l of s.lines) for (const v of Object.values(l)) if (typeof v === 'number') nums.push(v);
        if (nums.some((v) => !Number.isFinite(v) || v < 0)) {
          problems.push(`${what}: a figure is not finite or negative`);
          continue;
        }
        const cp = new CompiledProgram(an.program, an.params, REFINED_MECHANISMS);
        const issued = Array.from(cp.fused).reduce((a, x) => a + x, 0);
        if (s.blockThroughput + 1e-9 < issued / an.params.issueWidth)
          problems.push(`${what}: ${s.blockThroughput} below the issue bound ${issued}/${an.params.issueWidth}`);
        const pb = portBound(cp);
        if (s.blockThroughput + 1e-9 < pb) problems.push(`${what}: ${s.blockThroughput} below the port bound ${pb}`);
      } catch (e) {
        problems.push(`${what}: ${(e as Error).stack?.split('\n').slice(0, 3).join(' | ')}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.equal(runs, builds.length * ARCHS.length);
});
