// The generator of the LLVM-derived data reruns to identical files: `npm run gen:llvm -- --out
// DIR` (tools/llvm-sched/generate.ts: builds gen.cpp against libLLVM-19, runs it on the
// canonical instances) into a temporary directory must write exactly the committed
// assets/uarch/llvm, byte for byte.
//
// Needs llvm-config-19, Debian's llvm-19-dev (headers, libLLVM-19.so) and g++. Without them the
// regeneration skips locally and FAILS when CI is set: CI installs llvm-19-dev (.ci/run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMMITTED = join(ROOT, 'assets', 'uarch', 'llvm');
const GENERATE = join(ROOT, 'tools', 'llvm-sched', 'generate.ts');
const IN_CI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

function runs(tool: string, args: string[]): string | null {
  const r = spawnSync(tool, args, { encoding: 'utf8' });
  if (r.error) return `${tool} cannot run (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`;
  if (r.status !== 0) return `${tool} ${args.join(' ')} exited with ${r.status}`;
  return null;
}
const missing = [runs('llvm-config-19', ['--version']), runs('g++', ['--version'])].filter(
  (m): m is string => m !== null,
);
const cannotRun = `${missing.join('; ')} — install Debian's llvm-19-dev and g++ (apt-get install llvm-19-dev g++)`;
const SKIP = missing.length && !IN_CI ? cannotRun : false;

const generate = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', GENERATE, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });

test('the LLVM data generator reruns to files byte-identical to the committed assets/uarch/llvm', {
  skip: SKIP,
  timeout: 300_000,
}, () => {
  assert.equal(missing.length, 0, `CI is set but the generator cannot run: ${cannotRun}`);
  const dir = tempDir('llvmgen');
  try {
    const out = join(dir, 'llvm');
    const r = generate(['--out', out]);
    assert.equal(r.status, 0, `the generator failed:\n${r.stderr.slice(-3000)}`);
    const committed = readdirSync(COMMITTED).sort();
    assert.deepEqual(readdirSync(out).sort(), committed, 'the generator writes another set of files');
    assert.ok(committed.includes('index.json') && committed.includes('LICENSE.TXT') && committed.length >= 3);
    for (const name of committed) {
      const a = readFileSync(join(COMMITTED, name));
      const b = readFileSync(join(out, name));
      assert.ok(
        a.equals(b),
        `${name} differs from the regenerated one (${a.length} → ${b.length} bytes) — rerun \`npm run gen:llvm\` and commit, or find what made the output change`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the generator refuses an --out that holds files it did not write, and bad options, with one line and exit 2', () => {
  const dir = tempDir('llvmgen-out');
  try {
    writeFileSync(join(dir, 'notes.md'), 'mine');
    const r = generate(['--out', dir]);
    assert.equal(r.status, 2, r.stderr);
    assert.match(
      r.stderr,
      /^generate\.ts: --out .* is not empty and holds no index\.json of an earlier run — name a new or empty directory\n$/,
    );
    assert.equal(readFileSync(join(dir, 'notes.md'), 'utf8'), 'mine');

    const earlier = join(dir, 'earlier');
    mkdirSync(earlier);
    writeFileSync(join(earlier, 'index.json'), '{}');
    writeFileSync(join(earlier, 'notes.md'), 'mine');
    const r2 = generate(['--out', earlier]);
    assert.equal(r2.status, 2, r2.stderr);
    assert.match(r2.stderr, /holds files the generator did not write \(notes\.md\)/);
    assert.equal(r2.stderr.trim().split('\n').length, 1);
    assert.deepEqual(readdirSync(earlier).sort(), ['index.json', 'notes.md']);

    const r3 = generate(['--outdir', dir]);
    assert.equal(r3.status, 2);
    assert.match(r3.stderr, /^generate\.ts: Unknown option '--outdir' — usage: generate\.ts \[--out DIR\]\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
