// Per-operand latencies (mechanism operandLatency): a load-op form's register operand is read
// after its load, so a dependency chain through that register costs the ALU latency, not the
// load's (uops.info paper §5: latency per operand pair; LLVM's ReadAdvance on the register read).
// On real gcc -O2 hash loops (test/fixtures/loops/hash.c) and on uops.info-schema figures.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDependencyGraph, loadRegion } from '../../src/disasm/index.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import type { ArchName } from '../../src/data/types.js';
import { BASELINE, buildSimProgram, machineParams, simulate } from '../../src/sim/index.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS, withMechanism } from '../../src/sim/mechanisms.js';
import type { MechanismSet } from '../../src/sim/mechanisms.js';
import { loop } from './mechanismLoops.js';

const HASH = 'test/fixtures/loops/hash.gcc-O2.o';
const ITER = 400;

async function hashLoop(fn: string, arch: ArchName) {
  const r = await loadRegion({ file: HASH, function: fn });
  const m = loadMachine(arch);
  const resolved = resolveInstructions(r.instructions, await loadArchData(arch), { fallback: 'skip', machine: m });
  const graph = buildDependencyGraph(r.instructions, { loop: true });
  return {
    lines: r.instructions,
    resolved,
    program: buildSimProgram(r.instructions, graph, resolved, { machine: m }),
    machine: machineParams(m),
  };
}

function cpi(p: Awaited<ReturnType<typeof hashLoop>>, mechanisms: MechanismSet): number {
  const r = simulate(p.program, p.machine, { iterations: ITER, variant: BASELINE }, { model: { mechanisms } });
  return r.stats.cycles / ITER;
}

const near = (got: number, want: number, what: string) =>
  assert.ok(Math.abs(got - want) < 0.1, `${what}: ${got.toFixed(3)} cycles/iteration, expected about ${want}`);

test('hash loop (xor rax, [rdi]; rol rax, 13): the chain through rax is 1 + 1 cycles, not the load-op form’s 6 + 1', async () => {
  for (const arch of ['SKL', 'SKX'] as ArchName[]) {
    const p = await hashLoop('hash_rol', arch);
    const xor = p.lines.findIndex((l) => /^xor rax, qword ptr \[rdi\]$/.test(l.intel));
    assert.ok(xor >= 0, p.lines.map((l) => l.intel).join('; '));
    // LLVM 19's skylake models: the load-op form's result 6 cycles after it starts, its register
    // operand read 5 cycles late (ReadAfterLd), the flags it writes too
    assert.equal(p.resolved[xor]!.origin, 'llvm');
    assert.equal(p.resolved[xor]!.latencyByResource.RAX, 6);
    assert.deepEqual(p.resolved[xor]!.readAdvance, { RAX: 5 });
    near(cpi(p, REFINED_MECHANISMS), 2, `${arch} refined`);
    // switched off, the load's latency is on the chain: SUACA's rule (one latency per written
    // resource, the largest), alone or with every other mechanism
    near(cpi(p, withMechanism(REFINED_MECHANISMS, 'operandLatency', false)), 7, `${arch} refined without it`);
    near(cpi(p, SUACA_MECHANISMS), 7, `${arch} suaca`);
    near(cpi(p, withMechanism(SUACA_MECHANISMS, 'operandLatency', true)), 2, `${arch} suaca + operandLatency`);
  }
});

test('hash loop (xor rax, [rdi]; imul rax, rdx): 1 + 3 cycles per iteration (llvm-mca-19 says 6)', async () => {
  const p = await hashLoop('hash_mul', 'SKL');
  near(cpi(p, REFINED_MECHANISMS), 4, 'refined');
  near(cpi(p, SUACA_MECHANISMS), 9, 'suaca');
});

test('uops.info per-pair latencies give the same read advance: ADD (R64, M64) reg→reg 1, address→reg 6', async () => {
  const xml = 'test/fixtures/data/small-instructions.xml';
  const { program, machine } = await loop('1:\n  add rax, [rdi]\n  dec rcx\n  jnz 1b', 'SKL', xml);
  const add = program.instructions[0]!;
  assert.equal(add.latencyByResource.RAX, 6);
  assert.deepEqual(add.readAdvance, { RAX: 5 });
  const run = (m: MechanismSet) =>
    simulate(program, machine, { iterations: ITER, variant: BASELINE }, { model: { mechanisms: m } }).stats.cycles /
    ITER;
  near(run(withMechanism(SUACA_MECHANISMS, 'operandLatency', true)), 1, 'with per-operand latencies');
  near(run(SUACA_MECHANISMS), 6, 'SUACA');
  // a register that is also the address is needed at the start: no advance
  const self = await loop('1:\n  add rax, [rax]\n  dec rcx\n  jnz 1b', 'SKL', xml);
  assert.equal(self.program.instructions[0]!.readAdvance, undefined);
  const selfLlvm = await loop('1:\n  xor rax, [rax]\n  dec rcx\n  jnz 1b', 'SKL');
  assert.equal(selfLlvm.program.instructions[0]!.readAdvance, undefined);
});

test('a pair a file does not give does not hold the register read early (address → flags missing)', async () => {
  // a measured file without the address → flags pair: flags' own largest figure (1, from rax)
  // says nothing of when the flags wait for the load, so it must not cancel rax's late read
  const xml = readFileSync('test/fixtures/data/small-instructions.xml', 'utf8');
  const pair = '<latency cycles_addr="6" cycles_mem="1" start_op="2" target_op="3"/>';
  assert.ok(xml.includes(pair));
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-pairs-'));
  try {
    const file = join(dir, 'instructions.xml');
    writeFileSync(file, xml.replace(pair, ''));
    const { program } = await loop('1:\n  add rax, [rdi]\n  dec rcx\n  jnz 1b', 'SKL', file);
    assert.deepEqual(program.instructions[0]!.readAdvance, { RAX: 5 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a late read never makes a result earlier than its address allows (a pointer chase stays 6 + 1)', async () => {
  // rdi is the address and comes from the chain: the load's latency stays on it
  const { program, machine } = await loop('1:\n  xor rax, [rdi]\n  mov rdi, rax\n  dec rcx\n  jnz 1b', 'SKL');
  const r = simulate(
    program,
    machine,
    { iterations: ITER, variant: BASELINE },
    { model: { mechanisms: withMechanism(SUACA_MECHANISMS, 'operandLatency', true) } },
  );
  near(r.stats.cycles / ITER, 7, 'pointer chase');
});
