// What the report bench (bench/report.bench.ts) and its comparison with another revision
// (bench/reportAgainst.ts) share: medians, one process timed, the stencil binary, a built dist/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
/** how peak RSS and CPU time are taken, for the bench's header */
export const timeTool = TIME ?? '(unavailable)';

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The stencil binary of the examples (thesis §4.2), as built by examples/build. */
export function stencilFile(root: string): string {
  const dir = join(root, 'examples', 'bin');
  const hit = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /stencil/i.test(f))
        .sort()
    : [];
  if (!hit.length) throw new Error(`no stencil binary under ${dir}; build the examples first`);
  // prefer the ELF build (no extension) over .exe / .o variants
  return join(dir, hit.find((f) => !f.includes('.')) ?? hit[0]!);
}

/** Builds dist/ and its start-up bundle (npm run build) when missing or older than src/
 *  (whole-process time is measured on dist, as installed); the CLI's entry. */
export function ensureBuilt(root: string): string {
  const main = join(root, 'dist', 'cli', 'main.cjs');
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce(
      (m, e) => Math.max(m, e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs),
      0,
    );
  const bundle = join(root, 'dist', 'cli', 'uopscope.cjs');
  const src = Math.max(newest(join(root, 'src')), statSync(join(root, 'tools', 'bundle.mjs')).mtimeMs);
  if (
    !existsSync(main) ||
    !existsSync(bundle) ||
    statSync(main).mtimeMs < src ||
    statSync(bundle).mtimeMs < statSync(main).mtimeMs
  ) {
    console.log('building dist/ (npm run build) …');
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0 || !existsSync(main) || !existsSync(bundle)) throw new Error('npm run build failed');
  }
  return main;
}

export interface Timed {
  /** wall time, s */
  seconds: number;
  /** user + system CPU time, s (null without /usr/bin/time) */
  cpuSec: number | null;
  /** peak RSS, KB (null without /usr/bin/time) */
  rssKb: number | null;
  stdout: string;
}

/** Wall time, CPU time and peak RSS of one process, run in `cwd` (with `env` added to the
 *  environment); throws with its standard error when it fails. */
export function timeProcess(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Timed {
  const argv = TIME ? ([TIME, ['-f', '__RSS_KB=%M __CPU=%U+%S', cmd, ...args]] as const) : ([cmd, args] as const);
  const t0 = performance.now();
  const r = spawnSync(argv[0], [...argv[1]], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, ...env },
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  const m = /__RSS_KB=(\d+)/.exec(r.stderr ?? '');
  const c = /__CPU=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? '');
  return { seconds, cpuSec: c ? Number(c[1]) + Number(c[2]) : null, rssKb: m ? Number(m[1]) : null, stdout: r.stdout };
}
