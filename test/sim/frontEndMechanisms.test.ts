// The refined model's front-end mechanisms (engine side): macro-fusion,
// micro-fusion and the front end's delivery limits (src/sim/compiled.ts, src/sim/frontEndPlan.ts,
// src/sim/units/frontEnd.ts). Small loops assembled by the system assembler (`as`) at test time,
// decoded, resolved against the embedded data, and simulated with each switch on and off; each
// test names the public source of the rule it checks.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASELINE, simulate } from '../../src/sim/index.js';
import { CompiledProgram } from '../../src/sim/compiled.js';
import { SUACA_MECHANISMS } from '../../src/sim/mechanisms.js';
import { cpi, loop, on } from './asmLoop.js';

const near = (a: number, b: number, what: string): void =>
  assert.ok(Math.abs(a - b) < 0.01, `${what}: ${a}, expected ${b}`);

test('macro-fusion: a dec/jnz loop of 4 fused-domain µops issues in 1 cycle per iteration on SKL, 1.25 without (intel-opt-manual §3.4.2.2)', async () => {
  // add×3 + dec rcx + jnz: DEC fuses with JNZ on SKL (the manual's Sandy Bridge table: INC/DEC
  // with the Z family). Fused: 4 µops per iteration, the pair one µop on the branch's ports (p0/p6):
  // 4 µops for 4 ALU ports and 4 issue slots, 1 cycle. Unfused: 5 µops on the 4 ALU ports p0156
  // (and 5 issue slots for 4 per cycle): 1.25 cycles (the issue's "two" would need the issue of
  // one iteration never to share a cycle with the next; neither SUACA's issue nor the IDQ does that).
  const { p, m } = await loop('1:\n  add rax, 1\n  add rbx, 1\n  add rdx, 1\n  dec rcx\n  jnz 1b', 'SKL');
  const cp = new CompiledProgram(p, m, on('macroFusion'));
  assert.deepEqual([...cp.fusedWithNext], [0, 0, 0, 1, 0]);
  assert.equal(cp.uops[4], 0, 'the Jcc has no µop of its own');
  assert.equal(cp.totalUops, 4);
  // the pair's µop runs on the Jcc's ports (p0, p6 on SKL), not DEC's p0156
  const jccPorts = p.instructions[4]!.uops[0]!;
  assert.deepEqual(
    cp.portIds.filter((_, k) => (cp.uopMask[3 * cp.maxU]! & (1 << k)) !== 0),
    jccPorts,
  );
  // no flag dependency inside the pair
  assert.equal(cp.predStart[5]! - cp.predStart[4]!, 0);
  near(cpi(p, m, on('macroFusion')), 1, 'macro-fusion on');
  near(cpi(p, m, SUACA_MECHANISMS), 1.25, 'SUACA');
  // with the fused-domain front end (micro-fusion, delivery from the µop cache) the same
  near(cpi(p, m, on('macroFusion', 'microFusion', 'frontEnd')), 1, 'front end on, macro-fusion on');
  near(cpi(p, m, on('microFusion', 'frontEnd')), 1.25, 'front end on, macro-fusion off');
  // statistics: the pair's µop counts on the first line, the Jcc's line shows none
  const st = simulate(p, m, { iterations: 100, variant: BASELINE }, { model: { mechanisms: on('macroFusion') } }).stats;
  assert.equal(st.lines[3]!.uops, 1);
  assert.equal(st.lines[4]!.uops, 0);
  assert.equal(st.lines.length, 5);
});

test('micro-fusion: load+op forms take one issue slot each, so the loop issues faster on 4-wide SKL (intel-opt-manual §3.4.2.1)', async () => {
  // add r, [rdi+d] is a load µop and an ALU µop (unfused) micro-fused into one fused-domain µop;
  // with macro-fusion the iteration is 7 unfused µops, 4 fused. Unfused issue: 7 / 4 = 1.75
  // cycles; fused: 4 slots = 1 cycle, then the loads bound it (3 on ports 2, 3: 1.5 cycles).
  const { p, m } = await loop(
    '1:\n  add rax, [rdi]\n  add rbx, [rdi+8]\n  add rdx, [rdi+16]\n  dec rcx\n  jnz 1b',
    'SKL',
  );
  const cp = new CompiledProgram(p, m, on('macroFusion', 'microFusion'));
  assert.deepEqual([...cp.fused], [1, 1, 1, 1, 0]);
  assert.deepEqual([...cp.uops], [2, 2, 2, 1, 0]);
  assert.equal(cp.refinedIssue, true);
  // per-operand latencies: the chains through rax, rbx, rdx cost 1 cycle each, not the load's 6
  const off = cpi(p, m, on('macroFusion', 'operandLatency'));
  const onF = cpi(p, m, on('macroFusion', 'microFusion', 'operandLatency'));
  near(off, 1.75, 'micro-fusion off');
  near(onF, 1.5, 'micro-fusion on');
  // switched off, every unfused µop costs an issue slot: SUACA's loading exactly
  assert.deepEqual(
    simulate(p, m, { iterations: 300, variant: BASELINE }, { model: { mechanisms: SUACA_MECHANISMS } }),
    simulate(p, m, { iterations: 300, variant: BASELINE }),
  );
});

test('front end, µop cache: delivery ends at the taken back edge, at most 6 µops per cycle from one 32-byte window (uiCA DSBWidth; uiCA paper §4.1)', async () => {
  // 6 adds + dec/jnz (fused): 7 fused µops in one 32-byte window. Issue alone: 7 / 4 = 1.75
  // cycles; the µop cache delivers 6, then 1 (the back edge ends the cycle's delivery): 2 cycles.
  const body =
    '1:\n  add rax, 1\n  add rbx, 1\n  add rdx, 1\n  add rsi, 1\n  add r8, 1\n  add r9, 1\n  dec rcx\n  jnz 1b';
  const { p, m } = await loop(body, 'SKL');
  const plan = new CompiledProgram(p, m, on('macroFusion', 'microFusion', 'frontEnd')).frontEnd!.plan!;
  assert.equal(plan.source, 'DSB');
  assert.deepEqual(
    plan.groups.map((g) => [g.start, g.end, g.fused]),
    [
      [0, 6, 6],
      [6, 8, 1],
    ],
  );
  near(cpi(p, m, on('macroFusion', 'microFusion')), 1.75, 'no delivery limits');
  near(cpi(p, m, on('macroFusion', 'microFusion', 'frontEnd')), 2, 'µop cache');
  // the perfect front end (what-if) has no delivery limits
  const perfect = simulate(
    p,
    m,
    { iterations: 1000, variant: { ...BASELINE, perfectFrontEnd: true } },
    { model: { mechanisms: on('macroFusion', 'microFusion', 'frontEnd') } },
  );
  near(perfect.stats.blockThroughput, 1.75, 'perfect front end');
});

// four 10-byte `mov r64, imm64` and sub/jnz: 46 bytes. After 18 bytes of padding the pair ends at
// byte 64 — on a 32-byte boundary; after 17 it ends at 63.
const LONG =
  '1:\n  movabs rax, 0x1122334455667788\n  movabs rbx, 0x1122334455667788\n  movabs rdx, 0x1122334455667788\n  movabs rsi, 0x1122334455667788\n  sub rcx, 1\n  jnz 1b';
const ALL_FE = on('macroFusion', 'microFusion', 'frontEnd');

test('front end, JCC erratum: on SKL a fused pair ending on a 32-byte boundary is not cached, the legacy decoders deliver 16 bytes per cycle (Intel JCC-erratum white paper; intel-opt-manual ch. 2)', async () => {
  const { p, m } = await loop(LONG, 'SKL', 18);
  const jnz = p.instructions[5]!.refined!;
  assert.equal(jnz.frontEnd.jcc32B!.endsOn, true);
  assert.equal(jnz.frontEnd.jccErratumApplies, true);
  const limits = new CompiledProgram(p, m, ALL_FE).frontEnd!;
  // the jump's window is not cached, nor (uiCA's both32ByteBlocksMustBeCacheable on SKL) the other
  // half of its 64-byte line: the whole loop comes from the legacy decoders
  assert.equal(limits.plan!.source, 'MITE');
  assert.ok(limits.applied.some((l) => /JCC erratum/.test(l.limit) && l.value === true));
  // the loop's 46 bytes from offset 18 touch three aligned 16-byte blocks (16–31, 32–47, 48–63):
  // 16 bytes fetched per cycle, 3 cycles per iteration; instruction count (5 units, 4 decoders) alone would allow 2
  assert.equal(limits.plan!.groups.length, 3);
  near(cpi(p, m, ALL_FE), 3, 'SKL, MITE');
  // without the front end's limits: 5 fused µops issue in 1.25 cycles
  near(cpi(p, m, on('macroFusion', 'microFusion')), 1.25, 'no delivery limits');
  // one byte earlier the pair ends at 63: cached. A 64-bit immediate takes a second µop-cache
  // entry and ends the cycle's delivery (uiCA getDSBBlocks, DSB.cycle): the movabs at 27, 37 and
  // 47 each in a cycle of their own, then the pair, which ends the loop after one entry, and the
  // next iteration's movabs at 17 from the other window in the same cycle: 4 cycles
  const shifted = await loop(LONG, 'SKL', 17);
  assert.equal(shifted.p.instructions[5]!.refined!.frontEnd.jccErratumApplies, false);
  assert.equal(shifted.p.instructions[0]!.refined!.frontEnd.dsbExtraEntry, true);
  const sp = new CompiledProgram(shifted.p, shifted.m, ALL_FE).frontEnd!.plan!;
  assert.equal(sp.source, 'DSB');
  assert.deepEqual(
    sp.groups.slice(sp.repeatFrom).map((g) => [g.start, g.end]),
    [
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 7],
    ],
  );
  near(cpi(shifted.p, shifted.m, ALL_FE), 4, 'SKL, DSB');
});

test('front end, legacy decoders: an instruction of several µops only on the first (complex) decoder, at most 4 per cycle (intel-opt-manual ch. 2 legacy decode pipeline; uiCA nDecoders)', async () => {
  // xchg r, r is 3 µops (complex decoder). From offset 41 the loop's 23 bytes end at 64: the
  // fused sub/jnz ends on a 32-byte boundary, so on SKL the legacy decoders deliver. Cycle 1 (bytes
  // up to 48 fetched): the first xchg; the second needs the complex decoder again. Cycle 2: xchg and
  // three adds (4 decoders). Cycle 3: the pair. Without the complex-decoder rule it would take 2.
  const { p, m } = await loop(
    '1:\n  xchg rax, rbx\n  xchg rdx, rsi\n  add r8, 1\n  add r9, 1\n  add r10, 1\n  sub rcx, 1\n  jnz 1b',
    'SKL',
    41,
  );
  assert.equal(p.instructions[0]!.refined!.frontEnd.complexDecoder, true);
  assert.equal(p.instructions[6]!.refined!.frontEnd.jccErratumApplies, true);
  const plan = new CompiledProgram(p, m, ALL_FE).frontEnd!.plan!;
  assert.equal(plan.source, 'MITE');
  assert.deepEqual(
    plan.groups.map((g) => [g.start, g.end]),
    [
      [0, 1],
      [1, 5],
      [5, 7],
    ],
  );
  near(cpi(p, m, ALL_FE), 3, 'SKL, MITE');
});

test('front end, JCC erratum: ICL is not affected; its loop stream detector streams the loop (white paper core list; uiCA LSDEnabled, IDQWidth)', async () => {
  const { p, m } = await loop(LONG, 'ICL', 18);
  assert.equal(p.instructions[5]!.refined!.frontEnd.jcc32B!.endsOn, true);
  assert.equal(p.instructions[5]!.refined!.frontEnd.jccErratumApplies, false);
  const limits = new CompiledProgram(p, m, ALL_FE).frontEnd!;
  assert.equal(limits.plan!.source, 'LSD');
  assert.ok(!limits.applied.some((l) => /JCC erratum/.test(l.limit)));
  // 5 fused µops, 5-wide issue from the LSD: 1.25 cycles (5 µops on the 4 ALU ports)
  near(cpi(p, m, ALL_FE), 1.25, 'ICL, LSD');
});

test('front end, LSD on HSW: the loop buffer unrolls a 5-µop loop 6 times, so 30 µops issue in 8 cycles (uiCA LSDUnrolling and LSD limit)', async () => {
  // uiCA (commit b86ce90): HSW unrolls a loop of 5 fused µops 6 times; its LSD limit is
  // ceil(5·6 / 4) / 6 = 8/6 cycles per iteration. Without unrolling each iteration's issue would
  // end at its back edge: ceil(5 / 4) = 2 cycles. Ports alone: 5 µops on p0156 → 1.25.
  const { p, m } = await loop('1:\n  add rax, 1\n  add rbx, 1\n  add rdx, 1\n  add rsi, 1\n  dec rcx\n  jnz 1b', 'HSW');
  const limits = new CompiledProgram(p, m, ALL_FE).frontEnd!;
  assert.equal(limits.plan!.source, 'LSD');
  assert.equal(limits.plan!.lsdUnroll, 6);
  near(cpi(p, m, ALL_FE, 6000), 8 / 6, 'HSW, LSD');
  near(cpi(p, m, on('macroFusion', 'microFusion'), 6000), 1.25, 'no delivery limits');
});

test("front end on the cores that share one: SKX and CLX have Skylake's (JCC erratum), CLX with its LSD; TGL and RKL have Ice Lake's (uiCA microArchConfigs.py, commit b86ce90: SKX, CLX copies of SKL, TGL, RKL of ICL)", async () => {
  for (const arch of ['SKX', 'CLX'] as const) {
    // the fused pair ends on a 32-byte boundary: not cached, the legacy decoders deliver, as on SKL
    const { p, m } = await loop(LONG, arch, 18);
    assert.equal(p.instructions[5]!.refined!.frontEnd.jccErratumApplies, true, arch);
    assert.equal(new CompiledProgram(p, m, ALL_FE).frontEnd!.plan!.source, 'MITE', arch);
    near(cpi(p, m, ALL_FE), 3, `${arch}, MITE`);
  }
  // one byte earlier the loop is cached: SKX's µop cache delivers (LSD off, as on SKL) in 4 cycles
  // (each 64-bit immediate ends a cycle's delivery, as on SKL above);
  // CLX's loop stream detector streams it, a 5-µop loop unrolled 6 times (uiCA's CLX LSDUnrolling):
  // ceil(5·6 / 4) / 6 = 8/6 cycles per iteration
  const skx = await loop(LONG, 'SKX', 17);
  assert.equal(new CompiledProgram(skx.p, skx.m, ALL_FE).frontEnd!.plan!.source, 'DSB');
  near(cpi(skx.p, skx.m, ALL_FE), 4, 'SKX, DSB');
  const clx = await loop(LONG, 'CLX', 17);
  const clxPlan = new CompiledProgram(clx.p, clx.m, ALL_FE).frontEnd!.plan!;
  assert.deepEqual([clxPlan.source, clxPlan.lsdUnroll], ['LSD', 6]);
  near(cpi(clx.p, clx.m, ALL_FE, 6000), 8 / 6, 'CLX, LSD');
  for (const arch of ['TGL', 'RKL'] as const) {
    // not affected by the erratum; the LSD streams the loop, 5-wide: 1.25 as on ICL
    const { p, m } = await loop(LONG, arch, 18);
    assert.equal(new CompiledProgram(p, m, ALL_FE).frontEnd!.plan!.source, 'LSD', arch);
    near(cpi(p, m, ALL_FE), 1.25, `${arch}, LSD`);
  }
});

test('front end: a core whose delivery is not modelled (Golden Cove: no published LSD unrolling) applies no delivery limits and says why', async () => {
  const { p, m } = await loop(LONG, 'ADL-P', 18);
  const limits = new CompiledProgram(p, m, ALL_FE).frontEnd!;
  assert.equal(limits.plan, null);
  assert.match(
    limits.notApplied[0]!.why,
    /^Golden Cove's loop stream detector unrolling and taken jumps per cycle are not published; .*144-µop instruction decode queue/,
  );
  // only the fused-domain issue applies
  assert.equal(cpi(p, m, ALL_FE), cpi(p, m, on('macroFusion', 'microFusion')));
});

test('zero idioms take issue slots in the fused domain (uops.info paper §3.1): four xor + dec/jnz is 5 fused µops, at least 5/4 cycles per iteration on SKL', async () => {
  const { p, m } = await loop(
    '1:\n  xor eax, eax\n  xor ebx, ebx\n  xor edx, edx\n  xor esi, esi\n  dec ecx\n  jnz 1b',
    'SKL',
  );
  const mech = on('macroFusion', 'microFusion', 'zeroIdioms');
  // 4 idioms + the fused dec/jnz = 5 fused µops at 4 per cycle (before: the idioms took no slot, 1 cycle)
  const t = cpi(p, m, mech);
  assert.ok(t >= 5 / 4 - 1e-9, `${t} cycles per iteration: below 5 fused µops / 4 per cycle`);
});

test('micro-fusion switched off (front end on) never issues fewer µops than on: every unfused µop a slot, a µop-less zero idiom still one', async () => {
  const { p, m } = await loop(
    '1:\n  xor eax, eax\n  vxorps ymm1, ymm1, ymm1\n  add rdx, [rdi]\n  dec ecx\n  jnz 1b',
    'SKL',
  );
  const withIt = new CompiledProgram(p, m, on('macroFusion', 'microFusion', 'zeroIdioms', 'frontEnd'));
  const without = new CompiledProgram(p, m, on('macroFusion', 'zeroIdioms', 'frontEnd'));
  for (let i = 0; i < p.instructions.length; i++) {
    assert.ok(
      without.fused[i]! >= withIt.fused[i]!,
      `line ${i} (${p.instructions[i]!.asm}): ${without.fused[i]} slots without micro-fusion, ${withIt.fused[i]} with`,
    );
  }
  assert.deepEqual(
    Array.from(without.fused),
    [1, 1, 2, 1, 0],
    'xor, vxorps one slot each; the load-op two; dec/jnz one',
  );
  assert.ok(
    cpi(p, m, on('macroFusion', 'zeroIdioms', 'frontEnd')) >=
      cpi(p, m, on('macroFusion', 'microFusion', 'zeroIdioms', 'frontEnd')) - 1e-9,
  );
});
