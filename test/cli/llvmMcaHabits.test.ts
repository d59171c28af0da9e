// What llvm-mca users bring: clang -S output piped in (with clang's own directives), Intel
// syntax without .intel_syntax (Compiler Explorer's output), a versioned clang, and llvm-mca's
// single-dash flags (-iterations=100, -mcpu=…, -x86-asm-syntax=intel).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { detectSyntax, findClang, prepareSource } from '../../src/disasm/assemble.js';
import { llvmMcaArgs, unknownOptionHint } from '../../src/cli/run.js';
import { UserError } from '../../src/errors.js';

const FIX = 'test/fixtures/loops';
const tmp = mkdtempSync(join(tmpdir(), 'uopscope-mca-'));

function cli(args: string[], input?: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    ...(input !== undefined ? { input } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('llvm-mca single-dash flags are rewritten, or refused saying how uopscope spells them', () => {
  assert.deepEqual(llvmMcaArgs(['report', 'k.o', '-iterations=100', '-mcpu=skylake', '-x86-asm-syntax=intel']), [
    'report',
    'k.o',
    '--iterations=100',
    '--arch=skylake',
    '--syntax=intel',
  ]);
  assert.deepEqual(llvmMcaArgs(['report', 'k.o', '-march=haswell', '--mcpu=SKL']), [
    'report',
    'k.o',
    '--arch=haswell',
    '--arch=SKL',
  ]);
  // uopscope's own short options and their clusters stay; so does everything after --
  assert.deepEqual(llvmMcaArgs(['report', 'k.o', '-i', '5', '-a', 'SKL', '-pb', '--', '-timeline']), [
    'report',
    'k.o',
    '-i',
    '5',
    '-a',
    'SKL',
    '-pb',
    '--',
    '-timeline',
  ]);
  assert.deepEqual(llvmMcaArgs(['report', 'k.o', '-json']), ['report', 'k.o', '--json']);
  assert.throws(
    () => llvmMcaArgs(['report', 'k.o', '-timeline']),
    (e: unknown) => e instanceof UserError && /'-timeline' is not a uopscope option \(llvm-mca's;/.test(e.message),
  );
  assert.throws(() => llvmMcaArgs(['report', 'k.o', '-itrations=5']), /uopscope spells it --iterations/);
  // yargs names a kebab-case option twice (camel-cased the second time): once is enough
  assert.equal(
    unknownOptionHint('Unknown arguments: bottleneck-analysis, bottleneckAnalysis'),
    "unknown argument: 'bottleneck-analysis' (llvm-mca's; uopscope's report shows each line's µops, ports and waits, and what-if runs)",
  );
});

test('-mtriple=x86_64-… as llvm-mca lines carry it: taken for x86-64, another target refused in one line', () => {
  assert.deepEqual(llvmMcaArgs(['report', 'k.o', '-mtriple=x86_64-unknown-linux-gnu', '-mcpu=skylake']), [
    'report',
    'k.o',
    '--arch=skylake',
  ]);
  assert.deepEqual(llvmMcaArgs(['report', '-mtriple', 'x86_64-pc-linux', 'k.o']), ['report', 'k.o']);
  assert.deepEqual(llvmMcaArgs(['report', 'k.o', '--mtriple=amd64-unknown-freebsd']), ['report', 'k.o']);
  assert.throws(
    () => llvmMcaArgs(['report', 'k.o', '-mtriple=aarch64-linux-gnu']),
    /'-mtriple=aarch64-linux-gnu': uopscope analyses x86-64 code only/,
  );
  const r = cli(['report', 'examples/bin/branch', '-mtriple=x86_64-unknown-unknown', '-mcpu=SKL', '--fast']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Block throughput/);
  const bad = cli(['report', 'examples/bin/branch', '-mtriple=aarch64']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
});

test('the command line takes -iterations=100 and -mcpu=SKL as llvm-mca does', () => {
  const r = cli(['report', 'examples/bin/branch', '-iterations=100', '-mcpu=SKL', '--fast']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Iterations: 100$/m);
  assert.match(r.stdout, /Analysis for architecture: SKL/);
  const b = cli(['report', 'examples/bin/branch', '--bottleneck-analysis']);
  assert.equal(b.code, 2);
  assert.doesNotMatch(b.stderr, /bottleneckAnalysis/);
  const t = cli(['report', 'examples/bin/branch', '-timeline']);
  assert.equal(t.code, 2);
  assert.match(t.stderr, /^uopscope: '-timeline' is not a uopscope option/);
});

test('syntax is recognised as OSACA does: AT&T by % and $, Intel by brackets, ptr and bare registers', () => {
  assert.equal(detectSyntax('\tmovq (%rdi), %rax\n\taddq $1, %rax\n'), 'att');
  assert.equal(detectSyntax('\tmov rax, qword ptr [rdi]\n\tadd rax, 1\n\tjne .LBB0_1\n'), 'intel');
  assert.equal(detectSyntax('\tvaddpd ymm0, ymm1, ymm2\n'), 'intel');
  assert.equal(detectSyntax('\tret\n\tnop\n'), null);
  assert.equal(detectSyntax('\t.intel_syntax noprefix\n\tmov rax, [rdi]\n'), null);
  // declared on the first line, so the user's line numbers stay; clang's own directives go
  const p = prepareSource('dot:\n\tmov rax, qword ptr [rdi]\n\t.addrsig\n\t.addrsig_sym foo\n');
  assert.equal(p, '.intel_syntax noprefix; dot:\n\tmov rax, qword ptr [rdi]\n\n\n');
  assert.equal(prepareSource('\tadd rax, 1\n', 'att'), '\tadd rax, 1\n');
});

test('clang -S output piped in (its .addrsig and all), AT&T and Intel without .intel_syntax', () => {
  const att = readFileSync(`${FIX}/dot.clang-O2.s`, 'utf8');
  assert.match(att, /\.addrsig/);
  const r = cli(['report', '-', '--fast'], att);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Region: loop at 0x30 in dot \(71 bytes, main loop\) in <stdin>$/m);
  // Compiler Explorer's Intel output: no .intel_syntax line
  const intel = readFileSync(`${FIX}/dot.clang-O2.intel.s`, 'utf8')
    .split('\n')
    .filter((l) => !/\.intel_syntax/.test(l))
    .join('\n');
  const i = cli(['report', '-', '--fast'], intel);
  assert.equal(i.code, 0, i.stderr);
  assert.match(i.stdout, /^Region: loop at 0x30 in dot \(71 bytes, main loop\) in <stdin>$/m);
  const forced = cli(['regions', '-', '--syntax', 'intel'], '\tadd rax, 1\n\tjne .L1\n.L1:\n\tret\n');
  assert.equal(forced.code, 0, forced.stderr);
  // the same as AT&T is refused, the message saying what to try
  const wrong = cli(['regions', '-', '--syntax', 'att'], 'top:\n\tadd rax, qword ptr [rdi]\n\tjne top\n');
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /rejected the source: .*; if the source is Intel syntax, pass --syntax intel/);
});

test('a directive GNU as does not know is named, with what to do', () => {
  const r = cli(['regions', '-'], '\t.text\n\t.frobnicate 3\n\taddq $1, %rax\n');
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /\.frobnicate is a directive GNU as does not know \(clang writes some of its own\): pass --assembler clang, or delete the line/,
  );
});

test('--assembler clang finds a versioned clang (Debian has clang-19 and no clang)', () => {
  const dir = mkdtempSync(join(tmp, 'bin-'));
  for (const n of ['clang-17', 'clang-19', 'clang-format-19']) {
    writeFileSync(join(dir, n), '');
    chmodSync(join(dir, n), 0o755);
  }
  assert.equal(findClang(dir), 'clang-19');
  writeFileSync(join(dir, 'clang'), '');
  assert.equal(findClang(dir), 'clang');
  if (spawnSync(findClang(), ['--version']).status !== 0) return;
  const r = cli(['report', `${FIX}/dot.clang-O2.s`, '--assembler', 'clang', '--fast']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /main loop/);
});
