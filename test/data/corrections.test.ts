// Cited corrections (docs/data.md, "Cited corrections"): where a public source shows LLVM's model
// wrong for a core, the corrected figure replaces the model's, says its source in every output
// (the listing's footnote, the line's provenance the explorer shows, the JSON), and the
// simulation follows it; a derived core takes its parent's model and corrections; no division
// that uses the divider is left without divider occupancy unless `data list` names it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runReport } from '../../src/cli/commands/reportRun.js';
import { loadRegion } from '../../src/disasm/index.js';
import type { DecodedInstruction } from '../../src/disasm/types.js';
import { allCorrections, dividerGaps } from '../../src/data/corrections.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import { loadLlvmModel } from '../../src/data/llvmModel.js';
import { inheritanceChain, listMachines } from '../../src/data/machines.js';
import { listDataSources } from '../../src/data/sources.js';
import type { ArchName, ResolvedInstruction } from '../../src/data/types.js';
import { dataFootnote, resolvedJson } from '../../src/report/listing.js';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-corrections-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function loopFile(body: string): string {
  const file = join(dir, `c${n++}.s`);
  writeFileSync(file, `.intel_syntax noprefix\n1:\n${body}\ndec rcx\njnz 1b\n`);
  return file;
}

async function resolved(file: string, arch: ArchName): Promise<{ d: DecodedInstruction; r: ResolvedInstruction }[]> {
  const region = await loadRegion({ file });
  const res = resolveInstructions(region.instructions, await loadArchData(arch), { machine: loadMachine(arch) });
  return region.instructions.map((d, i) => ({ d, r: res[i]! }));
}

async function throughput(file: string, arch: string, model?: string): Promise<number> {
  const json = JSON.parse(
    await runReport({ file }, { arch, iterations: 200, fast: true, json: true, ...(model ? { model } : {}) }),
  ) as { blockThroughput: number };
  return json.blockThroughput;
}

const ADDSD = loopFile('addsd xmm0, xmm1\naddsd xmm0, xmm2\naddsd xmm0, xmm3\naddsd xmm0, xmm4');
const VDIVPD = loopFile('vdivpd ymm0, ymm1, ymm2\nvdivpd ymm3, ymm1, ymm2');

test('SPR: 4 dependent addsd take 2 cycles each (uops.info: latency 2 and 3); LLVM alone says 3', async () => {
  const lines = await resolved(ADDSD, 'SPR');
  const [first] = lines;
  // LLVM's own record: 3 cycles, no late read — what the test would see without the correction
  const rec = loadLlvmModel('SPR')!.lookup(first!.d)!;
  assert.equal(rec.latency, 3);
  assert.deepEqual(rec.readAdvance, []);
  assert.equal(first!.r.origin, 'cited');
  assert.deepEqual(first!.r.readAdvance, { XMM0: 1 });
  for (const arch of ['SPR', 'ADL-P', 'RPL', 'EMR']) {
    const tp = await throughput(ADDSD, arch);
    assert.ok(Math.abs(tp - 8) < 0.05, `${arch}: ${tp} cycles per iteration`);
  }
  // SUACA's model has one latency per written resource (the slowest input's): 3 per add
  assert.ok(Math.abs((await throughput(ADDSD, 'SPR', 'suaca')) - 12) < 0.05);
});

test('SPR: vdivpd ymm keeps the divider 8 cycles (uops.info), so two divisions take at least 16', async () => {
  const lines = await resolved(VDIVPD, 'SPR');
  for (const { r } of lines.slice(0, 2)) {
    assert.equal(r.origin, 'cited');
    assert.equal(r.divCycles, 8);
    assert.match(
      r.provenance!.text,
      /divider cycles 0 → 8 \(uops\.info, Alder Lake-P .*VDIVPD \(YMM, YMM, YMM\).*measured throughput 8\.00/,
    );
  }
  assert.ok((await throughput(VDIVPD, 'SPR')) >= 16, 'at least the documented 8 cycles per division');
});

test('every corrected figure names its source: the listing footnote, the provenance, the JSON', async () => {
  for (const file of [ADDSD, VDIVPD]) {
    const region = await loadRegion({ file });
    const data = await loadArchData('SPR');
    const res = resolveInstructions(region.instructions, data, { machine: loadMachine('SPR') });
    const foot = dataFootnote(data, res);
    const json = resolvedJson(data, res) as { resolved: Record<string, unknown>[] };
    for (const r of res.filter((x) => x.origin === 'cited')) {
      assert.ok(foot.includes(r.provenance!.text), foot);
      const line = json.resolved[r.line]!;
      const detail = line.cited as { corrections: { source: string; llvm: unknown; value: unknown }[] };
      assert.ok(detail.corrections.length > 0);
      for (const c of detail.corrections) assert.match(c.source, /uops\.info/);
    }
    assert.match(foot, /^C line/m);
  }
});

test("the report names each corrected line's citations: text footnote and JSON lines[].cited (gcc's dot, vdivpd)", async () => {
  // gcc -O2's dot product: line 3 is the dependent addsd, corrected on SPR; the others are LLVM's
  const dot = join(import.meta.dirname, '../fixtures/loops/dot.gcc-O2.o');
  for (const file of [dot, VDIVPD]) {
    const region = await loadRegion({ file });
    const res = resolveInstructions(region.instructions, await loadArchData('SPR'), { machine: loadMachine('SPR') });
    const corrected = res.filter((r) => r.origin === 'cited');
    assert.ok(corrected.length > 0, file);
    const json = JSON.parse(await runReport({ file }, { arch: 'SPR', iterations: 50, fast: true, json: true })) as {
      lines: { line: number; cited?: { key: string; corrections: { field: string; source: string }[] } }[];
    };
    for (const l of json.lines) {
      const r = res[l.line]!;
      if (r.origin !== 'cited') {
        assert.equal(l.cited, undefined, `line ${l.line}`);
        continue;
      }
      // the same object disasm --json gives under `cited`
      assert.deepEqual(l.cited, r.provenance!.detail, `line ${l.line}`);
      assert.ok(l.cited!.corrections.length > 0);
      for (const c of l.cited!.corrections) assert.match(c.source, /uops\.info/);
    }
    const text = await runReport({ file }, { arch: 'SPR', iterations: 50, fast: true });
    const flat = text.replace(/\n {2}/g, ' ');
    for (const r of corrected) {
      assert.match(flat, new RegExp(`^C lines? [0-9, ]*\\b${r.line}\\b[0-9, ]*: `, 'm'), text);
      assert.ok(flat.includes(r.provenance!.text), `line ${r.line}'s citation in the report:\n${text}`);
    }
    // the footnotes close the report, wrapped at 80 columns as its notes are
    for (const l of text.slice(text.search(/^C line/m)).split('\n')) assert.ok([...l].length <= 80, l);
  }
});

test('a derived core takes its parent LLVM model and corrections (RPL: ADL-P; EMR: SPR; KBL: SKL)', async () => {
  for (const [child, parent] of [
    ['RPL', 'ADL-P'],
    ['EMR', 'SPR'],
    ['KBL', 'SKL'],
  ] as const) {
    assert.deepEqual(inheritanceChain(child), [child, parent]);
    const a = await resolved(VDIVPD, child);
    const b = await resolved(VDIVPD, parent);
    assert.deepEqual(
      a.map((x) => [x.r.origin, x.r.uops, x.r.divCycles, x.r.maxLatency]),
      b.map((x) => [x.r.origin, x.r.uops, x.r.divCycles, x.r.maxLatency]),
      child,
    );
    assert.ok(
      a.every((x) => !x.r.unknown),
      child,
    );
  }
  // data list: RPL's rows are inherited, each labelled with its parent's figures' origin
  const rows = listDataSources().filter((r) => r.arch === 'RPL');
  assert.deepEqual(
    rows.map((r) => [r.kind, r.origin, r.path]),
    [
      ['inherited', 'uops.info', 'ADL-P'],
      ['inherited', 'cited', 'ADL-P'],
      ['inherited', 'llvm', 'ADL-P'],
    ],
  );
});

test("the divider is never silently free: every core's divisions have divider cycles, except those data list names", () => {
  for (const m of listMachines()) {
    const gaps = dividerGaps(inheritanceChain(m.arch));
    if (m.arch === 'SPR' || m.arch === 'EMR') {
      // AVX512-FP16's divisions and square roots: no public figure found
      assert.ok(gaps.length > 0);
      for (const k of gaps) assert.match(k, /^EVEX_V(div|sqrt)(ph|sh)_/, k);
      const row = listDataSources().find((r) => r.arch === m.arch && r.origin === 'llvm');
      assert.deepEqual(row?.dividerGaps, gaps);
    } else assert.deepEqual(gaps, [], m.arch);
  }
});

test("Skylake's idiv r32 loop: the divider holds each division uops.info's 6 cycles (not LLVM's 4)", async () => {
  const file = loopFile('mov eax, [rdi+rcx*4]\ncdq\nidiv dword ptr [rsi+rcx*4]\nadd r8d, eax');
  const lines = await resolved(file, 'SKX');
  const idiv = lines[2]!.r;
  assert.equal(idiv.origin, 'cited');
  assert.equal(idiv.divCycles, 6);
  for (const arch of ['SKL', 'SKX', 'ADL-P', 'ICL']) {
    const tp = await throughput(file, arch);
    assert.ok(tp >= 6 && tp < 6.5, `${arch}: ${tp}`);
  }
});

test("Zen 3/4's divisions: uops.info's 7 cycles per 64-bit and 6 per 32-bit division, not LLVM's 17 and 13", async () => {
  const file = loopFile(
    'mov rax, rcx\nxor edx, edx\ndiv r9\nadd r8, rax\nmov eax, ecx\nxor edx, edx\ndiv r10d\nadd r11d, eax',
  );
  const lines = await resolved(file, 'ZEN4');
  const [div64, div32] = [lines[2]!.r, lines[6]!.r];
  // LLVM's own record, what the core would run without the correction
  assert.equal(loadLlvmModel('ZEN4')!.lookup(lines[2]!.d)!.divCycles, 17);
  for (const [r, cycles, lat] of [
    [div64, 7, 19],
    [div32, 6, 14],
  ] as const) {
    assert.equal(r.origin, 'cited');
    assert.equal(r.divCycles, cycles);
    assert.equal(r.maxLatency, lat);
    assert.match(r.provenance?.text ?? '', /AssemblyStats uops\/zen4\.csv/);
  }
  // ZEN3 has its own entries (uops.info's Zen 3 file, the same figures)
  const zen3 = (await resolved(file, 'ZEN3'))[2]!.r;
  assert.equal(zen3.divCycles, 7);
  assert.match(zen3.provenance?.text ?? '', /AssemblyStats uops\/zen3\.csv/);
  // two independent divisions share the one divider: 7 + 6 cycles per iteration; ZEN5 takes Zen 4's
  for (const arch of ['ZEN3', 'ZEN4', 'ZEN5']) {
    const tp = await throughput(file, arch);
    assert.ok(tp >= 13 && tp < 13.5, `${arch}: ${tp}`);
  }
});

test("Zen 4's mov r, imm: four per cycle (uops.info), not LLVM's two (its ALUs held 2 cycles)", async () => {
  const file = loopFile(Array.from({ length: 8 }, (_, i) => `mov r${8 + i}d, ${i + 1}`).join('\n'));
  const lines = await resolved(file, 'ZEN4');
  assert.equal(lines[0]!.r.origin, 'cited');
  assert.match(lines[0]!.r.provenance?.text ?? '', /MOV \(R32, I32\).*throughput 0\.25/);
  // 8 moves and the loop's dec/jnz: 9 ALU ops over 4 ALUs, not 8 × 2 cycles over 4
  const tp = await throughput(file, 'ZEN4');
  assert.ok(tp < 2.6, `ZEN4: ${tp}`);
});

test('every entry of the shipped corrections files is well-formed (a run checks only those its lines use)', () => {
  const all = allCorrections();
  assert.ok(all.length > 0);
  for (const c of all) {
    assert.ok(c.cores.length > 0 && c.llvm.length > 0, JSON.stringify(c));
    const figures = [c.latency, c.selfLatency, c.divCycles, c.ports].filter((f) => f !== undefined);
    assert.ok(figures.length > 0, JSON.stringify(c));
    for (const f of figures) assert.ok(f.source.length > 0, JSON.stringify(c));
  }
});
