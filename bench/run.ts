// `npm run bench`: runs every bench/*.bench.ts (or those whose name contains an argument) one
// after the other, each in its own process so that timings and memory do not mix.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && (filters.length === 0 || filters.some((x) => f.includes(x)))).sort();
if (files.length === 0) {
  console.error(`bench: no bench/*.bench.ts matches ${filters.join(' ') || '(any)'}`);
  process.exit(2);
}
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) { failed++; console.error(`bench: ${f} failed (exit ${r.status})`); }
}
process.exit(failed ? 1 : 0);
