// Scheduler queues (src/sim/units/queues.ts): made-up cores in $UOPSCOPE_MACHINES_DIR with
// Skylake's port numbering (so that Skylake's figures serve them) and several queues, running
// assembled loops. Modelled on the capacity test of shared/reference/zen-back-end.md §4.5: a long
// dependency chain, then K ops waiting for its result. While the waiters fit in the queue they are
// steered to, the next iteration's chain enters behind them and the loop runs at the chain's
// speed; once one queue overflows, the front end stops, in order, although the other queues have
// room. Nothing here depends on a Zen record's port numbers.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { analyse } from '../../src/cli/pipeline.js';
import { listMachines, loadMachine } from '../../src/data/machines.js';
import { UserError } from '../../src/errors.js';
import { collectReport } from '../../src/report/collect.js';
import { reportJson } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';
import { BASELINE, REFINED_MECHANISMS, createEngine, machineParams, simulate } from '../../src/sim/index.js';
import type { Snapshot, Variant } from '../../src/sim/index.js';
import { tempDir } from '../data/helpers.js';

const dir = tempDir('queue-machines');
const loops = tempDir('queue-loops');
const before = process.env.UOPSCOPE_MACHINES_DIR;
process.env.UOPSCOPE_MACHINES_DIR = dir;
after(() => {
  if (before === undefined) delete process.env.UOPSCOPE_MACHINES_DIR;
  else process.env.UOPSCOPE_MACHINES_DIR = before;
  rmSync(dir, { recursive: true, force: true });
  rmSync(loops, { recursive: true, force: true });
});

const cited = (value: unknown) => ({ value, source: 'testSheet' });

/** One unified station of 72 µops (the queues' total below). */
const UNI = {
  arch: 'QUNI',
  name: 'A test core with one station',
  order: 1,
  ports: [0, 1, 2, 3, 4, 5, 6, 7],
  aluPorts: [0, 1, 5, 6],
  dividerPort: 0,
  issueWidth: 4,
  rsSize: 72,
  isa: ['BASE', 'SSE', 'SSE2'],
  inheritsDataFrom: 'SKL',
  citations: { testSheet: "the test core's data sheet (made up for this test)" },
  sources: ["the test core's data sheet (made up for this test)"],
};

const queue = (name: string, size: number, ports: number[], limit?: number) => ({
  name,
  size: cited(size),
  ports,
  ...(limit !== undefined ? { dispatchPerCycle: cited(limit) } : {}),
});

/** The same core with a queue per ALU port (12 entries each), one for the load ports, one for
 *  the store ports: 72 entries in all. Port 1 (imul's only port on Skylake) is queue B's. */
const QUEUES = [
  queue('A', 12, [0]),
  queue('B', 12, [1]),
  queue('C', 12, [5]),
  queue('D', 12, [6]),
  queue('AGU', 16, [2, 3]),
  queue('ST', 8, [4, 7]),
];
const QZ = {
  ...UNI,
  arch: 'QZ',
  name: 'A test core with six queues',
  order: 2,
  schedulers: { queues: QUEUES, steering: cited('even'), unit: cited('uop') },
};
/** QZ with a 16-entry non-scheduling queue in front of queue B */
const QN = {
  ...QZ,
  arch: 'QN',
  name: 'QZ with a non-scheduling queue',
  order: 3,
  schedulers: { ...QZ.schedulers, nonScheduling: [{ name: 'NSQ', size: cited(16), queues: ['B'] }] },
};
/** Four queues each with an ALU and a load or store port, three wide: as macro-ops (QM) or µops (QU) */
const PAIRED = [queue('P0', 18, [0, 2]), queue('P1', 18, [1, 3]), queue('P5', 18, [5, 4]), queue('P6', 18, [6, 7])];
const QM = {
  ...UNI,
  arch: 'QM',
  name: 'Paired queues, macro-ops',
  order: 4,
  issueWidth: 3,
  schedulers: { queues: PAIRED, steering: cited('even'), unit: cited('macro-op') },
};
const QU = {
  ...QM,
  arch: 'QU',
  name: 'Paired queues, µops',
  order: 5,
  schedulers: { ...QM.schedulers, unit: cited('uop') },
};
/** One queue for every port that takes at most 2 µops per cycle */
const QL = {
  ...UNI,
  arch: 'QL',
  name: 'One queue, 2 µops per cycle',
  order: 6,
  schedulers: { queues: [queue('ALL', 72, [0, 1, 2, 3, 4, 5, 6, 7], 2)], steering: cited('even'), unit: cited('uop') },
};
/** QUNI as a record with one plain queue: the unified station */
const Q1 = {
  ...UNI,
  arch: 'QONE',
  name: 'One plain queue',
  order: 7,
  schedulers: { queues: [queue('RS', 72, [0, 1, 2, 3, 4, 5, 6, 7])], steering: cited('even'), unit: cited('uop') },
};
for (const m of [UNI, QZ, QN, QM, QU, QL, Q1]) writeFileSync(join(dir, `${m.arch}.json`), JSON.stringify(m));

const WAIT_REGS = ['rbx', 'rdx', 'rsi', 'rbp', 'r8', 'r9', 'r10', 'r12'];

/** `sched 10 K op`: 10 dependent loads (a 50-cycle chain on Skylake's figures), then K `op r, rax` */
function schedLoop(k: number, op: string): string {
  const body = [
    ...Array.from({ length: 10 }, () => '  mov rax, [rax]'),
    ...Array.from({ length: k }, (_, x) => `  ${op} ${WAIT_REGS[x % 8]}, rax`),
  ];
  return loopFile(`sched-${k}-${op}`, body);
}

function loopFile(name: string, body: string[]): string {
  const file = join(loops, `${name}.s`);
  writeFileSync(
    file,
    `.intel_syntax noprefix\n.text\n.p2align 6\n.globl f\nf:\n1:\n${body.join('\n')}\n  dec r11\n  jnz 1b\n  ret\n`,
  );
  return file;
}

type Model = 'suaca' | 'refined';
const modelOf = (m: Model) => ({ model: m === 'refined' ? { mechanisms: REFINED_MECHANISMS } : {} });

/** The loop with Skylake's figures (the test cores' port numbering is Skylake's), on core `arch`
 *  as its record in the test directory describes it. */
async function analysed(file: string, arch: string) {
  const a = await analyse({ file, function: 'f', arch: 'SKL', fallback: 'alu' });
  return { program: a.program, params: machineParams(loadMachine(arch as never)) };
}

async function run(file: string, arch: string, model: Model = 'suaca', variant: Variant = BASELINE) {
  const a = await analysed(file, arch);
  return { a, r: simulate(a.program, a.params, { iterations: 200, variant }, modelOf(model)) };
}

async function cycles(file: string, arch: string, model: Model = 'suaca', variant: Variant = BASELINE) {
  return (await run(file, arch, model, variant)).r.stats.blockThroughput;
}

/** every snapshot of a run of `iterations` */
async function snapshots(file: string, arch: string, iterations: number, model: Model = 'suaca'): Promise<Snapshot[]> {
  const a = await analysed(file, arch);
  const e = createEngine(a.program, a.params, { iterations, variant: BASELINE }, modelOf(model));
  return stepAll(e);
}

function stepAll(e: ReturnType<typeof createEngine>): Snapshot[] {
  const out: Snapshot[] = [];
  for (let s = e.step(); ; s = e.step()) {
    out.push(s);
    if (s.finished) return out;
  }
}

test('records with queues load; bad queues are refused in one line naming the field', () => {
  const archs = listMachines().map((m) => m.arch);
  for (const a of ['QZ', 'QN', 'QM', 'QL']) assert.ok(archs.includes(a as never), a);
  const bad = (name: string, schedulers: object, re: RegExp, extra: object = {}) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ ...QZ, arch: name, order: 99, schedulers, ...extra }));
    try {
      process.env.UOPSCOPE_MACHINES_DIR = `${dir}/.`;
      assert.throws(
        () => listMachines(),
        (e: unknown) => e instanceof UserError && re.test(e.message) && !e.message.includes('\n'),
        name,
      );
    } finally {
      rmSync(file);
      process.env.UOPSCOPE_MACHINES_DIR = dir;
    }
  };
  const base = QZ.schedulers;
  bad('QBADA', { ...base, queues: [...QUEUES.slice(0, 5), queue('ST', 8, [4, 7, 1])] }, /1 also in queue 1/);
  bad('QBADB', { ...base, queues: QUEUES.slice(0, 5) }, /port 4 in no queue/, { rsSize: 64 });
  bad('QBADC', base, /rsSize \(not the sum of the queues' sizes, 72\)/, { rsSize: 96 });
  bad(
    'QBADD',
    { ...base, queues: [...QUEUES.slice(0, 5), queue('ST', 5000, [4, 7])] },
    /schedulers\.queues\[5\]\.size/,
  );
  bad('QBADE', { ...base, queues: [...QUEUES.slice(0, 5), queue('ST', 8, [4, 9])] }, /9 not in ports/);
  bad(
    'QBADF',
    { ...base, nonScheduling: [{ name: 'N', size: cited(4), queues: ['X'] }] },
    /nonScheduling\[0\]\.queues/,
  );
  bad('QBADG', { ...base, steering: cited('least-used') }, /schedulers\.steering/);
  bad('QBADH', { ...base, queues: [...QUEUES.slice(0, 5), queue('A', 8, [4, 7])] }, /queues\[5\]\.name/);
  bad(
    'QBADI',
    { ...base, queues: [...QUEUES.slice(0, 5), queue('ST', 8, [4, 7], 0)] },
    /queues\[5\]\.dispatchPerCycle/,
  );
  bad('QBADJ', { ...base, unit: { value: 'uop', source: 'nowhere' } }, /schedulers\.unit: source 'nowhere'/);
});

test('a record with one plain queue is the unified station, cycle for cycle', async () => {
  const file = schedLoop(24, 'imul');
  for (const model of ['suaca', 'refined'] as const) {
    const one = await run(file, 'QONE', model);
    const uni = await run(file, 'QUNI', model);
    assert.deepEqual(one.r.stats, uni.r.stats, model);
    assert.equal(one.r.stats.queues, undefined, 'no queue figures for one station');
  }
});

test('one full queue stops the front end while the others have room (imul waiters), spread ops do not', async () => {
  for (const model of ['suaca', 'refined'] as const) {
    const chain = await cycles(schedLoop(0, 'imul'), 'QUNI', model);
    assert.ok(chain >= 50 && chain < 52, `the chain alone: ${chain}`);
    // few waiters fit in queue B: the chain's speed, as with one station
    const few = await cycles(schedLoop(8, 'imul'), 'QZ', model);
    assert.ok(Math.abs(few - chain) < 0.5, `${model}: 8 imul waiters on QZ ${few} vs chain ${chain}`);
    // 24 imul waiters need 24 entries of queue B's 12: the front end stops although A, C, D are
    // nearly empty; one 72-entry station holds them all
    const uni = await cycles(schedLoop(24, 'imul'), 'QUNI', model);
    const { r } = await run(schedLoop(24, 'imul'), 'QZ', model);
    const qz = r.stats.blockThroughput;
    assert.ok(Math.abs(uni - chain) < 0.5, `${model}: one station holds 24 waiters: ${uni}`);
    assert.ok(qz > uni + 5, `${model}: 24 imul waiters on QZ ${qz} vs one station ${uni}`);
    const q = Object.fromEntries(r.stats.queues!.map((x) => [x.name, x]));
    assert.ok(q.B!.stallCycles > 5, `${model}: stalls on B: ${q.B!.stallCycles}`);
    for (const n of ['A', 'C', 'D', 'ST']) assert.equal(q[n]!.stallCycles, 0, `${model}: no stall on ${n}`);
    // 24 adds spread over the four ALU queues (6 each): no stall, the chain's speed
    const adds = await run(schedLoop(24, 'add'), 'QZ', model);
    assert.ok(Math.abs(adds.r.stats.blockThroughput - chain) < 0.5, `${model}: adds ${adds.r.stats.blockThroughput}`);
    // (with the waiters fitting, the front end runs a further iteration ahead, until a queue or
    // the station is full, as one station does: the loop runs at the chain's speed either way)
    assert.equal(adds.r.stats.blockThroughput, await cycles(schedLoop(24, 'add'), 'QUNI', model));
  }
});

test('the snapshot names the full queue while the others have room', async () => {
  const snaps = await snapshots(schedLoop(24, 'imul'), 'QZ', 6);
  const stalled = snaps.filter((s) => s.queues!.stalledOn !== null);
  assert.ok(stalled.length > 0, 'some cycle stalls');
  for (const s of stalled) {
    assert.equal(s.queues!.stalledOn, 'B');
    const byName = Object.fromEntries(s.queues!.list.map((x) => [x.name, x]));
    // full when the front end tried; by the cycle's end its one port may have taken one
    assert.ok(byName.B!.used >= byName.B!.size - 1, `cycle ${s.cycle}: B is full (${byName.B!.used})`);
    assert.ok(byName.C!.used < byName.C!.size / 2, `cycle ${s.cycle}: C has room (${byName.C!.used})`);
  }
  // occupancy never exceeds a queue's size
  for (const s of snaps) for (const x of s.queues!.list) assert.ok(x.used <= x.size, `${x.name} ${x.used}/${x.size}`);
  assert.equal(snaps[0]!.queues!.steering, 'even');
});

test("'even' steering: ops that any ALU queue can take are spread evenly, whatever the occupancy", async () => {
  // 8 imuls fill B partly; the 24 adds (and dec) still go round-robin over A, B, C, D
  const body = [
    ...Array.from({ length: 10 }, () => '  mov rax, [rax]'),
    ...Array.from({ length: 8 }, (_, x) => `  imul ${WAIT_REGS[x]}, rax`),
    ...Array.from({ length: 24 }, (_, x) => `  add ${['r13', 'r14', 'r15'][x % 3]}, rax`),
  ];
  const { r } = await run(loopFile('mix-8-24', body), 'QZ');
  const q = Object.fromEntries(r.stats.queues!.map((x) => [x.name, x.steered]));
  // per iteration: 24 adds + dec = 25 over four queues; jnz (ports 0, 6) goes to A or D; imuls to B
  assert.ok(Math.abs(q.C! - 25 / 4) < 0.01, `C ${q.C}`);
  assert.ok(Math.abs(q.B! - (8 + 25 / 4)) < 0.01, `B ${q.B}`);
  assert.ok(Math.abs(q.A! + q.D! - (2 * 25) / 4 - 1) < 0.01, `A + D ${q.A} + ${q.D}`);
  assert.ok(Math.abs(q.A! - q.D!) < 0.02, `A ${q.A} D ${q.D}`);
});

test('a non-scheduling queue in front of a queue holds the overflow (it does not stall until both are full)', async () => {
  const k20 = schedLoop(20, 'imul');
  const uni = await cycles(k20, 'QUNI');
  const qz = await cycles(k20, 'QZ');
  const qn = await cycles(k20, 'QN');
  assert.ok(qz > uni + 3, `20 waiters stall QZ: ${qz} vs ${uni}`);
  assert.ok(Math.abs(qn - uni) < 0.5, `QN holds 20 (12 + 16): ${qn} vs ${uni}`);
  const k40 = schedLoop(40, 'imul');
  assert.ok((await cycles(k40, 'QN')) > (await cycles(k40, 'QUNI')) + 5, '40 waiters stall QN too');
  const snaps = await snapshots(k20, 'QN', 6);
  const nsq = snaps.map((s) => s.queues!.list.find((x) => x.name === 'NSQ')!);
  assert.ok(
    nsq.some((x) => x.used > 0),
    'the NSQ is used',
  );
  assert.deepEqual(nsq[0]!.feeds, ['B']);
  for (const x of nsq) assert.ok(x.used <= 16);
});

test("unit 'macro-op': the width and the entries count instructions (a load-op add is one entry)", async () => {
  // 4 load-op compares and dec/jnz: 10 µops, 6 instructions; the two load ports allow 2 cycles
  const file = loopFile(
    'loadop',
    [0, 1, 2, 3].map((k) => `  cmp ${WAIT_REGS[k]}, [rdi + ${8 * k}]`),
  );
  const m = await run(file, 'QM');
  const u = await run(file, 'QU');
  // as µops the width allows 10/3 cycles; as macro-ops 2, but each compare's ALU µop may use
  // only the ALU port of the queue it was steered to (0 or 1, the queues with a load port)
  const [mc, uc] = [m.r.stats.blockThroughput, u.r.stats.blockThroughput];
  assert.ok(uc >= 10 / 3 - 0.01, `µops, 3 wide: ${uc}`);
  assert.ok(mc >= 2 - 0.01 && mc < uc - 0.4, `macro-ops, 3 wide: ${mc} (µops: ${uc})`);
  const total = (r: typeof m.r) => r.stats.queues!.reduce((s, x) => s + x.steered, 0);
  assert.ok(Math.abs(total(m.r) - 6) < 1e-9, `entries per iteration as macro-ops: ${total(m.r)}`);
  assert.ok(Math.abs(total(u.r) - 10) < 1e-9, `entries per iteration as µops: ${total(u.r)}`);
});

test("a queue's dispatch limit per cycle bounds what the front end sends into it", async () => {
  const file = loopFile(
    'adds8',
    Array.from({ length: 8 }, (_, x) => `  add ${WAIT_REGS[x]}, 1`),
  );
  const uni = await cycles(file, 'QUNI');
  const lim = await cycles(file, 'QL');
  assert.ok(Math.abs(uni - 2.5) < 0.1, `10 µops, 4 wide: ${uni}`);
  assert.ok(Math.abs(lim - 5) < 0.1, `2 per cycle into the one queue: ${lim}`);
  // the perfect front end lifts the limit (a front-end limit)
  const pf = await cycles(file, 'QL', 'suaca', { ...BASELINE, perfectFrontEnd: true });
  assert.ok(pf < lim - 1, `perfect front end: ${pf}`);
});

test('what-ifs on queues: station size scales every queue; the steady state, seeks and the full run agree', async () => {
  const file = schedLoop(24, 'imul');
  const base = await cycles(file, 'QZ');
  const twice = await cycles(file, 'QZ', 'suaca', { ...BASELINE, rsSize: 144 });
  assert.ok(twice < base - 5, `queues of 24 hold the 24 waiters: ${twice} vs ${base}`);
  for (const model of ['suaca', 'refined'] as const)
    for (const arch of ['QZ', 'QN', 'QM']) {
      const a = await analysed(file, arch);
      const cfg = { iterations: 300, variant: BASELINE };
      const fast = simulate(a.program, a.params, cfg, modelOf(model));
      const full = simulate(a.program, a.params, cfg, { ...modelOf(model), fullSimulation: true });
      assert.deepEqual(fast.stats, full.stats, `${arch} ${model}: steady-state skip`);
      const e = createEngine(a.program, a.params, { iterations: 40, variant: BASELINE }, modelOf(model));
      const stepped = stepAll(e);
      const e2 = createEngine(a.program, a.params, { iterations: 40, variant: BASELINE }, modelOf(model));
      e2.seek(stepped.length);
      for (const c of [stepped.length - 3, 17, 250, 5].filter((x) => x > 0 && x <= stepped.length))
        assert.deepEqual(e2.seek(c), stepped[c - 1], `${arch} ${model}: seek to ${c}`);
    }
});

test('the report and its JSON carry the queues on a core with several, and nothing on one station', async () => {
  const file = schedLoop(24, 'imul');
  const report = async (arch: string) => {
    const a = await analysed(file, arch);
    const m = collectReport(
      { program: a.program, params: a.params, unknown: [], origins: [] },
      { iterations: 200, variant: BASELINE },
    );
    return { text: renderText(m), json: reportJson(m) as unknown as Record<string, unknown> };
  };
  const qz = await report('QZ');
  const queues = qz.json.queues as { name: string; steered: number; stallCycles: number; occupancy: number }[];
  assert.deepEqual(
    queues.map((q) => q.name),
    ['A', 'B', 'C', 'D', 'AGU', 'ST'],
  );
  const b = queues.find((q) => q.name === 'B')!;
  assert.equal(b.steered, 24.25, 'every imul, and a quarter of the decs, in B');
  assert.ok(b.stallCycles > 0 && b.occupancy > 10, JSON.stringify(b));
  assert.match(qz.text, /Scheduler queues \(per iteration/);
  assert.match(qz.text, /\nB +\| +24\.25 \|/);
  const uni = await report('QUNI');
  assert.equal(uni.json.queues, undefined);
  assert.doesNotMatch(uni.text, /Scheduler queues/);
});
