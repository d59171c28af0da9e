// What a prediction leaves out is said at the top of the report (text and JSON): an if/else's
// two sides simulated one after the other, an inner loop simulated once as straight-line code, a
// call whose callee is not simulated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-caveats-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function report(...args: string[]): string {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.cts', 'report', '--arch', 'SKL', '--fast', ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(dir, 'config') },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** The text before the first figure. */
const head = (text: string) => text.slice(0, text.indexOf('Block throughput'));

test('an if/else inside the loop: said at the top, pointing to --branch; not said with --branch', () => {
  const t = head(report('test/fixtures/loops/ifelse.gcc-O2.o'));
  assert.match(
    t.replaceAll('\n  ', ' '),
    /Note: the conditional jump at line \d+ is inside the loop: both of its sides are simulated every iteration.*--branch/,
  );
  assert.doesNotMatch(head(report('test/fixtures/loops/ifelse.gcc-O2.o', '--branch')), /inside the loop/);
  const j = JSON.parse(report('test/fixtures/loops/ifelse.gcc-O2.o', '--json')) as { caveats: string[] };
  assert.equal(j.caveats.length, 1);
  assert.match(j.caveats[0]!, /--branch/);
});

test('an outer loop as the region: its inner loop is simulated once per iteration, said', () => {
  // add; L: add; dec rcx; jnz L; dec rdx; jnz 0 — region 2 is the outer loop
  const t = head(report('--hex', '4801d8 4801c8 48ffc9 75f8 48ffca 75f0', '--region', '2')).replaceAll('\n  ', ' ');
  assert.match(
    t,
    /Note: an inner loop \(lines 1–3\) is simulated once per iteration of this loop, as straight-line code/,
  );
});

test('a call inside the region: the callee is not in the prediction, said', () => {
  const t = head(report('--hex', 'e800000000 4801d8')).replaceAll('\n  ', ' ');
  assert.match(t, /Note: the call at line 0: the called code is not in the prediction/);
});

test('a plain loop has no note', () => {
  assert.doesNotMatch(head(report('test/fixtures/loops/dot.gcc-O2.o')), /Note:/);
});
