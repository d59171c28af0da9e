// Region selection: IACA regions (several per file), LLVM-MCA/OSACA comment markers in
// assembly, --function (ELF, PE, Mach-O symbol tables), --range, loop candidates, raw input.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { listRegions, loadInput, loadRegion } from '../../src/disasm/index.js';
import type { Region } from '../../src/disasm/index.js';
import { regionsJson } from '../../src/cli/commands/regionsRun.js';
import { runCli } from '../helpers/cli.js';
import { hasTool } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'uopscope-regions-'));

test('two IACA regions in one file, in ELF, PE and Mach-O builds', async () => {
  for (const f of ['two-regions', 'two-regions.o', 'two-regions.exe', 'two-regions.obj', 'two-regions.macho.o']) {
    const input = await loadInput({ file: `examples/bin/${f}` });
    const regions = listRegions(input);
    assert.deepEqual(
      regions.map((r) => [r.index, r.kind, r.name]),
      [
        [1, 'iaca', 'IACA region 1'],
        [2, 'iaca', 'IACA region 2'],
      ],
      f,
    );
    const r1 = await loadRegion({ file: `examples/bin/${f}`, region: 1 });
    assert.deepEqual(
      r1.instructions.map((i) => i.signature),
      ['IMUL (R64, R64)', 'IMUL (R64, R64)', 'DEC (R64)', 'JNZ (Rel8)'],
      f,
    );
    assert.equal(r1.instructions[3]!.branch!.targetLine, 0);
    const r2 = await loadRegion({ file: `examples/bin/${f}`, region: 2 });
    assert.deepEqual(
      r2.instructions.map((i) => i.signature),
      ['ADD (R64, M64)', 'ADD (R64, M64)', 'SUB (R64, I8)', 'JNZ (Rel8)'],
      f,
    );
  }
});

test('LLVM-MCA and OSACA comment markers in assembly input (as and clang)', async () => {
  for (const assembler of ['as', 'clang'] as const) {
    if (assembler === 'clang' && !hasTool('clang')) continue;
    const input = await loadInput({ file: 'examples/thesis/mca-markers.s', assembler });
    const regions = listRegions(input);
    assert.deepEqual(
      regions.map((r) => r.kind),
      ['llvm-mca', 'osaca'],
      assembler,
    );
    assert.match(regions[0]!.name, /LLVM-MCA region 'dot' \(lines 11–16\)/);
    // the injected labels are not reported as symbols
    assert.ok(!input.symbols.some((s) => s.name.includes('uopscope')));
    const r = await loadRegion({ file: 'examples/thesis/mca-markers.s', assembler, region: 2 });
    assert.deepEqual(
      r.instructions.map((i) => i.intel),
      ['lea rax, [rax+rcx*2]', 'xor rdx, rax', 'sub ecx, 0x1', 'jne 0x19'],
    );
  }
});

test('unpaired and mismatched comment markers are errors naming the line', async () => {
  const f1 = join(tmp, 'open.s');
  writeFileSync(f1, '\t.text\n# LLVM-MCA-BEGIN\n\tadd %rax, %rbx\n');
  await assert.rejects(loadInput({ file: f1 }), /open\.s:2: LLVM-MCA-BEGIN without a matching END/);
  const f2 = join(tmp, 'mismatch.s');
  writeFileSync(f2, '\t.text\n# OSACA-BEGIN\n\tadd %rax, %rbx\n# LLVM-MCA-END\n');
  await assert.rejects(loadInput({ file: f2 }), /mismatch\.s:4: LLVM-MCA-END closes the OSACA-BEGIN of line 2/);
});

test('.S input is preprocessed; IACA markers written in the source work too', async () => {
  const f = join(tmp, 'macro.S');
  writeFileSync(
    f,
    '#define STEP 3\n\t.intel_syntax noprefix\n\t.text\n\tmov ebx, 111\n\t.byte 0x64, 0x67, 0x90\n\tadd rax, STEP\n\tmov ebx, 222\n\t.byte 0x64, 0x67, 0x90\n',
  );
  const r = await loadRegion({ file: f });
  assert.equal(r.format, 'asm');
  assert.deepEqual(
    r.instructions.map((i) => i.intel),
    ['add rax, 0x3'],
  );
});

test('--function finds symbols in ELF, PE, Mach-O and universal files (the whole function, as disasm lists it)', async () => {
  for (const f of ['branch', 'branch.o', 'branch.exe', 'branch.obj', 'branch.macho.o', 'branch.universal.o']) {
    const r = await loadRegion({ file: `examples/bin/${f}`, function: 'main', wholeFunction: true });
    assert.equal(r.region.kind, 'function');
    assert.equal(r.instructions[0]!.intel, 'push rbx', f);
    assert.equal(r.instructions.at(-1)!.intel, 'ret', f);
    assert.equal(r.instructions.length, 19, f);
  }
});

test('--range START:END (hex or decimal, END exclusive)', async () => {
  const r = await loadRegion({ file: 'examples/bin/branch', range: '0x401117:0x401124' });
  assert.deepEqual(
    r.instructions.map((i) => i.line),
    [0, 1, 2],
  );
  const d = await loadRegion({ file: 'examples/bin/branch.o', range: '17:41' });
  assert.equal(d.instructions.length, 7);
  assert.equal(d.instructions[2]!.branch!.targetLine, 5);
});

test('without markers: the natural loops, in address order; nested ones labelled', async () => {
  const input = await loadInput({ file: 'examples/bin/mca-markers' });
  const loops = listRegions(input);
  assert.ok(loops.length >= 2);
  assert.ok(loops.every((l) => l.kind === 'loop'));
  for (let i = 1; i < loops.length; i++) assert.ok(loops[i]!.start >= loops[i - 1]!.start);
  assert.match(loops[0]!.name, /^loop at 0x[0-9a-f]+ in main/);
  // nested loops: the outer one first (its start is lower), the inner one is the default
  // 0: add rax,1 / 1: add rbx,1 / 2: dec rcx / 3: jnz 1 / 4: dec rdx / 5: jnz 0
  const nested = await loadInput({ hex: '4883c001 4883c301 48ffc9 75f7 48ffca 75ee' });
  const l = listRegions(nested).filter((r) => r.kind === 'loop');
  assert.deepEqual(
    l.map((r) => [r.start, r.end, r.role]),
    [
      [0, 18, 'outer'],
      [4, 13, 'main'],
    ],
  );
  const inner = await loadRegion({ hex: '4883c001 4883c301 48ffc9 75f7 48ffca 75ee', region: 3 });
  assert.deepEqual(
    inner.instructions.map((i) => i.mnemonic),
    ['ADD', 'DEC', 'JNE'],
  );
  const chosen = await loadRegion({ hex: '4883c001 4883c301 48ffc9 75f7 48ffca 75ee' });
  assert.deepEqual([chosen.region.start, chosen.region.end], [4, 13]);
  assert.match(
    chosen.region.note!,
    /analysing region 3 of 3, the innermost loop of this code \(region 2 is an outer loop\)/,
  );
});

test('raw input: --hex and --raw FILE', async () => {
  const h = await loadRegion({ hex: '0x48 0x01 0xd8' });
  assert.equal(h.format, 'raw');
  assert.equal(h.region.kind, 'whole');
  assert.equal(h.instructions[0]!.intel, 'add rax, rbx');
  const f = join(tmp, 'code.bin');
  writeFileSync(f, Uint8Array.from([0x48, 0x01, 0xd8, 0xc3]));
  const r = await loadRegion({ raw: f });
  assert.deepEqual(
    r.instructions.map((i) => i.intel),
    ['add rax, rbx', 'ret'],
  );
});

test('CLI: regions, disasm --json and graph write what they say', () => {
  const reg = runCli(['regions', 'examples/bin/two-regions.exe']);
  assert.equal(reg.code, 0, reg.err);
  assert.match(reg.out, /examples\/bin\/two-regions\.exe \(pe, x86-64\): 2 regions/);
  assert.match(reg.out, /2 {2}iaca {6}0x14000[0-9a-f]+–0x14000[0-9a-f]+ {2}15 bytes {2}IACA region 2/);
  const js = runCli(['disasm', 'examples/bin/stencil.macho.o', '--json']);
  assert.equal(js.code, 0, js.err);
  const parsed = JSON.parse(js.out) as { instructions: { signature: string }[] };
  assert.equal(parsed.instructions.length, 8);
  assert.equal(parsed.instructions[1]!.signature, 'VADDSD (XMM, XMM, M64)');
  const cfg = join(tmp, 'cfg.dot');
  const dg = join(tmp, 'dg.dot');
  const g = runCli(['graph', 'examples/bin/branch', '--cfg', cfg, '--dg', dg]);
  assert.equal(g.code, 0, g.err);
  const dot = readFileSync(dg, 'utf8');
  assert.match(dot, /^digraph "dg" \{/);
  assert.match(dot, /n1 -> n2 \[label="zf"\];/);
  assert.match(dot, /n6 -> n3 \[label="rbx", style=dashed, color=red\];/);
  assert.equal((dot.match(/->/g) ?? []).length, 7);
  assert.match(readFileSync(cfg, 'utf8'), /n6 -> n0 \[style=dashed, color=red, label="back"\];/);
});

test('regions --json: the bytes of JSON.stringify of the whole list, written in pieces', async () => {
  // real regions: every loop of the compiled fixtures (two or three per file)
  const dir = 'test/fixtures/loops';
  const all: Region[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.o')))
    all.push(...listRegions(await loadInput({ file: join(dir, f) })));
  assert.ok(all.length >= 10, `${all.length} regions`);
  const head = { file: 'a "b".o', format: 'elf64', machine: 'x86-64' };
  for (const n of [0, 1, 2, all.length])
    for (const chunk of [1, 3, 2048]) {
      const regions = all.slice(0, n);
      const pieces = [...regionsJson(head, regions, chunk)];
      assert.equal(pieces.join(''), `${JSON.stringify({ ...head, regions }, null, 2)}\n`, `${n} regions, ${chunk}`);
      if (n > chunk) assert.ok(pieces.length >= Math.ceil(n / chunk), 'written in pieces');
    }
  const cli = runCli(['regions', 'examples/bin/two-regions.exe', '--json']);
  assert.equal(cli.code, 0, cli.err);
  const parsed = JSON.parse(cli.out) as { regions: Region[] };
  assert.equal(parsed.regions.length, 2);
  assert.equal(cli.out, `${JSON.stringify(parsed, null, 2)}\n`);
});

test('--range as objdump prints it, or starting inside an instruction: said, not silent', async () => {
  const f = 'test/fixtures/loops/dot.clang-O3.o';
  // hex without 0x (objdump's listing): a hex letter makes both bounds hex
  const h = await loadRegion({ file: f, range: '30:7a' });
  assert.deepEqual([h.region.start, h.region.end], [0x30, 0x7a]);
  assert.match(h.region.note!, /--range 30:7a: read as hex \(0x30:0x7a\), as objdump prints addresses/);
  // all digits: decimal, as documented, and the note says how to write hex
  await assert.rejects(
    loadRegion({ file: f, range: '30:77' }),
    /range 0x1e:0x4d: .*\(--range 30:77: 30 and 77 read as decimal \(0x1e:0x4d\); objdump prints hex without 0x: for hex write 0x30:0x77/,
  );
  // inside an instruction (movsd at 0x30 is 5 bytes)
  const r = await loadRegion({ file: f, range: '0x31:0x77' });
  assert.match(r.region.note!, /^0x31 is inside the instruction at 0x30 \(decoding from the function's start\)/);
  const ok = await loadRegion({ file: f, range: '0x30:0x77' });
  assert.equal(ok.region.note, undefined);
});

test("a benchmark's second timing loop, under its own outer loop, is not the first one's remainder", async () => {
  const input = await loadInput({ file: 'test/fixtures/loops/timing.gcc-O2.o' });
  const names = listRegions(input).map((r) => r.name);
  assert.deepEqual(names, [
    'loop at 0x60 in main (45 bytes, outer loop)',
    'loop at 0x68 in main (32 bytes, main loop)',
    'loop at 0xa8 in main (26 bytes, outer loop)',
    'loop at 0xb0 in main (13 bytes)',
  ]);
  // a real remainder, in the same nest as its main loop, keeps its name
  const vec = listRegions(await loadInput({ file: 'test/fixtures/loops/dot.clang-O3.o' })).map((r) => r.name);
  assert.ok(
    vec.some((n) => /remainder of the loop at/.test(n)),
    vec.join('\n'),
  );
});

test('regions: one size a line, a loop in blocks says so', () => {
  const r = runCli(['regions', 'test/fixtures/loops/ifelse.gcc-O2.o']);
  assert.equal(r.code, 0, r.err);
  const line = r.out.split('\n').find((l) => /^\s+1\s/.test(l))!;
  assert.equal((line.match(/\d+ bytes/g) ?? []).length, 1, line);
  assert.match(line, /^ {3}1 {2}loop {6}0x10–0x37 {2}loop at 0x20 in ifelse \(39 bytes in 2 blocks\) {2}\[\.text\]$/);
  // a function or a marked region keeps its size column
  const f = runCli(['regions', 'examples/bin/two-regions']);
  assert.match(f.out, /^ {3}1 {2}iaca {6}0x40111f–0x40112c {2}13 bytes {2}IACA region 1 {2}\[\.text\]$/m);
});

test('--range in an object whose code sections share addresses: the candidates named, SECTION:START:END chooses', () => {
  const f = 'test/fixtures/loops/sections.gcc-O2-function-sections.o';
  const r = runCli(['disasm', f, '--range', '0x10:0x20']);
  assert.equal(r.code, 2);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  assert.match(
    r.err,
    /lies in 2 code sections \(\.text\.dot, \.text\.hist;.*name one, e\.g\. --range \.text\.dot:0x10:0x20/,
  );
  const hist = runCli(['disasm', f, '--range', '.text.hist:0x10:0x20']);
  assert.equal(hist.code, 0, hist.err);
  assert.match(hist.out, /range 0x10:0x20, 0x10–0x20 in \.text\.hist/);
  assert.match(hist.out, /movzx eax, byte ptr \[rdi\]/);
  const none = runCli(['disasm', f, '--range', '.text.nope:0x10:0x20']);
  assert.equal(none.code, 2);
  assert.match(none.err, /no code section '\.text\.nope' \(\.text\.dot 0x0–0x/);
});
