// Benchmark of the data stage: import of a synthetic instructions.xml at full
// size (15,000 forms × 20 architectures, ≥ 120 MB, generated into a temp dir, never committed),
// then loading one architecture from the cache and from the embedded data.
// Targets on 2 cores: import ≤ 20 s and ≤ 1.5 GB peak; one architecture ≤ 100 ms.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedFiles } from '../src/data/embedded.js';
import { parseUopsXmlText } from '../src/data/uopsXml.js';
import type { InstructionForm } from '../src/data/types.js';
import { writeSyntheticXml } from './synthUops.js';

const here = dirname(fileURLToPath(import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'uopscope-bench-'));
const FORMS = Number(process.env.BENCH_FORMS ?? 15000);

function child(...args: string[]): { wallMs: number; cpuMs: number; maxRssMB: number; [k: string]: unknown } {
  const r = spawnSync(process.execPath, [join(here, 'dataChild.mjs'), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`dataChild ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

// the measured steps run on the built code, as users run uopscope
// (npm run build: tsc and the start-up bundle, which a tsc-only build would leave stale)
const build = spawnSync('npm', ['run', 'build'], { cwd: join(here, '..'), encoding: 'utf8' });
if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);

const rows: [string, string, string][] = [];
const ms = (n: number) => `${n.toFixed(0)} ms`;
try {
  const seed: InstructionForm[] = [];
  for (const f of embeddedFiles()) parseUopsXmlText(readFileSync(f, 'utf8'), f, { onForm: (x) => seed.push(x) });
  const file = join(tmp, 'instructions.xml');
  const t0 = performance.now();
  const bytes = await writeSyntheticXml(file, { forms: FORMS, seed });
  process.stdout.write(
    `generated ${(bytes / 1e6).toFixed(1)} MB (${FORMS} forms × 20 architectures, ${seed.length} from the embedded data) in ${ms(performance.now() - t0)}\n`,
  );

  const cache = join(tmp, 'cache');
  const imp = child('import', file, cache);
  rows.push([
    'import (full file)',
    `${ms(imp.wallMs)} wall, ${ms(imp.cpuMs)} CPU, peak ${imp.maxRssMB.toFixed(0)} MB`,
    imp.wallMs <= 20000 && imp.maxRssMB <= 1536 ? 'ok (≤ 20 s, ≤ 1.5 GB)' : 'OVER TARGET',
  ]);
  const load = child('load', 'SKL', cache);
  rows.push([
    `load SKL from cache (${load.forms} forms)`,
    `${ms(load.wallMs)} wall, ${ms(load.cpuMs)} CPU`,
    load.wallMs <= 100 ? 'ok (≤ 100 ms)' : 'OVER TARGET',
  ]);
  rows.push(['  then the first resolve (indexes the forms)', ms(load.resolveMs as number), '']);

  const emb = join(tmp, 'cache-embedded');
  if (embeddedFiles().length === 0) rows.push(['load SKL embedded', '-', 'no assets/uarch/embedded/*.xml yet']);
  else {
    const cold = child('load', 'SKL', emb);
    rows.push([
      `load SKL embedded, first run (parses the XML, ${cold.forms} forms)`,
      `${ms(cold.wallMs)} wall, ${ms(cold.cpuMs)} CPU`,
      'once per change of the embedded files',
    ]);
    const warm = child('load', 'SKL', emb);
    rows.push([
      `load SKL embedded, later runs (${warm.forms} forms)`,
      `${ms(warm.wallMs)} wall, ${ms(warm.cpuMs)} CPU`,
      warm.wallMs <= 100 ? 'ok (≤ 100 ms)' : 'OVER TARGET',
    ]);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const w0 = Math.max(...rows.map((r) => r[0].length));
const w1 = Math.max(...rows.map((r) => r[1].length));
for (const [a, b, c] of rows) process.stdout.write(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}\n`);
process.stdout.write(
  `(load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)} — wall times on a busy machine exceed CPU times)\n`,
);
