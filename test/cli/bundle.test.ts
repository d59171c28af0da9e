// The start-up bundle (tools/bundle.mjs, src/cli/main.cts): the built command
// runs dist/cli/uopscope.cjs from V8's code cache, and must behave exactly as the same build run
// as ES modules (UOPSCOPE_NO_BUNDLE=1): same output, same exit status, same messages, the explorer
// in a real terminal. The build (`npm ci` runs `prepare`, i.e. `npm run build`) makes the bundle;
// these tests run the built dist/ of this checkout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasTmux, tmuxServer } from '../ui/helpers/tmux.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.cjs');
const BUNDLE = join(ROOT, 'dist', 'cli', 'uopscope.cjs');

function run(bundle: boolean, args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  // a cache directory of the run's own, removed after it
  const cache = mkdtempSync(join(tmpdir(), 'uopscope-bundle-'));
  try {
    return spawnSync(process.execPath, [MAIN, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        NO_COLOR: '1',
        UOPSCOPE_CACHE_DIR: cache,
        UOPSCOPE_NO_BUNDLE: bundle ? '' : '1',
        ...extraEnv,
      },
    });
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

test('the build made the bundle and its code cache, and V8 accepts the cache', () => {
  assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: npm run build makes it (tools/bundle.mjs)`);
  assert.ok(existsSync(`${BUNDLE}.cache`), "the code cache is missing: tools/bundle.mjs's warm-up run failed");
  const r = run(true, ['report', 'examples/bin/stencil', '--iterations', '1', '--fast'], {
    UOPSCOPE_DEBUG_BUNDLE: '1',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /uopscope: bundle .*uopscope\.cjs, code cache accepted/);
  // and without the switch, nothing about it is printed
  assert.equal(run(true, ['report', 'examples/bin/stencil', '--iterations', '1', '--fast']).stderr, '');
});

const cases: [string, string[], NodeJS.ProcessEnv?][] = [
  ['a full report (what-ifs, mechanisms)', ['report', 'examples/bin/stencil', '--iterations', '200']],
  [
    'a JSON report with imported uops.info XML',
    [
      'report',
      'examples/bin/stencil',
      '--arch',
      'IVB',
      '--iterations',
      '1000',
      '--json',
      '--uops-xml',
      'examples/thesis/thesis-instructions.xml',
    ],
  ],
  [
    'the SUACA model, a what-if switch',
    ['report', 'examples/bin/branch', '--model', 'suaca', '--no-macro-fusion', '--iterations', '50'],
  ],
  ['disasm (the AT&T formatter)', ['disasm', 'examples/bin/stencil', '--syntax', 'att']],
  ['regions', ['regions', 'examples/bin/two-regions.o']],
  ['a DOT graph', ['graph', 'examples/bin/stencil']],
  ['--help (rendered by yargs: an empty cache)', ['--help']],
  ["a command's help", ['report', '--help']],
  ["a mistyped option (yargs's message, exit 2)", ['report', 'examples/bin/stencil', '--iteration', '5']],
  ['a missing file (one line, exit 2)', ['report', 'no/such/file']],
  ['undecodable bytes', ['report', '--hex', '0f0b0f']],
  ['explore without a terminal (the report instead)', ['explore', 'examples/bin/branch', '--iterations', '20']],
  [
    "a report whose runs go to worker threads (dist/cli's worker files, unbundled)",
    ['report', 'examples/bin/stencil', '--iterations', '3000', '--json'],
    { UOPSCOPE_PARALLEL_MIN_MS: '0' },
  ],
];

for (const [what, args, env] of cases) {
  test(`bundled and unbundled give the same: ${what}`, () => {
    const a = run(true, args, env);
    const b = run(false, args, env);
    assert.equal(a.status, b.status, `exit status; bundled stderr: ${a.stderr}`);
    assert.equal(a.stdout, b.stdout);
    assert.equal(a.stderr, b.stderr);
    assert.ok(a.stdout.length + a.stderr.length > 0, 'the command printed something');
  });
}

test('--version does not load the bundle (answered by main.cjs)', () => {
  const r = run(true, ['--version'], { UOPSCOPE_DEBUG_BUNDLE: '1' });
  assert.equal(r.status, 0);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.equal(r.stdout, `${pkg.version}\n`);
  assert.equal(r.stderr, '');
});

test('the explorer from the bundle (its Ink interface imported at run time) in a real terminal at 80×24', {
  skip: !hasTmux,
  timeout: 60_000,
}, async () => {
  const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-bundle');
  const session = 'bundle';
  const AFTER = '; echo "EXITED rc=$?"; sleep 60';
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-bundle-'));
  const err = join(dir, 'stderr');
  try {
    newSession(
      session,
      ROOT,
      `UOPSCOPE_DEBUG_BUNDLE=1 UOPSCOPE_CACHE_DIR=${dir}/cache node ${MAIN} examples/bin/branch --arch SKL --iterations 50 2>${err}; cat ${err}${AFTER}`,
    );
    let s = await waitFor(session, /cycle 0 of \d+/, 'the explorer');
    assert.match(s, /branch · IACA region 1 · SKL/);
    tmux('send-keys', '-t', session, 'l');
    await waitFor(session, /cycle 1 of/, 'one step');
    // a what-if pane: its run comes from the explorer's worker thread
    tmux('send-keys', '-t', session, 'f');
    await waitFor(session, /diverge at cycle \d+/, 'the variant pane and its divergence');
    tmux('send-keys', '-t', session, 'G');
    await waitFor(session, /cycle (\d+) of \1\b/, "the last cycle (G, the worker's run)");
    tmux('send-keys', '-t', session, 'q');
    s = await waitFor(session, /EXITED rc=\d+/, 'the exit');
    // from the file, not the pane: the line names the clone's path, and at 80 columns a path of
    // some lengths wraps it inside the words
    assert.match(readFileSync(err, 'utf8'), /code cache accepted/, 'it ran from the bundle');
    assert.match(s, /EXITED rc=0/);
  } finally {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a bare uopscope in a terminal, from the bundle: bad input in one line, exit 2 (not an internal error)', {
  skip: !hasTmux,
  timeout: 60_000,
}, async () => {
  const { newSession, waitFor, stopServer } = tmuxServer('uopscope-bundle-bare');
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-bundle-'));
  try {
    // the explorer's modules load from dist/'s ES modules beside the bundle: a UserError thrown
    // there is recognised all the same
    newSession('bare', ROOT, `UOPSCOPE_CACHE_DIR=${dir}/cache node ${MAIN}; echo "EXITED rc=$?"; sleep 60`, {
      cols: 200,
    });
    const s = await waitFor('bare', /EXITED rc=\d+/, 'the exit');
    assert.match(s, /uopscope: no input: give a FILE/);
    assert.doesNotMatch(s, /internal error/);
    assert.match(s, /EXITED rc=2/);
  } finally {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  }
});
