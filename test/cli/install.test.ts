// The two ways the README gives to get a `uopscope` command: from a clone (`npm link`, which
// builds and links the bin) and from a package (here the tarball `npm pack` makes, installed
// into a temporary prefix as `npm install -g` does from the registry). The installed command must
// run: executable, with its shebang, finding its assets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const npm = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 240_000,
  });

test('npm pack + npm install -g into a fresh prefix gives a uopscope command that runs; the build leaves the bin executable', {
  timeout: 300_000,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-install-'));
  try {
    npm(['pack', '--pack-destination', dir, '--silent']);
    // the build (npm pack runs `prepare`) leaves the clone's own bin runnable as ./dist/cli/main.cjs
    const bin = join(ROOT, 'dist', 'cli', 'main.cjs');
    accessSync(bin, constants.X_OK);
    assert.match(readFileSync(bin, 'utf8'), /^#!\/usr\/bin\/env node\n/);
    assert.match(execFileSync(bin, ['--version'], { encoding: 'utf8' }), /^\d+\.\d+\.\d+/);

    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    const prefix = join(dir, 'prefix');
    npm(['install', '-g', '--prefix', prefix, '--prefer-offline', join(dir, tgz)]);
    const installed = join(prefix, 'bin', 'uopscope');
    accessSync(installed, constants.X_OK);
    const report = execFileSync(
      installed,
      ['report', join(ROOT, 'examples/bin/branch'), '--arch', 'SNB', '--fast', '--model', 'suaca'],
      { encoding: 'utf8', cwd: dir },
    );
    assert.match(report, /Block throughput: 2\.34 cycles/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("npm link in the clone (the README's way) puts a working uopscope on the PATH of its prefix", {
  timeout: 300_000,
}, () => {
  const prefix = mkdtempSync(join(tmpdir(), 'uopscope-link-'));
  try {
    npm(['link'], { npm_config_prefix: prefix });
    const out = execFileSync(join(prefix, 'bin', 'uopscope'), ['--version'], { encoding: 'utf8' });
    assert.match(out, /^\d+\.\d+\.\d+/);
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
});
