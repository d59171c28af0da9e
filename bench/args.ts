// The arguments of `npm run bench` (bench/run.ts): names to pick benchmarks by, and
// `--against <git-rev>`, which runs the report bench against another revision's build (and
// `--at <git-rev>`, which times that revision's build in place of this checkout's). Parsing and
// the checks are here, apart from the timing, so that a test can run them without timing anything.
import { spawnSync } from 'node:child_process';

export interface BenchArgs {
  /** parts of bench file names: the benchmarks whose file name contains one of them */
  filters: string[];
  /** the git revision to compare with, as given */
  against?: string;
  /** the git revision timed against it instead of this checkout, as given */
  at?: string;
}

/** A mistake in the arguments: one line for the user (the runner exits 2). */
export class BenchArgError extends Error {}

const USAGE = 'usage: npm run bench [-- NAME ...] [--against GIT-REV [--at GIT-REV]]';
const REV_OPTIONS = ['--against', '--at'] as const;

/** Parses the runner's arguments (after `npm run bench --`). */
export function parseBenchArgs(argv: string[]): BenchArgs {
  const filters: string[] = [];
  const revs: Partial<Record<(typeof REV_OPTIONS)[number], string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const opt = REV_OPTIONS.find((o) => a === o || a.startsWith(`${o}=`));
    if (opt) {
      const value = a === opt ? argv[++i] : a.slice(opt.length + 1);
      if (value === undefined || value === '' || value.startsWith('-'))
        throw new BenchArgError(`${opt} needs a git revision, e.g. ${opt} HEAD~1 (${USAGE})`);
      if (revs[opt] !== undefined)
        throw new BenchArgError(`${opt} given twice (${revs[opt]}, ${value}): give one revision`);
      revs[opt] = value;
    } else if (a.startsWith('-')) throw new BenchArgError(`unknown option ${a} (${USAGE})`);
    else filters.push(a);
  }
  if (revs['--at'] !== undefined && revs['--against'] === undefined)
    throw new BenchArgError(`--at times a revision against another: give --against GIT-REV too (${USAGE})`);
  return {
    filters,
    ...(revs['--against'] === undefined ? {} : { against: revs['--against'] }),
    ...(revs['--at'] === undefined ? {} : { at: revs['--at'] }),
  };
}

/** The benchmark that can compare revisions: the report's, whole-process. */
const COMPARABLE = 'report.bench.ts';

/** With `--against`, the benchmarks picked must be the report's alone: the others time code in
 *  process (or native runs) that another revision's build does not give them. */
export function checkAgainst(files: string[], against: string | undefined): void {
  if (against === undefined) return;
  if (files.length !== 1 || files[0] !== COMPARABLE)
    throw new BenchArgError(
      `--against compares the report bench only, and ${files.length === 0 ? 'no bench' : files.join(', ')} would run: ` +
        'name it alone (npm run bench -- report --against GIT-REV)',
    );
}

/** The commit `rev` names in the repository at `root` (full hash), or a BenchArgError. */
export function resolveRevision(root: string, rev: string): string {
  const r = spawnSync('git', ['-C', root, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`], {
    encoding: 'utf8',
  });
  if (r.error) throw new BenchArgError(`--against ${rev}: git could not run (${r.error.message}); install git`);
  const sha = r.stdout.trim();
  if (r.status !== 0 || !/^[0-9a-f]{40,64}$/.test(sha))
    throw new BenchArgError(
      `--against ${rev}: not a commit of the repository at ${root} — name one such as HEAD~1, main or a commit hash`,
    );
  return sha;
}
