// Golden Cove's additions at rename: the refined model executes add/sub r64, imm8 and inc/dec r64
// at rename where the core record's rename part says so (rename.immediateAdds, cited in
// src/data/citations.ts; its limits are not published, the record's notes say so).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadMachine } from '../../src/data/index.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS, withMechanism } from '../../src/sim/mechanisms.js';
import { mechanismNotes } from '../../src/sim/refine.js';
import { loop, run } from './mechanismLoops.js';

const CHAIN = '1:\n  add rax, 1\n  add rax, 1\n  add rax, 1\n  add rax, 1\n  dec rcx\n  jnz 1b';
const ITER = 400;

test('SPR: four dependent add rax, 1 are executed at rename (refined model), one cycle per iteration', async () => {
  const p = await loop(CHAIN, 'SPR');
  const cpi = (m: typeof REFINED_MECHANISMS) => run(p, m, ITER).stats.cycles / ITER;
  const refined = cpi(REFINED_MECHANISMS);
  // 5 fused µops and the branch's at a 6-wide allocation: the issue width bounds it, not the chain
  assert.ok(refined <= 1.02, `refined ${refined}`);
  // without the rename part, the chain of four 1-cycle adds bounds it
  assert.ok(Math.abs(cpi(withMechanism(REFINED_MECHANISMS, 'moveElimination', false)) - 4) < 0.05);
  assert.ok(Math.abs(cpi(SUACA_MECHANISMS) - 4) < 0.05);
  const notes = mechanismNotes(p.program, REFINED_MECHANISMS).join('\n');
  assert.match(notes, /immediate additions: line 0 \(add rax, 0x1\).* executed at rename/);
  assert.doesNotMatch(notes, /zero idioms/);
});

test('cores without the rename part keep the chain (SKL, ICL): 4 cycles per iteration', async () => {
  for (const arch of ['SKL', 'ICL'] as const) {
    assert.equal(loadMachine(arch).rename?.immediateAdds, undefined);
    const p = await loop(CHAIN, arch);
    const c = run(p, REFINED_MECHANISMS, ITER).stats.cycles / ITER;
    assert.ok(Math.abs(c - 4) < 0.05, `${arch}: ${c}`);
  }
  const spr = loadMachine('SPR');
  assert.equal(spr.rename?.immediateAdds?.value, true);
  assert.match(spr.rename!.immediateAdds!.source, /name99-org\/AArch64-Explore\/issues\/3/);
  assert.ok(spr.notes?.some((n) => /found in no citable source/.test(n)));
});

test('an addition that macro-fuses with its Jcc is one branch µop, not executed at rename', async () => {
  // ADD fuses with JNZ on Golden Cove (Ice Lake's rule)
  const p = await loop('1:\n  add rax, 1\n  add rcx, 1\n  jnz 1b', 'SPR');
  const notes = mechanismNotes(p.program, REFINED_MECHANISMS).join('\n');
  assert.match(notes, /line 0 \(add rax, 0x1\) executed at rename/);
  assert.doesNotMatch(notes, /line 1 \(add rcx, 0x1\)/);
});

// unmasked EVEX register moves, zmm included, each independent of the others; a masked one merges
// into its destination (an operation)
const EVEX_MOVES =
  '1:\n  vmovdqa64 zmm1, zmm0\n  vmovaps zmm3, zmm2\n  vmovdqu32 ymm5, ymm4\n  vmovdqa64 zmm7{k1}, zmm6\n  dec rcx\n  jnz 1b';

test('SPR: unmasked EVEX register moves take no port (uops.info ADL-P, cited in the record); a masked one does', async () => {
  const spr = loadMachine('SPR');
  assert.equal(spr.rename?.evexMoveElimination?.value, true);
  assert.match(spr.rename!.evexMoveElimination!.source, /alderlakep\.csv \(commit fbeccff\).*VMOVDQA64/);
  const p = await loop(EVEX_MOVES, 'SPR');
  const notes = mechanismNotes(p.program, REFINED_MECHANISMS).join(' ').replace(/\s+/g, ' ');
  assert.match(
    notes,
    /move elimination: line 0 \(vmovdqa64 zmm1, zmm0\), line 1 \(vmovaps zmm3, zmm2\), line 2 \(vmovdqu32 ymm5, ymm4\) eliminated/,
  );
  assert.doesNotMatch(notes, /line 3 \(vmovdqa64 zmm7\{k1\}, zmm6\) eliminated/);
  const onPorts = (on: typeof REFINED_MECHANISMS) =>
    run(p, on, ITER).stats.lines.map((l) => Object.values(l.ports).reduce((a, b) => a + b, 0));
  const refined = onPorts(REFINED_MECHANISMS);
  assert.deepEqual(refined.slice(0, 3), [0, 0, 0]);
  assert.ok(refined[3]! > 0.99, `the masked move: ${refined[3]}`);
  // the figures still give each move its µop: without the mechanism every move takes a port
  const off = onPorts(withMechanism(REFINED_MECHANISMS, 'moveElimination', false));
  for (const x of off.slice(0, 4)) assert.ok(x > 0.99, String(off));
});

test('SKX: its record cites no EVEX move elimination, so none of these moves is eliminated', async () => {
  assert.equal(loadMachine('SKX').rename?.evexMoveElimination, undefined);
  const p = await loop(EVEX_MOVES, 'SKX');
  const notes = mechanismNotes(p.program, REFINED_MECHANISMS).join(' ');
  assert.doesNotMatch(notes, /move elimination/);
});
