// Under an address-space limit (`ulimit -v 8000000`, common on clusters and shared hosts) every
// command ended in "internal error: WebAssembly.Instance(): Out of memory": V8 reserves about
// 10 GiB of address space for each WebAssembly memory's guard regions (the decoder's). The
// built CLI now runs itself again without them when a limit is set; under a limit too low for
// Node at all it says so in one line. (The built CLI: tsx's own loader needs WebAssembly too.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './helpers.js';

const BUILT = join(ROOT, 'dist', 'cli', 'main.cjs');
const linux = process.platform === 'linux';

function underLimit(kib: number, args: string[]) {
  const r = spawnSync('bash', ['-c', `ulimit -v ${kib} && exec "$0" "$@"`, process.execPath, BUILT, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 60_000,
    env: { ...process.env, UOPSCOPE_CACHE_DIR: tempDir('aslimit'), UOPSCOPE_CONFIG_DIR: tempDir('aslimitcfg') },
  });
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal };
}

test('report, disasm and data list run under ulimit -v 8000000', {
  skip: (!linux && 'Linux only') || (!existsSync(BUILT) && 'needs the built CLI (npm run build)'),
}, () => {
  for (const args of [
    ['report', 'examples/bin/branch', '--iterations', '20'],
    ['disasm', 'examples/bin/branch'],
    ['data', 'list'],
  ]) {
    const r = underLimit(8_000_000, args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    assert.doesNotMatch(r.err, /internal error|Out of memory/);
  }
});

test('a limit too low for Node itself is one line naming the limit, never blaming the input', {
  skip: (!linux && 'Linux only') || (!existsSync(BUILT) && 'needs the built CLI (npm run build)'),
}, () => {
  const r = underLimit(1_000_000, ['report', 'examples/bin/branch', '--iterations', '20']);
  assert.equal(r.code, 2, r.err);
  const last = r.err.trim().split('\n').at(-1)!;
  // V8's dump and the parent's line after it, or, when the region is counted first, the line
  // saying the limit leaves too little room to simulate it
  assert.match(
    last,
    /^uopscope: (out of address space under the limit set by ulimit -v \(977 MiB\); |a region of 7 lines needs about \d+ MiB of address space, but the limit set by ulimit -v \(1,000,000 KiB\) leaves \d+ MiB: ).*raise it/,
  );
  assert.doesNotMatch(r.err, /internal error|please report/);
});
