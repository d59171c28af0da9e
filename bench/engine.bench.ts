// The engine's own speed: simulated µops per second, every cycle simulated
// (`fullSimulation: true`, no steady-state skip), in process, on
//  - the 60-instruction loop of bench/loopSource.ts, as the report and explorer benches (78 µops per
//    iteration) on IVB: SUACA's model (front-end bound, the station almost empty), the refined
//    model (the default; micro-fusion lets the station fill), and with the station full (perfect
//    front end, both models); on SKL with both models;
//  - a latency-bound loop that fills the station (60 instructions: a 20-cycle loop-carried chain
//    feeding the other 59) with the station at 32, 97 (SKL) and 200 entries.
// Each figure is the median over rounds of the median CPU time of BENCH_RUNS runs (5) in one child
// process per case and round. BENCH_BASE=/path/to/another/checkout alternates rounds between that
// checkout's engine ("old") and this one ("new"), each in its own child process, and prints both
// and their ratio (the machine's load average is printed before and after). Both sides simulate the
// same SimProgram, built by this checkout; a base without the refined model (e.g.
// 41794eb) runs SUACA's cases only.
// BENCH_PROBES=1 adds the probes of bench/probe (SUACA's cycle as one lean JavaScript function,
// and the same in C as WebAssembly and native code; test/sim/probe.test.ts) for the cases they run:
// how fast the model can run at all in each. A probe's cycles and statistics are checked against
// the engine's first (2,000 iterations; the full run's cycles against the other sides').
// Run: `npm run bench -- engine`, or `node --import tsx bench/engine.bench.ts`.
// BENCH_ROUNDS (5), BENCH_ITERATIONS (50000), BENCH_CASES=name,name (a subset);
// BENCH_BASE_SCHEDULER=walk runs the old side with ModelOptions.scheduler 'walk'.
// `node --import tsx bench/engine.bench.ts --child <root> <case> <iterations> <runs> [walk]` runs
// one case in this process (for `node --cpu-prof`).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { probeRefuses } from './probe/suaca.js';
import { engineResult, jsProbe, nativeProbe, probeDiffers, wasmProbe } from './probe/probe.js';
import type { Probe } from './probe/probe.js';
import type { SimProgram } from '../src/sim/types.js';
import { loopSource } from './loopSource.js';

const here = dirname(fileURLToPath(import.meta.url));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Case {
  name: string;
  arch?: string;
  model: 'refined' | 'suaca';
  perfectFrontEnd: boolean;
  latency?: number;
  rsSize?: number;
  what: string;
}
const CASES: Case[] = [
  {
    name: 'sixty-ivb-suaca',
    arch: 'IVB',
    model: 'suaca',
    perfectFrontEnd: false,
    what: '60-instruction loop, IVB, SUACA (as bench/report.bench.ts simulates it): front-end bound, ~22 instances in flight',
  },
  {
    name: 'sixty-ivb-fe',
    arch: 'IVB',
    model: 'refined',
    perfectFrontEnd: false,
    what: '60-instruction loop, IVB, refined (the default): the station fills (~9 port-blocked, ~29 dependency-blocked instances)',
  },
  {
    name: 'sixty-ivb-full',
    arch: 'IVB',
    model: 'suaca',
    perfectFrontEnd: true,
    what: '60-instruction loop, IVB, SUACA, perfect front end (station full)',
  },
  {
    name: 'sixty-ivb-full-refined',
    arch: 'IVB',
    model: 'refined',
    perfectFrontEnd: true,
    what: '60-instruction loop, IVB, refined, perfect front end (station full)',
  },
  {
    name: 'sixty-skl-fe',
    arch: 'SKL',
    model: 'refined',
    perfectFrontEnd: false,
    what: '60-instruction loop, SKL, refined (default)',
  },
  {
    name: 'sixty-skl-suaca',
    arch: 'SKL',
    model: 'suaca',
    perfectFrontEnd: false,
    what: '60-instruction loop, SKL, SUACA',
  },
  {
    name: 'latency-32',
    model: 'suaca',
    perfectFrontEnd: false,
    latency: 20,
    rsSize: 32,
    what: 'latency-bound loop, station 32',
  },
  {
    name: 'latency-97',
    model: 'suaca',
    perfectFrontEnd: false,
    latency: 20,
    rsSize: 97,
    what: 'latency-bound loop, station 97 (SKL)',
  },
  {
    name: 'latency-200',
    model: 'suaca',
    perfectFrontEnd: false,
    latency: 20,
    rsSize: 200,
    what: 'latency-bound loop, station 200',
  },
];

/** The case's program and machine, built by this checkout (both sides simulate the same one). */
async function caseProgram(c: Case) {
  if (c.latency !== undefined) {
    return {
      program: latencyLoop(c.latency),
      params: { arch: 'SKL', ports: [0, 1, 2, 3, 4, 5, 6, 7], issueWidth: 4, rsSize: c.rsSize!, dividerPort: 0 },
    };
  }
  const { analyse } = await import('../src/cli/pipeline.js');
  const tmp = mkdtempSync(join(tmpdir(), 'uopscope-engine-bench-'));
  try {
    const file = join(tmp, 'sixty.s');
    writeFileSync(file, loopSource(6));
    const xml = join(here, '..', 'examples', 'thesis', 'thesis-instructions.xml');
    const a = await analyse({
      file,
      arch: c.arch! as Uppercase<string>,
      loop: true,
      uopsXml: xml,
      cacheDir: join(tmp, 'cache'),
    });
    if (a.program.instructions.length !== 60)
      throw new Error(`expected 60 instructions, got ${a.program.instructions.length}`);
    if (a.unknown.length)
      throw new Error(`no data for line(s) ${a.unknown.map((u: { line: number }) => u.line).join(', ')}`);
    return { program: a.program, params: a.params };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Does the checkout at `root` have the refined model (src/sim/mechanisms.ts)? */
const hasRefined = (root: string) => existsSync(join(root, 'src', 'sim', 'mechanisms.ts'));

/** One case's CPU seconds per run (`runs` runs) and µops per iteration, in this process, with the
 *  engine of the checkout at `root`. */
async function runCase(
  root: string,
  c: Case,
  iterations: number,
  runs: number,
  scheduler?: string,
): Promise<{ sec: number[]; uopsPerIteration: number; cycles: number }> {
  const imp = (p: string) => import(pathToFileURL(join(root, p)).href);
  const sim = await imp('src/sim/index.ts');
  const { program, params } = await caseProgram(c);
  let model: Record<string, unknown> | undefined;
  if (hasRefined(root)) {
    const { mechanismsOf } = await imp('src/sim/mechanisms.ts');
    model = { mechanisms: mechanismsOf(c.model), ...(scheduler ? { scheduler } : {}) };
  } else if (c.model !== 'suaca') throw new Error(`${root} has no refined model`);
  const uopsPerIteration = program.instructions.reduce((a: number, i: { uops: unknown[] }) => a + i.uops.length, 0);
  const variant = { ...sim.BASELINE, perfectFrontEnd: c.perfectFrontEnd };
  const opts = { ...(model ? { model } : {}), fullSimulation: true };
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

const PROBES = ['probe-js', 'probe-wasm', 'probe-native'] as const;
type ProbeName = (typeof PROBES)[number];

/** The probe's runner, or why it cannot run here. */
function probeRunner(name: ProbeName): Probe {
  return name === 'probe-wasm' ? wasmProbe() : name === 'probe-native' ? nativeProbe() : jsProbe();
}

/** A probe on one case: checked against this checkout's core at 2,000 iterations, then timed. */
async function runProbe(
  name: ProbeName,
  c: Case,
  iterations: number,
  runs: number,
): Promise<{ sec: number[]; uopsPerIteration: number; cycles: number }> {
  const { CompiledProgram } = await import('../src/sim/core.js');
  const { BASELINE } = await import('../src/sim/types.js');
  const { program, params } = await caseProgram(c);
  const cp = new CompiledProgram(program, params);
  const why = c.model !== 'suaca' ? "SUACA's model only" : probeRefuses(cp);
  if (why) throw new Error(`${name} cannot run ${c.name}: ${why}`);
  const rsCap = params.rsSize,
    width = c.perfectFrontEnd ? rsCap : params.issueWidth;
  const probe = probeRunner(name);
  if ('why' in probe) throw new Error(`${name}: ${probe.why}`);
  try {
    const variant = { ...BASELINE, perfectFrontEnd: c.perfectFrontEnd };
    const differs = probeDiffers(
      probe.run(cp, rsCap, width, 2000, 1).result,
      engineResult(program, params, variant, 2000),
    );
    if (differs) throw new Error(`${name} differs from the engine on ${c.name}: ${differs}`);
    const { sec, result } = probe.run(cp, rsCap, width, iterations, runs);
    return { sec, uopsPerIteration: cp.totalUops, cycles: result.cycles };
  } finally {
    probe.dispose();
  }
}

/** 60 instructions: line 0 a `lat`-cycle loop-carried chain on port 0 or 1, lines 1..59 one µop
 *  each (ports 0, 1, 5 or 2, 3) reading line 0's result of the same iteration. */
function latencyLoop(lat: number): SimProgram {
  const PORTS = [[0, 1, 5], [2, 3], [0, 1, 5], [0, 1, 5, 6], [4]];
  const instructions = Array.from({ length: 60 }, (_, i) => ({
    line: i,
    asm: i === 0 ? 'chain' : `use ${i}`,
    uops: [i === 0 ? [0, 1] : PORTS[i % PORTS.length]!],
    latency: i === 0 ? lat : 1 + (i % 3),
    latencyByResource: { R: i === 0 ? lat : 1 + (i % 3) },
    divCycles: 0,
    unknown: false,
  }));
  const deps = [
    { from: 0, to: 0, resource: 'R' as const, loopCarried: true },
    ...Array.from({ length: 59 }, (_, k) => ({ from: 0, to: k + 1, resource: 'R' as const, loopCarried: false })),
  ];
  return { instructions, deps };
}

if (process.argv[2] === '--child') {
  const [root, name, iterations, runs, scheduler] = process.argv.slice(3);
  const c = CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no case ${name}`);
  const r = (PROBES as readonly string[]).includes(root!)
    ? await runProbe(root as ProbeName, c, Number(iterations), Number(runs))
    : await runCase(resolve(root!), c, Number(iterations), Number(runs), scheduler || undefined);
  process.stdout.write(JSON.stringify(r) + '\n');
} else {
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 50_000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const pick = process.env.BENCH_CASES?.split(',');
  const cases = CASES.filter((c) => !pick || pick.includes(c.name));
  interface Side {
    label: string;
    root: string;
    scheduler: string;
    runs(c: Case): boolean;
  }
  const sides: Side[] = [{ label: 'new', root: join(here, '..'), scheduler: '', runs: () => true }];
  const baseScheduler = process.env.BENCH_BASE_SCHEDULER ?? '';
  const la = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  console.log(
    `engine speed, full simulation of ${iterations.toLocaleString('en')} iterations; median over ${rounds} alternating rounds of the median CPU time of ${runs} runs`,
  );
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${la()} at start`);
  if (process.env.BENCH_BASE) {
    const root = resolve(process.env.BENCH_BASE);
    const refined = hasRefined(root);
    sides.unshift({
      label: baseScheduler ? `old (${baseScheduler})` : 'old',
      root,
      scheduler: baseScheduler,
      runs: (c) => refined || c.model === 'suaca',
    });
    console.log(
      `old: ${root}${baseScheduler ? ` with ModelOptions.scheduler '${baseScheduler}'` : ''}${refined ? '' : " (no refined model: SUACA's cases only)"}; new: ${sides[1]!.root}`,
    );
  }
  if (process.env.BENCH_PROBES) {
    for (const name of PROBES) {
      const p = probeRunner(name);
      if ('why' in p) {
        console.log(`${name}: skipped, ${p.why}`);
        continue;
      }
      p.dispose();
      sides.push({ label: name, root: name, scheduler: '', runs: (c) => c.model === 'suaca' });
    }
    console.log(
      "probes (bench/probe): SUACA's cycle as one lean function, JavaScript in this Node, C as WebAssembly (clang-19 -O2) in this Node and native (gcc -O2); SUACA's cases only",
    );
  }
  const child = (root: string, c: Case, scheduler: string) => {
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--child',
        root,
        c.name,
        String(iterations),
        String(runs),
        scheduler,
      ],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`${c.name} in ${root}: ${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
      sec: number[];
      uopsPerIteration: number;
      cycles: number;
    };
  };
  for (const c of cases) {
    const ran = sides.filter((s) => s.runs(c));
    const per = ran.map(() => [] as number[]);
    let uops = 0;
    const cycles = ran.map(() => 0);
    for (let r = 0; r < rounds; r++) {
      // alternate which side goes first
      const order = r % 2 === 0 ? ran.map((_, k) => k) : ran.map((_, k) => k).reverse();
      for (const k of order) {
        const x = child(ran[k]!.root, c, ran[k]!.scheduler);
        per[k]!.push(median(x.sec));
        uops = x.uopsPerIteration;
        cycles[k] = x.cycles;
      }
    }
    // an old engine that computes other cycles runs another model (e.g. before fe9c86a's read
    // advances of LLVM figures: SKL's loop): its figure is shown, without a ratio
    const oldOther =
      ran[0]!.label.startsWith('old') && cycles[0] !== cycles[ran.length - 1] && new Set(cycles.slice(1)).size === 1;
    if (!oldOther && new Set(cycles).size !== 1)
      throw new Error(`${c.name}: cycles differ between ${ran.map((s) => s.label).join(', ')} (${cycles.join(' / ')})`);
    const mops = per.map((s) => (uops * iterations) / median(s) / 1e6);
    const fig = ran
      .map(
        (s, k) =>
          `${s.label} ${mops[k]!.toFixed(2)} M µops/s (${median(per[k]!).toFixed(3)} s${k === 0 && oldOther ? `, ${cycles[0]} cycles: another model, no ratio` : ''})`,
      )
      .join(', ');
    // ratios to the old engine when it ran this case (and computed the same), else to the new one
    const ref = ran[0]!.label.startsWith('old') && !oldOther ? 0 : ran.findIndex((s) => s.label === 'new');
    const ratios = ran
      .map((s, k) =>
        k === ref || (k === 0 && oldOther)
          ? ''
          : `${s.label}/${ran[ref]!.label.split(' ')[0]} ${(mops[k]! / mops[ref]!).toFixed(2)}×`,
      )
      .filter(Boolean)
      .join(', ');
    console.log(
      `${c.what} [${c.name}], ${uops} µops/iteration, ${cycles[ran.length - 1]} cycles: ${fig}${ratios ? `; ${ratios}` : ''}; load ${la()}`,
    );
  }
}
