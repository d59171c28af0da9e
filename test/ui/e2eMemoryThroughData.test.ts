// The worst case of the loads through data as a split in a real terminal (tmux), on gcc -O2's
// histogram (test/fixtures/loops/hist.c: `add dword ptr [rdi+rax*4], 1` after `movzx eax, byte
// ptr [rsi]`, whose address only the data can make meet the previous iteration's): `w` shows the
// run beside the same run in which the load reads the previous iteration's store, each pane's
// figures those of `uopscope report`'s baseline and its worst-case line, at 80×24 without a
// figure cut; `w` again closes it. A loop whose addresses stride has no such split.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTmux, tmuxServer } from './helpers/tmux.js';
import { loadRegion } from '../../src/disasm/index.js';
import { buildExplorerSession, regionAnalysis } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HIST = 'test/fixtures/loops/hist.gcc-O2.o';
const AXPY = 'test/fixtures/loops/axpy.gcc-O2-align64.o';
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-memory', 60_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';
const CACHE = mkdtempSync(join(tmpdir(), 'uopscope-memory-'));
after(() => rmSync(CACHE, { recursive: true, force: true }));
const ITER = 200;

const keys = (session: string, ...k: string[]) => tmux('send-keys', '-t', session, ...k);

/** `uopscope report --json`'s baseline and worst case of the loop (the same model and iterations). */
function reported(file: string): { base: number; worst: number | undefined } {
  const out = execFileSync(
    'node',
    ['--import', 'tsx', 'src/cli/main.cts', 'report', file, '--arch', 'SKX', '--iterations', String(ITER), '--json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, UOPSCOPE_CACHE_DIR: CACHE },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const j = JSON.parse(out) as { blockThroughput: number; memoryThroughData?: { blockThroughput: number } };
  return { base: j.blockThroughput, worst: j.memoryThroughData?.blockThroughput };
}

test('w: the histogram beside its worst case, the report’s two figures, 80×24', {
  skip: SKIP,
  timeout: 180_000,
}, async () => {
  const { base, worst } = reported(HIST);
  assert.ok(worst !== undefined && worst > base + 1, `report: baseline ${base}, worst case ${worst}`);
  try {
    newSession('hist', ROOT, `node --import tsx src/cli/main.cts ${HIST} --arch SKX --iterations ${ITER}; sleep 120`, {
      env: [`UOPSCOPE_CACHE_DIR=${CACHE}`],
    });
    await waitFor('hist', /cycle 0 of/, 'the explorer');
    keys('hist', 'w');
    let s = await waitFor('hist', /loads read last iteration's stores/, 'the worst case pane');
    assert.match(s, / baseline {5,}loads read last iteration's stores/, 'the two panes, named');
    assert.match(s.split('\n')[0]!, /baseline \| worst case$/, 'the header says what is compared');
    assert.match(s, /worst case on the right: line 2 loads what it stored the iteration before/);
    keys('hist', 'G');
    s = await waitFor('hist', /finished/, 'the end of the run');
    // each pane's whole run: the report's baseline and its worst-case line
    const m = /c\/iter done\/run: baseline (\d+\.\d\d)\/(\d+\.\d\d) │ worst case (\d+\.\d\d)\/(\d+\.\d\d)/.exec(s);
    assert.ok(m, s);
    assert.equal(m[2], base.toFixed(2));
    assert.equal(m[4], worst.toFixed(2));
    assert.match(s.split('\n')[1]!, new RegExp(`baseline ${base.toFixed(2)} │ worst case ${worst.toFixed(2)}`));
    for (const line of s.split('\n')) assert.ok([...line].length <= 80, line);
    // the Statistics tab: each pane's rate, whole
    keys('hist', '4');
    s = await waitFor('hist', /Stats: .* │?/, 'the Statistics tab');
    assert.match(s, new RegExp(`Stats: ${base.toFixed(2)} c/iter .*Stats: ${worst.toFixed(2)} c/iter`));
    keys('hist', 'w');
    s = await waitFor('hist', /worst case off/, 'the split closed');
    assert.doesNotMatch(s, /loads read last iteration's stores/);
  } finally {
    await stopServer();
  }
});

test('a loop whose addresses stride (axpy) has no worst case to split', async () => {
  assert.equal(reported(AXPY).worst, undefined);
  const session = await buildExplorerSession(
    regionAnalysis(await loadRegion({ file: join(ROOT, AXPY) })),
    loadMachine('SKX'),
    { inThread: true, cacheDir: CACHE },
  );
  assert.equal(session.memoryThroughData, undefined);
  const hist = await buildExplorerSession(
    regionAnalysis(await loadRegion({ file: join(ROOT, HIST) })),
    loadMachine('SKX'),
    { inThread: true, cacheDir: CACHE },
  );
  assert.deepEqual(hist.memoryThroughData?.pairs, [{ store: 2, load: 2 }]);
});
