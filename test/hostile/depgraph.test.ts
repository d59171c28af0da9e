// Found by the structure-aware fuzzer: a region whose branches each
// skip a write leaves ever more possible last writers, and the reaching-definitions form of the
// dependency graph grew with the square of the region (40,000 instructions: 70 s). Its work is
// now budgeted: such a region is refused in one line; ordinary regions are unaffected.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeRegion } from '../../src/disasm/decode.js';
import { buildDependencyGraph } from '../../src/disasm/index.js';
import { REACHING_BUDGET, program, reachingDefinitions, walkPaths } from '../../src/disasm/depgraph.js';
import { UserError } from '../../src/errors.js';

/** add rax, rbx; je +3; xor rsi, rsi; mov [rdi], rdx; mov rax, [rdi] — repeated */
const UNIT = [0x48, 0x01, 0xd8, 0x74, 0x03, 0x48, 0x31, 0xf6, 0x48, 0x89, 0x17, 0x48, 0x8b, 0x07];
function branchy(reps: number) {
  const b = new Uint8Array(UNIT.length * reps);
  for (let i = 0; i < reps; i++) b.set(UNIT, i * UNIT.length);
  return decodeRegion(b, 0, 64, 'branchy');
}

test('a region of 20,000 instructions that each skip a write under a branch is refused, not traced for minutes', () => {
  const ins = branchy(4000);
  assert.equal(ins.length, 20000);
  assert.throws(
    () => buildDependencyGraph(ins, { loop: true }),
    (e: unknown) => e instanceof UserError && /too many possible last writers .* --range or --region/.test(e.message),
  );
});

test('the budget counts work, not time: a small budget stops a small region, the default lets it through', () => {
  const nodes = program(branchy(200), 2);
  assert.throws(() => reachingDefinitions(nodes, 10_000), UserError);
  const edges = reachingDefinitions(nodes, REACHING_BUDGET);
  assert.ok(edges.length > 0);
  // with the budget in place it still gives the walk's edges over every path (a few branches)
  const few = program(branchy(6), 2);
  const key = (es: [number, number, string][]) => es.map((e) => e.join(',')).sort();
  assert.deepEqual(key(reachingDefinitions(few)), key(walkPaths(few, 1e9)!));
});
