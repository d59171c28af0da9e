// The engine's own speed (issue 14, item 2): simulated µops per second, every cycle simulated
// (`fullSimulation: true`, no steady-state skip), in process, on
//  - the 60-instruction loop of bench/report.bench.ts and bench/ui.bench.ts (78 µops per
//    iteration) on IVB: SUACA's model (front-end bound, the station almost empty), the refined
//    model (the default; micro-fusion lets the station fill), and with the station full (perfect
//    front end, both models); on SKL with both models;
//  - a latency-bound loop that fills the station (60 instructions: a 20-cycle loop-carried chain
//    feeding the other 59) with the station at 32, 97 (SKL) and 200 entries.
// Each figure is the median over rounds of the median CPU time of BENCH_RUNS runs (5) in one child
// process per case and round. BENCH_BASE=/path/to/another/checkout alternates rounds between that
// checkout's engine ("old") and this one ("new"), each in its own child process, and prints both
// and their ratio (the machine's load average is printed before and after).
// Run: `npm run bench -- engine`, or `node --import tsx bench/engine.bench.ts`.
// BENCH_ROUNDS (5), BENCH_ITERATIONS (50000), BENCH_CASES=name,name (a subset);
// BENCH_BASE_SCHEDULER=walk runs the old side with ModelOptions.scheduler 'walk'.
// `node --import tsx bench/engine.bench.ts --child <root> <case> <iterations> <runs> [walk]` runs
// one case in this process (for `node --cpu-prof`).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };

interface Case { name: string; arch?: string; model: 'refined' | 'suaca'; perfectFrontEnd: boolean; latency?: number; rsSize?: number; what: string }
const CASES: Case[] = [
  { name: 'sixty-ivb-suaca', arch: 'IVB', model: 'suaca', perfectFrontEnd: false, what: '60-instruction loop, IVB, SUACA (as bench/report.bench.ts simulates it): front-end bound, ~22 instances in flight' },
  { name: 'sixty-ivb-fe', arch: 'IVB', model: 'refined', perfectFrontEnd: false, what: '60-instruction loop, IVB, refined (the default): the station fills (~9 port-blocked, ~29 dependency-blocked instances)' },
  { name: 'sixty-ivb-full', arch: 'IVB', model: 'suaca', perfectFrontEnd: true, what: '60-instruction loop, IVB, SUACA, perfect front end (station full)' },
  { name: 'sixty-ivb-full-refined', arch: 'IVB', model: 'refined', perfectFrontEnd: true, what: '60-instruction loop, IVB, refined, perfect front end (station full)' },
  { name: 'sixty-skl-fe', arch: 'SKL', model: 'refined', perfectFrontEnd: false, what: '60-instruction loop, SKL, refined (default)' },
  { name: 'sixty-skl-suaca', arch: 'SKL', model: 'suaca', perfectFrontEnd: false, what: '60-instruction loop, SKL, SUACA' },
  { name: 'latency-32', model: 'suaca', perfectFrontEnd: false, latency: 20, rsSize: 32, what: 'latency-bound loop, station 32' },
  { name: 'latency-97', model: 'suaca', perfectFrontEnd: false, latency: 20, rsSize: 97, what: 'latency-bound loop, station 97 (SKL)' },
  { name: 'latency-200', model: 'suaca', perfectFrontEnd: false, latency: 20, rsSize: 200, what: 'latency-bound loop, station 200' },
];

/** The 60-instruction loop of bench/report.bench.ts (the same lines). */
const BODY = [
  'vmovsd xmm0, qword ptr [rdi+8]', 'vaddsd xmm0, xmm0, qword ptr [rdi+16]', 'vmulsd xmm1, xmm0, xmm2',
  'vmovsd qword ptr [rsi], xmm1', 'add rax, rbx', 'adc rcx, 1', 'inc rdx', 'cmp rdx, 100', 'mov r8, 1', 'add r9, r8',
];
const SIXTY = ['.intel_syntax noprefix', '.text', '.globl f', 'f:', 'mov ebx, 111', '.byte 0x64, 0x67, 0x90',
  ...Array.from({ length: 6 }, () => BODY).flat(), 'mov ebx, 222', '.byte 0x64, 0x67, 0x90', 'ret', ''].join('\n');

/** One case's CPU seconds per run (`runs` runs) and µops per iteration, in this process, with the
 *  engine of the checkout at `root`. */
async function runCase(root: string, c: Case, iterations: number, runs: number, scheduler?: string): Promise<{ sec: number[]; uopsPerIteration: number; cycles: number }> {
  const imp = (p: string) => import(pathToFileURL(join(root, p)).href);
  const sim = await imp('src/sim/index.ts');
  const { mechanismsOf } = await imp('src/sim/mechanisms.ts');
  let program; let params;
  if (c.latency === undefined) {
    const { analyse } = await imp('src/cli/pipeline.ts');
    const tmp = mkdtempSync(join(tmpdir(), 'uopscope-engine-bench-'));
    try {
      const file = join(tmp, 'sixty.s');
      writeFileSync(file, SIXTY);
      const xml = join(root, 'test', 'fixtures', 'thesis', 'thesis-instructions.xml');
      const a = await analyse({ file, arch: c.arch!, loop: true, uopsXml: xml, cacheDir: join(tmp, 'cache') });
      if (a.program.instructions.length !== 60) throw new Error(`expected 60 instructions, got ${a.program.instructions.length}`);
      if (a.unknown.length) throw new Error(`no data for line(s) ${a.unknown.map((u: { line: number }) => u.line).join(', ')}`);
      program = a.program; params = a.params;
    } finally { rmSync(tmp, { recursive: true, force: true }); }
  } else {
    program = latencyLoop(c.latency);
    params = { arch: 'SKL', ports: [0, 1, 2, 3, 4, 5, 6, 7], issueWidth: 4, rsSize: c.rsSize!, dividerPort: 0 };
  }
  const uopsPerIteration = program.instructions.reduce((a: number, i: { uops: unknown[] }) => a + i.uops.length, 0);
  const variant = { ...sim.BASELINE, perfectFrontEnd: c.perfectFrontEnd };
  const opts = { model: { mechanisms: mechanismsOf(c.model), ...(scheduler ? { scheduler } : {}) }, fullSimulation: true };
  const sec: number[] = [];
  let cycles = 0;
  for (let k = 0; k < runs; k++) {
    const t0 = process.cpuUsage();
    cycles = sim.simulate(program, params, { iterations, variant }, opts).stats.cycles;
    const d = process.cpuUsage(t0);
    sec.push((d.user + d.system) / 1e6);
  }
  return { sec, uopsPerIteration, cycles };
}

/** 60 instructions: line 0 a `lat`-cycle loop-carried chain on port 0 or 1, lines 1..59 one µop
 *  each (ports 0, 1, 5 or 2, 3) reading line 0's result of the same iteration. */
function latencyLoop(lat: number) {
  const PORTS = [[0, 1, 5], [2, 3], [0, 1, 5], [0, 1, 5, 6], [4]];
  const instructions = Array.from({ length: 60 }, (_, i) => ({
    line: i, asm: i === 0 ? 'chain' : `use ${i}`, uops: [i === 0 ? [0, 1] : PORTS[i % PORTS.length]!],
    latency: i === 0 ? lat : 1 + (i % 3), latencyByResource: { r: i === 0 ? lat : 1 + (i % 3) }, divCycles: 0, unknown: false,
  }));
  const deps = [{ from: 0, to: 0, resource: 'r', loopCarried: true },
    ...Array.from({ length: 59 }, (_, k) => ({ from: 0, to: k + 1, resource: 'r', loopCarried: false }))];
  return { instructions, deps };
}

if (process.argv[2] === '--child') {
  const [root, name, iterations, runs, scheduler] = process.argv.slice(3);
  const c = CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no case ${name}`);
  const r = await runCase(resolve(root!), c, Number(iterations), Number(runs), scheduler || undefined);
  process.stdout.write(JSON.stringify(r) + '\n');
} else {
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 50_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const pick = process.env.BENCH_CASES?.split(',');
  const cases = CASES.filter((c) => !pick || pick.includes(c.name));
  const sides = [{ label: 'new', root: join(here, '..'), scheduler: '' }];
  const baseScheduler = process.env.BENCH_BASE_SCHEDULER ?? '';
  if (process.env.BENCH_BASE) sides.unshift({ label: baseScheduler ? `old (${baseScheduler})` : 'old', root: resolve(process.env.BENCH_BASE), scheduler: baseScheduler });
  const la = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`engine speed, full simulation of ${iterations.toLocaleString('en')} iterations; median over ${rounds} alternating rounds of the median CPU time of ${runs} runs`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${la()} at start`);
  if (sides.length > 1) console.log(`old: ${sides[0]!.root}${baseScheduler ? ` with ModelOptions.scheduler '${baseScheduler}'` : ''}; new: ${sides[1]!.root}`);
  const child = (root: string, c: Case, scheduler: string) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, c.name, String(iterations), String(runs), scheduler], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${c.name} in ${root}: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as { sec: number[]; uopsPerIteration: number; cycles: number };
  };
  for (const c of cases) {
    const per = sides.map(() => [] as number[]);
    let uops = 0;
    const cycles = sides.map(() => 0);
    for (let r = 0; r < rounds; r++) {
      // alternate which side goes first
      const order = r % 2 === 0 ? sides.map((_, k) => k) : sides.map((_, k) => k).reverse();
      for (const k of order) { const x = child(sides[k]!.root, c, sides[k]!.scheduler); per[k]!.push(median(x.sec)); uops = x.uopsPerIteration; cycles[k] = x.cycles; }
    }
    if (new Set(cycles).size !== 1) throw new Error(`${c.name}: cycles differ between old and new (${cycles.join(' / ')})`);
    const mops = per.map((s) => (uops * iterations) / median(s) / 1e6);
    const fig = sides.map((s, k) => `${s.label} ${mops[k]!.toFixed(2)} M µops/s (${median(per[k]!).toFixed(3)} s)`).join(', ');
    console.log(`${c.what} [${c.name}], ${uops} µops/iteration, ${cycles[0]} cycles: ${fig}${sides.length > 1 ? `, new/old ${(mops[1]! / mops[0]!).toFixed(2)}×` : ''}; load ${la()}`);
  }
}
