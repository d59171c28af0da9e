// `npm run bench`: runs every bench/*.bench.ts in its own process (React's production build, as
// the CLI uses it) and fails when one misses its target. `npm run bench -- ui` runs matching ones.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && (only.length === 0 || only.some((o) => f.includes(o)))).sort();
let failed = 0;
for (const f of files) {
  console.log(`== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${f}`], { stdio: 'inherit', env: { NODE_ENV: 'production', ...process.env } });
  if (r.status !== 0) { failed++; console.log(`!! ${f} missed its target (exit ${r.status})`); }
}
console.log(failed ? `${failed} of ${files.length} benchmarks missed their targets` : `all ${files.length} benchmarks met their targets`);
process.exitCode = failed ? 1 : 0;
