// Output piped into a reader that stops early (`uopscope … | head`): the CLI stops quietly,
// status 0, nothing on stderr (no stack trace, no "internal error"). The reader's end of the pipe
// is closed before the child starts, so every write of the child fails with EPIPE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

function runClosed(args: string[]): Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stderr }));
  });
}

const cases: [string, string[]][] = [
  [
    'report --json',
    [
      'report',
      'examples/bin/branch',
      '--arch',
      'SNB',
      '--iterations',
      '20',
      '--json',
      '--uops-xml',
      'test/fixtures/report/branch-example.xml',
    ],
  ],
  [
    'report (text)',
    [
      'report',
      'examples/bin/branch',
      '--arch',
      'SNB',
      '--iterations',
      '20',
      '--uops-xml',
      'test/fixtures/report/branch-example.xml',
    ],
  ],
  ['disasm --json', ['disasm', 'examples/bin/stencil', '--json']],
  ['--help', ['--help']],
];

for (const [name, args] of cases) {
  test(`${name} into a closed pipe: exits 0 without a word on stderr`, async () => {
    const r = await runClosed(args);
    assert.equal(r.stderr, '');
    assert.equal(r.signal, null);
    assert.equal(r.status, 0);
  });
}
