// Benchmark of `uopscope report`: simulated µops per second and whole-process
// time on the IVB stencil example and on a 60-instruction loop (bench/loopSource.ts, built from
// real uops.info forms) at 1 / 1,000 / 100,000 / 1,000,000 iterations, side by side with
// llvm-mca (`llvm-mca-19 -mcpu=ivybridge -iterations=N`) on the same instructions, and the stencil
// in the default configuration (no --arch, no data option: SKL, the refined model, the shipped
// data) against `llvm-mca-19 -mcpu=skylake`, medians of
// several runs (wall and CPU time), the start-up alone (`--version`, `--help`), and peak RSS
// against iterations. Run with `npm run bench` (or directly:
// `node --import tsx bench/report.bench.ts`). BENCH_RUNS=n changes the runs per figure;
// BENCH_ITERATIONS=1000,100000 the iteration counts. `--against <git-rev>` compares the
// whole-process cases with that revision's build instead (bench/reportAgainst.ts), and
// `--at <git-rev>` times that revision's build in place of this checkout's.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyse } from '../src/cli/pipeline.js';
import { BUILTIN_DEFAULTS } from '../src/cli/config.js';
import { simulate, BASELINE, mechanismsOf } from '../src/sim/index.js';
import type { EngineOptions } from '../src/sim/index.js';
import { loopSource } from './loopSource.js';
import { BenchArgError, parseBenchArgs } from './args.js';
import { compareAgainst, reportCases } from './reportAgainst.js';
import { ensureBuilt, median, stencilFile, timeProcess as timeIn, timeTool } from './reportHelpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ARCH = 'IVB';
const MCA = ['llvm-mca-19', 'llvm-mca'].find((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0);
const iterationsList = (process.env.BENCH_ITERATIONS ?? '1,1000,100000,1000000').split(',').map(Number);
const runsFor = (n: number) => Number(process.env.BENCH_RUNS ?? (n >= 1_000_000 ? 3 : 5));

/**
 * Data for the stencil's instructions: BENCH_UOPS_XML, else the engine's thesis fixture (the
 * facts the thesis's IVB runs used) when present, else whatever the project has (imported or
 * embedded uops.info data).
 */
const thesisFixture = join(root, 'examples', 'thesis', 'thesis-instructions.xml');
const uopsXml = process.env.BENCH_UOPS_XML ?? (existsSync(thesisFixture) ? thesisFixture : undefined);
const dataArgs = uopsXml ? ['--uops-xml', uopsXml] : [];

const stencil = stencilFile(root);
const tmp = mkdtempSync(join(tmpdir(), 'uopscope-bench-'));

const sixty = join(tmp, 'sixty.s');
writeFileSync(sixty, loopSource(6));

const timeProcess = (cmd: string, args: string[]) => timeIn(cmd, args, root);

// --against <git-rev>: only the whole-process cases, on this build and that revision's
let against: string | undefined;
let at: string | undefined;
try {
  ({ against, at } = parseBenchArgs(process.argv.slice(2)));
} catch (e) {
  if (!(e instanceof BenchArgError)) throw e;
  process.stderr.write(`report bench: ${e.message}\n`);
  process.exit(2);
}
if (against !== undefined) {
  const ivb = ['--arch', ARCH, ...dataArgs];
  const loops = [
    { name: 'stencil', file: stencil, args: ivb },
    { name: '60-instruction loop', file: sixty, args: ivb },
    { name: `stencil, defaults (${BUILTIN_DEFAULTS.arch}, ${BUILTIN_DEFAULTS.model})`, file: stencil, args: [] },
  ];
  try {
    const cases = reportCases(stencil, loops, iterationsList, runsFor);
    compareAgainst({ root, rev: against, ...(at === undefined ? { cli: ensureBuilt(root) } : { at }), cases, tmp });
  } catch (e) {
    // a wrong revision is the user's (exit 2); a failed export or build says what failed (exit 1)
    process.stderr.write(`report bench: ${(e as Error).message}\n`);
    process.exitCode = e instanceof BenchArgError ? 2 : 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  process.exit();
}
const cli = ensureBuilt(root);

interface Loop {
  name: string;
  file: string;
  analysis: Awaited<ReturnType<typeof analyse>>;
  uopsPerIteration: number;
  asmFile: string;
  /** the report's options besides the file and iterations (none: the defaults) */
  args: string[];
  /** llvm-mca's -mcpu for the same core */
  mcpu: string;
  /** the in-process simulations' options: the default model's mechanisms for the defaults'
   *  loop; the others keep the engine's own default (SUACA's model), as before */
  opts: EngineOptions;
}
async function loopOf(name: string, file: string, defaults = false): Promise<Loop> {
  const arch = defaults ? BUILTIN_DEFAULTS.arch : ARCH;
  const xml = defaults ? undefined : uopsXml;
  const analysis = await analyse({ file, arch, loop: true, ...(xml ? { uopsXml: xml } : {}) });
  const uopsPerIteration = analysis.program.instructions.reduce((a, i) => a + i.uops.length, 0);
  // the same instructions for llvm-mca, in Intel syntax, looping back to the first
  const asmFile = join(tmp, `${name}.mca.s`);
  const body = analysis.region.instructions.map((i) =>
    i.branch?.kind === 'conditional' && i.branch.backward ? `${i.mnemonic.toLowerCase()} .Lloop` : i.intel,
  );
  writeFileSync(asmFile, ['.intel_syntax noprefix', '.Lloop:', ...body, ''].join('\n'));
  if (analysis.unknown.length)
    console.log(
      `warning: ${name}: no data for line(s) ${analysis.unknown.map((u) => u.line).join(', ')} — figures are not comparable`,
    );
  const args = defaults ? [] : ['--arch', ARCH, ...dataArgs];
  const mcpu = ({ IVB: 'ivybridge', SKL: 'skylake' } as Record<string, string>)[arch]!;
  const opts: EngineOptions = defaults ? { model: { mechanisms: mechanismsOf(BUILTIN_DEFAULTS.model) } } : {};
  return { name, file, analysis, uopsPerIteration, asmFile, args, mcpu, opts };
}
const loops = [
  await loopOf('stencil', stencil),
  await loopOf('60-instruction loop', sixty),
  // the default configuration (issue: it must reach its steady state)
  await loopOf(`stencil, defaults (${BUILTIN_DEFAULTS.arch}, ${BUILTIN_DEFAULTS.model})`, stencil, true),
];
if (loops[1]!.analysis.program.instructions.length !== 60)
  throw new Error(`expected 60 instructions, got ${loops[1]!.analysis.program.instructions.length}`);

console.log(
  `uopscope report vs llvm-mca — ${ARCH}: ` +
    loops
      .map(
        (l) =>
          `${l.name} (${relative(root, l.file).startsWith('..') ? "bench/loopSource.ts's" : relative(root, l.file)}, ` +
          `${l.analysis.program.instructions.length} instructions, ${l.uopsPerIteration} µops per iteration)`,
      )
      .join('; '),
);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} at start (timings are only comparable on an idle machine)`,
);
console.log(`data: ${uopsXml ? relative(root, uopsXml) : 'imported / embedded uops.info data'}`);
console.log(`llvm-mca: ${MCA ?? 'not installed (apt-get install llvm-19)'}; peak RSS via ${timeTool}`);
console.log('');

// start-up: what every command pays before it does anything. The commands take turns (one run
// of each per round), so that a change of the machine's load falls on all of them alike.
const startRuns = Number(process.env.BENCH_RUNS ?? 15);
const startCommands = [
  { what: 'node -e 0 (Node alone)', args: ['-e', '0'] },
  { what: 'uopscope --version', args: [cli, '--version'] },
  { what: 'uopscope --help', args: [cli, '--help'] },
  // the start-up target's case: `uopscope report FILE` at 1 iteration (the default
  // architecture, data and model; the full report)
  { what: 'report stencil -i 1', args: [cli, 'report', stencil, '--iterations', '1'] },
];
const startTimes = startCommands.map(() => ({ w: [] as number[], c: [] as number[] }));
for (let k = 0; k < startRuns; k++) {
  startCommands.forEach((s0, i) => {
    const r = timeProcess(process.execPath, s0.args);
    startTimes[i]!.w.push(r.seconds);
    if (r.cpuSec !== null) startTimes[i]!.c.push(r.cpuSec);
  });
}
const starts = startCommands.map((s0, i) => ({
  what: s0.what,
  wall: median(startTimes[i]!.w),
  cpu: startTimes[i]!.c.length ? median(startTimes[i]!.c) : null,
}));

interface Row {
  n: number;
  simSec: number;
  fullSimSec: number;
  uopsPerSec: number;
  procSec: number;
  procCpuSec: number | null;
  procAllSec: number | null;
  procAllCpuSec: number | null;
  rssKb: number | null;
  mcaSec: number | null;
  mcaCpuSec: number | null;
  mcaRssKb: number | null;
  mcaCycles: number | null;
  ourCycles: number;
}
function measureLoop(loop: Loop): Row[] {
  const { file, analysis, uopsPerIteration, asmFile, args, mcpu, opts } = loop;
  const program = analysis.program;
  const rows: Row[] = [];
  for (const n of iterationsList) {
    const runs = runsFor(n);
    const sim: number[] = [];
    const fullSim: number[] = [];
    let ourCycles = 0;
    for (let k = 0; k < runs; k++) {
      // simulate() as the report runs it (the periodic part skipped), and every cycle simulated
      // (the engine's own speed: µops per second)
      let t0 = performance.now();
      ourCycles = simulate(program, analysis.params, { iterations: n, variant: BASELINE }, opts).stats.cycles;
      sim.push((performance.now() - t0) / 1000);
      t0 = performance.now();
      const full = simulate(
        program,
        analysis.params,
        { iterations: n, variant: BASELINE },
        { ...opts, fullSimulation: true },
      ).stats.cycles;
      fullSim.push((performance.now() - t0) / 1000);
      if (full !== ourCycles) throw new Error(`steady-state run ${ourCycles} cycles, full run ${full}`);
    }
    const proc: number[] = [];
    const procCpu: number[] = [];
    const rss: number[] = [];
    for (let k = 0; k < runs; k++) {
      const r = timeProcess(process.execPath, [
        cli,
        'report',
        file,
        ...args,
        '--iterations',
        String(n),
        '--fast',
        '--json',
      ]);
      proc.push(r.seconds);
      if (r.cpuSec !== null) procCpu.push(r.cpuSec);
      if (r.rssKb !== null) rss.push(r.rssKb);
    }
    // the full report (with the three what-if runs), up to 100,000 iterations
    const all: number[] = [];
    const allCpu: number[] = [];
    for (let k = 0; n <= 100_000 && k < Math.min(runs, 3); k++) {
      const r = timeProcess(process.execPath, [cli, 'report', file, ...args, '--iterations', String(n)]);
      all.push(r.seconds);
      if (r.cpuSec !== null) allCpu.push(r.cpuSec);
    }
    let mcaSec: number | null = null;
    let mcaCpuSec: number | null = null;
    let mcaRssKb: number | null = null;
    let mcaCycles: number | null = null;
    if (MCA) {
      const t: number[] = [];
      const tc: number[] = [];
      const m: number[] = [];
      for (let k = 0; k < runs; k++) {
        const r = timeProcess(MCA, [`-mcpu=${mcpu}`, `-iterations=${n}`, asmFile]);
        t.push(r.seconds);
        if (r.cpuSec !== null) tc.push(r.cpuSec);
        if (r.rssKb !== null) m.push(r.rssKb);
        mcaCycles = Number(/Total Cycles:\s+(\d+)/.exec(r.stdout)?.[1] ?? NaN);
      }
      mcaSec = median(t);
      mcaCpuSec = tc.length ? median(tc) : null;
      mcaRssKb = m.length ? median(m) : null;
    }
    const simSec = median(sim);
    const fullSimSec = median(fullSim);
    rows.push({
      n,
      simSec,
      fullSimSec,
      uopsPerSec: (uopsPerIteration * n) / fullSimSec,
      procSec: median(proc),
      procCpuSec: procCpu.length ? median(procCpu) : null,
      procAllSec: all.length ? median(all) : null,
      procAllCpuSec: allCpu.length ? median(allCpu) : null,
      rssKb: rss.length ? median(rss) : null,
      mcaSec,
      mcaCpuSec,
      mcaRssKb,
      mcaCycles,
      ourCycles,
    });
    console.log(
      `  ${loop.name}: ${n.toLocaleString('en')} iterations done (${runs} runs each, load average ${loadavg()[0]!.toFixed(1)})`,
    );
  }
  return rows;
}
const results = loops.map((l) => ({ loop: l, rows: measureLoop(l) }));
rmSync(tmp, { recursive: true, force: true });

const f = (x: number | null, d = 2) => (x === null ? '-' : x.toFixed(d));
const mb = (kb: number | null) => (kb === null ? '-' : (kb / 1024).toFixed(0));
const wc = (w: number | null, c: number | null) => `${f(w)} (${f(c)})`;
console.log('');
// in milliseconds: the 1-iteration target sits close to 2× node -e 0, where 0.01 s is 10 % of it
const ms = (x: number | null) => (x === null ? '-' : (x * 1000).toFixed(1));
console.log(`start-up, medians of ${startRuns} runs: wall ms (CPU ms)`);
for (const s0 of starts) console.log(`  ${s0.what.padEnd(24)} ${ms(s0.wall).padStart(6)} (${ms(s0.cpu)})`);
console.log('');
for (const { loop, rows } of results) {
  console.log(`${loop.name}: wall s (CPU s = user + system), medians`);
  console.log(
    'iterations | full sim µops/s | full sim s | sim s  | uopscope --fast s | full report s | llvm-mca s  | llvm-mca/uopscope | RSS MB (ours / mca) | cycles (ours / mca)',
  );
  for (const r of rows) {
    console.log(
      [
        r.n.toLocaleString('en').padStart(10),
        `${(r.uopsPerSec / 1e6).toFixed(2)} M`.padStart(15),
        f(r.fullSimSec, 3).padStart(10),
        f(r.simSec, 3).padStart(6),
        wc(r.procSec, r.procCpuSec).padStart(17),
        wc(r.procAllSec, r.procAllCpuSec).padStart(13),
        wc(r.mcaSec, r.mcaCpuSec).padStart(11),
        (r.mcaSec === null ? '-' : `${(r.mcaSec / r.procSec).toFixed(2)}×`).padStart(17),
        `${mb(r.rssKb)} / ${mb(r.mcaRssKb)}`.padStart(19),
        `${r.ourCycles} / ${r.mcaCycles ?? '-'}`,
      ].join(' | '),
    );
  }
  console.log('');
}
const one = results[0]!.rows.find((r) => r.n === 1);
const nodeAlone = starts[0]!;
if (one) {
  // the start-up targets: report at 1 iteration ≤ 2× node -e 0, --version and --help close to it
  const ratio = (w: number | null, base: number | null) =>
    w === null || base === null || base === 0 ? '-' : `${(w / base).toFixed(2)}×`;
  console.log('');
  console.log(
    `against node -e 0 (wall; CPU): report --fast at 1 iteration ${ratio(one.procSec, nodeAlone.wall)}; ${ratio(one.procCpuSec, nodeAlone.cpu)} (target ≤ 2×), ` +
      `report FILE -i 1 (defaults, full report) ${ratio(starts[3]!.wall, nodeAlone.wall)}; ${ratio(starts[3]!.cpu, nodeAlone.cpu)}, ` +
      `--version ${ratio(starts[1]!.wall, nodeAlone.wall)}; ${ratio(starts[1]!.cpu, nodeAlone.cpu)}, --help ${ratio(starts[2]!.wall, nodeAlone.wall)}; ${ratio(starts[2]!.cpu, nodeAlone.cpu)}`,
  );
}
console.log('');
console.log(
  `load average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(
  "full sim: in process, every cycle simulated (the engine's speed); sim s: simulate() as reports run it, the periodic part skipped (src/sim/steady.ts).",
);
console.log(
  'llvm-mca/uopscope > 1 means uopscope (one simulation, --fast) finished first; "full report" adds the three what-if runs.',
);
