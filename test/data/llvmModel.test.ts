// The LLVM-derived layer (src/data/llvmModel.ts, assets/uarch/llvm) on real decoded
// instructions: the record is found by the decoder's own iced-x86 Code and instance kind
// (register, memory, same register, masked, broadcast), its figures become the line's, and the
// cases where it must not give figures (a placeholder class, an ISA the core lacks) say why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRegion } from '../../src/disasm/index.js';
import { loadArchData, resolveInstructions } from '../../src/data/index.js';
import { formatPorts, formatPortsFor } from '../../src/data/ports.js';
import { loadMachine } from '../../src/data/machines.js';
import { keyPositions, llvmArchs, llvmDir, loadLlvmModel } from '../../src/data/llvmModel.js';
import type { ArchName, ResolvedInstruction } from '../../src/data/types.js';

const cacheDir = mkdtempSync(join(tmpdir(), 'uopscope-llvm-'));

async function resolveHex(hex: string, arch: ArchName): Promise<{ intel: string; r: ResolvedInstruction }[]> {
  const region = await loadRegion({ hex });
  // the LLVM-derived figures, not those measured on this machine that uopscope ships for its core
  const data = await loadArchData(arch, { cacheDir, measured: false });
  const res = resolveInstructions(region.instructions, data);
  return region.instructions.map((d, i) => ({ intel: d.intel, r: res[i]! }));
}

test('every Intel core from Sandy Bridge to Sapphire Rapids and Zen 2 to 4 has an LLVM-derived file', () => {
  assert.deepEqual(Object.keys(llvmArchs()).sort(), [
    'ADL-P',
    'BDW',
    'CFL',
    'CLX',
    'HSW',
    'ICL',
    'IVB',
    'KBL',
    'RKL',
    'SKL',
    'SKX',
    'SNB',
    'SPR',
    'TGL',
    'ZEN2',
    'ZEN3',
    'ZEN4',
  ]);
  assert.equal(loadLlvmModel('NHM'), null);
  // LLVM 19's znver5 is its znver4 model: ZEN5 has no file of its own, its figures are ZEN4's
  assert.equal(loadLlvmModel('ZEN5'), null);
  assert.equal(loadLlvmModel('ZEN4')!.cpu, 'znver4');
  assert.equal(loadLlvmModel('KBL')!.cpu, 'skylake');
});

test('a load-op form: the memory record, each written register and flag with its def latency', async () => {
  // add rax, qword ptr [rbx] on Haswell
  const r = (await resolveHex('480303', 'HSW'))[0]!.r;
  assert.equal(r.origin, 'llvm');
  assert.equal(r.provenance!.key, 'Add_r64_rm64:m');
  assert.equal(formatPorts(r.ports), '1*p0156+1*p23');
  assert.equal(r.latencyByResource.RAX, 6);
  assert.equal(r.latencyByResource.ZF, 6);
  // the register operand is read after the load (LLVM's ReadAfterLd): kept, not subtracted
  assert.deepEqual(r.provenance!.detail!.readAdvance, [['o0', 5]]);
});

test('the same register twice takes the same-register record: zero idioms have no port and no latency', async () => {
  const [xor, add] = await resolveHex('31c0 4801d8', 'HSW');
  assert.deepEqual(
    [xor!.r.provenance!.key, xor!.r.variant, xor!.r.ports, xor!.r.latencyByResource.RAX],
    ['Xor_rm32_r32:s', 'same_reg', [], 0],
  );
  assert.deepEqual([add!.r.provenance!.key, add!.r.latencyByResource.RAX], ['Add_rm64_r64', 1]);
});

test('EVEX masking and broadcast find their own instances, else the plain one', async () => {
  // vaddps zmm0{k1}{z}, zmm1, zmm2; vaddps zmm0, zmm1, dword bcst [rax]; vaddps zmm0{k1}, zmm1, zmm2
  const lines = await resolveHex('62f174c958c2 62f1745858 00 62f1744958c2'.replace(/ /g, ''), 'SKX');
  assert.deepEqual(
    lines.map((l) => l.r.provenance?.key),
    [
      'EVEX_Vaddps_zmm_k1z_zmm_zmmm512b32_er:z',
      'EVEX_Vaddps_zmm_k1z_zmm_zmmm512b32_er:b',
      'EVEX_Vaddps_zmm_k1z_zmm_zmmm512b32_er:k',
    ],
  );
  assert.ok(
    lines.every((l) => l.r.origin === 'llvm' && l.r.uops >= 1),
    JSON.stringify(lines),
  );
});

test('string instructions (implicit memory operands) use their plain record', async () => {
  const r = (await resolveHex('a4', 'HSW'))[0]!.r;
  assert.deepEqual([r.provenance?.key, r.latencyByResource.RDI, r.latencyByResource.RSI], ['Movsb_m8_m8', 4, 4]);
  // Skylake's model gives MOVSB only the placeholder class
  const s = (await resolveHex('a4', 'SKL'))[0]!.r;
  assert.equal(s.unknown, true);
});

test("the FP divider: its occupancy comes from the model's divider resource", async () => {
  // vdivpd ymm0, ymm1, ymm2 on Skylake: SKLFPDivider is held for 8 cycles
  const r = (await resolveHex('c5f55ec2', 'SKL'))[0]!.r;
  assert.deepEqual([r.provenance!.key, r.divCycles, r.latencyByResource.XMM0], ['VEX_Vdivpd_ymm_ymm_ymmm256', 8, 14]);
});

test('no figures where LLVM has only a placeholder, or the core lacks the ISA; each says why', async () => {
  const [ud2, zmm] = await resolveHex('0f0b 62f1744858c2', 'HSW');
  assert.equal(ud2!.r.unknown, true);
  assert.match(ud2!.r.why!, /LLVM's haswell model has only a placeholder/);
  assert.equal(zmm!.r.unknown, true);
  assert.deepEqual([zmm!.r.why, zmm!.r.missingIsa], ['HSW cannot run it (needs AVX512F)', ['AVX512F']]);
});

test("TZCNT on a core without BMI1 runs as BSF, and takes BSF's record", async () => {
  const r = (await resolveHex('f3480fbcc1', 'SNB'))[0]!.r;
  assert.deepEqual([r.unknown, r.provenance?.key], [false, 'Bsf_r64_rm64']);
  const h = (await resolveHex('f3480fbcc1', 'HSW'))[0]!.r;
  assert.equal(h.provenance?.key, 'Tzcnt_r64_rm64');
});

test('a load-op form reads its register operand after the load: a loop-carried chain through it costs the operation, not the load as well', async () => {
  // gcc -O2 of `for (…) s += a[i]` (double): addsd xmm0, [rdi]; add rdi, 8; cmp rdi, rax; jne
  const region = await loadRegion({ hex: 'f20f5807 4883c708 4839c7 75f3' });
  const { buildDependencyGraph } = await import('../../src/disasm/index.js');
  const { buildSimProgram, machineParams, simulate } = await import('../../src/sim/index.js');
  const { loadMachine } = await import('../../src/data/index.js');
  for (const [arch, addLatency] of [
    ['SKL', 4],
    ['HSW', 3],
  ] as const) {
    const data = await loadArchData(arch, { cacheDir });
    const resolved = resolveInstructions(region.instructions, data);
    assert.deepEqual(
      [resolved[0]!.latencyByResource.XMM0, resolved[0]!.readAdvance],
      [addLatency + 5, { XMM0: 5 }],
      arch,
    );
    const program = buildSimProgram(
      region.instructions,
      buildDependencyGraph(region.instructions, { loop: true }),
      resolved,
    );
    const run = (operandLatency: boolean) =>
      simulate(
        program,
        machineParams(loadMachine(arch)),
        { iterations: 1000, variant: { perfectFrontEnd: false, infinitePorts: false, noDependencies: false } },
        { model: { mechanisms: { operandLatency } } },
      ).stats.blockThroughput;
    // per-operand latencies (the refined model's operandLatency); llvm-mca-19 -mcpu=skylake: 4008
    // cycles for 1000 iterations
    assert.ok(Math.abs(run(true) - addLatency) < 0.05, `${arch}: ${run(true)}`);
    // SUACA's model: one latency per written register, the slowest input path's
    assert.ok(Math.abs(run(false) - addLatency - 5) < 0.05, `${arch} suaca: ${run(false)}`);
  }
});

test("the head of index.json read without its keys gives the whole file's architectures and version", async () => {
  const { readFileSync } = await import('node:fs');
  const { llvmDir } = await import('../../src/data/llvmModel.js');
  const whole = JSON.parse(readFileSync(join(llvmDir(), 'index.json'), 'utf8')) as {
    llvm: string;
    archs: Record<string, { cpu: string; forms: number; placeholders: number }>;
  };
  const want = Object.fromEntries(
    Object.entries(whole.archs).map(([a, v]) => [
      a,
      { cpu: v.cpu, forms: v.forms, placeholders: v.placeholders, llvm: whole.llvm },
    ]),
  );
  assert.deepEqual(llvmArchs(), want);
  assert.ok(Object.keys(want).length >= 10);
});

test("index.json's keys are found at their positions by the binary search over iced-x86 Code values", () => {
  const { keys } = JSON.parse(readFileSync(join(llvmDir(), 'index.json'), 'utf8')) as { keys: string[] };
  assert.ok(keys.length > 10_000);
  const pos = keyPositions(keys);
  const wrong = keys.filter((k, i) => pos.get(k) !== i);
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} keys not found at their position`);
  // absent keys: a variant that does not exist, a name that is no Code, the empty string
  for (const k of ['Add_rm8_r8:zz', 'Not_a_code', 'Not_a_code:m', '']) {
    assert.equal(pos.get(k), undefined, k);
    assert.equal(pos.has(k), false, k);
  }
});

test('keys out of Code order (or not Codes) are still found, through a Map', () => {
  // Code values: Imul_r32_rm32 2071, Mov_r64_rm64 286, Cmp_rm8_r8 107, Sub_rm8_r8 81, Adc_rm8_r8 36, Add_rm8_r8 5
  const keys = [
    'Imul_r32_rm32',
    'Mov_r64_rm64',
    'Cmp_rm8_r8',
    'Sub_rm8_r8',
    'Adc_rm8_r8',
    'Add_rm8_r8:m',
    'Add_rm8_r8',
  ];
  // each lookup in a list of its own: the first one that notices the order indexes the whole list
  keys.forEach((k, i) => {
    assert.equal(keyPositions(keys).get(k), i, k);
  });
  assert.equal(keyPositions(keys).get('Add_rm8_r8:s'), undefined);
  const named = ['Add_rm8_r8', 'Unknown_thing', 'Adc_rm8_r8', 'Sub_rm8_r8'];
  named.forEach((k, i) => {
    assert.equal(keyPositions(named).get(k), i, k);
  });
});

test("Zen: LLVM's pipes under AMD's names, LLVM's branch unit 0 as a branch pipe of its own", async () => {
  const pipes = async (hex: string, arch: 'ZEN2' | 'ZEN3' | 'ZEN4') => {
    const r = (await resolveHex(hex, arch))[0]!.r;
    assert.equal(r.origin, 'llvm', `${hex} on ${arch}`);
    const m = loadMachine(arch);
    return formatPortsFor(r.ports, m);
  };
  // imul r64, r64: the one multiplier, ALU1 (LLVM's Zn4Multiplier = ALU1)
  assert.equal(await pipes('490fafc0', 'ZEN4'), '1*ALU1');
  // addps: the FADD pipes, FP2 and FP3, once (LLVM names that pair by several groups)
  assert.equal(await pipes('410f58c0', 'ZEN4'), '1*FP23');
  // a store: an address on any AGU, the store pipes held two cycles in LLVM's model
  // (ReleaseAtCycles 2), which a cited correction makes one (two stores per cycle, AMD's guide)
  const store = (await resolveHex('488907', 'ZEN4'))[0]!.r;
  assert.equal(store.origin, 'cited');
  assert.equal(formatPortsFor(store.ports, loadMachine('ZEN4')), '1*AGU012+1*ST01');
  assert.match(
    store.provenance?.text ?? '',
    /corrected: µops and ports 1×1\*p678\+1\*pFG, pFG held 2 cycles → 1\*p678\+1\*pFG/,
  );
  // jne: BRU0 and BRU1 (LLVM's BRU01, whose unit 0 it makes ALU0)
  assert.equal(await pipes('7505', 'ZEN3'), '1*BRU01');
  // div r64: LLVM holds ALU0 for the divider's 17 cycles on Zen 4 (defvar Zn4Divider = Zn4ALU0):
  // one µop on ALU0 and 17 divider cycles, which a cited correction makes uops.info's 7 (the
  // pipe stays LLVM's); on Zen 2 LLVM's divider is a unit of its own
  const div = (await resolveHex('48f7f1', 'ZEN4'))[0]!;
  const [divInstr] = (await loadRegion({ hex: '48f7f1' })).instructions;
  assert.equal(loadLlvmModel('ZEN4')!.lookup(divInstr!)!.divCycles, 17);
  assert.equal(div.r.origin, 'cited');
  assert.equal(formatPortsFor(div.r.ports, loadMachine('ZEN4')), '1*ALU0');
  assert.equal(div.r.divCycles, 7);
  assert.equal((await resolveHex('48f7f1', 'ZEN2'))[0]!.r.divCycles > 0, true);
  // divps: FP1 held 3 cycles on Zen 4 (Zn4FPFDiv); FPU3 5 cycles on Zen 2
  assert.equal(await pipes('0f5ec1', 'ZEN4'), '1*FP1');
  assert.equal((await resolveHex('0f5ec1', 'ZEN4'))[0]!.r.divCycles, 3);
  assert.equal(await pipes('0f5ec1', 'ZEN2'), '1*FP3');
  assert.equal((await resolveHex('0f5ec1', 'ZEN2'))[0]!.r.divCycles, 5);
});
