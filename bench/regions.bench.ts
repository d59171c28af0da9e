// Benchmark of `uopscope regions` on a large shared library: peak resident memory (the figure
// this bench exists for), CPU and wall time of the whole process, as installed (dist/), the
// text listing and --json. The library: BENCH_LIBRARY, else LLVM 19's libLLVM (129 MB, 59 MB of
// code, 126,000 loops; Debian's llvm-19, which CI installs). BENCH_RUNS=n runs per figure
// (default 3, medians). BENCH_BASE=<another checkout, built> runs its dist/ too and says whether
// the two print the same bytes. Peak RSS is /usr/bin/time's %M: the largest process of the run.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIBRARY = process.env.BENCH_LIBRARY ?? '/usr/lib/llvm-19/lib/libLLVM.so.1';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TIME = '/usr/bin/time';
const BASE = process.env.BENCH_BASE;

if (!existsSync(LIBRARY) || !existsSync(TIME)) {
  console.log(
    `skipped: ${existsSync(TIME) ? `${LIBRARY} not found (apt-get install llvm-19, or set BENCH_LIBRARY)` : `${TIME} not found (apt-get install time)`}`,
  );
  process.exit(0);
}

// measured on the built code, as users run uopscope (npm run build: tsc and the start-up bundle)
const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);

interface Run {
  rssMB: number;
  cpuS: number;
  wallS: number;
  sha: string;
  lines: number;
}

function once(checkout: string, args: string[]): Run {
  const main = join(checkout, 'dist', 'cli', 'main.cjs');
  const r = spawnSync(TIME, ['-f', '__RSS_KB=%M __CPU=%U+%S __WALL=%e', process.execPath, main, ...args], {
    encoding: 'buffer',
    maxBuffer: 1 << 30,
  });
  const err = r.stderr.toString('utf8');
  if (r.status !== 0) throw new Error(`${main} ${args.join(' ')} failed: ${err}`);
  const rss = /__RSS_KB=(\d+)/.exec(err);
  const cpu = /__CPU=([\d.]+)\+([\d.]+)/.exec(err);
  const wall = /__WALL=([\d.]+)/.exec(err);
  if (!rss || !cpu || !wall) throw new Error(`no figures from ${TIME}: ${err}`);
  let lines = 0;
  for (const b of r.stdout) if (b === 10) lines++;
  return {
    rssMB: Number(rss[1]) / 1024,
    cpuS: Number(cpu[1]) + Number(cpu[2]),
    wallS: Number(wall[1]),
    sha: createHash('sha256').update(r.stdout).digest('hex').slice(0, 16),
    lines,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const checkouts: [string, string][] = [['this checkout', root]];
if (BASE) checkouts.push([`BENCH_BASE (${BASE})`, BASE]);
console.log(
  `uopscope regions ${LIBRARY}: ${RUNS} runs each, medians; peak RSS by ${TIME} (%M); load average ${loadavg()[0]!.toFixed(1)} at the start`,
);
for (const args of [
  ['regions', LIBRARY],
  ['regions', '--json', LIBRARY],
]) {
  const shas = new Set<string>();
  for (const [label, dir] of checkouts) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(once(dir, args));
    for (const r of runs) shas.add(r.sha);
    console.log(
      `${args.slice(0, -1).join(' ').padEnd(14)} ${label}: peak ${median(runs.map((r) => r.rssMB)).toFixed(0)} MB` +
        ` (${runs.map((r) => r.rssMB.toFixed(0)).join(', ')}), CPU ${median(runs.map((r) => r.cpuS)).toFixed(1)} s,` +
        ` wall ${median(runs.map((r) => r.wallS)).toFixed(1)} s, ${runs[0]!.lines} lines, sha256 ${runs[0]!.sha}…`,
    );
  }
  if (shas.size > 1) console.log(`  OUTPUTS DIFFER (${[...shas].join(', ')})`);
  else if (BASE) console.log('  same output from both');
}
console.log(`(load average ${loadavg()[0]!.toFixed(1)} at the end — wall times on a busy machine exceed CPU times)`);
