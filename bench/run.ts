// `npm run bench`: runs every bench/*.bench.ts, one child process each (so that time and peak
// memory of one benchmark do not disturb another). `npm run bench -- data` runs the ones whose
// file name contains "data".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${filters.join(' ')}\n`);
  process.exit(2);
}
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n== ${f}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`${f} exited with ${r.status ?? r.signal}\n`);
  }
}
process.exit(failed ? 1 : 0);
