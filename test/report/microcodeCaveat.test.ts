// Gathers under today's microcode, in the report (text and JSON): on a core Gather Data Sampling
// affects (its record's microcode.gatherDataSampling), gcc's gather loop is said to be predicted
// with figures that predate the mitigation; on a core it does not affect nothing is said; with
// the gathers' figures measured on this machine (test/fixtures/measured/SKX-gather.json, a
// hand-written fixture in the measured format, not a measurement) the report says those figures
// were taken first, and not that they predate the mitigation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-microcode-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const LOOP = 'test/fixtures/loops/gather.gcc-O3-skylake.o';

function report(cacheDir: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', 'report', '--fast', LOOP, ...args], {
    encoding: 'utf8',
    env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(dir, 'config'), UOPSCOPE_CACHE_DIR: cacheDir },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** The text before the first figure, one line per note. */
const head = (text: string) => text.slice(0, text.indexOf('Block throughput')).replaceAll('\n  ', ' ');

const GDS =
  /Note: lines 2, 5 \(vgatherdpd\): SKX is affected by Gather Data Sampling \(CVE-2022-40982; Intel 785676, 785681\): its microcode mitigation, on by default since August 2023, slows gathers down, and no public source gives their figures under it\. These lines' figures \(LLVM 19 model\) are those without it: the prediction is for a machine with the mitigation off\./;

test("Skylake-SP: gcc's two vgatherdpd are said to be predicted without the GDS mitigation", () => {
  const empty = join(dir, 'empty');
  assert.match(head(report(empty, '--arch', 'SKX')), GDS);
  const j = JSON.parse(report(empty, '--arch', 'SKX', '--json')) as { caveats: string[] };
  assert.equal(j.caveats.filter((c) => /Gather Data Sampling/.test(c)).length, 1);
  // Haswell runs the same gathers and is not affected: nothing said
  assert.doesNotMatch(head(report(empty, '--arch', 'HSW')), /Note:/);
});

test("figures measured on this machine: taken first for the gathers, said, and the mitigation's note goes", () => {
  const cache = join(dir, 'measured-cache');
  mkdirSync(join(cache, 'measured'), { recursive: true });
  copyFileSync('test/fixtures/measured/SKX-gather.json', join(cache, 'measured', 'SKX.json'));
  const t = head(report(cache, '--arch', 'SKX'));
  assert.match(
    t,
    /Note: lines 2, 5 \(vgatherdpd\): figures measured on this machine \(measured by uopscope\), ranked before every other source: a gather's figures depend on the microcode/,
  );
  assert.doesNotMatch(t, /Gather Data Sampling/);
  // --no-measured: the figures that predate the mitigation again, said again
  assert.match(head(report(cache, '--arch', 'SKX', '--no-measured')), GDS);
});

test("uopscope measure's notes on a loop with gathers: the report's, and what this machine's kernel says", async () => {
  const { analyse } = await import('../../src/cli/pipeline.js');
  const { measuredGatherNotes } = await import('../../src/report/caveats.js');
  const { gatherDataSamplingState } = await import('../../src/measure/host.js');
  const a = await analyse({ file: LOOP, arch: 'SKX', cacheDir: join(dir, 'empty') });
  const notes = measuredGatherNotes(a.machine, a.region.instructions, a.resolved, 'Mitigation: Microcode');
  assert.equal(notes.length, 2);
  assert.match(notes[0]!, /^lines 2, 5 \(vgatherdpd\): SKX is affected by Gather Data Sampling/);
  assert.equal(
    notes[1],
    "this machine's kernel reports Gather Data Sampling: Mitigation: Microcode (/sys/devices/system/cpu/vulnerabilities/gather_data_sampling); the measured gathers run under it",
  );
  assert.match(measuredGatherNotes(a.machine, a.region.instructions, a.resolved, null)[1]!, /does not say whether/);
  // a loop without gathers: nothing
  const plain = await analyse({ file: 'test/fixtures/loops/sum.gcc-O2.o', arch: 'SKX', cacheDir: join(dir, 'empty') });
  assert.deepEqual(measuredGatherNotes(plain.machine, plain.region.instructions, plain.resolved, 'Vulnerable'), []);
  // the kernel's file, read as it is; none: null
  const state = join(dir, 'gather_data_sampling');
  writeFileSync(state, 'Mitigation: Microcode\n');
  assert.equal(gatherDataSamplingState(state), 'Mitigation: Microcode');
  assert.equal(gatherDataSamplingState(join(dir, 'absent')), null);
});
