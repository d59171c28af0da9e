// Forms LLVM's Golden Cove models (alderlake, sapphirerapids) give no µops must not reach the
// engine as no work (docs/data.md, "Forms LLVM gives no µops"): a form that writes a
// general-purpose register gets one µop on the core's ALU ports, another the µops and ports of
// LLVM's Ice Lake model for the same form, and the provenance (the JSON's `llvm` detail, the
// report's notes) says which. Forms no model gives a port (nop, clc) stay without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { loadRegion } from '../../src/disasm/index.js';
import type { DecodedInstruction } from '../../src/disasm/types.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import { formatPorts } from '../../src/data/ports.js';
import { loadLlvmModel } from '../../src/data/llvmModel.js';
import type { ArchName, ResolvedInstruction } from '../../src/data/types.js';
import { modelNotesOf } from '../../src/report/collect.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS, withMechanism } from '../../src/sim/mechanisms.js';
import { loop, run } from '../sim/mechanismLoops.js';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-zero-uops-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function resolved(body: string, arch: ArchName): Promise<{ d: DecodedInstruction; r: ResolvedInstruction }[]> {
  const file = join(dir, `z${n++}.s`);
  writeFileSync(file, `.intel_syntax noprefix\n${body}\n`);
  const region = await loadRegion({ file });
  const res = resolveInstructions(region.instructions, await loadArchData(arch), { machine: loadMachine(arch) });
  return region.instructions.map((d, i) => ({ d, r: res[i]! }));
}

const GPR = 'add rax, 1\nsub rbx, 8\ninc rcx\ndec rdx\nmov rsi, rdi';
const VEC = 'movaps xmm1, xmm0\nmovdqu xmm3, xmm4\nvmovaps ymm2, ymm1\nvmovupd xmm5, xmm6\njmp 1f\n1:';

test('ADL-P, SPR: zero-µop general-purpose forms get one µop on the core ALU ports, said in the provenance', async () => {
  for (const arch of ['ADL-P', 'SPR'] as const) {
    const model = loadLlvmModel(arch)!;
    const alu = formatPorts([{ count: 1, ports: [...loadMachine(arch).aluPorts].sort((a, b) => a - b) }]);
    for (const { d, r } of await resolved(GPR, arch)) {
      // LLVM's record itself has no µops: the line's µop is the resolver's
      assert.equal(model.lookup(d)!.uops, 0, `${arch} ${d.intel}: LLVM's record`);
      assert.equal(r.origin, 'llvm');
      assert.equal(r.uops, 1, `${arch} ${d.intel}`);
      assert.equal(formatPorts(r.ports), alu, `${arch} ${d.intel}`);
      assert.equal(r.maxLatency, 1, `${arch} ${d.intel}: the model's latency`);
      assert.equal(r.provenance?.detail?.llvmUops, 0);
      assert.match(r.provenance!.text, /gives the form no µops: 1 µop on the core's ALU ports \(1\*p0156B/);
      assert.match(r.zeroUops!.model, new RegExp(`${model.cpu} model`));
    }
  }
});

test("ADL-P, SPR: zero-µop vector register moves and jmp get Ice Lake's model figure for the same form, labelled so", async () => {
  const icl = loadLlvmModel('ICL')!;
  for (const arch of ['ADL-P', 'SPR'] as const) {
    const lines = await resolved(VEC, arch);
    assert.equal(lines.length, 5);
    for (const { d, r } of lines) {
      assert.equal(loadLlvmModel(arch)!.lookup(d)!.uops, 0, `${arch} ${d.intel}: LLVM's record`);
      const donor = icl.lookup(d)!;
      assert.ok(donor.uops > 0 && donor.ports.length > 0, d.intel);
      assert.equal(formatPorts(r.ports), formatPorts(donor.ports), `${arch} ${d.intel}`);
      assert.equal(r.uops, donor.uops);
      assert.match(
        r.zeroUops!.given,
        /LLVM 19\.1\.7's icelake-client model's figure for the same form \(a model figure/,
      );
      assert.equal(r.provenance?.detail?.llvmUops, 0);
    }
    assert.equal(formatPorts(lines[0]!.r.ports), '1*p015');
    assert.equal(formatPorts(lines[4]!.r.ports), '1*p06');
  }
  // SPR's zmm moves: Ice Lake's model has them too
  const [zmm] = await resolved('vmovaps zmm1, zmm2', 'SPR');
  assert.equal(formatPorts(zmm!.r.ports), formatPorts(icl.lookup(zmm!.d)!.ports));
});

test('forms no model gives a port (nop, clc) stay without one; other cores and non-zero forms are untouched', async () => {
  for (const { d, r } of await resolved('nop\nclc', 'SPR')) {
    assert.equal(r.uops, 0, d.intel);
    assert.equal(r.zeroUops, undefined, d.intel);
    assert.equal(r.provenance?.detail?.llvmUops, undefined);
  }
  // Ice Lake's own model gives these forms µops: nothing to give
  for (const { d, r } of await resolved(`${GPR}\n${VEC}`, 'ICL')) {
    assert.equal(r.zeroUops, undefined, d.intel);
    assert.equal(r.uops, loadLlvmModel('ICL')!.lookup(d)!.uops);
  }
  // add r32, imm8 on SPR has its own µop in the model
  const [add32] = await resolved('add eax, 1', 'SPR');
  assert.equal(add32!.r.zeroUops, undefined);
  assert.equal(formatPorts(add32!.r.ports), '1*p0156B');
});

const VEC_LOOP =
  '1:\n  movaps xmm1, xmm0\n  movaps xmm2, xmm0\n  movaps xmm3, xmm0\n  vmovaps ymm4, ymm0\n  vmovaps ymm5, ymm0\n  vmovaps ymm6, ymm0\n  dec rcx\n  jnz 1b';

test('SPR: six independent vector register moves are work under SUACA (2 cycles on p015), eliminated by the refined model', async () => {
  const p = await loop(VEC_LOOP, 'SPR');
  const cpi = (m: typeof REFINED_MECHANISMS) => run(p, m, 400).stats.cycles / 400;
  // six µops on three ports; with no µops (LLVM's record as it is) the loop took 1 cycle
  assert.ok(Math.abs(cpi(SUACA_MECHANISMS) - 2) < 0.02, `suaca ${cpi(SUACA_MECHANISMS)}`);
  assert.ok(Math.abs(cpi(withMechanism(REFINED_MECHANISMS, 'moveElimination', false)) - 2) < 0.02);
  // move elimination: 8 fused µops at the 6-wide allocation
  assert.ok(Math.abs(cpi(REFINED_MECHANISMS) - 8 / 6) < 0.02, `refined ${cpi(REFINED_MECHANISMS)}`);
  const notes = modelNotesOf(p.program, p.machine, SUACA_MECHANISMS);
  assert.ok(
    notes.some((x) =>
      /^figures: LLVM 19\.1\.7's sapphirerapids model gives lines 0 \(movaps xmm1, xmm0\), .*5 \(vmovaps ymm6, ymm0\) no µops; each gets 1 µop on 1\*p015, LLVM 19\.1\.7's icelake-client model's figure/.test(
        x,
      ),
    ),
    notes.join('\n'),
  );
  assert.ok(notes.some((x) => /gives line 6 \(dec rcx\) no µops; it gets 1 µop on the core's ALU ports/.test(x)));
});
