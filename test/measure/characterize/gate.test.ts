// The noise gate, the comparison of passes and the dispatch-width rule, fed made-up samples and
// results (deterministic: no timing here). A sample is kept only when the contention canary read quiet on both sides of
// it; two passes that disagree mark the form, and the file says which check failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CanaryFloor, enough, gatedTiming, type Sample } from '../../../src/measure/characterize/gate.js';
import { comparePasses, compareMachines, valuesAgree } from '../../../src/measure/characterize/passes.js';
import { measuredForm, measuredMachine } from '../../../src/measure/characterize/measuredOut.js';
import type { Figure, FormResult, MachineResult } from '../../../src/measure/characterize/types.js';
import type { Runner } from '../../../src/measure/characterize/runner.js';
import { characterizeMachine, DEFAULT_BLOCKERS } from '../../../src/measure/characterize/machine.js';
import { decodeRegion } from '../../../src/disasm/decode.js';
import { CANARY_GATE, CANARY_LOW, quiet } from '../../../bench/measure/canary.js';

const s = (cycles: number, before: number, after = before): Sample => ({ cycles, canary: [before, after] });

test('the floor is the lowest reading another confirms; a lone low reading is not the floor', () => {
  const g = new CanaryFloor();
  g.observe([4.4, 3.76]); // a calibration slowed by contention reads the canary low, once
  assert.equal(g.floor, Infinity);
  g.observe([3.98, 4.0]);
  assert.equal(g.floor, 3.98);
  assert.equal(g.quiet(s(1, 4.0, 4.05)), true);
  assert.equal(g.quiet(s(1, 4.0, 4.2)), false, 'a canary 5 % above the floor after the sample');
  assert.equal(g.quiet(s(1, 5.3, 4.0)), false, 'a canary 33 % above the floor before it');
  // below the floor: the calibration ran slow, and the sample's cycles read low with the canary
  assert.equal(g.quiet(s(1, 3.76, 3.98)), false, 'a canary 6 % below the floor before the sample');
  assert.equal(g.quiet(s(1, 3.98, 3.46)), false, 'a canary 13 % below the floor after it');
  assert.equal(g.quiet(s(1, 3.93, 3.98)), true, 'within 2 % below');
});

test("the timing runs' gate is a band around the idle canary: low readings are dropped too", () => {
  assert.deepEqual([CANARY_LOW, CANARY_GATE], [3.92, 4.08]);
  assert.equal(quiet(3.98, 4.01), true);
  assert.equal(quiet(3.98, 4.2), false, 'shared after the run');
  assert.equal(quiet(3.46, 3.98), false, 'a slow calibration before it');
});

test('samples taken while the canary read high are dropped, not averaged in; the share kept goes with the figure', () => {
  const g = new CanaryFloor();
  g.observe([4.0, 4.0]);
  const samples = [s(2.0, 4.0), s(3.1, 4.9), s(2.04, 4.02, 4.01), s(2.9, 4.0, 5.2)];
  const t = gatedTiming(samples, g);
  assert.equal(t.cycles, 2.0);
  assert.equal(t.high, 2.04);
  assert.deepEqual(t.runs, [2.0, 2.04]);
  assert.deepEqual(t.kept, { kept: 2, tried: 4 });
  assert.equal(t.failed, undefined);
});

test('a benchmark runs until it has the quiet samples wanted, or its tries are spent; none quiet fails it, saying why', () => {
  const g = new CanaryFloor();
  g.observe([4.0, 4.0]);
  const noisy = [s(2, 5), s(2, 4.6), s(2, 4.9)];
  assert.equal(enough(noisy.slice(0, 2), g, 2, 6), false);
  assert.equal(enough([...noisy, s(2, 4), s(2.1, 4.01)], g, 2, 6), true);
  assert.equal(enough([...noisy, ...noisy], g, 2, 6), true, 'six tries spent');
  const t = gatedTiming([...noisy, ...noisy], g);
  assert.ok(Number.isNaN(t.cycles));
  assert.match(t.failed!, /canary read high around 6 of 6 runs/);
  const slow = gatedTiming([s(2, 3.5), s(2, 4.6), s(2, 3.98, 3.6)], g);
  assert.match(
    slow.failed!,
    /read high around 1 of 3 runs .*; the canary read low around 2 of 3 runs \(below 3\.92 cycles\): the cycle calibration ran slow, no figure kept/,
  );
  assert.deepEqual(t.kept, { kept: 0, tried: 6 });
  // quiet, but the longer length was not slower: noise of another kind, said as such
  assert.match(gatedTiming([s(-0.1, 4)], g).failed!, /no slower than the shorter one/);
});

test('passes agree: latencies the same whole number, throughputs within 5 %', () => {
  assert.equal(valuesAgree(3.02, 2.95, true), true);
  assert.equal(valuesAgree(3.0, 4.0, true), false);
  assert.equal(valuesAgree(1.0, 1.04, false), true);
  assert.equal(valuesAgree(1.0, 1.2, false), false);
  assert.equal(valuesAgree(0.25, 0.26, false), true, 'a quarter cycle read to ±0.01');
  assert.equal(valuesAgree(NaN, 1, false), false);
});

const fig = (value: number, kept = { kept: 3, tried: 3 }): Figure => ({ value, spread: 0.01, method: 'm', kept });
const form = (
  lat: number,
  tp: number,
  ports = [{ count: 1, combination: 'p0123', ports: [0, 1, 2, 3] }],
): FormResult => ({
  key: 'ADD (R64, R64)',
  intel: 'add rax, rbx',
  latencies: [{ ...fig(lat), from: 'op0 (gpr64)', to: 'op0 (gpr64)' }],
  throughput: fig(tp, { kept: 3, tried: 4 }),
  ports: ports.map((p) => ({ ...p, from: 'measured' as const })),
  portsFrom: 'measured',
  notes: [],
  benches: 10,
});

test('two passes that agree: merged (lower value, spread over both, runs kept summed), the form passes', () => {
  const r = comparePasses(form(1.0, 0.25), form(1.03, 0.26));
  assert.equal(r.passesDisagree, undefined);
  assert.equal(r.passes, 2);
  assert.equal(r.throughput!.value, 0.25);
  assert.ok(Math.abs(r.throughput!.spread - 0.04) < 1e-9, String(r.throughput!.spread));
  assert.deepEqual(r.throughput!.kept, { kept: 6, tried: 8 });
  const m = measuredForm(r);
  assert.equal(m.check.status, 'passed', JSON.stringify(m.check));
  assert.equal(m.passes, 2);
  assert.equal(m.kept, 0.86); // 12 of 14 runs
});

test('two passes that disagree: the form is marked, the file names the check and both figures', () => {
  const r = comparePasses(form(1.0, 0.25), form(2.0, 0.5, [{ count: 2, combination: 'p0123', ports: [0, 1, 2, 3] }]));
  assert.deepEqual(r.passesDisagree, [
    'latency op0 (gpr64) → op0 (gpr64): 1.00 and 2.00 cycles',
    'throughput: 0.25 and 0.50',
    'port usage: 1*p0123 and 2*p0123',
  ]);
  const m = measuredForm(r);
  assert.equal(m.check.status, 'failed');
  assert.ok(m.check.notes!.includes('passes disagree: throughput: 0.25 and 0.50'), JSON.stringify(m.check.notes));
});

test('machine parameters whose passes disagree are marked in the file', () => {
  const machine = (rename: number, load: number): MachineResult => ({
    renameWidth: fig(rename),
    takenBranchesPerCycle: fig(1),
    loadToUse: fig(load),
    storeForwarding: fig(1),
    zeroIdiom: { breaksDependency: true, noPort: true, figure: fig(5) },
    moveElimination: { latency: fig(0.2), eliminated: true },
    immediateAddition: { latency: fig(1), folded: false },
    combinations: [],
  });
  const m = measuredMachine(compareMachines(machine(6, 4), machine(6.1, 5)));
  assert.equal(m.renameWidth!.check!.status, 'passed');
  assert.equal(m.loadToUse!.check!.status, 'failed');
  assert.match(m.loadToUse!.check!.notes![0]!, /passes disagree: 4.00 and 5.00/);
  assert.equal(m.loadToUse!.kept, 1);
});

test('stray low readings, even several, do not make the floor: the idle figure read again and again does', () => {
  const g = new CanaryFloor();
  const idle = Array.from({ length: 40 }, () => 3.98);
  g.observe([...idle, 3.86, 3.87, 3.51, 3.26, 2.33, 5.3, 4.77, 4.4]);
  assert.equal(g.floor, 3.98);
  assert.equal(g.quiet(s(1, 3.98, 4.05)), true);
  assert.equal(g.quiet(s(1, 3.98, 4.77)), false);
});

test("rename width: zero idioms bound dispatch where NOPs do not take a slot each (Zen 4's 12 NOPs per cycle on 6-wide dispatch)", () => {
  // a made-up host: NOPs at 12 per cycle, zero idioms at 6, four ALUs; every other benchmark 1 cycle per instruction
  const cycles = (name: string, instrs: number): number =>
    name.startsWith('rename width')
      ? instrs / 12
      : name.startsWith('zero idiom rate')
        ? instrs / 6
        : name === 'blocker add r64, r64'
          ? instrs / 4
          : instrs;
  const runner: Runner = {
    kind: 'virtual',
    loopBranch: false,
    run: (b) => {
      const n = decodeRegion(b.code, 0, 64, 'bench').length;
      const c = cycles(b.name, n);
      return { cycles: c, high: c, runs: [c] };
    },
  };
  const m = characterizeMachine(runner, DEFAULT_BLOCKERS);
  assert.equal(m.renameWidth.value, 6);
  assert.match(m.renameWidth.method, /zero idioms.*ran at 12.00 per cycle, faster than dispatch/);
  assert.equal(m.renameWidth.inconsistent, undefined);
});

test('a negative fused-domain count is not written: the form fails, saying why', () => {
  const r = { ...form(1, 0.25), fusedUops: { value: -7, spread: 0, method: 'm' } };
  const m = measuredForm(r);
  assert.equal(m.uops.fused, undefined);
  assert.equal(m.check.status, 'failed');
  assert.match(m.check.notes![0]!, /fused-domain µops: negative \(-7.00\)/);
});
