// The listing of every example build (ELF, PE/COFF, Mach-O, universal, ELF32, asm input)
// against expected text that was checked by hand against objdump / llvm-objdump, and an
// automatic cross-check of address, bytes and Intel text against the installed objdump.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadRegion } from '../../src/disasm/index.js';
import { listingJson, renderListing } from '../../src/report/listing.js';
import { hasTool } from './helpers.js';

const CASES: { expected: string; file: string; region?: number }[] = [];
for (const name of ['branch', 'six-mov', 'adc-chain', 'stencil']) {
  for (const suf of ['', '.o', '.exe', '.obj', '.macho.o'])
    CASES.push({ expected: `${name}${suf}.txt`, file: `examples/bin/${name}${suf}` });
}
CASES.push({ expected: 'branch.universal.o.txt', file: 'examples/bin/branch.universal.o' });
CASES.push({ expected: 'branch-i386.elf32.o.txt', file: 'examples/bin/branch-i386.elf32.o' });
CASES.push({ expected: 'branch.dll.txt', file: 'examples/bin/branch.dll' });
CASES.push({ expected: 'branch.so.txt', file: 'examples/bin/branch.so' });
CASES.push({ expected: 'branch-i386.exe.txt', file: 'examples/bin/branch-i386.exe' });
CASES.push({ expected: 'two-regions.region2.txt', file: 'examples/bin/two-regions', region: 2 });
CASES.push({ expected: 'mca-markers.s.region1.txt', file: 'examples/thesis/mca-markers.s', region: 1 });

for (const c of CASES) {
  test(`listing of ${c.file}${c.region ? ` --region ${c.region}` : ''} matches test/disasm/expected/${c.expected}`, async () => {
    const region = await loadRegion({ file: c.file, region: c.region });
    assert.equal(renderListing(region), readFileSync(`test/disasm/expected/${c.expected}`, 'utf8'));
  });
}

test('the same source gives the same instructions in ELF, PE and Mach-O builds', async () => {
  for (const name of ['branch', 'six-mov', 'adc-chain', 'stencil']) {
    const texts = [];
    for (const suf of ['', '.o', '.exe', '.obj', '.macho.o']) {
      const r = await loadRegion({ file: `examples/bin/${name}${suf}` });
      texts.push(r.instructions.map((i) => `${i.bytes} ${i.signature}`).join('\n'));
    }
    for (const t of texts) assert.equal(t, texts[0], name);
  }
});

test('the thesis examples have the lines SUACA printed', async () => {
  const intel = async (f: string) => (await loadRegion({ file: f })).instructions.map((i) => i.intel);
  assert.deepEqual(await intel('examples/bin/branch'), [
    'mov rax, 0x1',
    'cmp rcx, 0x0',
    'jne 0x401129',
    'add rbx, rax',
    'jmp 0x40112c',
    'add rbx, rax',
    'add rbx, rbx',
  ]);
  assert.deepEqual(await intel('examples/bin/six-mov.o'), Array(6).fill('mov rax, 0x6'));
  assert.deepEqual(
    await intel('examples/bin/adc-chain.o'),
    ['rax', 'rbx', 'rcx', 'rdx', 'r8', 'r9', 'r10', 'r11'].map((r) => `adc ${r}, 0x1`),
  );
  assert.deepEqual(await intel('examples/bin/stencil.o'), [
    'vmovsd xmm2, qword ptr [r14+r15*8]',
    'vaddsd xmm3, xmm2, qword ptr [r14+r15*8+0x10]',
    'vaddsd xmm4, xmm3, qword ptr [rax+r15*8+0x8]',
    'vaddsd xmm5, xmm4, qword ptr [rdx+r15*8+0x8]',
    'vmulsd xmm6, xmm5, xmm1',
    'vmovsd qword ptr [r12+r15*8+0x8], xmm6',
    'inc r15',
    'cmp r15, r13',
  ]);
});

test('JSON listing has the fields of the issue', async () => {
  const j = listingJson(await loadRegion({ file: 'examples/bin/stencil' })) as {
    instructions: Record<string, unknown>[];
  };
  const first = j.instructions[0]!;
  for (const k of [
    'line',
    'address',
    'bytes',
    'intel',
    'att',
    'signature',
    'reads',
    'writes',
    'flagsRead',
    'flagsWritten',
    'memory',
  ])
    assert.ok(k in first, k);
  assert.deepEqual(first.memory, {
    base: 'R14',
    index: 'R15',
    scale: 8,
    displacement: 0,
    size: 8,
    read: true,
    write: false,
    segment: null,
  });
  assert.equal(j.instructions[5]!.att, 'vmovsd %xmm6, 0x8(%r12,%r15,8)');
  assert.equal(j.instructions.length, 8);
});

/** objdump's line → 'address|bytes|normalized text' */
function normObjdump(line: string): string | null {
  const m = /^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*(.*)$/.exec(line);
  if (!m) return null;
  const text = m[3]!
    .replace(/\s*#.*$/, '')
    .replace(/<[^>]*>/g, '')
    .toLowerCase()
    .replace(/0x/g, '')
    .replace(/\s+/g, '')
    .replace(/\b([1248])\*([a-z0-9]+)/g, '$2*$1'); // llvm-objdump writes 8*r15
  return `${parseInt(m[1]!, 16)}|${m[2]!.trim().replace(/ /g, '')}|${text}`;
}

for (const [tool, files] of [
  [
    'objdump',
    [
      'branch',
      'stencil.o',
      'adc-chain.exe',
      'six-mov.obj',
      'two-regions',
      'branch.dll',
      'branch-i386.exe',
      'branch-i386.elf32.o',
      'branch.so',
    ],
  ],
  ['llvm-objdump-19', ['branch.macho.o', 'stencil.macho.o']],
] as const) {
  test(`addresses, bytes and Intel text agree with ${tool}`, {
    skip: !hasTool(tool) && `${tool} not installed`,
  }, async () => {
    for (const f of files) {
      const path = `examples/bin/${f}`;
      const r = await loadRegion({ file: path, region: f === 'two-regions' ? 2 : undefined });
      const args =
        tool === 'objdump'
          ? ['-d', '-M', 'intel', '-w', `--start-address=${r.region.start}`, `--stop-address=${r.region.end}`, path]
          : [
              '-d',
              '--x86-asm-syntax=intel',
              `--start-address=${r.region.start}`,
              `--stop-address=${r.region.end}`,
              path,
            ];
      const out = spawnSync(tool, args, { encoding: 'utf8' }).stdout;
      const theirs = out
        .split('\n')
        .map(normObjdump)
        .filter((x): x is string => x !== null);
      const ours = r.instructions.map(
        (i) => `${i.address}|${i.bytes}|${i.intel.toLowerCase().replace(/0x/g, '').replace(/\s+/g, '')}`,
      );
      assert.deepEqual(ours, theirs, f);
    }
  });
}
