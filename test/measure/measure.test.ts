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
import { prepareRegion } from '../../src/measure/prepare.js';
import { loadRegion } from '../../src/disasm/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const linux = process.platform === 'linux' && process.arch === 'x64';
const noGcc = spawnSync('gcc', ['--version']).status === 0 ? false : 'gcc is not installed';
const scratch = mkdtempSync(join(tmpdir(), 'uopscope-measure-cli-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const env = { ...process.env, UOPSCOPE_CACHE_DIR: join(scratch, 'cache'), UOPSCOPE_CONFIG_DIR: join(scratch, 'config') };

function uopscope(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.ts'), 'measure', ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A C kernel compiled by gcc -O2 into an object file in the scratch directory. */
function compile(name: string, c: string): string {
  const src = join(scratch, `${name}.c`);
  writeFileSync(src, c);
  execFileSync('gcc', ['-O2', '-c', '-o', join(scratch, `${name}.o`), src]);
  return join(scratch, `${name}.o`);
}

test('the host\'s CPUID maps to uopscope\'s architecture names', () => {
  const info = (vendor: string, family: number, model: number, stepping: number, flags = 'fpu sse2') =>
    `processor\t: 0\nvendor_id\t: ${vendor}\ncpu family\t: ${family}\nmodel\t\t: ${model}\nmodel name\t: X\nstepping\t: ${stepping}\nflags\t\t: ${flags}\n\nprocessor\t: 1\n`;
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0xa7, 1)).arch, 'RKL');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x2a, 7)).arch, 'SNB');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x55, 4)).arch, 'SKX');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x55, 7)).arch, 'CLX');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x9e, 9)).arch, 'KBL');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x9e, 10)).arch, 'CFL');
  assert.equal(parseCpuinfo(info('AuthenticAMD', 25, 0x21, 0)).arch, null);
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0x5c, 9)).arch, null, 'an Atom core: no model');
  assert.equal(parseCpuinfo(info('GenuineIntel', 6, 0xa7, 1, 'fpu hypervisor sse2')).virtual, true);
  assert.match(archOfModel(0xb7, 1).note ?? '', /Raptor Lake/);
});

test('preparation: the closing branch comes off, the counter is a register the loop does not use; internal branches are refused', { skip: noGcc }, async () => {
  const obj = compile('sum', 'long sum(const long *a, long n) { long s = 0; for (long i = 0; i < n; i++) s += a[i] * 3; return s; }\n');
  const r = await loadRegion({ file: obj, function: 'sum' });
  const p = prepareRegion(r.instructions);
  assert.ok(p.ok, JSON.stringify(p));
  const last = r.instructions[r.instructions.length - 1]!;
  assert.equal(p.region.closingBranch, last.line);
  assert.equal(p.region.body.length, r.instructions.slice(0, -1).reduce((n, i) => n + i.length, 0));
  const used = new Set<string>(r.instructions.flatMap((i) => [...i.reads, ...i.writes]));
  assert.ok(!used.has(p.region.counter.name.toUpperCase()), p.region.counter.name);
  // an IACA-marked loop jumps back to its start marker, just before the region: its closing branch
  const iaca = await loadRegion({ file: join(ROOT, 'examples/corpus/bin/sum_int.gcc.O2.sse2.o') });
  const pi = prepareRegion(iaca.instructions);
  assert.ok(pi.ok, JSON.stringify(pi));
  assert.equal(pi.region.closingBranch, iaca.instructions.length - 1);
  assert.ok(iaca.instructions[iaca.instructions.length - 1]!.branch!.target! < iaca.instructions[0]!.address);
  const branch = prepareRegion((await loadRegion({ file: join(ROOT, 'examples/bin/branch') })).instructions);
  assert.equal(branch.ok, false);
  assert.match((branch as { why: string }).why, /line 2 \(jne .*\) branches inside the region/);
});

test('measure on a gcc-compiled loop: the prediction beside both variants, JSON and text', { skip: (!linux && 'Linux x86-64 only') || noGcc }, () => {
  const obj = compile('chain', 'unsigned long chain(unsigned long x, long n) { for (long i = 0; i < n; i++) x = x * 0x9E3779B97F4A7C15ul; return x; }\n');
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
  assert.match(t.stdout, /^ {2}loop +\d+\.\d\d cycles\/iteration \(median \d+\.\d\d, spread -?\d+\.\d%\).*← compare with the prediction$/m);
  assert.match(t.stdout, /^ {2}unrolled +\d+\.\d\d cycles\/iteration/m);
  assert.match(t.stdout, /^Figures: /m);
  assert.match(t.stdout, /^Measured on this machine: (core cycles counted by perf_event_open|time-stamp counter)/m);
});

test('a chain of 8 dependent add measures within [0.5, 3] cycles per add', { skip: !linux && 'Linux x86-64 only' }, () => {
  const r = uopscope(['--hex', '4801c3'.repeat(8), '--json', '--repetitions', '50']);
  assert.equal(r.status, 0, r.stderr);
  const m = JSON.parse(r.stdout);
  assert.equal(m.measurement.comparable, 'unrolled', 'no closing branch');
  const perAdd = m.measurement.unrolled.cyclesPerIteration / 8;
  assert.ok(perAdd >= 0.5 && perAdd <= 3, `${perAdd} cycles per add`);
});

test('bad regions: one line each, exit 2, nothing on stdout, the working directory untouched', { skip: !linux && 'Linux x86-64 only' }, () => {
  const cwd = mkdtempSync(join(scratch, 'cwd-'));
  writeFileSync(join(cwd, 'keep.txt'), 'mine\n');
  const cases: [string, RegExp][] = [
    ['0f0b', /not measurable: an illegal or unsupported instruction/],          // ud2
    ['31c948f7f1', /not measurable: an arithmetic fault .*division by zero/],     // xor ecx, ecx; div rcx
    ['f4', /not measurable: a general-protection fault .*hlt/],                  // hlt
    ['b801000000bf010000000f05', /line 2 \(syscall\) is a system call/],        // write(1, …)
    ['480500100000488918', /more than 512 pages/],                                // add rax, 4096; mov [rax], rbx
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
  assert.deepEqual(readdirSync(join(scratch, 'cache', 'measure')).filter((f) => !/^harness-[0-9a-f]{16}$/.test(f)), []);
});

test('without a C compiler: one line that says so, exit 2', { skip: !linux && 'Linux x86-64 only' }, () => {
  const fresh = mkdtempSync(join(scratch, 'nocc-'));
  const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.ts'), 'measure', '--hex', '4801c3'], {
    cwd: ROOT, encoding: 'utf8', timeout: 60_000,
    env: { ...env, UOPSCOPE_CACHE_DIR: join(fresh, 'cache'), PATH: join(fresh, 'empty'), CC: '' },
  });
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^uopscope: uopscope measure builds a small C harness on first use and found no C compiler \(tried cc, gcc, clang\): install one/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
});
