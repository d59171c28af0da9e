// The refined model's per-instruction facts (src/data/refinedFacts.ts): small
// loops assembled by the system assembler (`as`) at test time, decoded, resolved against the
// embedded data (or the hand-written uops.info-schema fixture), built with buildSimProgram({
// machine }), and each fact checked against the public rule named in its source.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildDependencyGraph, loadRegion } from '../../src/disasm/index.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import { SRC, coreFrontEnd } from '../../src/data/refinedFacts.js';
import type { ArchName } from '../../src/data/types.js';
import { buildSimProgram } from '../../src/sim/index.js';
import type { SimInstruction } from '../../src/sim/index.js';
import { parseUopsXmlText } from '../../src/data/uopsXml.js';
import { decodeArch, encodeArch } from '../../src/data/cacheFormat.js';
import { readFileSync } from 'node:fs';
import { SMALL } from './helpers.js';
import { analyse, branchPrograms, forArch, withLoop } from '../../src/cli/pipeline.js';

const MADE_UP_SPLIT = join(import.meta.dirname, '../fixtures/microcode/idiv-m32-made-up-split.xml');
const dir = mkdtempSync(join(tmpdir(), 'uopscope-facts-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** Assembles `body` as function f (Intel syntax) and returns the program built for `arch`. */
async function facts(body: string, arch: ArchName, uopsXml?: string | null): Promise<SimInstruction[]> {
  const file = join(dir, `t${n++}.s`);
  writeFileSync(file, `.intel_syntax noprefix\n.text\n.p2align 6\n.globl f\nf:\n${body}\n`);
  const r = await loadRegion({ file, function: 'f', wholeFunction: true });
  const machine = loadMachine(arch);
  // null: no figures at all (a core uopscope has no data for): the facts follow the rules alone
  const resolved =
    uopsXml === null
      ? []
      : resolveInstructions(r.instructions, await loadArchData(arch, uopsXml ? { uopsXml } : {}), {
          fallback: 'skip',
          machine,
        });
  const graph = buildDependencyGraph(r.instructions, { loop: true });
  const p = buildSimProgram(r.instructions, graph, resolved, { machine });
  // without the machine model: no facts (SUACA's model; existing callers unchanged)
  assert.equal(
    buildSimProgram(r.instructions, graph, resolved).instructions.some((i) => i.refined !== undefined),
    false,
  );
  return p.instructions;
}
const line = (p: SimInstruction[], asm: RegExp): SimInstruction => {
  const i = p.find((x) => asm.test(x.asm));
  assert.ok(i, `no line ${asm} in ${p.map((x) => x.asm).join(' | ')}`);
  return i;
};

test('macro-fusion: cmp/jne fuses on SKL (the pair), inc/jc does not (INC/DEC not with CF conditions)', async () => {
  const p = await facts('1:\n  inc rax\n  jc 1b\n  cmp rax, rbx\n  jne 1b', 'SKL');
  const jc = line(p, /^jb /);
  assert.equal(jc.refined!.macroFusion.fusesWithPrevious, false);
  assert.match(jc.refined!.macroFusion.why!, /INC does not fuse with JB/);
  assert.equal(line(p, /^inc/).refined!.macroFusion.firstHalf, true);
  assert.equal(line(p, /^inc/).refined!.macroFusion.fusesWithNext, false);
  const jne = line(p, /^jne/);
  assert.equal(jne.refined!.macroFusion.fusesWithPrevious, true);
  assert.equal(jne.refined!.macroFusion.source, SRC.macroFusionManual);
  assert.equal(line(p, /^cmp/).refined!.macroFusion.fusesWithNext, true);
  // the loop's closing branch is the last line, a backward branch into the region
  assert.equal(jne.refined!.frontEnd.loopBranch, true);
  assert.equal(jc.refined!.frontEnd.loopBranch, false);
});

test('macro-fusion per the tables: cmp does not fuse with js, test does; no fusion with memory+immediate; dec/jnz not on ICL', async () => {
  const p = await facts(
    '1:\n  cmp rax, rbx\n  js 1b\n  test rax, rbx\n  js 1b\n  cmp qword ptr [rdi], 1\n  je 1b\n  dec rcx\n  jne 1b',
    'SKL',
  );
  const [js1, js2, je, jne] = p.filter((i) => /^j/.test(i.asm));
  assert.equal(js1!.refined!.macroFusion.fusesWithPrevious, false);
  assert.equal(js2!.refined!.macroFusion.fusesWithPrevious, true);
  assert.equal(je!.refined!.macroFusion.fusesWithPrevious, false);
  assert.match(je!.refined!.macroFusion.why!, /memory and immediate/);
  assert.equal(jne!.refined!.macroFusion.fusesWithPrevious, true);
  const icl = await facts('1:\n  dec rcx\n  jne 1b', 'ICL');
  assert.equal(line(icl, /^jne/).refined!.macroFusion.fusesWithPrevious, false);
  assert.match(line(icl, /^jne/).refined!.macroFusion.source, /corsix/);
});

test('macro-fusion on Zen: CMP/TEST only on Zen 2 (with every Jcc); Zen 3 and 4 add OR, XOR, ADD, SUB, INC, DEC', async () => {
  const body = '1:\n  cmp rax, rbx\n  js 1b\n  xor rax, rbx\n  jne 1b\n  dec rcx\n  jne 1b\n  inc rcx\n  jb 1b';
  const fused = (p: SimInstruction[]) =>
    p.filter((i) => /^j/.test(i.asm)).map((i) => i.refined!.macroFusion.fusesWithPrevious);
  // Zen 2: cmp/js fuses (AMD fuses CMP with every flag-based Jcc, unlike Intel's cmp/js), xor and dec do not
  const zen2 = await facts(body, 'ZEN2');
  assert.deepEqual(fused(zen2), [true, false, false, false]);
  const afterXor = zen2.filter((i) => /^j/.test(i.asm))[1]!;
  assert.match(afterXor.refined!.macroFusion.why ?? '', /XOR does not fuse/);
  assert.match(line(zen2, /^js/).refined!.macroFusion.source, /corsix/);
  // Zen 3 and Zen 4: xor/jne and dec/jne fuse; inc/jb does not (INC leaves CF alone)
  for (const arch of ['ZEN3', 'ZEN4'] as const)
    assert.deepEqual(fused(await facts(body, arch)), [true, true, true, false], arch);
  // the same loop on Skylake: cmp/js and xor/jne do not fuse there
  assert.deepEqual(fused(await facts(body, 'SKL')), [false, false, true, false]);
});

test("macro-fusion from uops.info's macro_fusible list when the imported file has one (it overrides the table)", async () => {
  // the fixture's ADD_01 (R64, R64) on SKL lists JB, JNZ, JZ only; the manual's table would fuse add/jl
  const p = await facts('1:\n  add rax, rbx\n  jne 1b\n  add rax, rbx\n  jl 1b', 'SKL', SMALL);
  const [jne, jl] = p.filter((i) => /^j/.test(i.asm));
  assert.equal(jne!.refined!.macroFusion.fusesWithPrevious, true);
  assert.equal(jne!.refined!.macroFusion.source, SRC.macroFusibleXml);
  assert.equal(jl!.refined!.macroFusion.fusesWithPrevious, false);
  assert.equal(jl!.refined!.macroFusion.source, SRC.macroFusibleXml);
  // the same file's uops_retire_slots / uops_MITE give the fused-domain count
  const add = p[0]!.refined!.microFusion;
  assert.equal(add.fusedUops, 1);
  assert.equal(add.source, `${SRC.retireSlotsXml}; ${SRC.uopsMiteXml}`);
});

test('uops_retire_slots, uops_MITE and uops_MS are read from the file and survive the cache encoding', () => {
  const parsed = parseUopsXmlText(readFileSync(SMALL, 'utf8'));
  const add = parsed.archs.get('SKL')!.find((f) => f.string === 'ADD_01 (R64, R64)')!;
  assert.equal(add.m.retireSlots, 1);
  assert.equal(add.m.uopsMite, 1);
  const snb = parsed.archs.get('SNB')!.find((f) => f.string === 'ADD_01 (R64, R64)')!;
  assert.equal(snb.m.retireSlots, undefined);
  const back = decodeArch(encodeArch(1, 'SKL', [add]))[0]!;
  assert.equal(back.m.retireSlots, 1);
  assert.equal(back.m.uopsMite, 1);
  assert.equal(back.m.uopsMs, undefined);
  // uops_MS likewise (the made-up split of test/fixtures/microcode)
  const idiv = parseUopsXmlText(readFileSync(MADE_UP_SPLIT, 'utf8')).archs.get('SKX')![0]!;
  assert.deepEqual([idiv.m.uopsMite, idiv.m.uopsMs], [2, 8]);
  const idivBack = decodeArch(encodeArch(1, 'SKX', [idiv]))[0]!;
  assert.deepEqual([idivBack.m.uopsMite, idivBack.m.uopsMs], [2, 8]);
});

test('micro-fusion and unlamination: add rax,[rdi+rcx*8] fused on HSW, unlaminated on SNB; vaddps 3-operand indexed unlaminated on HSW', async () => {
  const body =
    '1:\n  add rax, [rdi+rcx*8]\n  vaddps ymm0, ymm1, [rdi+rcx*8]\n  add rax, [rdi+8]\n  mov [rdi+rcx*8], rax\n  dec rdx\n  jnz 1b';
  const hsw = await facts(body, 'HSW');
  const snb = await facts(body, 'SNB');
  const addH = line(hsw, /^add rax, qword ptr \[rdi\+rcx\*8\]/).refined!.microFusion;
  assert.equal(addH.unfusedUops, 2);
  assert.equal(addH.fusedUops, 1);
  assert.equal(addH.unlaminated, false);
  const addS = line(snb, /^add rax, qword ptr \[rdi\+rcx\*8\]/).refined!.microFusion;
  assert.equal(addS.decodedUops, 1);
  assert.equal(addS.fusedUops, 2);
  assert.equal(addS.unlaminated, true);
  assert.match(addS.source, /SnB unlamination/);
  const vH = line(hsw, /^vaddps/).refined!.microFusion;
  assert.equal(vH.unlaminated, true);
  assert.equal(vH.fusedUops, 2);
  assert.match(vH.source, /HSW unlamination/);
  // base + displacement: fused on both
  assert.equal(line(snb, /^add rax, qword ptr \[rdi\+0x8\]/).refined!.microFusion.fusedUops, 1);
  // an indexed store: store-address + store-data stay one fused µop on HSW, two on SNB
  assert.equal(line(hsw, /^mov qword ptr \[rdi\+rcx\*8\]/).refined!.microFusion.fusedUops, 1);
  assert.equal(line(snb, /^mov qword ptr \[rdi\+rcx\*8\]/).refined!.microFusion.fusedUops, 2);
});

test('zero idioms: xor eax,eax needs no port on SKL (dependency-breaking only on NHM); xor eax,ebx is none; pcmpeqd and pandn same reg break the dependency but need a port', async () => {
  const body =
    '1:\n  xor eax, eax\n  xor eax, ebx\n  pcmpeqd xmm1, xmm1\n  pcmpgtd xmm2, xmm2\n  pandn xmm3, xmm3\n  dec rdx\n  jnz 1b';
  const skl = await facts(body, 'SKL');
  const z = line(skl, /^xor eax, eax/).refined!.idiom;
  assert.deepEqual([z.zeroIdiom, z.dependencyBreaking, z.noPort], [true, true, true]);
  const nz = line(skl, /^xor eax, ebx/).refined!.idiom;
  assert.deepEqual([nz.zeroIdiom, nz.dependencyBreaking, nz.noPort], [false, false, false]);
  const ones = line(skl, /^pcmpeqd/).refined!.idiom;
  assert.deepEqual([ones.zeroIdiom, ones.dependencyBreaking, ones.noPort], [false, true, false]);
  const andNot = line(skl, /^pandn/).refined!.idiom;
  assert.deepEqual([andNot.zeroIdiom, andNot.dependencyBreaking, andNot.noPort], [false, true, false]);
  // pcmpgt same register: zero and dependency-breaking (uops.info paper §7.3.6), no source for "no port"
  const gt = line(skl, /^pcmpgtd/).refined!.idiom;
  assert.deepEqual([gt.zeroIdiom, gt.dependencyBreaking], [true, true]);
  // with no figures at all the rule alone decides
  const noData = await facts(body, 'SKL', null);
  const gtRule = line(noData, /^pcmpgtd/).refined!.idiom;
  assert.deepEqual([gtRule.zeroIdiom, gtRule.noPort, gtRule.source], [true, false, SRC.zeroIdiomPaper]);
  assert.equal(line(noData, /^xor eax, eax/).refined!.idiom.noPort, true);
  const nhm = await facts(body, 'NHM', null);
  const zn = line(nhm, /^xor eax, eax/).refined!.idiom;
  assert.deepEqual([zn.zeroIdiom, zn.noPort], [true, false]);
});

test('move elimination: mov rax,rbx a candidate on SKL and ADL-P, not on ICL (ICL065) nor SNB; movaps xmm on ICL yes', async () => {
  const body = '1:\n  mov rax, rbx\n  movaps xmm0, xmm1\n  mov ax, bx\n  dec rdx\n  jnz 1b';
  const cand = async (arch: ArchName, re: RegExp): Promise<boolean> =>
    line(await facts(body, arch), re).refined!.moveElimination.candidate;
  assert.equal(await cand('SKL', /^mov rax, rbx/), true);
  assert.equal(await cand('ADL-P', /^mov rax, rbx/), true);
  assert.equal(await cand('ICL', /^mov rax, rbx/), false);
  assert.equal(await cand('SNB', /^mov rax, rbx/), false);
  assert.equal(await cand('ICL', /^movaps/), true);
  assert.equal(await cand('SKL', /^mov ax, bx/), false);
  const icl = line(await facts(body, 'ICL'), /^mov rax, rbx/).refined!.moveElimination;
  assert.match(icl.source, /ICL065/);
});

test('front end: a fused jump ending on a 32-byte boundary is flagged (JCC erratum on SKL, not HSW); crossing pair; length and offsets', async () => {
  // 27 one-byte nops, dec rax (3 bytes, 27..30), jne rel8 (2 bytes, 30..32): ends on the boundary
  const ends = await facts('1:\n  .fill 27, 1, 0x90\n  dec rax\n  jne 1b', 'SKL');
  const j = line(ends, /^jne/).refined!.frontEnd;
  assert.equal(j.length, 2);
  assert.equal(j.offset, 30);
  assert.deepEqual(j.jcc32B, { crosses: false, endsOn: true, start: 27, end: 32 });
  assert.equal(j.jccErratumApplies, true);
  assert.equal(line(ends, /^dec/).refined!.frontEnd.length, 3);
  assert.equal(line(ends, /^dec/).refined!.frontEnd.jcc32B, null);
  const hsw = await facts('1:\n  .fill 27, 1, 0x90\n  dec rax\n  jne 1b', 'HSW');
  assert.equal(line(hsw, /^jne/).refined!.frontEnd.jccErratumApplies, false);
  // dec at 30..33 crosses the boundary, jne (33..35) does not: the fused pair as a whole does
  const pair = await facts('1:\n  .fill 30, 1, 0x90\n  dec rax\n  jne 1b', 'SKL');
  assert.deepEqual(line(pair, /^jne/).refined!.frontEnd.jcc32B, { crosses: true, endsOn: false, start: 30, end: 35 });
  // not fused (mov does not set flags): only the jump's own bytes count
  const alone = await facts('1:\n  .fill 30, 1, 0x90\n  mov eax, 1\n  .fill 1, 1, 0x90\n  jne 1b', 'SKL');
  assert.deepEqual(line(alone, /^jne/).refined!.frontEnd.jcc32B, { crosses: false, endsOn: false, start: 36, end: 38 });
  assert.equal(line(alone, /^jne/).refined!.frontEnd.jccErratumApplies, false);
});

test('load/store roles: mov [rdi+8],rax a simple store address, [rdi+rcx*8] indexed; which µops are load / store-address / store-data', async () => {
  const body =
    '1:\n  mov [rdi+8], rax\n  mov [rdi+rcx*8], rax\n  add [rdi+8], rax\n  mov rbx, [rdi+8]\n  dec rdx\n  jnz 1b';
  const p = await facts(body, 'SKL');
  const simple = line(p, /^mov qword ptr \[rdi\+0x8\], rax/);
  const m1 = simple.refined!.memory!;
  assert.equal(m1.role, 'store');
  assert.equal(m1.simpleStoreAddress, true);
  assert.equal(m1.simpleStaPort, 7);
  assert.equal(m1.staUops.length, 1);
  assert.equal(m1.stdUops.length, 1);
  assert.deepEqual(simple.uops[m1.stdUops[0]!], [4]);
  assert.ok(simple.uops[m1.staUops[0]!]!.includes(2));
  const indexed = line(p, /^mov qword ptr \[rdi\+rcx\*8\], rax/).refined!.memory!;
  assert.equal(indexed.simpleStoreAddress, false);
  assert.equal(indexed.key, ':RDI+RCX*8+0');
  const rmw = line(p, /^add qword ptr \[rdi\+0x8\], rax/);
  const m3 = rmw.refined!.memory!;
  assert.equal(m3.role, 'load-store');
  assert.deepEqual([m3.loadUops.length, m3.staUops.length, m3.stdUops.length], [1, 1, 1]);
  assert.equal(new Set([...m3.loadUops, ...m3.staUops, ...m3.stdUops]).size, 3);
  assert.equal(rmw.refined!.microFusion.fusedUops, 2);
  const load = line(p, /^mov rbx/).refined!.memory!;
  assert.equal(load.role, 'load');
  // identical address expressions share a key
  assert.equal(load.key, m1.key);
  assert.equal(load.key, m3.key);
  assert.notEqual(load.key, indexed.key);
  // ICL has no simple-address-only port
  const icl = line(await facts(body, 'ICL'), /^mov qword ptr \[rdi\+0x8\], rax/).refined!.memory!;
  assert.equal(icl.simpleStaPort, null);
});

test('per-core front-end figures name their source or are absent', () => {
  const skl = coreFrontEnd(loadMachine('SKL'));
  assert.equal(skl.issueWidth.value, 4);
  assert.equal(skl.dsbWidth!.value, 6);
  assert.equal(skl.lsd!.value, false);
  assert.match(skl.lsd!.source, /SKL150/);
  assert.equal(skl.jccErratum.value, true);
  const icl = coreFrontEnd(loadMachine('ICL'));
  assert.equal(icl.issueWidth.value, 5);
  assert.equal(icl.lsd!.value, true);
  assert.equal(icl.jccErratum.value, false);
  assert.equal(icl.gprMoveElimination.value, false);
  assert.equal(icl.vecMoveElimination.value, true);
  // no citable figure: left out, not guessed
  assert.equal(coreFrontEnd(loadMachine('SNB')).dsbWidth, null);
  assert.equal(coreFrontEnd(loadMachine('ADL-P')).issueWidth.value, 6);
});

test("the CLI's pipeline attaches the facts for the chosen core (program, loop rebuild and branch sides)", async () => {
  const file = join(dir, 'pipe.s');
  writeFileSync(
    file,
    '.intel_syntax noprefix\n.text\n.globl g\ng:\n1:\n  test rax, rax\n  je 2f\n  add rbx, 1\n2:\n  dec rcx\n  jnz 1b\n  ret\n',
  );
  const a = await analyse({ file, function: 'g', arch: 'SKL' });
  assert.ok(a.program.instructions.every((i) => i.refined?.arch === 'SKL'));
  assert.equal(
    a.program.instructions.find((i) => i.asm.startsWith('jne'))!.refined!.macroFusion.fusesWithPrevious,
    true,
  );
  const once = withLoop(a, false);
  assert.ok(once.program.instructions.every((i) => i.refined !== undefined));
  const b = branchPrograms(a)!;
  // the taken side skips `add rbx, 1`: `je` still follows `test` directly there
  for (const side of [b.left, b.right]) {
    assert.equal(side.instructions.find((i) => i.asm.startsWith('je'))!.refined!.macroFusion.fusesWithPrevious, true);
  }
  const icl = await forArch(a, loadMachine('ICL'));
  assert.equal(icl.program.instructions[0]!.refined!.arch, 'ICL');
});

test("the embedded data's measured fused-domain counts reach the facts (div r64 on ADL-P: uops_retire_slots 5)", async () => {
  const p = await facts('1:\n  div rcx\n  dec rdx\n  jnz 1b', 'ADL-P');
  const div = line(p, /^div/).refined!.microFusion;
  assert.equal(div.fusedUops, 5);
  assert.equal(div.decodedUops, 5);
  assert.equal(div.source, `${SRC.retireSlotsXml}; ${SRC.uopsMiteXml}`);
  // its 5 µops are more than the 4 of the rule, but uops.info's uops_MS (0 on ADL-P) says none
  // comes from the microcode sequencer: the figure wins
  const fe = line(p, /^div/).refined!.frontEnd;
  assert.equal(fe.msUops, 0);
  assert.equal(fe.microcodeSequencer, false);
  assert.match(fe.source, /uops_MS/);
});

test('uops_MS from an imported file splits a microcoded form (made-up IDIV (M32) figures); without it the rule (more than 4 µops) stands', async () => {
  const body = '1:\n  idiv dword ptr [rsi+rcx*4]\n  dec rdx\n  jnz 1b';
  const split = line(await facts(body, 'SKX', MADE_UP_SPLIT), /^idiv/).refined!.frontEnd;
  assert.equal(split.msUops, 8);
  assert.equal(split.microcodeSequencer, true);
  const rule = line(await facts(body, 'SKX'), /^idiv/).refined!.frontEnd;
  assert.equal(rule.msUops, undefined);
  assert.equal(rule.microcodeSequencer, true);
  assert.doesNotMatch(rule.source, /uops_MS/);
});

test('an instruction without unfused µops (a zero idiom, executed by the reorder buffer) is still one fused-domain µop: it takes an issue slot', async () => {
  // uops.info paper §3.1: the reorder buffer executes NOPs, zero idioms and eliminated moves itself
  // — they are µops of the fused domain; uops.info's uops_retire_slots is ≥ 1 for every form
  // (docs: "treated as at least 1", as uiCA does). Both data sources give xor eax, eax no µop.
  const p = await facts('1:\n  xor eax, eax\n  vxorps ymm1, ymm1, ymm1\n  dec ecx\n  jnz 1b', 'SKL');
  for (const re of [/^xor eax, eax/, /^vxorps/]) {
    const x = line(p, re);
    assert.equal(x.uops.length, 0, `${x.asm}: no unfused µop in the data`);
    assert.equal(x.refined!.microFusion.fusedUops, 1, `${x.asm}: one fused-domain µop`);
    assert.equal(x.refined!.microFusion.decodedUops, 1);
  }
});
