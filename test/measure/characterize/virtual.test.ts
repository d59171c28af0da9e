// The characterization against the virtual CPU (src/measure/characterize/virtualCpu.ts): the
// engine runs the generated benchmarks with the figures of virtualMachine.ts, and the inference,
// which sees only cycles, must recover them exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VirtualCpu } from '../../../src/measure/characterize/virtualCpu.js';
import { characterizeMachine, DEFAULT_BLOCKERS, withPorts } from '../../../src/measure/characterize/machine.js';
import { characterizeForm } from '../../../src/measure/characterize/characterize.js';
import { formOf } from '../../../src/measure/characterize/forms.js';
import { decodeRegion } from '../../../src/disasm/decode.js';
import type { FormResult } from '../../../src/measure/characterize/types.js';
import { BLOCKER_FORM, HYPOTHESIS, VIRTUAL } from './virtualMachine.js';

const cpu = new VirtualCpu(VIRTUAL);
const blockers = withPorts(DEFAULT_BLOCKERS, (b) => VIRTUAL.forms[BLOCKER_FORM[b.text]!]!.ports[0]!.ports);
const machine = characterizeMachine(cpu, blockers);

function run(hex: string): FormResult {
  const d = decodeRegion(Uint8Array.from(Buffer.from(hex, 'hex')), 0, 64, 'test')[0]!;
  const f = formOf(d);
  assert.ok('form' in f, `${d.intel} is characterized`);
  return characterizeForm(cpu, f.form, {
    machine,
    blockers,
    ...(HYPOTHESIS[f.form.key] ? { hypothesis: HYPOTHESIS[f.form.key] } : {}),
  });
}
const lat = (r: FormResult, from: string, to: string) => {
  const l = r.latencies.find((x) => x.from.startsWith(from) && x.to.startsWith(to));
  assert.ok(l, `${r.key}: a latency ${from} → ${to} (have ${r.latencies.map((x) => `${x.from}→${x.to}`).join(', ')})`);
  return l;
};
const near = (got: number | undefined, want: number, what: string) =>
  assert.ok(got !== undefined && Math.abs(got - want) < 0.02, `${what}: ${got} ≠ ${want}`);
const ports = (r: FormResult) =>
  r.ports.map((p) => `${p.count}*${p.combination}${p.from === 'hypothesis' ? ' (hypothesis)' : ''}`).sort();

test('machine parameters: rename width, taken branches, load-to-use, eliminations at rename', () => {
  near(machine.renameWidth.value, VIRTUAL.issueWidth, 'rename width');
  near(machine.takenBranchesPerCycle.value, 1, 'taken branches per cycle (one jump port)');
  near(machine.loadToUse.value, 5, 'load-to-use');
  assert.equal(machine.zeroIdiom.breaksDependency, true);
  assert.equal(machine.zeroIdiom.noPort, true);
  assert.equal(machine.moveElimination.eliminated, true);
  assert.equal(machine.immediateAddition.folded, true);
  assert.deepEqual(
    machine.combinations.map((c) => `${c.name}/${c.size}`).sort(),
    ['p0156/4', 'p01/2', 'p015/3', 'p1/1', 'p23/2', 'p5/1'].sort(),
  );
});

test('add r64, r64: latency 1 per register pair, throughput 1/4, one µop on p0156', () => {
  const r = run('4801d8');
  near(lat(r, 'op0', 'op0').value, 1, 'op0 → op0');
  near(lat(r, 'op1', 'op0').value, 1, 'op1 → op0');
  assert.equal(
    lat(r, 'op1', 'op0').upperBound,
    undefined,
    "the chain through op1 (2 cycles with movsxd) is slower than op0's own: exact",
  );
  assert.equal(lat(r, 'op1', 'flags').upperBound, true, 'a register into the flags cannot be isolated');
  near(r.throughput?.value, 0.25, 'throughput');
  assert.equal(r.fusedUops?.value, 1);
  assert.deepEqual(ports(r), ['1*p0156']);
});

test('add r64, imm8 folded at rename: zero latency, no port, one rename slot', () => {
  const r = run('4883c001');
  assert.equal(r.eliminated, true);
  assert.equal(lat(r, 'op0', 'op0').value, 0);
  // its rate is rename's, not a pipe's: said, not written as the form's throughput
  assert.equal(r.throughput, undefined);
  const t = r.notMeasurable?.find((n) => n.startsWith('throughput'));
  assert.ok(t, 'the throughput is said not measurable');
  near(Number(/([\d.]+) cycles per instance/.exec(t)![1]), 1 / VIRTUAL.issueWidth, 'measured at the rename width');
  assert.equal(r.fusedUops?.value, 1);
  assert.deepEqual(ports(r), []);
});

test('mul r64: two µops on different ports, per-pair latencies to rax and rdx', () => {
  const r = run('48f7e3');
  near(lat(r, 'RAX', 'RAX').value, 3, 'rax → rax');
  near(lat(r, 'RAX', 'RDX').value, 4, 'rax → rdx');
  assert.deepEqual(ports(r), ['1*p1', '1*p5']);
  assert.equal(r.fusedUops?.value, 2);
  assert.equal(r.unfusedUops, 2);
  near(r.throughput?.value, 3, 'throughput without breakers: the rax chain');
  near(r.throughputBroken?.value, 1, 'throughput with rax overwritten');
});

test('div r64: the divider occupancy, and the µop no blocker decides kept from the hypothesis', () => {
  const r = run('48f7f3');
  near(r.divCycles?.value, VIRTUAL.forms['DIV (R64)']!.divCycles!, 'divider cycles');
  near(lat(r, 'RAX', 'RAX').value, 14, 'rax → rax');
  assert.deepEqual(ports(r), ['1*p0 (hypothesis)', '2*p0156']);
  assert.equal(r.portsFrom, 'measured and hypothesis');
});

test('popcnt: the LLVM hypothesis (p0156) is wrong, the measurement (p1) wins and says so', () => {
  const r = run('f3480fb8c3');
  assert.deepEqual(ports(r), ['1*p1']);
  assert.ok(
    r.notes.some((n) => /contradicted/.test(n)),
    r.notes.join('; '),
  );
  near(lat(r, 'op1', 'op0').value, 3, 'latency');
  near(r.throughput?.value, 1, 'throughput');
});

test('phaddd: two µops on one port and one on three, throughput 2', () => {
  const r = run('660f3802c1');
  assert.deepEqual(ports(r), ['1*p015', '2*p5']);
  near(r.throughput?.value, 2, 'throughput');
  assert.equal(r.fusedUops?.value, 3);
  near(lat(r, 'op1', 'op0').value, 3, 'latency');
});

test('addsd: latency 2, p01', () => {
  const r = run('f20f58c1');
  near(lat(r, 'op0', 'op0').value, 2, 'latency');
  assert.deepEqual(ports(r), ['1*p01']);
});

test('add r64, m64: micro-fused load-op, address → result latency through the load', () => {
  const r = run('480303');
  near(lat(r, 'op1 address', 'op0').value, 6, 'address → op0');
  near(lat(r, 'op0', 'op0').value, 1, 'op0 → op0 (read after the load)');
  assert.equal(r.fusedUops?.value, 1);
  assert.equal(r.unfusedUops, 2);
  assert.deepEqual(ports(r), ['1*p0156', '1*p23']);
});

test('the results in the measured-figures format: they validate, operands as references', async () => {
  const { measuredForm, measuredMachine } = await import('../../../src/measure/characterize/measuredOut.js');
  const { validateMeasured, MEASURED_FORMAT, MEASURED_VERSION } = await import('../../../src/data/measuredFormat.js');
  const mul = measuredForm(run('48f7e3'), 'Mul_rm64');
  const load = measuredForm(run('480303'));
  const file = {
    format: MEASURED_FORMAT,
    version: MEASURED_VERSION,
    arch: 'SKL',
    provenance: {
      cpu: 'virtual',
      cpuid: 'virtual',
      microcode: 'unknown',
      kernel: 'none',
      virtualMachine: false,
      date: '2026-11-27T12:00:00Z',
      uopscope: '0.1.0',
      command: 'test',
      core: { arch: 'SKL', why: 'test' },
    },
    machine: measuredMachine(machine),
    forms: { 'MUL (R64)': mul, 'ADD (R64, M64)': load },
  };
  const v = validateMeasured(file);
  assert.ok('file' in v, 'error' in v ? v.error : '');
  assert.deepEqual(mul.latencies.find((l) => l.from === 'RAX' && l.to === 'RDX')?.cycles, 4);
  assert.deepEqual(mul.ports, [
    { uops: 1, ports: 'p1', from: 'measured' },
    { uops: 1, ports: 'p5', from: 'measured' },
  ]);
  assert.deepEqual(mul.uops, { fused: 2, unfused: 2 });
  assert.equal(mul.check.status, 'passed', JSON.stringify(mul.check));
  assert.equal(load.latencies.find((l) => l.from === 'o1.base')?.cycles, 6);
  assert.deepEqual(load.uops, { fused: 1, unfused: 2 });
});
