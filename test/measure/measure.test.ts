// `uopscope measure` end to end on real code (gcc-compiled kernels, examples/bin), the host's core
// mapping, and the region preparation (closing branch off, a free counter register).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { archOfModel, parseCpuinfo } from '../../src/measure/host.js';
import { prepareRegion, prepareSide } from '../../src/measure/prepare.js';
import { branchPaths, loadRegion } from '../../src/disasm/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const linux = process.platform === 'linux' && process.arch === 'x64';
const noGcc = spawnSync('gcc', ['--version']).status === 0 ? false : 'gcc is not installed';
const scratch = mkdtempSync(join(tmpdir(), 'uopscope-measure-cli-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const env = {
  ...process.env,
  UOPSCOPE_CACHE_DIR: join(scratch, 'cache'),
  UOPSCOPE_CONFIG_DIR: join(scratch, 'config'),
};

function uopscope(args: string[], cwd = ROOT) {
  const r = spawnSync(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.cts'), 'measure', ...args],
    { cwd, env, encoding: 'utf8', timeout: 120_000 },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A C kernel compiled by gcc -O2 into an object file in the scratch directory. */
function compile(name: string, c: string): string {
  const src = join(scratch, `${name}.c`);
  writeFileSync(src, c);
  execFileSync('gcc', ['-O2', '-c', '-o', join(scratch, `${name}.o`), src]);
  return join(scratch, `${name}.o`);
}

test("the host's CPUID maps to uopscope's architecture names", () => {
  const info = (vendor: string, family: number, model: number, stepping: number, flags = 'fpu sse2') =>
    `processor\t: 0\nvendor_id\t: ${vendor}\ncpu family\t: ${family}\nmodel\t\t: ${model}\nmodel name\t: X\nstepping\t: ${stepping}\nflags\t\t: ${flags}\n\nprocessor\t: 1\n`;
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0xa7, 1)).arch, 'RKL');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x2a, 7)).arch, 'SNB');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x55, 4)).arch, 'SKX');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x55, 7)).arch, 'CLX');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x9e, 9)).arch, 'KBL');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x9e, 10)).arch, 'CFL');
  assert.equal(parseCpuinfo(info('AuthenticAMD', 25, 0x21, 0)).arch, 'ZEN3');
  assert.equal(parseCpuinfo(info('AuthenticAMD', 23, 0x01, 0)).arch, null, 'a Zen 1 core: no model');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x5c, 9)).arch, null, 'an Atom core: no model');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0xa7, 1, 'fpu hypervisor sse2')).virtual, true);
  assert.match(archOfModel(0xb7, 1).note ?? '', /Raptor Lake/);
});

test('preparation: the closing branch comes off, the counter is a register the loop does not use; internal branches are refused', {
  skip: noGcc,
}, async () => {
  const obj = compile(
    'sum',
    'long sum(const long *a, long n) { long s = 0; for (long i = 0; i < n; i++) s += a[i] * 3; return s; }\n',
  );
  const r = await loadRegion({ file: obj, function: 'sum' });
  const p = prepareRegion(r.instructions);
  assert.ok(p.ok, p.ok ? '' : p.why);
  const last = r.instructions[r.instructions.length - 1]!;
  assert.equal(p.region.closingBranch, last.line);
  assert.equal(
    p.region.body.length,
    r.instructions.slice(0, -1).reduce((n, i) => n + i.length, 0),
  );
  const used = new Set<string>(r.instructions.flatMap((i) => [...i.reads, ...i.writes]));
  assert.ok(!used.has(p.region.counter.name.toUpperCase()), p.region.counter.name);
  // an IACA-marked loop jumps back to its start marker, just before the region: its closing branch
  const iaca = await loadRegion({ file: join(ROOT, 'examples/corpus/bin/sum_int.gcc.O2.sse2.o') });
  const pi = prepareRegion(iaca.instructions);
  assert.ok(pi.ok, pi.ok ? '' : pi.why);
  assert.equal(pi.region.closingBranch, iaca.instructions.length - 1);
  assert.ok(iaca.instructions[iaca.instructions.length - 1]!.branch!.target! < iaca.instructions[0]!.address);
  const branch = prepareRegion((await loadRegion({ file: join(ROOT, 'examples/bin/branch') })).instructions);
  assert.equal(branch.ok, false);
  assert.match((branch as { why: string }).why, /line 2 \(jne .*\) branches inside the region/);
});

test('measure on a gcc-compiled loop: the prediction beside both variants, JSON and text', {
  skip: (!linux && 'Linux x86-64 only') || noGcc,
}, () => {
  const obj = compile(
    'chain',
    'unsigned long chain(unsigned long x, long n) { for (long i = 0; i < n; i++) x = x * 0x9E3779B97F4A7C15ul; return x; }\n',
  );
  const j = uopscope([obj, '--function', 'chain', '--json', '--repetitions', '50']);
  assert.equal(j.status, 0, j.stderr);
  const m = JSON.parse(j.stdout);
  assert.equal(m.measurement.repetitions, 50);
  assert.ok(['perf', 'tsc'].includes(m.measurement.method));
  assert.equal(m.measurement.comparable, 'loop', 'the loop has a closing branch');
  assert.ok(typeof m.prediction.blockThroughput === 'number' && m.prediction.blockThroughput > 0);
  assert.match(m.prediction.figures, /^\d+ lines?: /);
  for (const v of [m.measurement.loop, m.measurement.unrolled]) {
    assert.ok(v.cyclesPerIteration > 0 && v.median > 0 && Number.isFinite(v.spread), JSON.stringify(v));
  }
  // the loop is a chain of imul (latency 3): loose bounds for a shared, noisy machine
  const c = m.measurement.loop.cyclesPerIteration;
  assert.ok(c >= 1.5 && c <= 9, `imul chain loop: ${c} cycles/iteration`);
  const t = uopscope([obj, '--function', 'chain', '--arch', 'SNB', '--repetitions', '20']);
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /^Predicted on SNB: \d+\.\d\d cycles\/iteration/m);
  assert.match(
    t.stdout,
    /^ {2}loop +\d+\.\d\d cycles\/iteration \(median \d+\.\d\d, spread -?\d+\.\d%\).*← compare with the prediction$/m,
  );
  assert.match(t.stdout, /^ {2}unrolled +\d+\.\d\d cycles\/iteration/m);
  assert.match(t.stdout, /^Figures: /m);
  assert.match(t.stdout, /^Measured on this machine: (core cycles counted by perf_event_open|time-stamp counter)/m);
});

test('a chain of 8 dependent add measures within [0.5, 3] cycles per add', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const r = uopscope(['--hex', '4801c3'.repeat(8), '--json', '--repetitions', '50']);
  assert.equal(r.status, 0, r.stderr);
  const m = JSON.parse(r.stdout);
  assert.equal(m.measurement.comparable, 'unrolled', 'no closing branch');
  const perAdd = m.measurement.unrolled.cyclesPerIteration / 8;
  assert.ok(perAdd >= 0.5 && perAdd <= 3, `${perAdd} cycles per add`);
});

test('bad regions: one line each, exit 2, nothing on stdout, the working directory untouched', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const cwd = mkdtempSync(join(scratch, 'cwd-'));
  writeFileSync(join(cwd, 'keep.txt'), 'mine\n');
  const cases: [string, RegExp][] = [
    ['0f0b', /line 0 \(ud2\) always raises an exception/], // ud2
    // xbegin's abort would resume at its fallback address, inside bytes never decoded: refused
    // before running (this host has no RTM, so the refusal is what can be tested)
    ['c7f800000000', /line 0 \(xbegin [^)]*\) starts, ends or aborts a transaction/],
    ['0f01d5', /line 0 \(xend\) starts, ends or aborts a transaction/],
    ['c6f8ff', /line 0 \(xabort 0xff\) starts, ends or aborts a transaction/],
    ['31c948f7f1', /not measurable: an arithmetic fault .*division by zero/], // xor ecx, ecx; div rcx
    ['f4', /not measurable: a general-protection fault .*hlt/], // hlt
    ['b801000000bf010000000f05', /line 2 \(syscall\) is a system call/], // write(1, …)
    // add rax, 4096; mov [rax*2], rbx: no base register, so outside the streams, a page on demand each time
    ['48050010000048891c4500000000', /more than 512 pages/],
    // mov edx, 1; mov ecx, 1; div rcx: the region's own dividend overflows the quotient
    [
      'ba01000000b90100000048f7f1',
      /not measurable: an arithmetic fault .*overflowing division\) at line 2 \(div rcx\)/,
    ],
  ];
  for (const [hex, why] of cases) {
    const r = uopscope(['--hex', hex, '--repetitions', '10'], cwd);
    assert.equal(r.status, 2, `${hex}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, why);
  }
  assert.deepEqual(readdirSync(cwd), ['keep.txt']);
  assert.equal(readFileSync(join(cwd, 'keep.txt'), 'utf8'), 'mine\n');
  // the cache holds the harness and nothing half-written
  assert.deepEqual(
    readdirSync(join(scratch, 'cache', 'measure')).filter((f) => !/^harness-[0-9a-f]{16}(\.sha256)?$/.test(f)),
    [],
  );
});

test('without a C compiler: one line that says so, exit 2', { skip: !linux && 'Linux x86-64 only' }, () => {
  const fresh = mkdtempSync(join(scratch, 'nocc-'));
  const r = spawnSync(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.cts'), 'measure', '--hex', '4801c3'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...env, UOPSCOPE_CACHE_DIR: join(fresh, 'cache'), PATH: join(fresh, 'empty'), CC: '' },
    },
  );
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /^uopscope: uopscope measure builds a small C harness on first use and found no C compiler \(tried cc, gcc, clang\): install one/,
  );
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
});

test('--json on a region that is not measurable: valid JSON with measurable false and the reason, exit 2', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const r = uopscope(['--hex', '31c948f7f1', '--json', '--repetitions', '10']); // xor ecx, ecx; div rcx
  assert.equal(r.status, 2, r.stderr);
  const m = JSON.parse(r.stdout);
  assert.equal(m.measurable, false);
  assert.match(m.reason, /^not measurable: an arithmetic fault .*division by zero.* at line 1 \(div rcx\)$/);
  assert.equal(m.measurement, undefined);
  assert.ok(typeof m.prediction.blockThroughput === 'number', 'the prediction is still there');
  // a refusal before anything runs (a system call) takes the same path
  const s = uopscope(['--hex', 'b801000000bf010000000f05', '--json', '--repetitions', '10']);
  assert.equal(s.status, 2, s.stderr);
  assert.match(JSON.parse(s.stdout).reason, /line 2 \(syscall\) is a system call/);
  // a measurable one says so
  const ok = uopscope(['--hex', '4801c3', '--json', '--repetitions', '10']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).measurable, true);
});

test('a gcc-compiled bignum ÷ limb loop (rdx carried from one div to the next) is measured with rdx starting at 0', {
  skip: (!linux && 'Linux x86-64 only') || noGcc,
}, async () => {
  // GMP's mpn_divrem_1: the remainder is the next limb's high half. With rdx at the pattern
  // (above rcx, the divisor) the first div's quotient overflows; from 0 it stays below rcx
  const obj = compile(
    'divlimb',
    `unsigned long divrem_1(unsigned long *restrict q, const unsigned long *restrict a, long n, unsigned long d) {
  unsigned long r = 0;
  for (long i = n - 1; i >= 0; i--) { unsigned long lo = a[i]; __asm__("divq %2" : "+a"(lo), "+d"(r) : "r"(d)); q[i] = lo; }
  return r;
}
`,
  );
  const region = await loadRegion({ file: obj, function: 'divrem_1' });
  const p = prepareRegion(region.instructions);
  assert.ok(p.ok, p.ok ? '' : p.why);
  assert.deepEqual(
    p.region.startValues.map((s) => [s.register, s.value]),
    [['rdx', 0n]],
  );
  const j = uopscope([obj, '--function', 'divrem_1', '--json', '--repetitions', '30']);
  assert.equal(j.status, 0, j.stderr);
  const m = JSON.parse(j.stdout);
  assert.equal(m.measurable, true);
  assert.deepEqual(
    m.measurement.startValues.map((s: { register: string; value: string }) => [s.register, s.value]),
    [['rdx', '0x0']],
  );
  const c = m.measurement.loop.cyclesPerIteration;
  // a 64-bit division takes 10 to 100 cycles on the cores uopscope models
  assert.ok(c >= 5 && c <= 150, `div r64 loop: ${c} cycles/iteration`);
  // the gcc modulo loops that zero rdx themselves (xor edx, edx; cqo) run unchanged
  const mod = compile(
    'modm',
    'void mod_loop(unsigned long *restrict o, const unsigned long *restrict a, unsigned long d, long n) { for (long i = 0; i < n; i++) o[i] = a[i] % d; }\nlong smod(long x, long d, long n) { for (long i = 0; i < n; i++) x = (x * 31 + i) % d; return x; }\n',
  );
  for (const fn of ['mod_loop', 'smod']) {
    const pm = prepareRegion((await loadRegion({ file: mod, function: fn })).instructions);
    assert.ok(pm.ok, pm.ok ? '' : pm.why);
    assert.deepEqual(pm.region.startValues, [], `${fn}: the region sets its own high half`);
    const r = uopscope([mod, '--function', fn, '--json', '--repetitions', '20']);
    assert.equal(r.status, 0, `${fn}: ${r.stderr}`);
    assert.ok(JSON.parse(r.stdout).measurement.loop.cyclesPerIteration > 3, fn);
  }
});

test("a region with a branch inside is measured per side of the branch comparison, beside the model's figure for that side", {
  skip: !linux && 'Linux x86-64 only',
}, async () => {
  const file = join(ROOT, 'examples/bin/branch');
  const instrs = (await loadRegion({ file })).instructions;
  // the fall-through side loses the jne (line 2) and the jmp over the other side (line 4)
  const left = prepareSide(instrs, [0, 1, 2, 3, 4, 6], 2);
  assert.ok(left.ok, left.ok ? '' : left.why);
  assert.deepEqual(left.region.lines, [0, 1, 3, 6]);
  assert.deepEqual(left.region.removedBranches, [2, 4]);
  assert.equal(Buffer.from(left.region.body).toString('hex'), [0, 1, 3, 6].map((l) => instrs[l]!.bytes).join(''));
  const j = uopscope([file, '--json', '--repetitions', '30']);
  assert.equal(j.status, 0, j.stderr);
  const m = JSON.parse(j.stdout);
  assert.equal(m.measurable, true);
  assert.equal(m.measurement, undefined);
  assert.equal(m.branch.branchLine, 2);
  assert.deepEqual(
    m.branch.sides.map((s: { side: string; lines: number[] }) => [s.side, s.lines]),
    [
      ['fall-through', [0, 1, 2, 3, 4, 6]],
      ['taken', [0, 1, 2, 5, 6]],
    ],
  );
  // the side's prediction is the report's --branch section for it
  const rep = spawnSync(
    process.execPath,
    [
      '--import',
      import.meta.resolve('tsx'),
      join(ROOT, 'src/cli/main.cts'),
      'report',
      file,
      '--branch',
      '--fast',
      '--json',
      '--arch',
      m.prediction.arch,
    ],
    { cwd: ROOT, env, encoding: 'utf8' },
  );
  const report = JSON.parse(rep.stdout);
  for (const s of m.branch.sides) {
    assert.ok(s.measurable, JSON.stringify(s));
    assert.equal(s.measurement.comparable, 'unrolled', 'the region has no closing branch');
    // add rbx, rax; add rbx, rbx: a chain of two adds on rbx each side, 2 cycles
    const c = s.measurement.unrolled.cyclesPerIteration;
    assert.ok(c >= 1 && c <= 6, `${s.side}: ${c}`);
  }
  assert.equal(typeof m.branch.sides[0].predicted, 'number');
  assert.ok(
    Math.abs(m.branch.sides[0].predicted - report.branch.left.blockThroughput) < 0.01,
    `${m.branch.sides[0].predicted} vs ${report.branch.left.blockThroughput}`,
  );
  assert.ok(Math.abs(m.branch.sides[1].predicted - report.branch.right.blockThroughput) < 0.01);
  const t = uopscope([file, '--repetitions', '10']);
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /^Fall-through side \(lines 0, 1, 2, 3, 4, 6; without lines 2, 4\):$/m);
  assert.match(t.stdout, /^Taken side \(lines 0, 1, 2, 5, 6; without line 2\):$/m);
  assert.match(t.stdout, /^ {2}Predicted on \w+(-\w)?: \d+\.\d\d cycles\/iteration \(block throughput of the side/m);
});

const clang = ['clang-19', 'clang'].find((c) => spawnSync(c, ['--version']).status === 0);

test("a side with a second conditional branch runs it not taken, as the branch comparison's side follows it: clang's division by an array", {
  skip: (!linux && 'Linux x86-64 only') || (!clang && 'clang is not installed'),
}, async () => {
  // clang -O2 checks whether both operands fit in 32 bits, per element of its two-element
  // unrolled loop: line 5 (je) and line 17 (jne) choose between idiv r64 and div r32
  const obj = join(scratch, 'divide.clang.o');
  execFileSync(clang!, ['-O2', '-c', '-o', obj, join(ROOT, 'bench/measure/kernels/divide.c')]);
  const instrs = (await loadRegion({ file: obj })).instructions;
  const paths = branchPaths(instrs)!;
  const second = instrs.filter(
    (i) => i.line !== paths.branchLine && i.branch?.kind === 'conditional' && i.branch.targetLine !== null,
  );
  assert.ok(second.length >= 1, 'the loop has a second branch inside');
  for (const lines of [paths.left, paths.right]) {
    const p = prepareSide(instrs, lines, paths.branchLine);
    assert.ok(p.ok, p.ok ? '' : p.why);
    // every later conditional branch of the side is taken off as not taken, never run
    const later = second.filter((i) => lines.includes(i.line)).map((i) => i.line);
    assert.deepEqual(p.region.notTaken, later);
    assert.ok(later.every((l) => p.region.removedBranches.includes(l) && !p.region.lines.includes(l)));
    // the side's straight-line code is the lines the branch comparison simulates for it, less branches
    assert.deepEqual(
      p.region.lines,
      lines.filter((l) => !instrs[l]!.branch),
    );
  }
  const j = uopscope([obj, '--json', '--repetitions', '20']);
  assert.equal(j.status, 0, j.stderr);
  const m = JSON.parse(j.stdout);
  assert.equal(m.measurable, true);
  for (const s of m.branch.sides) {
    assert.ok(s.measurable, JSON.stringify(s.reason));
    assert.ok(s.notTaken.length >= 1);
    // a divisor stream: filled with non-zero divisors, so neither division faults
    assert.ok(
      s.measurement.layout.streams.some((x: { role: string | null }) => /^divisors/.test(x.role ?? '')),
      JSON.stringify(s.measurement.layout.streams),
    );
    assert.ok(s.measurement.loop.cyclesPerIteration > 0);
  }
  const t = uopscope([obj, '--repetitions', '10']);
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /^ {2}line \d+ not taken on this side, as the branch comparison simulates it/m);
});
