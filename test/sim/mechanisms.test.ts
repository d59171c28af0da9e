// The refined model's execution-side mechanisms (src/sim/refine.ts,
// units/scheduler.ts, units/ports.ts): zero idioms, move elimination, the store-address port rule,
// store-to-load forwarding and the port choice at issue. Small loops assembled by `as`
// (mechanismLoops.ts), simulated with each switch off and on; each test names the public source
// of the rule it checks.

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MechanismSet, SimProgram } from '../../src/sim/index.js';
import { CompiledProgram } from '../../src/sim/compiled.js';
import { Core } from '../../src/sim/core.js';
import { BASELINE, createEngine } from '../../src/sim/index.js';
import { SMALL, smallText } from '../data/helpers.js';
import { dir, loop, mech, run } from './mechanismLoops.js';
import { mechanismNotes } from '../../src/sim/refine.js';
import { collectReport } from '../../src/report/collect.js';
import { renderMechanisms } from '../../src/report/text.js';
import type { AssignedAtIssue } from '../../src/sim/units/portPolicy.js';

const statsOf = (r: ReturnType<typeof run>) => r.stats;
/** the SMALL fixture without uops.info's `_same_reg` figures: a file where `xor eax, eax` has the
 *  plain form's µop (1*p0156), as SUACA would run it */
function withoutSameReg(): string {
  const f = join(dir, 'no-same-reg.xml');
  writeFileSync(
    f,
    smallText()
      .replace(/ uops_same_reg="0"/g, '')
      .replace(/ TP_unrolled_same_reg="[^"]*"/g, '')
      .replace(/ cycles_same_reg="0"/g, ''),
  );
  return f;
}

test('zero idioms (intel-opt-manual §3.5.1.8): xor eax, eax takes no port and releases its consumer in the cycle it is issued', async () => {
  const p = await loop(
    '1:\n  xor eax, eax\n  add eax, 1\n  add eax, 1\n  add eax, 1\n  dec rcx\n  jnz 1b',
    'SKL',
    withoutSameReg(),
  );
  const xor = p.program.instructions[0]!;
  assert.equal(xor.uops.length, 1, 'the plain form has a µop');
  assert.equal(xor.refined!.idiom.noPort, true);
  const off = statsOf(run(p, {})),
    on = statsOf(run(p, { zeroIdioms: true }));
  assert.ok(Object.values(off.lines[0]!.ports).reduce((a, b) => a + b, 0) > 0.99, 'SUACA: one µop on a port');
  assert.deepEqual(on.lines[0]!.ports, {}, 'zero idioms on: no port');
  // one iteration: the chain of adds starts in the xor's cycle instead of one cycle later
  const one = (m: Partial<MechanismSet>) => run(p, m, 1).stats.cycles;
  assert.equal(one({ zeroIdioms: true }), one({}) - 1);
});

test('zero idioms: the idiom loses its input dependency (pcmpeqd breaks it but keeps its port; xor breaks the loop-carried chain)', async () => {
  // without the graph's own idiom rule the add → xor dependency would be loop-carried; the
  // compile-time plan drops every input of a dependency-breaking idiom
  const p = await loop(
    '1:\n  pcmpeqd xmm0, xmm0\n  paddd xmm0, xmm1\n  xor eax, eax\n  add eax, 1\n  dec rcx\n  jnz 1b',
    'SKL',
  );
  const forced: SimProgram = {
    ...p.program,
    deps: [
      ...p.program.deps,
      { from: 1, to: 0, resource: 'XMM0', loopCarried: true },
      { from: 3, to: 2, resource: 'RAX', loopCarried: true },
    ],
  };
  const cpOff = new CompiledProgram(forced, p.machine);
  const cpOn = new CompiledProgram(forced, p.machine, mech({ zeroIdioms: true }));
  const into = (cp: CompiledProgram, line: number) => cp.predStart[line + 1]! - cp.predStart[line]!;
  assert.equal(into(cpOff, 0), 1);
  assert.equal(into(cpOff, 2), 1);
  assert.equal(into(cpOn, 0), 0);
  assert.equal(into(cpOn, 2), 0);
  assert.equal(cpOn.renamed[0], 0, 'pcmpeqd keeps its µop');
  assert.equal(cpOn.renamed[2], 1, 'xor is executed at rename');
  const q = { program: forced, machine: p.machine };
  assert.ok(statsOf(run(q, { zeroIdioms: true })).cycles < statsOf(run(q, {})).cycles);
});

test('move elimination (intel-opt-manual §3.5.1.13; uiCA paper §4.1.4): a chain of GPR moves is faster on SKL, unchanged on ICL', async () => {
  const body = '1:\n  mov rax, rbx\n  mov rbx, rax\n  mov rax, rbx\n  mov rbx, rax\n  dec rcx\n  jnz 1b';
  const skl = await loop(body, 'SKL');
  const off = statsOf(run(skl, {})),
    on = statsOf(run(skl, { moveElimination: true }));
  assert.ok(on.cycles < off.cycles, `${on.cycles} < ${off.cycles}`);
  // the modelling choice: a move whose source comes from an eliminated move is not eliminated —
  // in a pure chain every other move executes (uops.info found about one third eliminated)
  const movePorts = on.lines.slice(0, 4).map((l) => Object.values(l.ports).reduce((a, b) => a + b, 0));
  assert.ok(Math.abs(movePorts.reduce((a, b) => a + b, 0) - 2) < 0.02, `half the moves use a port: ${movePorts}`);
  // ICL: GPR move elimination disabled by microcode (erratum ICL065)
  const icl = await loop(body, 'ICL');
  assert.equal(statsOf(run(icl, { moveElimination: true })).cycles, statsOf(run(icl, {})).cycles);
  // independent moves from a register no move writes are all eliminated
  const ind = await loop('1:\n  mov rax, rdx\n  mov rbx, rdx\n  mov rsi, rdx\n  dec rcx\n  jnz 1b', 'SKL');
  const ports = statsOf(run(ind, { moveElimination: true }))
    .lines.slice(0, 3)
    .map((l) => Object.keys(l.ports).length);
  assert.deepEqual(ports, [0, 0, 0]);
});

test('load/store ports (uopscope shared reference machines.md; intel-opt-manual HSW port 7): an indexed store never uses port 7', async () => {
  const body = '1:\n  mov [rdi+rcx*8], rax\n  mov [rdi+8], rax\n  dec rcx\n  jnz 1b';
  const p = await loop(body, 'SKL'); // LLVM-derived figures: every store address on 2, 3, 7
  assert.deepEqual(p.program.instructions[0]!.uops[0], [2, 3, 7]);
  const off = statsOf(run(p, {})),
    on = statsOf(run(p, { loadStorePorts: true }));
  assert.ok((off.lines[0]!.ports[7] ?? 0) > 0, 'SUACA: the indexed store uses port 7');
  assert.equal(on.lines[0]!.ports[7], undefined, 'rule on: never port 7');
  assert.ok((on.lines[1]!.ports[7] ?? 0) > 0, 'a simple address may');
  // uops.info's figures (the fixture follows its schema): the `_indexed` measurement already lists
  // 2, 3 only, so the rule removes nothing there
  const u = await loop(body, 'SKL', SMALL);
  assert.deepEqual(u.program.instructions[0]!.uops[0], [2, 3]);
  assert.deepEqual(new CompiledProgram(u.program, u.machine, mech({ loadStorePorts: true })).portsRemoved, []);
  assert.deepEqual(new CompiledProgram(p.program, p.machine, mech({ loadStorePorts: true })).portsRemoved, [
    { line: 0, uop: 0, port: 7 },
  ]);
});

test('store forwarding (identical address expressions): the chain through memory costs store + load per iteration', async () => {
  const p = await loop('1:\n  mov [rdi], rax\n  mov rax, [rdi]\n  add rax, 1\n  dec rcx\n  jnz 1b', 'SKL');
  const [st, ld, add] = p.program.instructions;
  const cp = new CompiledProgram(p.program, p.machine, mech({ storeForwarding: true }));
  assert.deepEqual(
    cp.memDeps.map((d) => [d.from, d.to, d.loopCarried, d.figure]),
    [[0, 1, false, false]],
  );
  const N = 400;
  const on = statsOf(run(p, { storeForwarding: true }, N)),
    off = statsOf(run(p, {}, N));
  // no forwarding figure: the load waits until the store executed (its latency), then its own
  const per = st!.latency + ld!.latency + add!.latency;
  assert.ok(Math.abs(on.cycles / N - per) < 0.05, `${on.cycles / N} ≈ ${per}`);
  assert.ok(off.cycles < on.cycles);
  // the snapshot names the dependency through memory
  const e = createEngine(
    p.program,
    p.machine,
    { iterations: 5, variant: BASELINE },
    { model: { mechanisms: mech({ storeForwarding: true }) } },
  );
  let seen = false;
  for (let snap = e.snapshot(); !snap.finished && !seen; snap = e.step()) {
    seen = snap.rs.some(
      (x) =>
        x.line === ld!.line &&
        x.state.kind === 'waiting-dep' &&
        x.state.on.some((o) => o.resource === 'MEM' && o.line === st!.line),
    );
  }
  assert.ok(seen, 'a load waits on MEM from the store');
  // different addresses: no dependency
  const d = await loop('1:\n  mov [rdi], rax\n  mov rax, [rdi+8]\n  add rax, 1\n  dec rcx\n  jnz 1b', 'SKL');
  assert.deepEqual(new CompiledProgram(d.program, d.machine, mech({ storeForwarding: true })).memDeps, []);
  assert.equal(statsOf(run(d, { storeForwarding: true })).cycles, statsOf(run(d, {})).cycles);
  // the base register written between store and load: no dependency either
  const w = await loop('1:\n  mov [rdi], rax\n  add rdi, 8\n  mov rax, [rdi]\n  dec rcx\n  jnz 1b', 'SKL');
  assert.deepEqual(new CompiledProgram(w.program, w.machine, mech({ storeForwarding: true })).memDeps, []);
});

test('store forwarding: add [rdi], 1 depends on itself across iterations (invariant address)', async () => {
  const p = await loop('1:\n  add qword ptr [rdi], 1\n  dec rcx\n  jnz 1b', 'SKL');
  const cp = new CompiledProgram(p.program, p.machine, mech({ storeForwarding: true }));
  assert.deepEqual(
    cp.memDeps.map((d) => [d.from, d.to, d.loopCarried, d.figure]),
    [[0, 0, true, false]],
  );
  const N = 400;
  const on = statsOf(run(p, { storeForwarding: true }, N));
  const lat = p.program.instructions[0]!.latency;
  assert.ok(Math.abs(on.cycles / N - lat) < 0.05, `${on.cycles / N} ≈ ${lat}`);
  assert.ok(statsOf(run(p, {}, N)).cycles < on.cycles);
  // a base register the loop writes: the address is not invariant, no loop-carried dependency
  const q = await loop('1:\n  add qword ptr [rdi], 1\n  add rdi, 8\n  dec rcx\n  jnz 1b', 'SKL');
  assert.deepEqual(new CompiledProgram(q.program, q.machine, mech({ storeForwarding: true })).memDeps, []);
});

test('port choice at issue (uiCA paper, Abel & Reineke 2022, port assignment): µops are bound to the port with the fewest queued µops as they enter the station, and dispatch there', async () => {
  const body = '1:\n  imul rax, rax\n  lea rbx, [rax+rbx]\n  add rdx, 1\n  add rsi, rdx\n  dec rcx\n  jnz 1b';
  const p = await loop(body, 'SKL');
  const off = run(p, {}, 1000).stats,
    on = run(p, { portChoice: true }, 1000).stats;
  assert.notDeepEqual(
    on.lines.map((l) => l.ports),
    off.lines.map((l) => l.ports),
    'the two choices give different port statistics',
  );
  assert.notEqual(on.cycles, off.cycles);
  // step a core and check every µop's port against the rule, recomputed here from the queue counts
  const core = new Core(
    p.program,
    p.machine,
    { iterations: 300, variant: BASELINE },
    { mechanisms: mech({ portChoice: true }) },
  );
  const cp = core.cp,
    rs = core.scheduler,
    fe = core.frontEnd;
  const queued = (): Int32Array => (core.policy as AssignedAtIssue).queued;
  let checked = 0;
  while (!core.finished) {
    const q = Array.from(queued());
    const g0 = fe.next,
      u0 = fe.loaded;
    core.step();
    for (let g = g0; g <= Math.min(fe.next, core.N - 1); g++) {
      const i = g % cp.n;
      const from = g === g0 ? u0 : 0,
        to = g === fe.next ? fe.loaded : cp.uops[i]!;
      for (let u = from; u < to; u++) {
        const m = cp.uopMask[i * cp.maxU + u]!;
        let best = -1;
        for (let x = 0; x < cp.P; x++) if ((m & (1 << x)) !== 0 && (best < 0 || q[x]! < q[best]!)) best = x;
        q[best]!++;
        assert.equal(rs.uopQueue[(g & rs.mask) * cp.maxU + u], best, `cycle ${core.cycle} instance ${g} µop ${u}`);
        checked++;
      }
    }
    // a µop that got its port dispatches on the port it was bound to
    for (let g = rs.head; g < fe.next; g++) {
      const s = g & rs.mask;
      for (let u = 0; u < cp.uops[g % cp.n]!; u++) {
        const placed = rs.uopPort[s * cp.maxU + u]!;
        if (placed >= 0) assert.equal(placed, rs.uopQueue[s * cp.maxU + u]);
      }
    }
  }
  assert.ok(checked >= 300 * cp.totalUops - cp.maxU, `${checked} µops checked`);
  // the queue count is back to zero at the end: every bound µop dispatched
  assert.deepEqual(Array.from(queued()), new Array(cp.P).fill(0));
});

test("store forwarding: a read-modify-write's measured cycles_mem round trip is the latency of its dependency on itself", async () => {
  // the SMALL fixture plus an ADD (M64, I8) form in uops.info's schema, written for this test: its
  // memory → memory latency (cycles_mem 6) is shorter than its memory → flags one (7), so the two
  // readings give different cycles
  const f = join(dir, 'rmw.xml');
  const form = `    <instruction asm="ADD" category="BINARY" extension="BASE" iclass="ADD" iform="ADD_MEMv_IMMb" isa-set="I86" string="ADD (M64, I8)" summary="Add">
      <operand idx="1" memory-prefix="qword ptr" name="MEM0" r="1" type="mem" w="1" width="64"/>
      <operand idx="2" name="IMM0" type="imm" width="8"/>
      <operand flag_AF="w" flag_CF="w" flag_OF="w" flag_PF="w" flag_SF="w" flag_ZF="w" idx="3" name="REG0" suppressed="1" type="flags" w="1"/>
      <architecture name="SKL">
        <measurement TP_loop="1.0" TP_unrolled="1.0" ports="1*p0156+1*p237+1*p23+1*p4" uops="4">
          <latency cycles_mem="6" start_op="1" target_op="1"/>
          <latency cycles_mem="7" start_op="1" target_op="3"/>
        </measurement>
      </architecture>
    </instruction>
`;
  const text = smallText();
  const at = text.lastIndexOf('</instruction>') + '</instruction>\n'.length;
  writeFileSync(f, text.slice(0, at) + form + text.slice(at));
  const p = await loop('1:\n  add qword ptr [rdi], 1\n  dec rcx\n  jnz 1b', 'SKL', f);
  const rmw = p.program.instructions[0]!;
  assert.deepEqual(rmw.refined!.memory!.roundTrip?.value, 6);
  assert.equal(rmw.latency, 7);
  const cp = new CompiledProgram(p.program, p.machine, mech({ storeForwarding: true }));
  assert.deepEqual(
    cp.memDeps.map((d) => [d.from, d.to, d.loopCarried, d.latency, d.figure]),
    [[0, 0, true, 6, true]],
  );
  const N = 400;
  assert.ok(Math.abs(run(p, { storeForwarding: true }, N).stats.cycles / N - 6) < 0.05);
});

test("the report's notes say when a dependency through memory has no forwarding figure", async () => {
  const p = await loop('1:\n  mov [rdi], rax\n  mov rax, [rdi]\n  add rax, 1\n  dec rcx\n  jnz 1b', 'SKL');
  assert.deepEqual(mechanismNotes(p.program, mech({})), []);
  const notes = mechanismNotes(p.program, mech({ storeForwarding: true }));
  assert.equal(notes.length, 1);
  assert.match(
    notes[0]!,
    /^store forwarding: line 1 \(mov rax, qword ptr \[rdi\]\) reads what line 0 .* no store-to-load forwarding figure/,
  );
  const model = collectReport(
    { program: p.program, params: p.machine, unknown: [], origins: [] },
    { iterations: 50, variant: BASELINE, fast: true, mechanisms: mech({ storeForwarding: true }) },
  );
  assert.deepEqual(model.model.notes, notes);
  assert.ok(renderMechanisms(model.model).some((l) => l.includes('note: store forwarding')));
});

test('a zero idiom that is the first half of a macro-fused pair (sub ecx, ecx; jz) is not executed at rename: the pair is a branch µop and keeps its port', async () => {
  // intel-opt-manual §3.4.2.2: the pair decodes into one µop (the branch); §3.5.1.8: a zero idiom
  // alone is executed at rename. Together the fused µop still has to execute the jump.
  const l = await loop('1:\n  add rax, 1\n  sub ecx, ecx\n  jz 1b', 'SKL');
  const both = mech({ macroFusion: true, zeroIdioms: true });
  const cp = new CompiledProgram(l.program, l.machine, both);
  assert.equal(cp.fusedWithNext[1], 1, 'sub + jz fuse');
  assert.equal(cp.renamed[1], 0, 'the pair is not executed at rename');
  const st = run(l, both).stats;
  // every iteration's two µops (the add, the pair) use ports; the pair's on the Jcc's ports
  const used = Object.values(st.portTotals).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(used - 2) < 0.01, `µops on ports per iteration: ${used}`);
  assert.ok(
    Object.values(st.lines[1]!.ports).some((v) => v > 0),
    `the pair's line uses a port: ${JSON.stringify(st.lines[1]!.ports)}`,
  );
  assert.ok(
    !mechanismNotes(l.program, both).some((n) => n.includes('sub ecx, ecx')),
    'no note says it was executed at rename',
  );
  // without macro-fusion the idiom alone is executed at rename, and the jz keeps its port
  const alone = new CompiledProgram(l.program, l.machine, mech({ zeroIdioms: true }));
  assert.equal(alone.renamed[1], 1);
});
