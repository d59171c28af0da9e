// `uopscope data measure`: bad input gets one line and exit 2; on Linux x86-64 a region's forms
// are measured into a measured-figures file that validates, and a second run resumes (keeps them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMeasured } from '../../../src/data/measuredFormat.js';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-data-measure-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const linux = process.platform === 'linux' && process.arch === 'x64';

function uopscope(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', 'data', 'measure', ...args], {
    encoding: 'utf8',
    env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(dir, 'cfg'), UOPSCOPE_CACHE_DIR: join(dir, 'cache'), ...env },
    timeout: 300_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('bad input: one line, exit 2', () => {
  for (const [args, re] of [
    [[], /name the code whose forms to measure/],
    [['--all', '--hex', '90'], /not both/],
    [['--hex', '4801d8', '--core', 'a/b'], /not an architecture name/],
    [['--hex', '4801d8', '--core', 'SKL', '--repetitions', '5'], /--repetitions 5: give a whole number from 10/],
  ] as [string[], RegExp][]) {
    const r = uopscope(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test("a region's forms into a file that validates; a second run keeps them", {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  const out = join(dir, 'm.json');
  // --core SKL: the file is named for a core the test chooses (the host may be any)
  const args = ['--hex', '4801d8480fafc3', '--core', 'SKL', '-o', out, '--runs', '2', '--repetitions', '10'];
  const r = uopscope(args);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /2 to characterize, 0 excluded; 0 already in the file, 2 measured now/);
  const f = readMeasured(out)!;
  assert.equal(f.arch, 'SKL');
  assert.match(f.provenance.command, /^uopscope data measure --hex 4801d8480fafc3 --core SKL/);
  const add = f.forms['ADD (R64, R64)']!;
  const self = add.latencies.find((l) => l.from === 'o0' && l.to === 'o0');
  // on a machine shared with other work the chain's runs may all have been dropped for contention
  // (the canary read outside its band around them): then the file says so, and there is no figure to check
  if (self) assert.ok(self.cycles >= 0.8 && self.cycles <= 1.3, `add chain ${self.cycles}`);
  else assert.match(add.check.notes?.join('\n') ?? '', /contention canary read high/, JSON.stringify(add.check));
  assert.ok(f.forms['IMUL (R64, R64)'], Object.keys(f.forms).join(', '));
  assert.equal(add.passes, 2);
  // the closing table counts the file as `data list` does
  const used = Object.values(f.forms).filter((x) => x.check.status !== 'failed').length;
  assert.match(r.stdout, new RegExp(`written +2 +forms in the file\\n +used +${used} `));
  if (f.machine.loadToUse) assert.ok(f.machine.loadToUse.value > 2, JSON.stringify(f.machine.loadToUse));
  const again = uopscope(args);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /2 already in the file, 0 measured now/);
  // a file of another core is refused, not overwritten
  const other = uopscope(['--hex', '4801d8', '--core', 'SPR', '-o', out]);
  assert.equal(other.status, 2);
  assert.match(other.stderr, /holds figures measured on .*SKL/);
});

test('without --core the figures are for the core uopscope identifies the host as; --core overrides it', {
  skip: !linux && 'Linux x86-64 only',
}, () => {
  // UOPSCOPE_HOST_ARCH stands in for CPUID here (the test host may be any core)
  const out = join(dir, 'host.json');
  const r = uopscope(['--hex', '4801d8', '-o', out, '--runs', '1', '--repetitions', '10'], {
    UOPSCOPE_HOST_ARCH: 'SKL',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /→ SKL: /);
  assert.doesNotMatch(r.stdout, /named by the user/);
  assert.equal(readMeasured(out)!.arch, 'SKL');
  const o = uopscope(
    ['--hex', '4801d8', '-o', join(dir, 'host2.json'), '--core', 'ICL', '--runs', '1', '--repetitions', '10'],
    {
      UOPSCOPE_HOST_ARCH: 'SKL',
    },
  );
  assert.equal(o.status, 0, o.stderr);
  assert.match(o.stdout, /→ ICL: named by the user \(--core ICL\)/);
});

test('SIGINT stops after the current form and keeps what is done; a rerun continues', {
  skip: !linux && 'Linux x86-64 only',
  timeout: 300_000,
}, async () => {
  const { spawn } = await import('node:child_process');
  const { existsSync, readFileSync } = await import('node:fs');
  const out = join(dir, 'int.json');
  // four forms: add, imul, xor, or (r64, r64)
  const args = [
    '--import',
    'tsx',
    'src/cli/main.cts',
    'data',
    'measure',
    '--hex',
    '4801d8480fafc34831d84809d8',
    '--core',
    'SKL',
    '-o',
    out,
    '--runs',
    '1',
    '--repetitions',
    '10',
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(dir, 'cfg'), UOPSCOPE_CACHE_DIR: join(dir, 'cache') },
  });
  // the exit is awaited from the start: a child that ends before the first form is written (an
  // error) must fail the test with its output, not leave the test waiting for an event long past
  const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b) => {
    stdout += String(b);
  });
  child.stderr.on('data', (b) => {
    stderr += String(b);
  });
  const formsIn = (): number => {
    try {
      return Object.keys(JSON.parse(readFileSync(out, 'utf8')).forms).length;
    } catch {
      return 0;
    }
  };
  while (!(existsSync(out) && formsIn() >= 1) && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGINT');
  const code = await exited;
  const kept = formsIn();
  assert.ok(kept >= 1 && kept <= 4, `forms kept: ${kept} (exit ${code}; ${stderr})`);
  if (kept < 4) {
    assert.equal(code, 130, stdout);
    assert.match(stdout, /interrupted: run the same command again to continue/);
  }
  const again = uopscope(args.slice(5));
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`${kept} already in the file, ${4 - kept} measured now`));
});
