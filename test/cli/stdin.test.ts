// Input on standard input, as llvm-mca takes it: `uopscope report -` with assembly text (from a
// compiler's -S output, as Compiler Explorer pipes it) or a binary, and `--hex -`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function uopscope(args: string[], input: string | Buffer) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], { input, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('report - reads assembly from standard input: marked regions, and a straight block whole (as llvm-mca)', () => {
  const marked = uopscope(
    ['report', '-', '--arch', 'SKL', '--fast'],
    '.intel_syntax noprefix\n# LLVM-MCA-BEGIN\nadd rax, rbx\nadd rbx, rax\n# LLVM-MCA-END\n',
  );
  assert.equal(marked.status, 0, marked.stderr);
  assert.match(marked.stdout, /Region: LLVM-MCA region \(lines 2–5\) in <stdin>/);
  assert.match(marked.stdout, /Block throughput: 2\.00 cycles/);
  const block = uopscope(['report', '-', '--arch', 'SKL', '--fast', '--json'], 'add %rbx, %rax\nadd %rax, %rbx\n');
  assert.equal(block.status, 0, block.stderr);
  const j = JSON.parse(block.stdout);
  assert.equal(j.totalUops, 2);
  // the default command: not a terminal, so the report
  const dflt = uopscope(['-', '--arch', 'SKL'], 'add %rbx, %rax\n');
  assert.equal(dflt.status, 0, dflt.stderr);
  assert.match(dflt.stdout, /Region: all code of \.text in <stdin>/);
});

test("a compiler's -S output piped in: the loop is found", {
  skip: spawnSync('gcc', ['--version']).status === 0 ? false : 'gcc is not installed',
}, () => {
  const asm = execFileSync('gcc', ['-O2', '-S', '-o', '-', '-x', 'c', '-'], {
    input: 'long sum(long *a, long n) { long s = 0; for (long i = 0; i < n; i++) s += a[i]; return s; }\n',
    encoding: 'utf8',
  });
  const r = uopscope(['report', '-', '--arch', 'SKL', '--fast'], asm);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Region: loop at 0x[0-9a-f]+ in sum .* in <stdin>/);
});

test('--hex - and a binary on standard input; nothing on it is one line and status 2', () => {
  const hex = uopscope(['report', '--hex', '-', '--arch', 'SKL', '--fast'], '48 01 d8\n');
  assert.equal(hex.status, 0, hex.stderr);
  assert.match(hex.stdout, /Region: all bytes in <stdin>/);
  const bin = uopscope(
    ['report', '-', '--arch', 'SNB', '--fast', '--model', 'suaca'],
    readFileSync('examples/bin/branch'),
  );
  assert.equal(bin.status, 0, bin.stderr);
  assert.match(bin.stdout, /Block throughput: 2\.34 cycles/);
  const none = uopscope(['report', '-'], '');
  assert.equal(none.status, 2);
  assert.equal(none.stderr, 'uopscope: -: nothing on standard input; pipe a binary or assembly text in\n');
});
