// The benchmarks `data measure` builds for gathers, checked on their machine code with a runner
// that times nothing (cycles from a stated rule, so that the inference's arithmetic is checked
// too): every gather's mask is reset before it, by an instruction that depends on nothing, or
// made all ones again from the result (the chain through the mask); its index starts with small
// lanes and keeps them; destination, index and mask are distinct registers; an AVX-512 gather's
// opmask is never k0. The forms come from gcc's gather loop (test/fixtures/loops/gather.c) and
// from every gather encoding iced-x86 knows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeRegion } from '../../../src/disasm/decode.js';
import { loadRegion } from '../../../src/disasm/index.js';
import type { DecodedInstruction } from '../../../src/disasm/types.js';
import { microcodeDependence } from '../../../src/data/microcode.js';
import { allInstructions } from '../../../src/measure/characterize/allForms.js';
import { characterizeForm } from '../../../src/measure/characterize/characterize.js';
import { formOf, type FormSpec } from '../../../src/measure/characterize/forms.js';
import { DEFAULT_BLOCKERS } from '../../../src/measure/characterize/machine.js';
import { measuredForm } from '../../../src/measure/characterize/measuredOut.js';
import type { Bench, Runner, Timing } from '../../../src/measure/characterize/runner.js';
import type { MachineResult } from '../../../src/measure/characterize/types.js';

const LOOP = join(
  fileURLToPath(new URL('.', import.meta.url)),
  '..',
  '..',
  'fixtures',
  'loops',
  'gather.gcc-O3-skylake.o',
);
const FLAGS = new Set(['avx', 'avx2', 'avx512f', 'avx512vl', 'avx512dq', 'avx512bw', 'sse2', 'lm']);

/** Cycles of a body by a stated rule: 10 per gather, 1 per vpxor or movq or xor, and 1.5 more
 *  per body when it holds a gather (the harness's loop in a chain of gathers, as measured on
 *  Zen 4); nothing else costs. Records each bench. */
class RuleRunner implements Runner {
  readonly kind = 'virtual' as const;
  readonly loopBranch = false;
  readonly benches: Bench[] = [];
  run(b: Bench): Timing {
    this.benches.push(b);
    const d = decodeRegion(b.code, 0, 64, b.name);
    const gathers = d.filter((i) => microcodeDependence(i) === 'gather').length;
    const ones = d.filter((i) => /^(VPXORD?|MOVQ|XOR)$/.test(i.mnemonic) && !i.sameReg).length;
    const c = 10 * gathers + ones + (gathers ? 1.5 : 0);
    return { cycles: c, high: c, runs: [c] };
  }
}

const fig = (value: number) => ({ value, spread: 0, method: 'stated' });
const MACHINE: MachineResult = {
  renameWidth: fig(6),
  fillerProblem: 'no NOP filler in this test',
  takenBranchesPerCycle: fig(1),
  loadToUse: fig(4),
  storeForwarding: fig(1),
  zeroIdiom: { breaksDependency: true, noPort: true, figure: fig(6) },
  moveElimination: { latency: fig(0), eliminated: true },
  immediateAddition: { latency: fig(1), folded: false },
  combinations: DEFAULT_BLOCKERS.map((b, k) => ({ name: `c${k}`, blocker: b.text, size: 2, subsets: [] })),
};

function spec(d: DecodedInstruction): FormSpec {
  const f = formOf(d);
  assert.ok('form' in f, `${d.intel}: ${'why' in f ? f.why : ''}`);
  return f.form;
}

/** Checks one bench's code, run as a loop (the body twice: the second pass sees the first's
 *  state, as every iteration after the first does). */
function checkBench(b: Bench, form: FormSpec): number {
  const body = decodeRegion(b.code, 0, 64, b.name);
  const g = form.gather!;
  const starts = new Map((b.vectorStarts ?? []).map((v) => [v.number, v]));
  const written = new Set(body.flatMap((i) => i.writes));
  const maskReady = new Map<string, boolean>();
  const indexToggles = new Map<string, Map<string, number>>();
  let gathers = 0;
  for (const pass of [0, 1])
    for (const i of body) {
      const where = `${b.name}: ${i.intel}`;
      if (microcodeDependence(i) === 'gather') {
        gathers++;
        const dst = i.operands[0]!.register!;
        const index = i.memory!.index!;
        const mask = g.mask.kind === 'vec' ? i.operands[2]!.register! : i.reads.find((r) => /^K\d$/.test(r))!;
        assert.equal(new Set([dst, index, mask]).size, 3, `${where}: destination, index and mask distinct`);
        assert.notEqual(mask, 'K0', `${where}: k0 cannot mask a gather`);
        assert.equal(i.memory!.scale, g.element, `${where}: the scale is the element's size`);
        const n = Number(/\d+$/.exec(index)![0]);
        const s = starts.get(n);
        assert.ok(s && s.lanes === 'ordinal' && s.element === g.indexElement, `${where}: index lanes start at 1, 2, …`);
        for (const [src, k] of indexToggles.get(index) ?? [])
          assert.equal(k % 2, 0, `${where}: the index holds its start again (${src} xored in ${k} times)`);
        if (pass === 1) assert.ok(maskReady.get(mask), `${where}: the mask is set again since the last gather`);
        maskReady.set(mask, false);
        continue;
      }
      if (i.mnemonic === 'VPCMPEQD' || i.mnemonic === 'KXNORW') {
        const [dst, a, c] = i.operands.map((o) => o.register!);
        assert.equal(a, c, `${where}: all ones whatever its source holds`);
        assert.ok(!written.has(a!), `${where}: its source is written by nothing in the body`);
        maskReady.set(dst!, true);
        continue;
      }
      if (/^VPXORD?$/.test(i.mnemonic)) {
        const [dst, a, c] = i.operands.map((o) => o.register!);
        if (dst === a) {
          // index ^= result, or the second half of the mask made all ones again
          const t = indexToggles.get(dst!) ?? new Map<string, number>();
          t.set(c!, (t.get(c!) ?? 0) + 1);
          indexToggles.set(dst!, t);
          if (maskReady.has(dst!)) maskReady.set(dst!, true);
        } else {
          const ones = starts.get(Number(/\d+$/.exec(a!)![0]));
          assert.ok(ones?.lanes === 'ones' && !written.has(a!), `${where}: the mask made from a register of all ones`);
          maskReady.set(dst!, false); // ones ^ result: all ones once the second vpxor undoes the result
        }
      }
    }
  return gathers;
}

test("gcc's gather loop: vgatherdpd ymm is a form, keyed by its vector index as uops.info does", async () => {
  const region = await loadRegion({ file: LOOP });
  const d = region.instructions.find((i) => i.mnemonic === 'VGATHERDPD')!;
  const f = spec(d);
  assert.equal(f.key, 'VGATHERDPD (YMM, VSIB_XMM, YMM)');
  assert.deepEqual(f.gather, {
    index: 'xmm',
    indexElement: 4,
    element: 8,
    dest: 0,
    mask: { kind: 'vec', op: 2, cls: 'ymm' },
  });
  // scatters are still not generated, and say so
  const scatter = allInstructions(FLAGS).instrs.find((i) => i.mnemonic === 'VSCATTERDPD')!;
  const why = formOf(scatter);
  assert.ok('why' in why && /scatter/.test(why.why));
});

test('every AVX2 and AVX-512 gather encoding is a form of its own', () => {
  const gathers = allInstructions(FLAGS).instrs.filter((i) => microcodeDependence(i) === 'gather');
  const keys = gathers.map((d) => spec(d).key);
  // 8 mnemonics: AVX2 xmm and ymm (vgatherqps and vpgatherqd with an xmm and a ymm index), EVEX
  // xmm, ymm and zmm (the q-index dword forms with each index width too)
  assert.equal(new Set(keys).size, keys.length);
  assert.equal(keys.length, 40);
  assert.ok(keys.includes('VGATHERQPS (XMM, VSIB_YMM, XMM)') && keys.includes('VGATHERQPS (XMM, VSIB_XMM, XMM)'));
  assert.ok(keys.includes('VGATHERDPD (ZMM, K, VSIB_YMM)'));
});

for (const [what, pick] of [
  [
    "gcc's vgatherdpd ymm (AVX2)",
    (i: DecodedInstruction) => i.intel.startsWith('vgatherdpd ymm') && !i.intel.includes('k1'),
  ],
  [
    'vgatherqps xmm with a ymm index (AVX2)',
    (i: DecodedInstruction) => i.signature === 'VGATHERQPS (XMM, M32, XMM)' && i.memory?.vsib === 'YMM',
  ],
  ['vpgatherqq zmm (AVX-512, an opmask)', (i: DecodedInstruction) => i.intel.startsWith('vpgatherqq zmm')],
] as const)
  test(`${what}: every benchmark resets the mask before each gather and keeps the index in range`, () => {
    const d = allInstructions(FLAGS).instrs.find(pick)!;
    assert.ok(d, what);
    const form = spec(d);
    const runner = new RuleRunner();
    const r = characterizeForm(runner, form, { machine: MACHINE, blockers: DEFAULT_BLOCKERS });
    let gathers = 0;
    for (const b of runner.benches) gathers += checkBench(b, form);
    assert.ok(gathers > 0);
    // no blocking run: they do not count a microcoded gather's µops (the record's groups stand)
    assert.ok(!runner.benches.some((b) => b.name.includes(': block ') || b.name.startsWith('block ')));
    assert.ok(r.notMeasurable!.some((n) => /^port usage.*microcoded/.test(n)));
    // by the rule: a gather takes 10 cycles, a vpxor 1 (its own chain, with no gather, 1 per
    // instance); the per-body 1.5 of a chain of gathers cancels between its two lengths
    const lat = (from: RegExp) => r.latencies.find((l) => from.test(l.from))!;
    assert.equal(lat(/index$/).value, 10);
    assert.equal(lat(/^op0/).value, 10);
    assert.ok(!lat(/index$/).upperBound);
    if (form.gather!.mask.kind === 'vec') assert.equal(lat(/^op2/).value, 10);
    else assert.ok(r.notMeasurable!.some((n) => /opmask/.test(n)));
    // throughput only with the resets: 10 per gather (the reset costing nothing by the rule),
    // and the rule's 1.5 per body over the 16 gathers of the body
    assert.equal(r.throughput, undefined);
    assert.ok(Math.abs(r.throughputBroken!.value - (10 + 1.5 / 16)) < 1e-9, `${r.throughputBroken!.value}`);
    // the file names the index by its operand in the signature (o1.index; o2.index after an opmask)
    const m = measuredForm(r);
    const ref = form.gather!.mask.kind === 'k' ? 'o2.index' : 'o1.index';
    assert.deepEqual(
      m.latencies.filter((l) => l.from === ref).map((l) => [l.to, l.cycles]),
      [['o0', 10]],
    );
  });
