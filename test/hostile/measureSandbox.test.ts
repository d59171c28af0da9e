// The measure harness's sandbox against a region written to escape it: a straight-line region
// is arbitrary machine code, so it must find no harness address in its memory or registers, the
// child's system calls are limited to their exact arguments, and the parent checks every field of
// the result it reads back. The bodies below are run by the harness directly (as prepare.ts would
// refuse a `syscall`), the pivot through the real CLI on an assembly file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { notMeasurable, parseHarnessLine, runHarness, type HarnessResult } from '../../src/measure/harness.js';
import { assemble } from '../measure/asm.js';
import { loadRegion } from '../../src/disasm/index.js';
import { prepareRegion } from '../../src/measure/prepare.js';
import { cli, tempDir } from './helpers.js';

const linux = process.platform === 'linux' && process.arch === 'x64';
const skip = !linux && 'Linux x86-64 only';
const cache = mkdtempSync(join(tmpdir(), 'uopscope-sandbox-'));
process.on('exit', () => rmSync(cache, { recursive: true, force: true }));
const run = (intel: string): HarnessResult =>
  runHarness(assemble(intel), { counter: 15, cacheDir: cache, repetitions: 10, timeoutSeconds: 20 });

// a result written straight to the pipe (descriptor 4 in the child: stdin, stdout, stderr, then
// the pipe), struct result's 600 bytes (the seccomp filter allows a write of exactly that), then exit(0)
const forge = (fields: string): string => `
  mov rsi, 0x2350600
  ${fields}
  mov eax, 1
  mov edi, 4
  mov edx, 600
  syscall
  mov eax, 60
  xor edi, edi
  syscall`;

test('a forged result with a NaN figure is refused as impossible, not printed', { skip }, () => {
  const r = run(forge('mov qword ptr [rsi], 0\n  mov rax, 0x7ff8000000000000\n  mov qword ptr [rsi + 40], rax'));
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal((r as { reason: string }).reason, 'invalid-result');
  assert.match(notMeasurable(r as Extract<HarnessResult, { ok: false }>), /impossible result/);
});

test('a forged negative reason index is refused, not looked up', { skip }, () => {
  const r = run(forge('mov qword ptr [rsi], -1'));
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal((r as { reason: string }).reason, 'invalid-result');
});

test('mmap of 1 GiB from the region is killed by the seccomp filter', { skip }, () => {
  const r = run(`
  mov eax, 9
  xor edi, edi
  mov esi, 0x40000000
  mov edx, 3
  mov r10d, 0x22
  mov r8, -1
  xor r9d, r9d
  syscall
  mov byte ptr [rax], 1`);
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal((r as { reason: string }).reason, 'syscall');
});

test("the thread pointer leads nowhere: fs:[0] is not libc's TCB", { skip }, () => {
  // libc's TCB starts with its own address; the region's TLS block is empty
  const r = run('mov rax, qword ptr fs:[0]\n  mov rbx, qword ptr [rax]');
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal((r as { reason: string; address?: number }).reason, 'segv');
  assert.equal((r as { address?: number }).address, 0);
});

test('the code holds no harness address: the stack-pivot reproducer gets no forged result through', { skip }, () => {
  // pivot.s reads the address of the harness's saved stack pointer from its prologue, points it
  // at a stack it wrote in the data page, and returns through gadgets in its own immediates to
  // write a result with a NaN calibration on the pipe (uopscope then failed with exit 70)
  const dir = tempDir('pivot');
  const file = join(dir, 'pivot.s');
  writeFileSync(file, PIVOT);
  const r = cli(['measure', file], { cache, timeout: 120_000 });
  assert.equal(r.signal, null);
  assert.ok(r.code === 0 || r.code === 2, `exit ${r.code}: ${r.err}`);
  assert.doesNotMatch(r.err + r.out, /internal error|nan/i);
  if (r.code === 2) assert.equal(r.err.trim().split('\n').length, 1, r.err);
  rmSync(dir, { recursive: true, force: true });
});

test('the harness line is checked field by field', () => {
  const good =
    '{"ok":true,"method":"tsc","repetitions":10,"pages":0,"perfError":2,"calibration":[0.7,0.7],"unrolled":{"p10":1,"p50":1,"n1":100,"n2":200},"loop":{"p10":1,"p50":1,"n1":1000,"n2":2000},"resolution":26,"streams":[]}';
  assert.ok(parseHarnessLine(good));
  assert.equal(parseHarnessLine(good.replace('[0.7,0.7]', '[nan,0.7]')), null);
  assert.equal(parseHarnessLine(good.replace('"p10":1,', '"p10":"1",')), null);
  assert.equal(parseHarnessLine('{"ok":false,"reason":"\\u001b]0;owned\\u0007"}'), null);
  assert.equal(parseHarnessLine('{"ok":false,"reason":"segv","offset":1e400}'), null);
  const setup = parseHarnessLine('{"ok":false,"reason":"setup","detail":"x\\u001b[31m"}');
  assert.ok(setup && !setup.ok);
  assert.doesNotMatch((setup as { detail: string }).detail, /\x1b/);
});

test('regions that would read the stash or the thread pointer are refused; the stash is a register the region leaves alone', async () => {
  const prep = async (hex: string) => prepareRegion((await loadRegion({ hex })).instructions);
  for (const [hex, why] of [
    ['0fae00', /saves, restores/],
    ['480fae08', /saves, restores/],
    ['f3480faec0', /saves, restores/],
    ['64488b042500000000', /through fs/],
    // pushfq; or qword ptr [rsp], 0x100; popfq: the trap flag set
    ['9c48810c24000100009d', /loads the flags register, which can set the trap flag/],
  ] as const) {
    const p = await prep(hex);
    assert.equal(p.ok, false, hex);
    assert.match((p as { why: string }).why, why);
  }
  const p = await prep('66450fefff4801d8'); // pxor xmm15, xmm15; add rax, rbx
  assert.ok(p.ok);
  // xmm31 where the host has AVX-512 (out of reach of SSE and VEX code), else the highest xmm
  // register the region leaves alone: xmm14, not the xmm15 it writes
  const avx512 = /^flags\s*:.*\bavx512f\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));
  assert.equal((p as { region: { stash: number } }).region.stash, avx512 ? 31 : 14);
});

const PIVOT = `.intel_syntax noprefix
.text
start:
  mov rax, 0xc35ac35ec35fc358     # pop rax;ret | pop rdi;ret | pop rsi;ret | pop rdx;ret
  mov rax, 0x9090909090c3050f     # syscall; ret
  lea rbx, [rip]
  and rbx, -4096
  mov rcx, [rbx + 12]             # the prologue's movabs rax, &saved_rsp
  movzx edx, word ptr [rbx + 10]
  mov rsi, 0x2324100
  cmp edx, 0xb848
  cmovne rcx, rsi                 # another page of the code: write harmlessly
  lea r8, [rip + start + 2]
  lea r9, [rip + start + 12]
  mov r10, 0x2340400              # the fake stack
  mov qword ptr [rcx], r10
  mov qword ptr [r10 + 48], r8
  mov qword ptr [r10 + 56], 1
  lea r11, [r8 + 2]
  mov qword ptr [r10 + 64], r11
  mov qword ptr [r10 + 72], 5
  lea r11, [r8 + 4]
  mov qword ptr [r10 + 80], r11
  mov r12, 0x2350600
  mov qword ptr [r10 + 88], r12
  lea r11, [r8 + 6]
  mov qword ptr [r10 + 96], r11
  mov qword ptr [r10 + 104], 248
  mov qword ptr [r10 + 112], r9
  mov qword ptr [r10 + 120], r8
  mov qword ptr [r10 + 128], 60
  lea r11, [r8 + 2]
  mov qword ptr [r10 + 136], r11
  mov qword ptr [r10 + 144], 0
  mov qword ptr [r10 + 152], r9
  mov qword ptr [r12], 0
  mov r13, 0x7ff8000000000000
  mov qword ptr [r12 + 40], r13
`;

test('without a stash given, the harness keeps its stack pointer in an xmm register the code does not touch', {
  skip,
}, () => {
  // xmm15 written by the region: with the stack pointer kept there, the return would crash
  const r = run('pxor xmm15, xmm15\n  paddq xmm14, xmm15\n  add rax, rbx');
  assert.ok(r.ok, JSON.stringify(r));
});

test("a region that unmasks FP exceptions is measured, not reported as the harness's division by zero", {
  skip,
}, () => {
  // push 0; ldmxcsr [rsp]; pop rax: every MXCSR exception unmasked, which made the harness's own
  // arithmetic after the region fault (reported as "a division by zero")
  const r = run('push 0\n  ldmxcsr dword ptr [rsp]\n  pop rax');
  assert.equal(r.ok, true, JSON.stringify(r));
});
