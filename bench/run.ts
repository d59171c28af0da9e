// `npm run bench`: runs every bench/*.bench.ts, one child process each (so that time and peak
// memory of one benchmark do not disturb another). `npm run bench -- data` runs the ones whose
// file name contains "data". `npm run bench -- report --against <git-rev>` runs the report bench
// against that revision's build instead (bench/reportAgainst.ts); `--at <git-rev>` times that
// revision's build in place of this checkout's.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchArgError, checkAgainst, parseBenchArgs, resolveRevision } from './args.js';

const here = dirname(fileURLToPath(import.meta.url));
let filters: string[];
let against: string | undefined;
let at: string | undefined;
let files: string[];
try {
  ({ filters, against, at } = parseBenchArgs(process.argv.slice(2)));
  files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
  if (files.length === 0) throw new BenchArgError(`no benchmark matches ${filters.join(' ')}`);
  checkAgainst(files, against);
  // the commit, resolved here so that a wrong name fails before anything is built
  if (against !== undefined) against = resolveRevision(join(here, '..'), against);
  if (at !== undefined) at = resolveRevision(join(here, '..'), at);
} catch (e) {
  if (!(e instanceof BenchArgError)) throw e;
  process.stderr.write(`bench: ${e.message}\n`);
  process.exit(2);
}
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n== ${f}\n`);
  const extra = [...(against === undefined ? [] : ['--against', against]), ...(at === undefined ? [] : ['--at', at])];
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, f), ...extra], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`${f} exited with ${r.status ?? r.signal}\n`);
  }
}
process.exit(failed ? 1 : 0);
