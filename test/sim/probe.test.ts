// The engine bench's probes (bench/probe: SUACA's cycle as one lean JavaScript function, and the
// same in C, native and WebAssembly) measure how fast the model can run at all; they measure
// nothing unless they compute what the engine computes. Here: cycles and every statistic of the
// core's recorder, equal, on generated programs (station sizes, issue widths, a perfect front end)
// and the thesis's stencil.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CompiledProgram } from '../../src/sim/core.js';
import type { MachineParams, SimProgram, Variant } from '../../src/sim/types.js';
import { probeJs, probeRefuses } from '../../bench/probe/suaca.js';
import type { ProbeResult } from '../../bench/probe/suaca.js';
import { engineResult, nativeProbe, probeDiffers, wasmProbe } from '../../bench/probe/probe.js';
import { SKL, program } from './generated.js';
import { MACHINES, stencil } from './thesisPrograms.js';

const BASE: Variant = { perfectFrontEnd: false, infinitePorts: false, noDependencies: false };
const VARIANTS: Variant[] = [
  BASE,
  { ...BASE, perfectFrontEnd: true },
  { ...BASE, rsSize: 12, issueWidth: 3 },
  { ...BASE, rsSize: 200, issueWidth: 6 },
];

interface Case {
  what: string;
  program: SimProgram;
  machine: MachineParams;
  variant: Variant;
  iterations: number;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (let seed = 1; out.length < 120; seed++) {
    const p = program(seed);
    if (probeRefuses(new CompiledProgram(p, SKL))) continue; // a division: the probe has no divider
    const variant = VARIANTS[seed % VARIANTS.length]!;
    out.push({
      what: `generated program ${seed}, ${JSON.stringify(variant)}`,
      program: p,
      machine: SKL,
      variant,
      iterations: 1 + ((seed * 37) % 150),
    });
  }
  for (const v of VARIANTS)
    out.push({
      what: `stencil, IVB, ${JSON.stringify(v)}`,
      program: stencil(),
      machine: MACHINES.IVB!,
      variant: v,
      iterations: 300,
    });
  return out;
}

const coreResult = (c: Case): ProbeResult => engineResult(c.program, c.machine, c.variant, c.iterations);

function sizes(c: Case): { cp: CompiledProgram; rsCap: number; width: number } {
  const rsCap = c.variant.rsSize ?? c.machine.rsSize;
  return {
    cp: new CompiledProgram(c.program, c.machine),
    rsCap,
    width: c.variant.perfectFrontEnd ? rsCap : (c.variant.issueWidth ?? c.machine.issueWidth),
  };
}

test('the JavaScript probe computes what the engine computes', () => {
  const all = cases();
  let blocked = 0;
  for (const c of all) {
    const { cp, rsCap, width } = sizes(c);
    const want = coreResult(c);
    assert.equal(probeDiffers(probeJs(cp, rsCap, width, c.iterations), want), null, c.what);
    blocked += want.portWas.reduce((a, x) => a + x, 0) > 0 ? 1 : 0;
  }
  // the cases exercise port blocking and its blame, not only dependencies
  assert.ok(blocked > all.length / 4, `${blocked} of ${all.length} cases had an instance blocked on a port`);
});

test('probeDiffers finds a changed statistic', () => {
  const c = cases()[0]!;
  const want = coreResult(c);
  const { cp, rsCap, width } = sizes(c);
  const got = probeJs(cp, rsCap, width, c.iterations);
  got.had[0]! += 1;
  assert.match(probeDiffers(got, want) ?? '', /^had\[0\]/);
});

test('the probe refuses what it does not model', () => {
  const p: SimProgram = {
    instructions: [
      { line: 0, asm: 'div', uops: [[0]], latency: 20, latencyByResource: { RAX: 20 }, divCycles: 6, unknown: false },
    ],
    deps: [],
  };
  assert.match(probeRefuses(new CompiledProgram(p, SKL)) ?? '', /divider/);
});

for (const [name, make] of [
  ['native (gcc)', nativeProbe],
  ['WebAssembly (clang-19)', wasmProbe],
] as const) {
  const probe = make();
  const skip = 'why' in probe ? probe.why : false;
  test(`the C probe, ${name}, computes what the engine computes`, { skip }, () => {
    if ('why' in probe) return;
    try {
      for (const c of cases().filter((_, k) => k % 3 === 0)) {
        const { cp, rsCap, width } = sizes(c);
        const { result } = probe.run(cp, rsCap, width, c.iterations, 1);
        assert.equal(probeDiffers(result, coreResult(c)), null, c.what);
      }
    } finally {
      probe.dispose();
    }
  });
}

test('CI has the compilers for both C probes', { skip: process.env.CI ? false : 'outside CI' }, () => {
  for (const cmd of ['gcc', 'clang-19', 'wasm-ld-19'])
    assert.equal(spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status, 0, `${cmd} is missing`);
});
