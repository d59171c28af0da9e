// Benchmark of what users run most: (1) the report of one small loop, whole process, beside
// llvm-mca-19 on the same file — the seven-instruction loop gcc -O2 makes of a saxpy (compiled
// here from the C below), `report -i 1` against `node -e 0` (start-up), the default report and
// `--fast` against `llvm-mca-19 -mcpu=skylake` (uopscope's default core is SKL), the commands
// interleaved round by round, medians of wall and CPU time; (2) every loop of a real library in
// one run (`report --all-regions --json`, worker threads): loops per second, peak memory, and the
// same loops through llvm-mca-19 one process each. Run with `npm run bench -- loops`.
// BENCH_RUNS=n rounds of (1) (default 11); BENCH_BATCH_LIBRARY the library of (2) (default
// glibc's libc.so.6); BENCH_BATCH=fast|full|both which reports (2) times (default both);
// BENCH_MCA_LOOPS=n how many of its loops go through llvm-mca (default all).
// Every process runs under `nice -n 15` (the machine may be shared); the load average is printed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeChosenRegion, listRegions, loadInput } from '../src/disasm/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const LIBRARY = process.env.BENCH_BATCH_LIBRARY ?? '/lib/x86_64-linux-gnu/libc.so.6';
const BATCH = process.env.BENCH_BATCH ?? 'both';
const TIME = '/usr/bin/time';
const MCA = ['llvm-mca-19', 'llvm-mca'].find((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

// measured on the built code, as users run uopscope (npm run build: tsc and the start-up bundle)
const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
const MAIN = join(root, 'dist', 'cli', 'main.cjs');
const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();

interface Timed {
  wallMs: number;
  cpuMs: number;
  rssMB: number;
  stdout: string;
  status: number | null;
}

/** One process under nice and /usr/bin/time: wall (measured here), CPU (user + system) and peak RSS. */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Timed {
  const t0 = performance.now();
  const r = spawnSync('nice', ['-n', '15', TIME, '-f', '__T=%U %S %M', cmd, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, ...env },
  });
  const wallMs = performance.now() - t0;
  const m = /__T=([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  if (!m) throw new Error(`${cmd} ${args.join(' ')}: no figures from ${TIME}: ${r.stderr}`);
  return {
    wallMs,
    cpuMs: (Number(m[1]) + Number(m[2])) * 1000,
    rssMB: Number(m[3]) / 1024,
    stdout: r.stdout,
    status: r.status,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const tmp = mkdtempSync(join(tmpdir(), 'uopscope-loops-bench-'));
try {
  console.log(
    `commit ${head}, ${new Date().toISOString()}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${load()} at the start`,
  );
  smallLoop();
  if (existsSync(LIBRARY)) await batch();
  else console.log(`\nbatch: skipped (${LIBRARY} not found; set BENCH_BATCH_LIBRARY)`);
  console.log(`\nload average at the end: ${load()}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/** (1) One small loop, each command once per round, rounds interleaved. */
function smallLoop(): void {
  const c = join(tmp, 'saxpy.c');
  writeFileSync(
    c,
    'void saxpy(float *restrict y, const float *restrict x, float a, long n) {\n  for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n}\n',
  );
  const s = join(tmp, 'saxpy.s');
  const cc = spawnSync('gcc', ['-O2', '-S', '-fno-asynchronous-unwind-tables', c, '-o', s], { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`gcc failed: ${cc.stderr}`);
  const cases: { what: string; cmd: string; args: string[] }[] = [
    { what: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
    { what: 'report -i 1', cmd: process.execPath, args: [MAIN, 'report', s, '-i', '1'] },
    { what: 'report (default)', cmd: process.execPath, args: [MAIN, 'report', s] },
    { what: 'report --fast', cmd: process.execPath, args: [MAIN, 'report', s, '--fast'] },
    ...(MCA ? [{ what: `${MCA} -mcpu=skylake`, cmd: MCA, args: ['-mcpu=skylake', s] }] : []),
  ];
  const wall = cases.map(() => [] as number[]);
  const cpu = cases.map(() => [] as number[]);
  for (let k = 0; k < RUNS; k++) {
    cases.forEach((x, i) => {
      const r = timed(x.cmd, x.args);
      if (r.status !== 0) throw new Error(`${x.what} failed`);
      wall[i]!.push(r.wallMs);
      cpu[i]!.push(r.cpuMs);
    });
  }
  const w = wall.map(median);
  const u = cpu.map(median);
  console.log(
    `\nsmall loop: gcc -O2's saxpy loop (7 instructions, a .s file), ${RUNS} interleaved rounds, medians; load average ${load()}`,
  );
  console.log('command                      | wall ms | CPU ms');
  for (const [i, x] of cases.entries())
    console.log(`${x.what.padEnd(28)} | ${w[i]!.toFixed(1).padStart(7)} | ${u[i]!.toFixed(0).padStart(6)}`);
  const ratio = (a: number, b: number) => `${(w[a]! / w[b]!).toFixed(2)}× (CPU ${(u[a]! / u[b]!).toFixed(2)}×)`;
  console.log(`report -i 1 / node -e 0: ${ratio(1, 0)}  (target ≤ 1.5×)`);
  if (MCA) {
    console.log(`report (default) / ${MCA}: ${ratio(2, 4)}  (target ≤ 4×)`);
    console.log(`report --fast / ${MCA}: ${ratio(3, 4)}  (target ≤ 3×)`);
  }
}

/** (2) Every loop of a library in one run, and the same loops through llvm-mca one process each. */
async function batch(): Promise<void> {
  const modes = BATCH === 'both' ? ['fast', 'full'] : [BATCH];
  console.log(
    `\nbatch: every region of ${LIBRARY}, report --all-regions --json (one run each); load average ${load()}`,
  );
  console.log('report             | regions | failed | wall s | CPU s | loops/s (wall) | peak RSS MB');
  for (const mode of modes) {
    const r = timed(process.execPath, [
      MAIN,
      'report',
      LIBRARY,
      '--all-regions',
      '--json',
      ...(mode === 'fast' ? ['--fast'] : []),
    ]);
    const lines = r.stdout.trimEnd().split('\n');
    const failed = lines.filter((l) => l.startsWith('{"file"')).length;
    console.log(
      `${(mode === 'fast' ? '--fast' : 'default (full)').padEnd(18)} | ${String(lines.length).padStart(7)} | ${String(failed).padStart(6)} | ${(r.wallMs / 1000).toFixed(1).padStart(6)} | ${(r.cpuMs / 1000).toFixed(1).padStart(5)} | ${(lines.length / (r.wallMs / 1000)).toFixed(1).padStart(14)} | ${r.rssMB.toFixed(0).padStart(11)}`,
    );
  }
  if (MCA) await mcaLoops();
}

/** The same loops, each written as an Intel-syntax file looping back to its first line, through
 *  llvm-mca (200 iterations, as uopscope's default), one process each. */
async function mcaLoops(): Promise<void> {
  const input = await loadInput({ file: LIBRARY });
  const regions = listRegions(input);
  const limit = Number(process.env.BENCH_MCA_LOOPS ?? regions.length);
  const files: string[] = [];
  for (const region of regions.slice(0, limit)) {
    try {
      const r = decodeChosenRegion(input, { ...region });
      // a jump or call to an address is written to the label (LLVM's assembler takes no bare
      // address as a target; where it goes does not change llvm-mca's timing)
      const body = r.instructions.map((i) =>
        i.branch && /^[a-z]+ 0x[0-9a-f]+$/i.test(i.intel.trim()) ? `${i.mnemonic.toLowerCase()} .Lloop` : i.intel,
      );
      const f = join(tmp, `mca-${files.length}.s`);
      writeFileSync(f, ['.intel_syntax noprefix', '.Lloop:', ...body, ''].join('\n'));
      files.push(f);
    } catch {
      /* a region uopscope cannot decode: not given to llvm-mca either */
    }
  }
  let failed = 0;
  let cpuMs = 0;
  let rss = 0;
  const t0 = performance.now();
  for (const f of files) {
    const r = timed(MCA!, ['-mcpu=skylake', '-iterations=200', f]);
    if (r.status !== 0) failed++;
    cpuMs += r.cpuMs;
    rss = Math.max(rss, r.rssMB);
  }
  const wallS = (performance.now() - t0) / 1000;
  console.log(
    `${`${MCA} per loop`.padEnd(18)} | ${String(files.length).padStart(7)} | ${String(failed).padStart(6)} | ${wallS.toFixed(1).padStart(6)} | ${(cpuMs / 1000).toFixed(1).padStart(5)} | ${(files.length / wallS).toFixed(1).padStart(14)} | ${rss.toFixed(0).padStart(11)}`,
  );
  console.log(
    '(llvm-mca: one process per loop, one after the other, 200 iterations, -mcpu=skylake; its "failed" are loops it could not read)',
  );
}
