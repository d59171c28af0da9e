// The checks of a host without performance counters, with made-up figures (no timing): blockers
// chosen from a core's record and verified against each other, the throughput bound of
// overlapping pipe groups, figures not measurable here kept apart from failed ones, latencies
// that must come out whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { portBound, trapping } from '../../../src/measure/characterize/characterize.js';
import {
  BLOCKER_CANDIDATES,
  characterizeMachine,
  DEFAULT_BLOCKERS,
  withPorts,
} from '../../../src/measure/characterize/machine.js';
import { measuredForm } from '../../../src/measure/characterize/measuredOut.js';
import { recordBlockers } from '../../../src/measure/characterize/session.js';
import { VirtualCpu } from '../../../src/measure/characterize/virtualCpu.js';
import { measuredUsage, measuredUsed } from '../../../src/data/measuredFormat.js';
import type { Combination, FormResult, PortUse } from '../../../src/measure/characterize/types.js';
import { BLOCKER_FORM, VIRTUAL, zen4File } from './virtualMachine.js';

const use = (count: number, ports: number[]): PortUse => ({
  count,
  combination: `p${ports.join('')}`,
  ports,
  from: 'measured',
});

test("the throughput bound counts overlapping groups' µops over their union", () => {
  // FMUL FP0/1 (9, 10) and a group FP0/3 (9, 12): 2 µops on 3 pipes, not 1 on each of 2
  assert.equal(portBound([use(1, [9, 10])], []), 0.5);
  assert.ok(Math.abs(portBound([use(1, [9, 10]), use(1, [9, 12])], []) - 2 / 3) < 1e-9);
  // disjoint groups bound alone: FMUL and FADD pairs, 1 µop each
  assert.equal(portBound([use(1, [9, 10]), use(1, [11, 12])], []), 0.5);
  // a group inside another: imul's ALU1 and 3 µops on the ALUs, 4 on 4 pipes
  assert.equal(portBound([use(1, [1]), use(3, [0, 1, 2, 3])], []), 1);
  // a combination without port numbers counts alone, over its measured size
  const combos: Combination[] = [{ name: 'ports of x (3)', blocker: 'x', size: 3, subsets: [] }];
  assert.equal(portBound([{ count: 2, combination: 'ports of x (3)', from: 'measured' }], combos), 2 / 3);
});

test("blockers come from the record: one µop on exactly one group, in the candidates' order", () => {
  const record: Record<string, { count: number; ports: number[] }[] | null> = {
    'add r64, r64': [{ count: 1, ports: [3, 2, 1, 0] }],
    'imul r64, r64, imm8': [{ count: 1, ports: [1] }],
    'mov r64, [r64]': null, // the record does not know it
    'vpaddd xmm, xmm, xmm': [
      { count: 1, ports: [9] },
      { count: 1, ports: [10] },
    ], // two µops: blocks no one group
    'pshufd xmm, xmm, imm8': [{ count: 1, ports: [10, 11] }],
    'vpmuludq xmm, xmm, xmm': [{ count: 2, ports: [9, 12] }],
    'vpsllq xmm, xmm, imm8': [{ count: 1, ports: [10, 11] }],
  };
  const got = recordBlockers(BLOCKER_CANDIDATES, (k) => record[BLOCKER_CANDIDATES[k]!.text] ?? null);
  assert.deepEqual(
    got.map((b) => `${b.text}: ${b.ports!.join(',')}`),
    ['add r64, r64: 0,1,2,3', 'imul r64, r64, imm8: 1', 'pshufd xmm, xmm, imm8: 10,11', 'vpsllq xmm, xmm, imm8: 10,11'],
    'the same group twice: the second is the alternative when the first is refuted',
  );
});

test('a blocker whose record group its pairs with the others contradict is left out, and said', () => {
  // the virtual CPU has vpmuludq on ports 0 and 1; a record that says 5 and 6 has the right size
  // (two pipes), so only a pair shows it: with vpaddd (0, 1, 5) the record predicts 4 pipes busy,
  // the virtual CPU keeps 3
  const truth = (text: string): number[] => VIRTUAL.forms[BLOCKER_FORM[text]!]!.ports[0]!.ports;
  const wrong = withPorts(DEFAULT_BLOCKERS, (b) => (b.text.startsWith('vpmuludq') ? [5, 6] : truth(b.text)));
  const m = characterizeMachine(new VirtualCpu(VIRTUAL), wrong);
  assert.ok(!m.combinations.some((c) => c.blocker.startsWith('vpmuludq')), 'vpmuludq blocks nothing');
  assert.ok(
    m.combinations.some((c) => c.name === 'p015'),
    "vpaddd's group stays",
  );
  assert.match(m.rejectedBlockers?.join('\n') ?? '', /^vpmuludq .*keeps 3 pipes busy, the record's groups 4/m);
});

const form = (extra: Partial<FormResult> = {}): FormResult => ({
  key: 'ADDSD (XMM, XMM)',
  intel: 'addsd xmm0, xmm1',
  latencies: [{ value: 3, spread: 0.01, method: 'm', from: 'op0 (xmm)', to: 'op0 (xmm)' }],
  throughput: { value: 0.5, spread: 0.01, method: 'm' },
  ports: [{ count: 1, combination: 'pBC', ports: [11, 12], from: 'measured' }],
  portsFrom: 'measured',
  notes: [],
  benches: 4,
  passes: 2,
  ...extra,
});

test('not measurable here is not failed: the form is used, and the table says so', () => {
  const nm = form({
    notMeasurable: ["fused-domain µops (macro-ops): no counter counts them: the record's count is the model"],
    ports: [{ count: 1, combination: 'p0123', ports: [0, 1, 2, 3], from: 'hypothesis' }],
  });
  const f = measuredForm(nm);
  assert.equal(f.check.status, 'passed');
  assert.equal(f.check.notMeasurable?.length, 1);
  assert.deepEqual(f.ports, [{ uops: 1, ports: 'p0123', from: 'record' }], "the record's group, labelled");
  assert.equal(measuredUsed(f), true);
  const file = zen4File();
  file.forms['ADDSD (XMM, XMM)'] = f;
  file.forms['SUBSD (XMM, XMM)'] = measuredForm(form());
  const u = measuredUsage(file);
  assert.deepEqual([u.written, u.used, u.notMeasurable], [2, 2, 1]);
});

test('a latency that is not a whole number of cycles fails, naming the check', () => {
  const f = measuredForm(
    form({ latencies: [{ value: 0.5, spread: 0.01, method: 'm', from: 'op0 (xmm)', to: 'op0 (xmm)' }] }),
  );
  assert.equal(f.check.status, 'failed');
  assert.match(f.check.notes![0]!, /^latency op0 \(xmm\) → op0 \(xmm\): 0\.50 cycles, not a whole number/);
  const file = zen4File();
  file.forms['ADDSD (XMM, XMM)'] = f;
  assert.deepEqual(measuredUsage(file).marked, [['latency not a whole number', 1]]);
});

test('an upper bound that cannot be a latency is not written: not measurable here', () => {
  const bound = (value: number, from = 'op1 address') => ({
    value,
    spread: 0.01,
    method: 'm',
    from,
    to: 'op0 (xmm)',
    upperBound: true,
  });
  const whole = { value: 3, spread: 0.01, method: 'm', from: 'op0 (xmm)', to: 'op0 (xmm)' };
  // a whole bound stays, marked a bound: the resolver's latency for that pair
  const kept = measuredForm(form({ latencies: [whole, bound(8)] }));
  assert.equal(kept.check.status, 'passed');
  assert.deepEqual(
    kept.latencies.map((l) => [l.from, l.cycles, l.upperBound ?? false]),
    [
      ['o0', 3, false],
      ['o1.base', 8, true],
    ],
  );
  // not whole (a chain of whole-cycle instructions takes whole cycles), or under a cycle on a form
  // that executes: left out, said, and the form is still used for what it measured
  for (const [v, why] of [
    [8.5, /8\.50 cycles, not a whole number: not written/],
    [0.73, /0\.73 cycles, not a whole number/],
  ] as const) {
    const f = measuredForm(form({ latencies: [whole, bound(v, 'flags')] }));
    assert.equal(f.check.status, 'passed');
    assert.deepEqual(
      f.latencies.map((l) => l.from),
      ['o0'],
    );
    assert.match(f.check.notMeasurable!.join('\n'), why);
  }
});

test('a throughput faster than the port usage allows fails, naming the check', () => {
  const f = measuredForm(
    form({
      portsInconsistent:
        'the port usage implies at least 0.67 cycles per instruction, the measured throughput is 0.50: faster than those pipes allow',
    }),
  );
  assert.equal(f.check.status, 'failed');
  const file = zen4File();
  file.forms['ADDSD (XMM, XMM)'] = f;
  assert.deepEqual(measuredUsage(file).marked, [["throughput faster than the port usage's pipes allow", 1]]);
});

test("even steering traps µops only where a queue's pipes of the group all lie in the blocked ones", () => {
  // Zen 4's record: four ALU queues (ALU0 with BRU0 and AGU0, …), two FP queues each holding one
  // pipe of every FP pair
  const steeredQueues = [
    [0, 4, 6],
    [1, 7],
    [2, 8],
    [3, 5],
    [9, 11, 13],
    [10, 12, 14],
    [15, 16],
  ];
  const c = (ports: number[]): Combination => ({
    name: `p${ports.join('')}`,
    blocker: 'b',
    size: ports.length,
    ports,
    subsets: [],
  });
  const alu = c([0, 1, 2, 3]);
  const fp = c([9, 10, 11, 12]);
  assert.equal(trapping({ steeredQueues }, c([1]), alu), true, 'ALU1 has a queue of its own');
  assert.equal(trapping({ steeredQueues }, c([1, 2]), alu), true);
  assert.equal(trapping({ steeredQueues }, c([9, 10]), fp), false, 'FMUL: each FP queue keeps an FADD pipe');
  assert.equal(trapping({ steeredQueues }, c([11, 12]), fp), false);
  assert.equal(trapping({ steeredQueues }, c([9, 11]), fp), true, "FP0 and FP2 are all of one queue's");
  assert.equal(trapping({}, c([1]), alu), false, 'no even steering (a unified scheduler): nothing traps');
});
