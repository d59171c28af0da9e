// A µop that holds its port several cycles (LLVM's resource cycles on a model named by pipe, as
// llvm-mca's ResourceManager::issueInstruction runs them: one pipe of the group busy that long,
// the instruction's latency from its issue). znver4 gives `adc r64, imm8` one µop on the four-ALU
// group held 4 cycles (WriteADC, ReleaseAtCycles [4]): a chain through the carry runs one `adc`
// per cycle over the four ALUs, where four one-cycle µops on the ALU of the queue it is steered
// to made each `adc` wait for the previous one's last µop.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASELINE, REFINED_MECHANISMS, SUACA_MECHANISMS, simulate } from '../../src/sim/index.js';
import type { MechanismSet, SimProgram, MachineParams } from '../../src/sim/index.js';
import { loop } from './mechanismLoops.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import { loadRegion } from '../../src/disasm/index.js';
import { dataColumns, resolvedJson } from '../../src/report/listing.js';

type Loop = { program: SimProgram; machine: MachineParams };

const throughput = (p: Loop, mechanisms: MechanismSet, variant = BASELINE): number =>
  simulate(p.program, p.machine, { iterations: 400, variant }, { model: { mechanisms } }).stats.blockThroughput;

const ADC = ['rax', 'rbx', 'rcx', 'rdx', 'r8', 'r9', 'r10', 'r11'].map((r) => `adc ${r}, 1`).join('\n');

test('ZEN4: adc r64, imm8 is one µop on the ALUs that holds its ALU 4 cycles (LLVM 19 znver4)', async () => {
  const p = await loop('adc rax, 1', 'ZEN4');
  const ins = p.program.instructions[0]!;
  assert.equal(ins.uops.length, 1);
  assert.deepEqual(
    ins.portHold?.map((h) => h.cycles),
    [4],
  );
  assert.equal(ins.latency, 1);
});

test('ZEN4: eight adc chained through the carry take 8 cycles (each holds an ALU 4 cycles, one per cycle)', async () => {
  const p = await loop(ADC, 'ZEN4');
  for (const [name, m] of [
    ['refined', REFINED_MECHANISMS],
    ['suaca', SUACA_MECHANISMS],
  ] as const) {
    const t = throughput(p, m);
    assert.ok(Math.abs(t - 8) < 0.1, `${name}: ${t} cycles/iteration`);
  }
});

test('ZEN4: the held cycles bound independent work: eight independent adc hold four ALUs 4 cycles each', async () => {
  const p = await loop(
    ADC.split('\n')
      .map((l) => `clc\n${l}`)
      .join('\n'),
    'ZEN4',
  );
  // clc breaks the carry chain: only the ALUs bound it, 8 × 4 cycles over 4 ALUs
  const t = throughput(p, REFINED_MECHANISMS);
  assert.ok(t > 7.9, `refined: ${t} cycles/iteration, fewer than the held cycles allow`);
  // with infinitely usable ports nothing is held
  const inf = throughput(p, REFINED_MECHANISMS, { ...BASELINE, infinitePorts: true });
  assert.ok(inf < t - 1, `infinite ports: ${inf}`);
});

test('an Intel figure holds no port: SKL adc is as the model gives it, no hold', async () => {
  const p = await loop('adc rax, 1', 'SKL');
  assert.equal(p.program.instructions[0]!.portHold, undefined);
});

test('disasm --arch ZEN4 shows the held cycles beside the ports (text and JSON)', async () => {
  const region = await loadRegion({ hex: '4883d001' });
  const machine = loadMachine('ZEN4');
  // the LLVM model's hold, not the figures measured on this machine (adc's measured throughput)
  const data = await loadArchData('ZEN4', { measured: false });
  const res = resolveInstructions(region.instructions, data, { machine });
  const ports = dataColumns(res, machine).find((c) => c.header === 'ports')!;
  assert.equal(ports.value(region.instructions[0]!), '1*ALU0123 (held ALU0123 4 cycles)');
  const json = resolvedJson(data, res, machine) as { resolved: { portHold?: unknown }[] };
  assert.deepEqual(json.resolved[0]!.portHold, [{ ports: 'ALU0123', cycles: 4 }]);
});
