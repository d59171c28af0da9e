// The native harness (assets/measure/harness.c) on real machine code assembled by `as`: known
// dependency chains measure near their latency, and faulting or unbounded regions are reported
// as not measurable with their reason. Built with the system's C compiler into a scratch cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cyclesOf,
  ensureHarness,
  hostHasAvx512,
  notMeasurable,
  parseHarnessLine,
  runHarness,
  stashRegister,
  type HarnessResult,
} from '../../src/measure/harness.js';
import { CANARY } from '../../src/measure/canary.js';
import { assemble, times } from './asm.js';
import { loadRegion } from '../../src/disasm/index.js';
import { prepareRegion } from '../../src/measure/prepare.js';
import { fileURLToPath } from 'node:url';

const cache = mkdtempSync(join(tmpdir(), 'uopscope-measure-'));
process.on('exit', () => rmSync(cache, { recursive: true, force: true }));
const linux = process.platform === 'linux' && process.arch === 'x64';
const R15 = 15; // the loop counter: a register no test region touches
const run = (intel: string, extra: { maxPages?: number; timeoutSeconds?: number } = {}): HarnessResult =>
  runHarness(assemble(intel), { counter: R15, cacheDir: cache, repetitions: 100, ...extra });

type Ok = Extract<HarnessResult, { ok: true }>;
function ok(r: HarnessResult): Ok {
  assert.ok(r.ok, `not measured: ${JSON.stringify(r)}`);
  return r as Ok;
}

test('the harness is built once into the cache directory', { skip: !linux && 'Linux x86-64 only' }, () => {
  const exe = ensureHarness({ cacheDir: cache });
  assert.equal(ensureHarness({ cacheDir: cache }), exe);
  assert.deepEqual(
    readdirSync(join(cache, 'measure')).filter((f) => f.endsWith('.tmp')),
    [],
  );
});

test('dependency chains: add (latency 1) and imul (latency 3) measure near their latency', {
  skip: !linux && 'Linux x86-64 only',
}, (t) => {
  const add = ok(run(times(8, 'add rbx, rax')));
  const imul = ok(run(times(8, 'imul rbx, rax')));
  for (const r of [add, imul]) {
    assert.ok(r.method === 'perf' || r.method === 'tsc');
    assert.equal(r.repetitions, 100);
    assert.ok(r.calibration[0] > 0 && r.calibration[1] > 0, 'the TSC calibration chain measured');
    assert.ok(r.unrolled.p50 >= r.unrolled.p10 * 0.5, 'spread reported');
  }
  const addC = cyclesOf(add, add.loop.p10) / 8;
  const imulC = cyclesOf(imul, imul.loop.p10) / 8;
  if (addC <= 0 || imulC <= 0) {
    t.skip(`this host's cycle counts are unusable (add ${addC}, imul ${imulC} cycles)`);
    return;
  }
  // loose bounds: a shared, noisy machine; the exact figures are in docs/measure.md
  assert.ok(addC >= 0.5 && addC <= 3, `add chain: ${addC} cycles per add`);
  assert.ok(imulC >= 1.5 && imulC <= 9, `imul chain: ${imulC} cycles per imul`);
  assert.ok(imulC / addC >= 2 && imulC / addC <= 4.5, `imul/add: ${imulC / addC}`);
  const unrolledAdd = cyclesOf(add, add.unrolled.p10) / 8;
  assert.ok(unrolledAdd >= 0.5 && unrolledAdd <= 3, `add chain unrolled: ${unrolledAdd}`);
});

test('loads and stores outside the address streams are mapped on demand, a page each', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const r = ok(run('mov rax, [rax]\nmov [rbx+8], rdx\npush rax\npop rdx'));
  assert.ok(r.pages >= 1 && r.pages <= 3, `pages ${r.pages}`);
  assert.ok(cyclesOf(r, r.loop.p10) > 0);
});

test('faults are not measurable, with the reason', { skip: !linux && 'Linux x86-64 only' }, () => {
  const reason = (intel: string, extra = {}) => {
    const r = run(intel, extra);
    assert.equal(r.ok, false, `${intel}: ${JSON.stringify(r)}`);
    return notMeasurable(r as Extract<HarnessResult, { ok: false }>);
  };
  assert.match(reason('ud2'), /illegal or unsupported instruction/);
  assert.match(reason('xor ecx, ecx\nxor edx, edx\ndiv rcx'), /division by zero/);
  assert.match(reason('hlt'), /general-protection fault/);
  assert.match(reason('wrmsr'), /general-protection fault/);
  // write(1, …) from the region: the seccomp filter kills it; nothing reaches our stdout
  assert.match(reason('mov eax, 1\nmov edi, 1\nsyscall'), /system call/);
  assert.match(reason('int3'), /trap/);
  // a store into the harness's own (read-only, executable) code
  assert.match(reason('mov qword ptr [rip], rax'), /protected memory/);
  // a new page every iteration: refused at the page budget
  assert.match(reason('add rax, 4096\nmov [rax], rbx', { maxPages: 16 }), /more than 16 pages/);
  assert.match(reason('1: jmp 1b', { timeoutSeconds: 1 }), /ran longer than 1 s/);
});

test('throughput bounds: independent adds run on several ALU ports, independent loads on several load ports', {
  skip: !linux && 'Linux x86-64 only',
}, (t) => {
  const chain = ok(run(times(8, 'add rax, r8')));
  const indep = ok(run(['rax', 'rbx', 'rcx', 'rdx', 'rsi', 'rdi', 'r9', 'r10'].map((r) => `add ${r}, r8`).join('\n')));
  const loads = ok(
    run(['rax', 'rbx', 'rcx', 'rdx', 'rdi', 'r9', 'r10', 'r11'].map((r, k) => `mov ${r}, [rsi+${8 * k}]`).join('\n')),
  );
  const c = cyclesOf(chain, chain.unrolled.p10) / 8;
  const i = cyclesOf(indep, indep.unrolled.p10) / 8;
  const l = cyclesOf(loads, loads.unrolled.p10) / 8;
  if (c <= 0 || i <= 0 || l <= 0) {
    t.skip(`this host's cycle counts are unusable (${c}, ${i}, ${l})`);
    return;
  }
  // every Intel core uopscope models has at least 3 ALU ports and 2 load ports (SNB on): at most
  // 1/3 and 1/2 cycle each, and at least 1/6 (no core has more). The slack is for a loaded
  // virtual machine, whose physical core other guests share: under the full suite on a 2-vCPU
  // guest, independent adds have measured 0.51 cycles each where they measure 0.28 alone.
  // Serialised adds (1 cycle each, as the chain) still fail both checks.
  assert.ok(i >= 1 / 6 - 0.03 && i <= 0.65, `independent adds: ${i} cycles per add`);
  assert.ok(c / i >= 1.5, `chain ${c} vs independent ${i}`);
  assert.ok(l >= 0.2 && l <= 0.7, `independent loads: ${l} cycles per load`);
});

test('different base registers do not alias: the thesis stencil runs without a chain through memory', {
  skip: !linux && 'Linux x86-64 only',
}, async (t) => {
  // examples/bin/stencil stores to [r12+r15*8+8] and loads from [r14+r15*8]: with every register
  // equal (BHive's start), the store feeds the next iteration's load, 15 cycles per iteration on
  // the development machine; with the registers apart the model's 2-3 cycles
  const region = await loadRegion({ file: fileURLToPath(new URL('../../examples/bin/stencil', import.meta.url)) });
  const p = prepareRegion(region.instructions);
  assert.ok(p.ok);
  const r = runHarness(p.region.body, { counter: p.region.counter.number, cacheDir: cache, repetitions: 100 });
  const o = ok(r);
  const c = cyclesOf(o, o.unrolled.p10);
  if (c <= 0) {
    t.skip(`this host's cycle counts are unusable (${c})`);
    return;
  }
  assert.ok(c < 6, `${c} cycles per iteration: the store and the load alias`);
});

test('start values: div rcx overflows from the pattern (rdx above rcx) and runs with rdx at 0; a fault names its offset in the body', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const body = assemble('div rcx');
  const bad = runHarness(body, { counter: R15, cacheDir: cache, repetitions: 20 });
  assert.equal(bad.ok, false);
  assert.match(notMeasurable(bad as Extract<HarnessResult, { ok: false }>), /arithmetic fault/);
  assert.equal((bad as { offset?: number }).offset, 0, "the div is the body's first byte");
  ok(runHarness(body, { counter: R15, cacheDir: cache, repetitions: 20, startValues: [{ number: 2, value: 0n }] }));
  // the offset of a fault past the first instruction: two nops, then ud2
  const ud = run('nop\nnop\nud2');
  assert.equal(ud.ok, false);
  assert.equal((ud as { offset?: number }).offset, 2);
  // the counter register's start value is the harness's: refused as a parameter
  assert.throws(
    () =>
      runHarness(body, { counter: R15, cacheDir: cache, repetitions: 20, startValues: [{ number: R15, value: 0n }] }),
    /bad register start value/,
  );
});

test('divisionStarts: rdx starts at 0 only when no line before the division writes it; a divisor with a zero low byte gets one more', async () => {
  const { divisionStarts, prepareRegion: prep } = await import('../../src/measure/prepare.js');
  const { loadRegion: load } = await import('../../src/disasm/index.js');
  const starts = async (hex: string) => {
    const p = prep((await load({ hex })).instructions);
    assert.ok(p.ok);
    return p.region.startValues.map((s) => `${s.register}=${s.value.toString(16)}`);
  };
  assert.deepEqual(await starts('48f7f1'), ['rdx=0']); // div rcx
  assert.deepEqual(await starts('31d248f7f1'), []); // xor edx, edx; div rcx
  assert.deepEqual(await starts('489948f7f9'), []); // cqo; idiv rcx
  assert.deepEqual(await starts('f7f3'), ['rdx=0']); // div ebx
  assert.deepEqual(await starts('48f736'), ['rdx=0']); // div qword ptr [rsi]
  assert.deepEqual(await starts('41f6f0'), ['rax=2320000', 'r8=2325201']); // div r8b: ah 0, r8b non-zero
  assert.deepEqual(divisionStarts([]), []);
});

test("each figure's 10th percentile is at most its median: percentiles of the per-sample figures", {
  skip: !linux && 'Linux x86-64 only',
}, async () => {
  // gcc's toupper loop unrolled ×100 and ×200 runs a few hundred TSC ticks; on a guest whose TSC
  // steps by 26 ticks, the difference of each length's own percentiles gave "unrolled 2.59
  // (median 2.22)", a 10th percentile 14 % above the median
  const region = await loadRegion({
    file: fileURLToPath(new URL('../../examples/corpus/bin/to_upper.gcc.O2.sse2.o', import.meta.url)),
  });
  const p = prepareRegion(region.instructions);
  assert.ok(p.ok);
  for (let k = 0; k < 3; k++) {
    const o = ok(runHarness(p.region.body, { counter: p.region.counter.number, cacheDir: cache, repetitions: 50 }));
    assert.ok(o.resolution >= 1, `counter resolution ${o.resolution}`);
    for (const v of [o.unrolled, o.loop]) assert.ok(v.p10 <= v.p50, `10th percentile ${v.p10} above median ${v.p50}`);
  }
});

test('the stash: a body that uses all sixteen xmm registers runs (xmm31 on AVX-512), and keeps the harness its stack', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const every = Array.from({ length: 16 }, (_, k) => `addsd xmm${k}, xmm${(k + 1) % 16}`).join('\n');
  if (hostHasAvx512()) {
    assert.equal(stashRegister(new Set(Array.from({ length: 16 }, (_, k) => `XMM${k}`))), 31);
    ok(run(every));
    // a body that overwrites the stash register is not left to take the harness's stack: the
    // stash is one it does not name, chosen from the decoded body
    assert.equal(stashRegister(new Set(['XMM31', 'XMM30'])), 29);
  } else {
    assert.equal(stashRegister(new Set(Array.from({ length: 16 }, (_, k) => `XMM${k}`)), false), null);
    assert.equal(stashRegister(new Set(['XMM15']), false), 14);
  }
  assert.throws(() => runHarness(assemble('nop'), { counter: R15, cacheDir: cache, stash: 32 }), /bad stash register/);
});

test('the contention canary is timed around the loop variant when given, in the units of loop', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const r = ok(
    runHarness(assemble('add rbx, rax'), { counter: R15, cacheDir: cache, repetitions: 20, canary: CANARY }),
  );
  assert.equal(r.canary?.length, 2);
  // 16 independent adds: at least 16 / 8 cycles on any core that has fewer than eight ALUs
  for (const c of r.canary!) assert.ok(cyclesOf(r, c) > 1.5, `canary ${cyclesOf(r, c)} cycles`);
  assert.equal(ok(run('add rbx, rax')).canary, undefined);
});

test('the loop variant runs every length from one code buffer at 24 entries and is timed at the fastest', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const r = ok(run(times(8, 'add rbx, rax')));
  assert.ok(r.entry, 'the entries are reported');
  const { lead, p50 } = r.entry!;
  // 12 numbers of filler instructions, each without and with a front-end restart
  assert.equal(p50.length, 24);
  assert.equal(p50[lead], Math.min(...p50), 'the loop figure is the fastest entry');
  // a dependency chain's speed does not depend on how it is entered: every entry near 1 per add
  for (const [k, t] of p50.entries()) {
    const c = cyclesOf(r, t) / 8;
    assert.ok(c >= 0.5 && c <= 3, `entry ${k}: ${c} cycles per add`);
  }
});

test('the loop variant times the lengths it is given (L=), the slope over them its figure', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const lengths = [300, 420, 550, 700, 900, 1200];
  const r = ok(
    runHarness(assemble(times(4, 'add rbx, rax')), {
      counter: R15,
      cacheDir: cache,
      repetitions: 30,
      layout: [`L=${lengths.join(',')}`],
    }),
  );
  assert.deepEqual(r.loop.lengths, lengths);
  assert.deepEqual([r.loop.n1, r.loop.n2], [300, 1200]);
  const c = cyclesOf(r, r.loop.p10) / 4;
  assert.ok(c >= 0.5 && c <= 3, `${c} cycles per add`);
  for (const bad of ['L=5', 'L=5,5', 'L=9,3', `L=${Array.from({ length: 17 }, (_, k) => k + 1).join(',')}`])
    assert.throws(
      () => runHarness(assemble('nop'), { counter: R15, cacheDir: cache, layout: [bad] }),
      /bad lengths/,
      bad,
    );
});

test("a result's entries are checked field by field", () => {
  const line = (entry: string) =>
    `{"ok":true,"method":"tsc","repetitions":10,"pages":0,"perfError":2,"calibration":[0.7,0.7],"unrolled":{"p10":1,"p50":1,"n1":100,"n2":200},"loop":{"p10":1,"p50":1,"n1":1000,"n2":2000}${entry},"resolution":26,"streams":[]}`;
  assert.ok(parseHarnessLine(line('')), 'entries are optional');
  assert.deepEqual((parseHarnessLine(line(',"entry":{"lead":1,"p50":[2,1,3]}')) as Ok).entry, {
    lead: 1,
    p50: [2, 1, 3],
  });
  assert.equal(parseHarnessLine(line(',"entry":{"lead":3,"p50":[2,1,3]}')), null, 'lead out of range');
  assert.equal(parseHarnessLine(line(',"entry":{"lead":0,"p50":[]}')), null, 'no entry');
  assert.equal(parseHarnessLine(line(',"entry":{"lead":0,"p50":[1e400]}')), null, 'not finite');
  assert.equal(parseHarnessLine(line(',"entry":{"lead":0.5,"p50":[1,2]}')), null, 'not an index');
});
