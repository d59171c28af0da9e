// --no-measured: a prediction without the figures uopscope measured on this machine (the user's
// file and the shipped one), so that it can be compared with the prediction that uses them. The
// measured file is the hand-written test fixture with IMUL (R64, R64)'s latency made 5 cycles
// (LLVM's Skylake model: 3), put where `data measure` writes it; a chain of imul then runs at 5
// cycles per iteration with the measured figures and at 3 without them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyse } from '../../src/cli/pipeline.js';
import { buildReport } from '../../src/cli/commands/reportRun.js';
import { resetArchDataMemo } from '../../src/data/archData.js';
import { measuredText, parseMeasured, userMeasuredPath } from '../../src/data/measuredFormat.js';
import { tempDir } from '../data/helpers.js';
import { runCli } from '../helpers/cli.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(HERE, '..', 'fixtures', 'measured', 'SKL.json');
const ASM = '.intel_syntax noprefix\n.globl f\nf:\n.L1:\n  imul rax, rbx\n  dec rcx\n  jnz .L1\n  ret\n';

function setup(): { cacheDir: string; file: string } {
  const cacheDir = tempDir('no-measured');
  const file = join(cacheDir, 'k.s');
  writeFileSync(file, ASM);
  const fixture = parseMeasured(readFileSync(FIXTURE, 'utf8'), FIXTURE);
  const imul = fixture.forms['IMUL (R64, R64)']!;
  const slow = {
    ...fixture,
    forms: {
      'IMUL (R64, R64)': {
        ...imul,
        latencies: imul.latencies.map((l) => (l.to === 'o0' ? { ...l, cycles: 5 } : l)),
      },
    },
  };
  mkdirSync(join(cacheDir, 'measured'));
  writeFileSync(userMeasuredPath('SKL', cacheDir), measuredText(slow));
  resetArchDataMemo();
  return { cacheDir, file };
}

test('analyse: measured: false leaves the measured figures out, the next source answers', async () => {
  const { cacheDir, file } = setup();
  try {
    const on = await analyse({ file, arch: 'SKL', cacheDir });
    const off = await analyse({ file, arch: 'SKL', cacheDir, measured: false });
    assert.deepEqual([on.resolved[0]!.origin, on.resolved[0]!.latencyByResource.RAX], ['measured', 5]);
    assert.deepEqual([off.resolved[0]!.origin, off.resolved[0]!.latencyByResource.RAX], ['llvm', 3]);
    assert.ok(!(off.data.layers ?? []).some((l) => l.provider === 'measured'));
    // the layer of the measured file is still there for the next run that wants it
    assert.ok(
      ((await analyse({ file, arch: 'SKL', cacheDir })).data.layers ?? []).some((l) => l.provider === 'measured'),
    );
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    resetArchDataMemo();
  }
});

test('buildReport: measured: false changes the prediction, as the table generator asks it', async () => {
  const { cacheDir, file } = setup();
  const before = process.env.UOPSCOPE_CACHE_DIR;
  process.env.UOPSCOPE_CACHE_DIR = cacheDir;
  try {
    const tp = async (measured?: false) =>
      (await buildReport({ file }, { arch: 'SKL', fast: true, ...(measured === false ? { measured } : {}) })).model.main
        .stats.blockThroughput;
    assert.ok(Math.abs((await tp()) - 5) < 0.1, `with the measured figures: ${await tp()}`);
    assert.ok(Math.abs((await tp(false)) - 3) < 0.1, `without them: ${await tp(false)}`);
  } finally {
    if (before === undefined) delete process.env.UOPSCOPE_CACHE_DIR;
    else process.env.UOPSCOPE_CACHE_DIR = before;
    rmSync(cacheDir, { recursive: true, force: true });
    resetArchDataMemo();
  }
});

test('the command line: report, a batch, disasm and --help know --no-measured', () => {
  const { cacheDir, file } = setup();
  const run = (...args: string[]) => runCli(args, { env: { UOPSCOPE_CACHE_DIR: cacheDir } });
  try {
    const json = (...args: string[]) => {
      const r = run('report', file, '--arch', 'SKL', '--fast', '--json', ...args);
      assert.equal(r.code, 0, r.err);
      return JSON.parse(r.out) as { origins: string[]; blockThroughput: number };
    };
    const on = json();
    const off = json('--no-measured');
    assert.equal(on.origins[0], 'measured');
    assert.equal(off.origins[0], 'llvm');
    assert.ok(Math.abs(on.blockThroughput - 5) < 0.1, String(on.blockThroughput));
    assert.ok(Math.abs(off.blockThroughput - 3) < 0.1, String(off.blockThroughput));
    // a batch of regions loads the core's figures once: without the measured ones too
    const batch = run('report', file, file, '--arch', 'SKL', '--fast', '--json', '--no-measured');
    assert.equal(batch.code, 0, batch.err);
    for (const line of batch.out.trim().split('\n')) assert.equal(JSON.parse(line).origins[0], 'llvm');
    // the listing names the source of each line
    assert.match(run('disasm', file, '--arch', 'SKL').out, /imul rax, rbx +U +1 +1\*p1 +5 /);
    const plain = run('disasm', file, '--arch', 'SKL', '--no-measured');
    assert.equal(plain.code, 0, plain.err);
    assert.match(plain.out, /imul rax, rbx +L +1 +1\*p1 +3 /);
    assert.doesNotMatch(plain.out, /measured by uopscope/);
    assert.match(run('report', '--help').out, /--no-measured leaves them out/);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
