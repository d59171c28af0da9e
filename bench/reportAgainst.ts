// `npm run bench -- report --against <git-rev>`: the report bench's whole-process cases, run on
// this checkout's build and on another revision's, interleaved in one run. The revision is
// exported with `git archive` into a directory of its own (under the system's temp directory,
// kept for the next run) and built there with `npm run build`; it shares this checkout's
// node_modules when its package-lock.json is the same, else it gets its own (`npm ci`). Each
// round runs every case once on each side, the side that goes first alternating from round to
// round, so that a change of the machine's load falls on both sides alike; each side has its own
// cache directory (UOPSCOPE_CACHE_DIR), warmed by one untimed run of each case. The result: each
// case's medians, their ratio (this checkout / the revision: above 1 is slower) and the median of
// those ratios, with the load average at the start and at the end.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRevision } from './args.js';
import { median, timeProcess } from './reportHelpers.js';

/** One whole-process case: the CLI's arguments and how many timed runs it gets on each side. */
export interface ReportCase {
  what: string;
  args: string[];
  runs: number;
}

/** A loop of the report bench: its file and the report's options besides iterations. */
export interface BenchLoop {
  name: string;
  file: string;
  args: string[];
}

/** The report bench's whole-process cases: the full report at 1 iteration with the defaults,
 *  then per loop and iteration count `report --fast --json` and (up to 100,000) the full report. */
export function reportCases(
  stencil: string,
  loops: BenchLoop[],
  iterations: number[],
  runsFor: (n: number) => number,
): ReportCase[] {
  const cases: ReportCase[] = [
    {
      what: 'report stencil -i 1 (defaults, full report)',
      args: ['report', stencil, '--iterations', '1'],
      runs: runsFor(1),
    },
  ];
  for (const l of loops)
    for (const n of iterations) {
      const it = ['--iterations', String(n)];
      const count = n.toLocaleString('en');
      cases.push({
        what: `${l.name}, --fast, ${count}`,
        args: ['report', l.file, ...l.args, ...it, '--fast', '--json'],
        runs: runsFor(n),
      });
      if (n <= 100_000)
        cases.push({
          what: `${l.name}, full report, ${count}`,
          args: ['report', l.file, ...l.args, ...it],
          runs: runsFor(n),
        });
    }
  return cases;
}

interface Side {
  label: string;
  cli: string;
  dir: string;
  cache: string;
}

const run = (cmd: string, args: string[], cwd: string) => {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (${r.status ?? r.signal})`);
};

/** Exports commit `sha` and builds it (or finds it built by an earlier run); its CLI's entry. */
function buildRevision(root: string, sha: string): { dir: string; cli: string } {
  const dir = join(tmpdir(), `uopscope-bench-rev-${sha.slice(0, 12)}`);
  const cli = join(dir, 'dist', 'cli', 'main.cjs');
  const marker = join(dir, '.uopscope-bench-built');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === sha && existsSync(cli)) {
    console.log(`${sha.slice(0, 12)}: built by an earlier run in ${dir} (delete it to rebuild)`);
    return { dir, cli };
  }
  console.log(`${sha.slice(0, 12)}: exporting and building it in ${dir} …`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = spawnSync('git', ['-C', root, 'archive', '--format=tar', sha], { maxBuffer: 1 << 30 });
  if (tar.status !== 0) throw new Error(`git archive ${sha} failed: ${tar.stderr}`);
  const x = spawnSync('tar', ['-x', '-C', dir], { input: tar.stdout });
  if (x.status !== 0) throw new Error(`tar -x into ${dir} failed: ${x.stderr}`);
  const lock = spawnSync('git', ['-C', root, 'show', `${sha}:package-lock.json`], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ownLock = join(root, 'package-lock.json');
  const sameLock = lock.status === 0 && existsSync(ownLock) && readFileSync(ownLock, 'utf8') === lock.stdout;
  if (sameLock && existsSync(join(root, 'node_modules')))
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  else run('npm', ['ci', '--no-audit', '--no-fund'], dir);
  run('npm', ['run', 'build'], dir);
  if (!existsSync(cli)) throw new Error(`the build of ${sha} made no ${cli}`);
  writeFileSync(marker, sha);
  return { dir, cli };
}

const gitLine = (root: string, args: string[]) =>
  spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' }).stdout?.trim() ?? '';

interface Times {
  wall: number[];
  cpu: number[];
}

/** The side timed against the revision: this checkout's build, or (`at`) another revision's. */
function firstSide(o: { root: string; cli?: string; at?: string; tmp: string }): { side: Side; what: string } {
  const cache = join(o.tmp, 'cache-this');
  if (o.at !== undefined) {
    const sha = resolveRevision(o.root, o.at);
    const what = `${sha.slice(0, 12)} (${gitLine(o.root, ['log', '-1', '--format=%s', sha])})`;
    return { side: { label: sha.slice(0, 12), ...buildRevision(o.root, sha), cache }, what };
  }
  const head = gitLine(o.root, ['rev-parse', '--short=12', 'HEAD']);
  const dirty = gitLine(o.root, ['status', '--porcelain', '--untracked-files=no']) !== '';
  return {
    side: { label: 'this', cli: o.cli!, dir: o.root, cache },
    what: `this checkout (HEAD ${head}${dirty ? ', with uncommitted changes' : ''})`,
  };
}

/** Runs the cases on both sides, interleaved, and prints the comparison. */
export function compareAgainst(o: {
  root: string;
  rev: string;
  cli?: string;
  at?: string;
  cases: ReportCase[];
  tmp: string;
}): void {
  const sha = resolveRevision(o.root, o.rev);
  const first = firstSide(o);
  const sides: Side[] = [
    first.side,
    { label: sha.slice(0, 12), ...buildRevision(o.root, sha), cache: join(o.tmp, 'cache-rev') },
  ];
  if (sides[0]!.label === sides[1]!.label) sides[0]!.label += ' (--at)';
  const loadStart = loadavg();
  console.log(
    `report bench against ${sha.slice(0, 12)} (${gitLine(o.root, ['log', '-1', '--format=%s', sha])}): ` +
      `${first.what} and that revision's build, interleaved`,
  );
  console.log(`load average at the start: ${loadStart.map((x) => x.toFixed(2)).join(' ')}`);
  const time = (s: Side, c: ReportCase) =>
    timeProcess(process.execPath, [s.cli, ...c.args], s.dir, { UOPSCOPE_CACHE_DIR: s.cache });
  // warm-up, untimed: fills each side's cache and finds the cases a side cannot run
  const skipped = new Map<ReportCase, string>();
  for (const c of o.cases)
    for (const s of sides) {
      mkdirSync(s.cache, { recursive: true });
      try {
        time(s, c);
      } catch (e) {
        skipped.set(c, `${s.label}: ${String((e as Error).message).split('\n')[0]}`);
      }
    }
  const cases = o.cases.filter((c) => !skipped.has(c));
  const times = new Map(cases.map((c) => [c, sides.map((): Times => ({ wall: [], cpu: [] }))]));
  const rounds = Math.max(...cases.map((c) => c.runs), 0);
  for (let k = 0; k < rounds; k++) {
    const order = k % 2 === 0 ? [0, 1] : [1, 0];
    for (const c of cases) {
      if (k >= c.runs) continue;
      for (const i of order) {
        const r = time(sides[i]!, c);
        times.get(c)![i]!.wall.push(r.seconds);
        if (r.cpuSec !== null) times.get(c)![i]!.cpu.push(r.cpuSec);
      }
    }
    console.log(`  round ${k + 1} of ${rounds} done (load average ${loadavg()[0]!.toFixed(2)})`);
  }
  printComparison(sides, cases, times, skipped);
  console.log(
    `load average at the end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}

function printComparison(
  sides: Side[],
  cases: ReportCase[],
  times: Map<ReportCase, Times[]>,
  skipped: Map<ReportCase, string>,
) {
  const f = (xs: number[]) => (xs.length ? median(xs).toFixed(3) : '-');
  const ratio = (a: number[], b: number[]) => (a.length && b.length ? median(a) / median(b) : null);
  const [one, rev] = [sides[0]!.label, sides[1]!.label];
  console.log('');
  console.log(`case | runs | ${one}: wall s (CPU s) | ${rev}: wall s (CPU s) | ${one} / ${rev}: wall (CPU)`);
  const wallRatios: number[] = [];
  const cpuRatios: number[] = [];
  for (const c of cases) {
    const [a, b] = times.get(c)!;
    const w = ratio(a!.wall, b!.wall);
    const cpu = ratio(a!.cpu, b!.cpu);
    if (w !== null) wallRatios.push(w);
    if (cpu !== null) cpuRatios.push(cpu);
    console.log(
      `${c.what} | ${c.runs} | ${f(a!.wall)} (${f(a!.cpu)}) | ${f(b!.wall)} (${f(b!.cpu)}) | ` +
        `${w === null ? '-' : w.toFixed(3)} (${cpu === null ? '-' : cpu.toFixed(3)})`,
    );
  }
  for (const [c, why] of skipped) console.log(`${c.what}: not compared, it failed on ${why}`);
  console.log('');
  console.log(
    `median of the ${wallRatios.length} cases' ratios, ${one} / ${rev}: wall ${wallRatios.length ? median(wallRatios).toFixed(3) : '-'}, ` +
      `CPU ${cpuRatios.length ? median(cpuRatios).toFixed(3) : '-'} (above 1: ${one === 'this' ? 'this checkout' : one} is slower)`,
  );
}
