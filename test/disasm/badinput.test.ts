// Every kind of bad input ends in one line on stderr naming the file and what to do, a
// non-zero exit and no stack trace — through the real CLI — and, in-process, in a UserError.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { UserError } from '../../src/errors.js';
import { loadRegion, type InputOptions, type RegionSelection } from '../../src/disasm/index.js';
import { runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'uopscope-bad-'));
const branch = readFileSync('examples/bin/branch');
const write = (name: string, data: Uint8Array | string): string => {
  const p = join(tmp, name);
  writeFileSync(p, data);
  return p;
};
const truncated = write('truncated', branch.subarray(0, 200));
const corruptShoff = (() => {
  const b = Buffer.from(branch);
  b.writeBigUInt64LE(0x7fffffffn, 0x28); // e_shoff far beyond the end
  return write('corrupt-shoff', b);
})();
const truncatedMacho = write('truncated.macho.o', readFileSync('examples/bin/branch.macho.o').subarray(0, 100));
const truncatedPe = write('truncated.exe', readFileSync('examples/bin/branch.exe').subarray(0, 400));
const fatWithoutX86 = (() => {
  // a universal header whose only slice is arm64
  const b = Buffer.alloc(64);
  b.writeUInt32BE(0xcafebabe, 0);
  b.writeUInt32BE(1, 4);
  b.writeUInt32BE(0x0100000c, 8);
  b.writeUInt32BE(32, 16);
  b.writeUInt32BE(32, 20);
  return write('arm-only.universal', b);
})();
const randomBin = write(
  'random.bin',
  Uint8Array.from({ length: 64 }, (_, i) => (i * 97 + 13) & 0xff),
);
const empty = write('empty.o', new Uint8Array());

interface Case {
  name: string;
  opts: InputOptions & RegionSelection;
  expect: RegExp;
}
const cases: Case[] = [
  { name: 'missing file', opts: { file: 'no/such/file.o' }, expect: /no\/such\/file\.o: no such file/ },
  { name: 'directory', opts: { file: 'test/disasm' }, expect: /test\/disasm: is a directory/ },
  { name: 'empty file', opts: { file: empty }, expect: /empty file/ },
  { name: 'truncated ELF', opts: { file: truncated }, expect: /truncated: truncated or corrupted file/ },
  {
    name: 'corrupted ELF section table offset',
    opts: { file: corruptShoff },
    expect: /corrupt-shoff: truncated or corrupted file/,
  },
  { name: 'truncated Mach-O', opts: { file: truncatedMacho }, expect: /truncated\.macho\.o: truncated or corrupted/ },
  { name: 'truncated PE', opts: { file: truncatedPe }, expect: /truncated\.exe: truncated or corrupted/ },
  { name: 'unknown binary format', opts: { file: randomBin }, expect: /random\.bin: unknown format/ },
  {
    name: 'plain text file',
    opts: { file: 'test/disasm/fixtures/not-code.txt' },
    expect: /not-code\.txt: unknown format \(a text file\)/,
  },
  {
    name: 'AArch64 ELF',
    opts: { file: 'test/disasm/fixtures/aarch64.elf.o' },
    expect: /aarch64\.elf\.o: ELF file for AArch64, not x86/,
  },
  {
    name: 'arm64 Mach-O',
    opts: { file: 'test/disasm/fixtures/arm64.macho.o' },
    expect: /arm64\.macho\.o: Mach-O file for arm64, not x86/,
  },
  {
    name: 'universal binary without x86 slice',
    opts: { file: fatWithoutX86 },
    expect: /without an x86 slice \(has arm64\)/,
  },
  {
    name: 'no markers and no loop',
    opts: { file: 'test/disasm/fixtures/no-markers.o' },
    expect: /no-markers\.o: no IACA markers.*--function SYMBOL or --range/,
  },
  {
    name: 'start marker without end',
    opts: { file: 'test/disasm/fixtures/unpaired-start.o' },
    expect: /IACA start marker at 0x0 has no end marker/,
  },
  {
    name: 'end marker without start',
    opts: { file: 'test/disasm/fixtures/unpaired-end.o' },
    expect: /IACA end marker at 0x4 has no start marker/,
  },
  {
    name: 'empty region',
    opts: { file: 'test/disasm/fixtures/empty-region.o' },
    expect: /IACA region 1 at 0x8 is empty/,
  },
  {
    name: 'undecodable bytes',
    opts: { file: 'test/disasm/fixtures/undecodable.o' },
    expect: /undecodable bytes at 0xc \(06…\): not a valid x86 instruction/,
  },
  { name: 'undecodable --hex', opts: { hex: '4801d8 0f' }, expect: /undecodable bytes at 0x3 .*runs past the end/ },
  { name: 'bad hex digit', opts: { hex: '48zz' }, expect: /--hex: 'z' is not a hex digit/ },
  { name: 'odd hex', opts: { hex: '480' }, expect: /odd number of hex digits/ },
  {
    name: 'assembler rejects source',
    opts: { file: 'test/disasm/fixtures/syntax-error.s' },
    expect: /syntax-error\.s: the assembler \(as\) rejected the source: syntax-error\.s:5: Error/,
  },
  {
    name: 'region number out of range',
    opts: { file: 'examples/bin/branch', region: 2 },
    expect: /--region 2: examples\/bin\/branch has 1 region/,
  },
  { name: 'unknown function', opts: { file: 'examples/bin/branch', function: 'nope' }, expect: /no symbol 'nope'/ },
  {
    name: 'range outside code',
    opts: { file: 'examples/bin/branch', range: '0x10:0x20' },
    expect: /range 0x10:0x20 is not inside one code section/,
  },
  {
    name: 'range not START:END',
    opts: { file: 'examples/bin/branch', range: 'main' },
    expect: /--range: 'main' is not START:END/,
  },
  {
    name: 'range splitting an instruction',
    opts: { file: 'examples/bin/branch', range: '0x401117:0x40111a' },
    expect: /undecodable bytes at 0x401117/,
  },
  {
    name: 'two selections',
    opts: { file: 'examples/bin/branch', region: 1, function: 'main' },
    expect: /only one of --region, --function, --range/,
  },
  { name: 'two inputs', opts: { file: 'examples/bin/branch', hex: '90' }, expect: /more than one input/ },
];

for (const c of cases) {
  test(`bad input, in-process: ${c.name}`, async () => {
    await assert.rejects(loadRegion(c.opts), (e: unknown) => {
      assert.ok(e instanceof UserError, `expected a UserError, got ${String(e)}`);
      assert.match(e.message, c.expect);
      assert.ok(!e.message.includes('\n'), 'one line');
      return true;
    });
  });
}

const toArgs = (o: InputOptions & RegionSelection): string[] => [
  ...(o.file ? [o.file] : []),
  ...(o.hex !== undefined ? ['--hex', o.hex] : []),
  ...(o.region !== undefined ? ['--region', String(o.region)] : []),
  ...(o.function !== undefined ? ['--function', o.function] : []),
  ...(o.range !== undefined ? ['--range', o.range] : []),
];

// Through the real CLI: a representative subset (each spawn costs a node start-up).
for (const name of [
  'missing file',
  'directory',
  'truncated ELF',
  'plain text file',
  'AArch64 ELF',
  'no markers and no loop',
  'start marker without end',
  'undecodable bytes',
  'empty region',
  'assembler rejects source',
]) {
  const c = cases.find((x) => x.name === name)!;
  test(`bad input, CLI: ${c.name} → one line on stderr, exit 2`, () => {
    const r = runCli(['disasm', ...toArgs(c.opts)]);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    const lines = r.err.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.err);
    assert.match(lines[0]!, /^uopscope: /);
    assert.match(lines[0]!, c.expect);
    assert.doesNotMatch(r.err, /\bat .*\.(ts|js):\d+/);
  });
}

test('missing assembler: the error names the tool', () => {
  const r = runCli(['disasm', 'examples/thesis/branch.s'], { env: { PATH: '/nonexistent' } });
  assert.equal(r.code, 2);
  assert.match(
    r.err.trim(),
    /^uopscope: examples\/thesis\/branch\.s: cannot assemble: 'as' is not installed; install binutils/,
  );
  const c = runCli(['disasm', 'examples/thesis/branch.s', '--assembler', 'clang'], {
    env: { PATH: '/nonexistent' },
  });
  assert.match(c.err.trim(), /cannot assemble: 'clang' is not installed/);
});

test('graph --dg into a missing directory: one line, nothing half-written', () => {
  const r = runCli(['graph', 'examples/bin/branch', '--dg', join(tmp, 'no-dir', 'dg.dot')]);
  assert.equal(r.code, 2);
  assert.match(r.err.trim(), /dg\.dot: cannot write the dependency graph \(ENOENT\)/);
});
