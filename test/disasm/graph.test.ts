// The dependency graphs of the thesis's examples (Figures 2.2, 2.3 and 4.1) and the CFG,
// branch paths (§2.7) and zero idioms.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  branchPaths,
  onlyLoopJumps,
  buildCfg,
  buildDependencyGraph,
  dependencyGraphOfPath,
  loadRegion,
  type DependencyGraph,
} from '../../src/disasm/index.js';
import { runCli } from '../helpers/cli.js';

const edges = (g: DependencyGraph, loopCarried: boolean): string[] =>
  g.edges
    .filter((e) => e.loopCarried === loopCarried)
    .map((e) => `${e.from}->${e.to} ${e.resource}`)
    .sort();

for (const file of [
  'examples/bin/branch',
  'examples/bin/branch.exe',
  'examples/bin/branch.macho.o',
  'examples/thesis/branch.s',
]) {
  test(`branch example (${file}): exactly the edges of Figures 2.2 and 2.3`, async () => {
    const { instructions } = await loadRegion({ file });
    const single = buildDependencyGraph(instructions, { loop: false });
    // Figure 2.2: no 3 -> 5 (the CFG separates them), cmp -> jnz through ZF only
    assert.deepEqual(edges(single, false), ['0->3 RAX', '0->5 RAX', '1->2 ZF', '3->6 RBX', '5->6 RBX']);
    assert.deepEqual(edges(single, true), []);
    const loop = buildDependencyGraph(instructions, { loop: true });
    assert.deepEqual(edges(loop, false), edges(single, false));
    // Figure 2.3: "our program has two loop dependencies"
    assert.deepEqual(edges(loop, true), ['6->3 RBX', '6->5 RBX']);
  });
}

test('branch example CFG: fall-through, taken and (with loop) the back edge', async () => {
  const { instructions } = await loadRegion({ file: 'examples/bin/branch' });
  const cfg = buildCfg(instructions);
  const s = (c: typeof cfg) => c.edges.map((e) => `${e.from}->${e.to} ${e.kind}`).sort();
  assert.deepEqual(s(cfg), [
    '0->1 fallthrough',
    '1->2 fallthrough',
    '2->3 fallthrough',
    '2->5 taken',
    '3->4 fallthrough',
    '4->6 taken',
    '5->6 fallthrough',
  ]);
  assert.deepEqual(s(buildCfg(instructions, { loop: true })), [...s(cfg), '6->0 back'].sort());
});

test('branch analysis paths (§2.7) and their dependency graphs in original line numbers', async () => {
  const { instructions } = await loadRegion({ file: 'examples/bin/branch' });
  const p = branchPaths(instructions);
  assert.deepEqual(p, {
    branchLine: 2,
    left: [0, 1, 2, 3, 4, 6],
    right: [0, 1, 2, 5, 6],
    choice: 'the first conditional jump to a later line of the region',
  });
  const left = dependencyGraphOfPath(instructions, p!.left, { loop: true });
  assert.deepEqual(edges(left, false), ['0->3 RAX', '1->2 ZF', '3->6 RBX']);
  assert.deepEqual(edges(left, true), ['6->3 RBX']);
  const right = dependencyGraphOfPath(instructions, p!.right, { loop: false });
  assert.deepEqual(edges(right, false), ['0->5 RAX', '1->2 ZF', '5->6 RBX']);
  assert.equal(branchPaths((await loadRegion({ file: 'examples/bin/six-mov' })).instructions), null);
});

test('a conditional jump out of the loop before the compared one: the comparison says which it takes and why', async () => {
  // L: add rax, 1; cmp rax, rbx; je OUT; test rcx, rcx; jz SKIP; add rdx, 1; SKIP: dec rsi; jnz L
  const { instructions } = await loadRegion({ hex: '4883c0014839d8740e4885c974044883c20148ffce75e6' });
  const p = branchPaths(instructions)!;
  assert.equal(p.branchLine, 4);
  assert.equal(
    p.choice,
    'the first conditional jump to a later line of the region; before it, line 2 leaves the region: no second side to compare',
  );
  const r = runCli(['report', '--hex', '4883c0014839d8740e4885c974044883c20148ffce75e6', '--branch', '--fast']);
  assert.match(
    r.out.replaceAll('\n  ', ' '),
    /Branch analysis \(line 4, the first conditional jump to a later line of the region; before it, line 2 leaves the region: no second side to compare\):/,
  );
});

test('adc chain (Figure 4.1): CF chain, CF from line 7 to line 0, a self loop per line', async () => {
  const { instructions } = await loadRegion({ file: 'examples/bin/adc-chain' });
  const g = buildDependencyGraph(instructions, { loop: true });
  assert.deepEqual(edges(g, false), [0, 1, 2, 3, 4, 5, 6].map((i) => `${i}->${i + 1} CF`).sort());
  const regs = ['RAX', 'RBX', 'RCX', 'RDX', 'R8', 'R9', 'R10', 'R11'];
  assert.deepEqual(edges(g, true), ['7->0 CF', ...regs.map((r, i) => `${i}->${i} ${r}`)].sort());
});

test('six independent movs: no dependencies at all', async () => {
  const { instructions } = await loadRegion({ file: 'examples/bin/six-mov' });
  assert.deepEqual(buildDependencyGraph(instructions, { loop: true }).edges, []);
});

test('stencil: address registers are reads; the only loop dependency is r15 from inc', async () => {
  const { instructions } = await loadRegion({ file: 'examples/bin/stencil' });
  const g = buildDependencyGraph(instructions, { loop: true });
  assert.deepEqual(edges(g, false), ['0->1 XMM2', '1->2 XMM3', '2->3 XMM4', '3->4 XMM5', '4->5 XMM6', '6->7 R15']);
  // cmp r15, r13 (line 7) reads the r15 of its own iteration: no loop-carried 6 -> 7
  assert.deepEqual(edges(g, true), [0, 1, 2, 3, 5, 6].map((l) => `6->${l} R15`).sort());
});

test('zero idiom breaks the dependency; address registers and implicit operands count', async () => {
  // add rax, rbx / xor eax, eax / add rcx, rax / div rcx / mov rdx, [rsi+rax*8]
  const { instructions } = await loadRegion({ hex: '4801d8 31c0 4801c1 48f7f1 488b14c6' });
  assert.ok(instructions[1]!.zeroIdiom && instructions[1]!.sameReg);
  const g = buildDependencyGraph(instructions, { loop: false });
  // xor eax, eax does not read rax (no 0 -> 1); div reads rdx:rax and rcx implicitly/explicitly;
  // the load's index rax comes from div (implicit write of rax)
  assert.deepEqual(edges(g, false), ['1->2 RAX', '1->3 RAX', '2->3 RCX', '3->4 RAX']);
});

test('a region jumping forward out of itself ends that path', async () => {
  // cmp rax, 0 / je +3 (out of the region) / add rbx, rax / add rbx, rbx
  const { instructions } = await loadRegion({ hex: '4883f800 7406 4801c3 4801db' });
  assert.equal(instructions[1]!.branch!.targetLine, null);
  const g = buildDependencyGraph(instructions, { loop: true });
  assert.deepEqual(edges(g, false), ['0->1 ZF', '2->3 RBX']);
  assert.deepEqual(edges(g, true), ['3->2 RBX']);
});

test('Algorithm 2 (every path) and reaching definitions give the same edges on random programs', async () => {
  const { program, walkPaths, reachingDefinitions } = await import('../../src/disasm/depgraph.js');
  let seed = 12345;
  const next = () => {
    seed ^= seed << 13;
    seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    seed >>>= 0;
    return seed;
  };
  // instructions: add r, r (01 /r), cmp r, 0, jcc forward (74 xx), jmp forward (eb xx) over 4 registers
  const regs = [0, 1, 2, 3]; // rax, rcx, rdx, rbx
  for (let round = 0; round < 200; round++) {
    const parts: number[][] = [];
    const n = 3 + (next() % 16);
    for (let i = 0; i < n; i++) {
      const k = next() % 5;
      if (k <= 1)
        parts.push([0x48, 0x01, 0xc0 | (regs[next() % 4]! << 3) | regs[next() % 4]!]); // add
      else if (k === 2)
        parts.push([0x48, 0x83, 0xf8 | regs[next() % 4]!, 0x00]); // cmp r, 0
      else parts.push([k === 3 ? 0x74 : 0xeb, 0]); // branch, target patched below
    }
    // patch branch displacements to land on a later instruction boundary (or the end)
    const offs: number[] = [];
    let o = 0;
    for (const p of parts) {
      offs.push(o);
      o += p.length;
    }
    offs.push(o);
    parts.forEach((p, i) => {
      if (p.length === 2) {
        const j = i + 1 + (next() % (parts.length - i));
        p[1] = offs[j]! - offs[i + 1]!;
      }
    });
    const hex = parts
      .flat()
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    const { instructions } = await loadRegion({ hex });
    for (const copies of [1, 2] as const) {
      const nodes = program(instructions, copies);
      const key = (e: [number, number, string]) => e.join(' ');
      assert.deepEqual(
        walkPaths(nodes, Infinity)!.map(key).sort(),
        reachingDefinitions(nodes).map(key).sort(),
        `${hex} x${copies}`,
      );
    }
  }
});

test('a back branch to a loop head in front of the region (C code with IACA_START inside the loop) continues at line 0', async () => {
  // region at 0x10: add rax, [rdi] / add rdi, 8 / dec rcx / jmp 0x8 (before the region)
  const { instructions } = await loadRegion({ hex: '480307 4883c708 48ffc9 ebec', baseAddress: 0x10 });
  assert.equal(instructions[3]!.branch!.target, 0x8);
  assert.equal(instructions[3]!.branch!.targetLine, null);
  const g = buildDependencyGraph(instructions, { loop: true });
  assert.deepEqual(edges(g, false), []);
  assert.deepEqual(edges(g, true), ['0->0 RAX', '1->0 RDI', '1->1 RDI', '2->2 RCX']);
  assert.ok(buildCfg(instructions, { loop: true }).edges.some((e) => e.from === 3 && e.to === 0 && e.kind === 'back'));
  assert.ok(!buildCfg(instructions).edges.some((e) => e.from === 3));
});

test('a loop whose only conditional jump is its own back edge has no branch inside to compare', async () => {
  const { instructions } = await loadRegion({ file: 'examples/bin/mca-markers' });
  const last = instructions.length - 1;
  assert.equal(instructions[last]!.branch?.kind, 'conditional');
  assert.equal(branchPaths(instructions), null, 'the two "sides" of the back edge would be the same path');
  assert.deepEqual(onlyLoopJumps(instructions), [last]);
  assert.deepEqual(onlyLoopJumps((await loadRegion({ file: 'examples/bin/branch' })).instructions), []);
  assert.deepEqual(onlyLoopJumps((await loadRegion({ file: 'examples/bin/six-mov' })).instructions), []);
});
