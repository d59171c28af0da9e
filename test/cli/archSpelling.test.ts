// Architecture names as users bring them from gcc and llvm-mca: the records' compiler names
// (skylake-avx512, icelake-server, sapphirerapids, …) choose the core, the header says which;
// `host`/`native` analyse the host's core and say why; AMD cores and generic targets get one line
// that says so; what was typed is quoted as typed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { listMachines } from '../../src/data/machines.js';
import { runCli } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BRANCH = join(ROOT, 'examples', 'bin', 'branch');

function run(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { env });
}

test('every compiler name in the records is accepted and means its core', () => {
  const names = listMachines().flatMap((m) => (m.identity?.compilerNames ?? []).map((n) => [n, m.arch] as const));
  assert.ok(names.length >= 16, 'the records name the cores as gcc and llvm-mca do');
  for (const must of [
    'skylake',
    'skylake-avx512',
    'icelake-server',
    'icelake-client',
    'rocketlake',
    'alderlake',
    'sapphirerapids',
    'haswell',
  ]) {
    assert.ok(
      names.some(([n]) => n === must),
      must,
    );
  }
  const json = JSON.parse(run(['report', BRANCH, '--arch', 'skylake-avx512', '--json', '-i', '50']).out);
  const same = JSON.parse(run(['report', BRANCH, '--arch', 'SKX', '--json', '-i', '50']).out);
  assert.equal(json.arch, 'SKX');
  assert.equal(json.archNote, 'skylake-avx512 is SKX, Skylake (server)');
  assert.equal(same.archNote, undefined, "no note when the core's own name was given");
  assert.ok(typeof json.blockThroughput === 'number');
  assert.equal(json.blockThroughput, same.blockThroughput);
  const text = run(['report', BRANCH, '--arch', 'SapphireRapids', '-i', '50']);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /^Architecture: SapphireRapids is SPR, Sapphire Rapids/m);
  assert.match(text.out, /^Analysis for architecture: SPR$/m);
});

test('AMD cores, generic targets and unknown names: one line, exit 2, the name as typed', () => {
  const amd = run(['report', BRANCH, '--arch', 'znver1']);
  assert.equal(amd.code, 2);
  assert.match(
    amd.err,
    /^uopscope: --arch znver1: an AMD core uopscope has no record for \(it models Zen 2 to Zen 5\); name a core \(NHM, .*\)\n$/,
  );
  const gen = run(['report', BRANCH, '--arch', 'x86-64-v3']);
  assert.equal(gen.code, 2);
  assert.match(gen.err, /^uopscope: --arch x86-64-v3: a generic target, not a core/);
  const low = run(['report', BRANCH, '--arch', 'p4']);
  assert.equal(low.code, 2);
  assert.match(low.err, /^uopscope: unknown architecture 'p4' — known: NHM, .*gcc\/llvm-mca names such as/);
});

test("--arch host and native analyse the host's core and say which and why", () => {
  // the user names the host's core (as on a VM whose CPUID is not the core underneath)
  for (const spelling of ['host', 'native']) {
    const r = run(['report', BRANCH, '--arch', spelling, '-i', '50'], { UOPSCOPE_HOST_ARCH: 'spr' });
    assert.equal(r.code, 0, r.err);
    // the header line wraps at 80 columns
    assert.match(
      r.out.replace(/\n  /g, ' '),
      new RegExp(
        `^Architecture: ${spelling}: this host's core is SPR, Sapphire Rapids .*: named by UOPSCOPE_HOST_ARCH`,
        'm',
      ),
    );
    assert.match(r.out, /^Analysis for architecture: SPR$/m);
  }
});

test("Zen cores by every spelling; their reports name AMD's pipes", () => {
  for (const [spelling, arch] of [
    ['ZEN2', 'ZEN2'],
    ['zen3', 'ZEN3'],
    ['znver4', 'ZEN4'],
    ['-mcpu=znver4', 'ZEN4'],
    ['znver5', 'ZEN5'],
  ] as const) {
    const args = spelling.startsWith('-') ? [spelling] : ['--arch', spelling];
    const r = run(['report', BRANCH, ...args, '-i', '20', '--fast']);
    assert.equal(r.code, 0, `${spelling}: ${r.err}`);
    assert.match(r.out, new RegExp(`^Analysis for architecture: ${arch}$`, 'm'), spelling);
  }
  // the per-line table's columns and the JSON's keys are the pipes' names; Intel's stay numbers
  const text = run(['report', BRANCH, '--arch', 'ZEN4', '-i', '20', '--fast']).out;
  assert.match(text, /^Line \|\| Uops .*\|\| ALU0 \| ALU1 \| ALU2 \| ALU3 \| BRU0 \| BRU1 \| AGU0 .* ST1 \|\|/m);
  const json = JSON.parse(run(['report', BRANCH, '--arch', 'ZEN4', '-i', '20', '--fast', '--json']).out);
  assert.deepEqual(Object.keys(json.portTotals).slice(0, 6), ['ALU0', 'ALU1', 'ALU2', 'ALU3', 'BRU0', 'BRU1']);
  assert.equal(json.portNames.length, 17);
  assert.ok(json.portTotals.BRU0 + json.portTotals.BRU1 > 0, 'the branches run on the branch pipes');
  const skl = JSON.parse(run(['report', BRANCH, '--arch', 'SKL', '-i', '20', '--fast', '--json']).out);
  assert.deepEqual(Object.keys(skl.portTotals), ['0', '1', '2', '3', '4', '5', '6', '7']);
  assert.equal(skl.portNames, undefined);
});
