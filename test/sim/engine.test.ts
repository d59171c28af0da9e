// The engine's behaviour beyond the thesis's printed runs: stepping, seeking, snapshots, the
// divider, per-operand latencies, partial loading, variants and the program builder.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASELINE,
  allVariants,
  buildSimProgram,
  createEngine,
  machineParams,
  simulate,
  simulateWhatIfs,
  variantKey,
  variantLabel,
  whatIfVariants,
} from '../../src/sim/index.js';
import type { MachineParams, SimInstruction, SimProgram, Snapshot } from '../../src/sim/index.js';
import type { DecodedInstruction, DependencyGraph } from '../../src/disasm/types.js';
import type { MachineModel, ResolvedInstruction } from '../../src/data/types.js';
import { MACHINES, branchExample, stencil } from './thesisPrograms.js';

const SNB = MACHINES.SNB!;
const I = (line: number, uops: number[][], latency = 1, extra: Partial<SimInstruction> = {}): SimInstruction => ({
  line,
  asm: `i${line}`,
  uops,
  latency,
  latencyByResource: {},
  divCycles: 0,
  unknown: false,
  ...extra,
});
const cfg = (iterations: number, v = {}) => ({ iterations, variant: { ...BASELINE, ...v } });

test('stepping to the end gives the same statistics as simulate()', () => {
  const p = branchExample('SNB');
  const e = createEngine(p, SNB, cfg(50));
  let s = e.snapshot();
  assert.equal(s.cycle, 0);
  let n = 0;
  while (!s.finished) {
    s = e.step();
    n++;
  }
  const r = simulate(p, SNB, cfg(50));
  assert.equal(n, r.stats.cycles);
  assert.deepEqual(s.stats, r.stats);
  assert.equal(s.completed, 7 * 50);
  assert.equal(s.total, 7 * 50);
  assert.deepEqual(e.detail(0), r.details[0]);
  // stepping past the end changes nothing
  assert.equal(e.step(), s);
});

test('seek backwards and forwards lands on the same state as stepping a fresh engine', () => {
  const p = stencil();
  const e = createEngine(p, SNB, cfg(400));
  const total = e.totalCycles();
  assert.equal(e.snapshot().cycle, 0, 'totalCycles() does not move the position');
  const targets = [700, 3, 1000, 999, 64, 0, total, total + 50, 517];
  for (const t of targets) {
    const s = e.seek(t);
    const fresh = createEngine(p, SNB, cfg(400));
    let f: Snapshot = fresh.snapshot();
    const want = Math.min(t, total);
    while (f.cycle < want) f = fresh.step();
    assert.equal(s.cycle, want);
    assert.deepEqual(s, f, `seek(${t})`);
  }
  assert.equal(e.runToEnd().cycle, total);
});

test('a snapshot is not changed by later steps', () => {
  const e = createEngine(branchExample('SNB'), SNB, cfg(20));
  e.step();
  e.step();
  const s = e.step();
  const copy = JSON.stringify(s);
  for (let k = 0; k < 10; k++) e.step();
  e.seek(1);
  assert.equal(JSON.stringify(s), copy);
});

test('the trace option keeps every cycle and seeks by lookup', () => {
  const e = createEngine(branchExample('SNB'), SNB, { ...cfg(10), trace: true });
  const end = e.runToEnd();
  const back = e.seek(5);
  const fresh = createEngine(branchExample('SNB'), SNB, cfg(10));
  assert.deepEqual(back, fresh.seek(5));
  assert.equal(e.seek(end.cycle).cycle, end.cycle);
});

test('reservation-station entries say why they wait and on whom', () => {
  // one iteration of the branch example: cycle 1 loads lines 0–3; 2 waits for cmp (ZF), 3 for mov (RAX)
  const e = createEngine(branchExample('SNB'), SNB, cfg(1));
  const s1 = e.step();
  assert.equal(s1.frontEnd.loadedThisCycle, 4);
  assert.deepEqual(s1.frontEnd.next, { line: 4, iteration: 0, uopsLeft: 1 });
  const byLine = new Map(s1.rs.map((r) => [r.line, r]));
  assert.deepEqual(byLine.get(2)!.state, { kind: 'waiting-dep', on: [{ line: 1, iteration: 0, resource: 'ZF' }] });
  assert.deepEqual(byLine.get(3)!.state, { kind: 'waiting-dep', on: [{ line: 0, iteration: 0, resource: 'RAX' }] });
  // mov (latency 1) is on port 0 in cycle 1: it executes in it, its last cycle
  assert.deepEqual(byLine.get(0)!.state, { kind: 'executing', cyclesDone: 1, cyclesLeft: 0 });
  assert.deepEqual(s1.ports.find((p) => p.port === 0)!.uops, [{ line: 0, iteration: 0 }]);
  assert.deepEqual(s1.ports.find((p) => p.port === 1)!.uops, [{ line: 1, iteration: 0 }]);
  // cycle 2: jnz takes port 5, so jmp (line 4, port 5 only) waits for it
  const s2 = e.step();
  const jmp = s2.rs.find((r) => r.line === 4)!;
  assert.deepEqual(jmp.state, { kind: 'waiting-port', ports: [{ port: 5, heldBy: { line: 2, iteration: 0 } }] });
  assert.deepEqual(s2.ready, [{ line: 4, iteration: 0 }]);
  assert.deepEqual(s2.rs.find((r) => r.line === 6)!.state, {
    kind: 'waiting-dep',
    on: [
      { line: 3, iteration: 0, resource: 'RBX' },
      { line: 5, iteration: 0, resource: 'RBX' },
    ],
  });
  assert.equal(s2.ports.find((p) => p.port === 5)!.cumulative, 1);
});

test('executing entries count their cycles; an instruction never blocks itself', () => {
  // two µops that may only use port 0, latency 4: no self-blocking, executes cycles 1–4
  const p: SimProgram = { instructions: [I(0, [[0], [0]], 4)], deps: [] };
  const e = createEngine(p, SNB, cfg(1));
  const s = e.step();
  assert.deepEqual(s.rs[0]!.state, { kind: 'executing', cyclesDone: 1, cyclesLeft: 3 });
  assert.equal(s.rs[0]!.assigned, 2);
  assert.equal(e.runToEnd().cycle, 4);
});

test('an instruction wider than the front end is loaded over several cycles', () => {
  const p: SimProgram = { instructions: [I(0, [[0], [1], [5], [2], [3], [4]], 1)], deps: [] };
  const e = createEngine(p, SNB, cfg(1));
  const s1 = e.step();
  assert.equal(s1.rs[0]!.loaded, 4);
  assert.equal(s1.rs[0]!.assigned, 4, 'the loaded µops already take ports');
  assert.deepEqual(s1.rs[0]!.state, { kind: 'loading' });
  assert.deepEqual(s1.frontEnd.next, { line: 0, iteration: 0, uopsLeft: 2 });
  const s2 = e.step();
  assert.equal(s2.finished, true);
  assert.equal(
    simulate(p, SNB, cfg(1)).stats.lines[0]!.hadToWait,
    1,
    'a partially loaded instruction waits (Alg. 4 line 33)',
  );
});

test('per-operand latency: a consumer of an early result is released early', () => {
  // producer: latency 5, but RAX is ready after 1 cycle; consumer reads RAX
  const prod = I(0, [[0]], 5, { latencyByResource: { RAX: 1, RBX: 5 } });
  const viaRax: SimProgram = {
    instructions: [prod, I(1, [[1]], 1)],
    deps: [{ from: 0, to: 1, resource: 'RAX', loopCarried: false }],
  };
  const viaRbx: SimProgram = {
    instructions: [prod, I(1, [[1]], 1)],
    deps: [{ from: 0, to: 1, resource: 'RBX', loopCarried: false }],
  };
  const a = simulate(viaRax, SNB, cfg(1));
  const b = simulate(viaRbx, SNB, cfg(1));
  assert.equal(a.stats.cycles, 5, 'the producer still runs its 5 cycles');
  assert.equal(a.stats.lines[1]!.hadToWait, 1);
  assert.equal(b.stats.cycles, 6);
  assert.equal(b.stats.lines[1]!.hadToWait, 5);
  assert.deepEqual(a.details[0]!.latencies, [{ line: 1, fromThis: 1, toThis: null }]);
});

test('loop-carried dependencies bind from the second iteration on', () => {
  // a 3-cycle instruction depending on itself: 1 iteration = 3 cycles, 10 iterations = 30
  const p: SimProgram = {
    instructions: [I(0, [[0, 1, 5]], 3)],
    deps: [{ from: 0, to: 0, resource: 'RAX', loopCarried: true }],
  };
  assert.equal(simulate(p, SNB, cfg(1)).stats.cycles, 3);
  assert.equal(simulate(p, SNB, cfg(10)).stats.cycles, 30);
  // without dependencies only the three ALU ports limit: starts in cycles 1–4 (3+3+3+1), last ends in 6
  assert.equal(simulate(p, SNB, cfg(10, { noDependencies: true })).stats.cycles, 6);
});

test('the divider pipe blocks port 0 for other divisions only (§3.6)', () => {
  // div: one µop on port 0 (divider) + one ALU µop; div_cycles 8; an independent add on port 0 only
  const div = I(0, [[0], [0, 1, 5]], 20, { divCycles: 8 });
  const p: SimProgram = { instructions: [div, I(1, [[0]], 1)], deps: [] };
  const r = simulate(p, SNB, cfg(10));
  // ten divisions need the divider 10 × 8 cycles; the adds run meanwhile on port 0
  assert.ok(r.stats.cycles >= 9 * 8 + 20, `cycles ${r.stats.cycles}`);
  assert.ok(r.stats.cycles <= 10 * 8 + 20, `cycles ${r.stats.cycles}`);
  assert.equal(r.stats.dividerUsed, true);
  assert.equal(r.stats.lines[0]!.divider, 8);
  assert.equal(r.stats.lines[1]!.ports['0'], 1);
  const e = createEngine(p, SNB, cfg(10));
  e.step();
  const s = e.step();
  assert.equal(s.divider.busy, true);
  assert.deepEqual(s.divider.owner, { line: 0, iteration: 0 });
  assert.equal(s.divider.cyclesLeft, 6);
  const waiting = s.rs.find((x) => x.line === 0 && x.iteration === 1)!;
  assert.deepEqual(waiting.state, {
    kind: 'waiting-port',
    ports: [{ port: 0, heldBy: { line: 0, iteration: 0 }, divider: true }],
  });
});

test('variants: infinite ports, port capacity N, overrides of issue width and RS size', () => {
  const movs: SimProgram = { instructions: [0, 1, 2, 3, 4, 5].map((l) => I(l, [[0, 1, 5]])), deps: [] };
  assert.equal(simulate(movs, SNB, cfg(200)).stats.blockThroughput, 2);
  assert.equal(simulate(movs, SNB, cfg(200, { infinitePorts: true })).stats.blockThroughput, 1.5);
  assert.equal(simulate(movs, SNB, cfg(200, { portCapacity: 2 })).stats.blockThroughput, 1.5);
  assert.equal(simulate(movs, SNB, cfg(200, { infinitePorts: true, issueWidth: 6 })).stats.blockThroughput, 1);
  assert.equal(
    simulate(movs, SNB, cfg(200, { infinitePorts: true, perfectFrontEnd: true })).stats.cycles,
    Math.ceil(1200 / 54),
  );
  // the RS size bounds the perfect front end: capacity 6 → at most one iteration in flight
  assert.equal(
    simulate(movs, SNB, cfg(200, { infinitePorts: true, perfectFrontEnd: true, rsSize: 6 })).stats.cycles,
    200,
  );
  const e = createEngine(stencil(), SNB, cfg(300, { rsSize: 20 }));
  for (let k = 0; k < 200; k++) {
    const s = e.step();
    assert.ok(s.rsUsed <= 20 && s.rsCapacity === 20);
  }
});

test('allVariants gives the 8 combinations; simulateWhatIfs runs the what-ifs, each variant once', () => {
  const all = allVariants();
  assert.equal(all.length, 8);
  assert.equal(new Set(all.map(variantKey)).size, 8);
  assert.equal(variantKey(all[0]!), 'baseline');
  assert.ok(all.map(variantKey).includes('perfectFrontEnd+infinitePorts+noDependencies'));
  let runs = 0;
  const counting = (...a: Parameters<typeof simulate>) => {
    runs++;
    return simulate(...a);
  };
  const r = simulateWhatIfs(branchExample('SNB'), SNB, { iterations: 200, variant: BASELINE }, counting);
  assert.equal(runs, 4);
  assert.equal(r.main.stats.cycles, 468);
  assert.equal(r.whatIf!.infinitePorts.blockThroughput, 2.005);
  assert.deepEqual(r.whatIf!.infinitePorts.variant, { ...BASELINE, infinitePorts: true });
  assert.equal(r.combinations, null);
  // the 8 combinations reuse the main and what-if runs: 8 runs in all, not 12
  runs = 0;
  const every = simulateWhatIfs(
    branchExample('SNB'),
    SNB,
    { iterations: 200, variant: BASELINE, allVariants: true },
    counting,
  );
  assert.equal(runs, 8);
  assert.deepEqual(
    every.combinations!.map((f) => variantKey(f.variant)),
    all.map(variantKey),
  );
  assert.equal(every.combinations![2]!.blockThroughput, every.whatIf!.infinitePorts.blockThroughput);
  // knobs of the main run carry over into every what-if; --fast runs only the main one
  const knobs = { ...BASELINE, rsSize: 20 };
  assert.deepEqual(whatIfVariants({ iterations: 1, variant: knobs }).map(variantKey), [
    'rsSize=20',
    'perfectFrontEnd+rsSize=20',
    'infinitePorts+rsSize=20',
    'noDependencies+rsSize=20',
  ]);
  assert.deepEqual(whatIfVariants({ iterations: 1, variant: knobs, fast: true }), [knobs]);
});

test('variant keys and labels: one name per run the engine tells apart', () => {
  assert.equal(variantKey({ ...BASELINE, portCapacity: 1 }), 'baseline');
  assert.equal(variantKey({ ...BASELINE, infinitePorts: true, portCapacity: 2 }), 'infinitePorts');
  assert.equal(variantKey({ ...BASELINE, portCapacity: 2, issueWidth: 6 }), 'portCapacity=2+issueWidth=6');
  assert.equal(variantLabel(BASELINE), 'baseline');
  assert.equal(
    variantLabel({ ...BASELINE, perfectFrontEnd: true, noDependencies: true }),
    'perfect front-end, no dependencies',
  );
  assert.equal(
    variantLabel({ ...BASELINE, portCapacity: 2, rsSize: 20 }),
    '2 µops per port per cycle, reservation station 20 µops',
  );
});

test('the simulation is deterministic', () => {
  const a = simulate(stencil(), SNB, cfg(123));
  const b = simulate(stencil(), SNB, cfg(123));
  assert.deepEqual(a, b);
});

// --- building programs from the earlier stages' outputs -----------------------------------

function decoded(line: number, intel: string): DecodedInstruction {
  return {
    line,
    address: 0x1000 + line * 4,
    bytes: '',
    length: 4,
    intel,
    att: '',
    mnemonic: intel.split(' ')[0]!.toUpperCase(),
    signature: '',
    operands: [],
    iform: null,
    reads: [],
    writes: [],
    flagsRead: [],
    flagsWritten: [],
    memory: null,
    indexed: false,
    sameReg: false,
    zeroIdiom: false,
    branch: null,
    prefixes: [],
    code: '',
    cpuid: [],
    masking: null,
    broadcast: false,
  };
}
function resolved(
  line: number,
  ports: { count: number; ports: number[] }[],
  maxLatency: number,
  byRes: Record<string, number> = {},
): ResolvedInstruction {
  return {
    line,
    form: null,
    rule: 'iform',
    uops: ports.reduce((a, g) => a + g.count, 0),
    ports,
    latencyByResource: byRes,
    maxLatency,
    divCycles: 0,
    variant: 'plain',
    unknown: false,
    fallback: null,
    origin: 'uops.info',
  };
}
const snbModel: MachineModel = {
  arch: 'SNB',
  name: 'Sandy Bridge',
  ports: [5, 4, 3, 2, 1, 0],
  aluPorts: [0, 1, 5],
  dividerPort: 0,
  issueWidth: 4,
  rsSize: 54,
  isa: [],
  sources: [],
};

test('buildSimProgram and machineParams', () => {
  const instrs = [
    'mov rax, 0x1',
    'cmp rcx, 0x0',
    'jnz 0x7',
    'add rbx, rax',
    'jmp 0x5',
    'add rbx, rax',
    'add rbx, rbx',
  ].map((t, i) => decoded(i, t));
  const alu = [{ count: 1, ports: [5, 0, 1] }];
  const res = [
    resolved(0, alu, 1),
    resolved(1, alu, 1),
    resolved(2, [{ count: 1, ports: [5] }], 1),
    resolved(3, alu, 1),
    resolved(4, [{ count: 1, ports: [5] }], 1),
    resolved(5, alu, 1),
    resolved(6, alu, 1),
  ];
  const graph: DependencyGraph = {
    lines: 7,
    edges: [
      { from: 0, to: 3, resource: 'RAX', loopCarried: false },
      { from: 0, to: 5, resource: 'RAX', loopCarried: false },
      { from: 1, to: 2, resource: 'ZF', loopCarried: false },
      { from: 3, to: 6, resource: 'RBX', loopCarried: false },
      { from: 5, to: 6, resource: 'RBX', loopCarried: false },
      { from: 6, to: 3, resource: 'RBX', loopCarried: true },
      { from: 6, to: 5, resource: 'RBX', loopCarried: true },
    ],
  };
  const m = machineParams(snbModel);
  assert.deepEqual(m, SNB);
  const p = buildSimProgram(instrs, graph, res);
  assert.deepEqual(p.instructions[0]!.uops, [[0, 1, 5]]);
  assert.equal(p.instructions[3]!.asm, 'add rbx, rax');
  const hand = branchExample('SNB');
  assert.equal(simulate(p, m, cfg(200)).stats.cycles, simulate(hand, m, cfg(200)).stats.cycles);
  // branch analysis: the sides keep their original line numbers and dependency edges
  const left = buildSimProgram(
    instrs,
    { lines: 7, edges: graph.edges.filter((e) => e.to !== 5 && e.from !== 5) },
    res,
    { lines: [0, 1, 2, 3, 4, 6] },
  );
  const right = buildSimProgram(
    instrs,
    { lines: 7, edges: graph.edges.filter((e) => e.to !== 3 && e.from !== 3) },
    res,
    { lines: [0, 1, 2, 5, 6] },
  );
  assert.deepEqual(
    right.instructions.map((i) => i.line),
    [0, 1, 2, 5, 6],
  );
  assert.deepEqual(
    right.deps.map((d) => [d.from, d.to]),
    [
      [0, 3],
      [1, 2],
      [3, 4],
      [4, 3],
    ],
  );
  const b = { left: simulate(left, m, cfg(200)), right: simulate(right, m, cfg(200)) };
  assert.equal(b.left.stats.blockThroughput.toFixed(2), '2.00');
  assert.equal(b.right.stats.uopsPerCycle.toFixed(2), '2.49');
  assert.deepEqual(
    b.right.stats.lines.map((l) => l.line),
    [0, 1, 2, 5, 6],
  );
  assert.equal(b.right.details.find((d) => d.line === 5)!.latencies[0]!.line, 0);
});

test('an unknown instruction without µops still takes its place in program order', () => {
  const p: SimProgram = {
    instructions: [I(0, [[0]]), I(1, [], 1, { unknown: true }), I(2, [[1]])],
    deps: [{ from: 1, to: 2, resource: 'RAX', loopCarried: false }],
  };
  const r = simulate(p, SNB, cfg(3));
  assert.equal(r.stats.totalUops, 2);
  assert.equal(r.stats.lines[1]!.unknown, true);
  // Every instruction counts at least 1 cycle of latency (the engine's minimum), a skipped one
  // too: line 2 of iteration 0 starts in cycle 2; lines 2 of iterations 1 and 2 then take p1 in
  // cycles 3 and 4. (With no latency at all it would be 3 cycles.)
  assert.equal(r.stats.cycles, 4);
});

test('Snapshot.ports lists every machine port even when a program uses few', () => {
  const m: MachineParams = { ...SNB };
  const s = createEngine({ instructions: [I(0, [[2, 3]])], deps: [] }, m, cfg(2)).step();
  assert.deepEqual(
    s.ports.map((p) => p.port),
    [0, 1, 2, 3, 4, 5],
  );
});

test('bad configurations are refused with a clear error; an empty program takes no cycles', () => {
  const p = branchExample('SNB');
  assert.throws(() => simulate(p, SNB, cfg(0)), /iterations must be a whole number ≥ 1/);
  assert.throws(() => createEngine(p, SNB, cfg(Number.NaN)), /iterations/);
  assert.throws(() => simulate(p, SNB, cfg(1e9)), /exceed the engine/);
  const empty = simulate({ instructions: [], deps: [] }, SNB, cfg(10));
  assert.equal(empty.stats.cycles, 0);
  assert.equal(empty.stats.blockThroughput, 0);
  assert.equal(createEngine({ instructions: [], deps: [] }, SNB, cfg(10)).step().finished, true);
});

test('the X/Y examples of thesis §3.3', () => {
  // X: two µops, one on port 0 and one on port 1, latency 2; Y: one µop on port 1, latency 2.
  const X = (line: number): SimInstruction => ({ ...I(line, [[0], [1]], 2), asm: 'X' });
  const Y = (line: number): SimInstruction => ({ ...I(line, [[1]], 2), asm: 'Y' });
  // X before Y: X takes ports 0 and 1 in cycle 1, Y gets port 1 in cycle 2 → 3 cycles
  const xy = createEngine({ instructions: [X(0), Y(1)], deps: [] }, SNB, cfg(1));
  const c1 = xy.step();
  assert.deepEqual(c1.rs.find((e) => e.line === 1)!.state, {
    kind: 'waiting-port',
    ports: [{ port: 1, heldBy: { line: 0, iteration: 0 } }],
  });
  assert.equal(xy.runToEnd().cycle, 3);
  // Y before X: X gets port 0 but not port 1 in cycle 1, so it is not executed; its leftover µop
  // gets port 1 in cycle 2 and it runs cycles 2–3 → 3 cycles
  const yx = createEngine({ instructions: [Y(0), X(1)], deps: [] }, SNB, cfg(1));
  const s1 = yx.step();
  const x = s1.rs.find((e) => e.line === 1)!;
  assert.equal(x.assigned, 1);
  assert.equal(x.state.kind, 'waiting-port');
  const s2 = yx.step();
  assert.deepEqual(s2.rs.find((e) => e.line === 1)!.state, { kind: 'executing', cyclesDone: 1, cyclesLeft: 1 });
  assert.equal(yx.runToEnd().cycle, 3);
  // Y delayed by a dependency on a third instruction Z: still 3 cycles (the thesis's underestimate)
  const Z = I(0, [[5]], 1);
  const p: SimProgram = {
    instructions: [Z, X(1), Y(2)],
    deps: [{ from: 0, to: 2, resource: 'RAX', loopCarried: false }],
  };
  assert.equal(simulate(p, SNB, cfg(1)).stats.cycles, 3);
});
