// --rs-size below what a line puts into the station at once (a micro-fused load and operation
// enter together in the refined model) is the user's choice, not an engine failure: one line,
// exit 2, naming the line and the smallest size that runs. SUACA's front end loads µop by µop.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('--rs-size 1 on a loop with a micro-fused store: one line naming the line and the size', () => {
  const r = cli(['report', 'examples/bin/stencil', '--rs-size', '1', '--fast']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    r.stderr,
    'uopscope: --rs-size 1: line 5 (vmovsd qword ptr [r12+r15*8+0x8], xmm6) puts 2 µops into the reservation station at once (a micro-fused µop); give --rs-size 2 or more\n',
  );
  assert.equal(cli(['report', 'examples/bin/stencil', '--rs-size', '2', '--fast', '--iterations', '20']).code, 0);
  // SUACA's model loads µop by µop: one entry runs
  const s = cli([
    'report',
    'examples/bin/stencil',
    '--rs-size',
    '1',
    '--model',
    'suaca',
    '--fast',
    '--iterations',
    '20',
  ]);
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stdout, /Block throughput: \d/);
});
