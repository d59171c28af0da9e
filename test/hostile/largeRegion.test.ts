// Large regions (up to the 100,000-line bound of report and the explorer):
// - store forwarding's dependencies searched every dependency and every line for each load: a
//   10,000-line report with 2,500 loads spent 9.5 s there (the model is built once per run and
//   placement), one of 50,000 lines ran for minutes;
// - a report of thousands of lines said nothing for seconds before its output, and the explorer
//   nothing before it could draw: in a terminal, stderr now shows each stage (`uopscope: 6,003
//   lines · looking up figures · 1 s`; a report's last line says what it took); off a terminal,
//   and for a small region, nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyse, loopFor } from '../../src/cli/pipeline.js';
import { LARGE_REGION_LINES, RunsProgress } from '../../src/cli/progress.js';
import { CompiledProgram } from '../../src/sim/compiled.js';
import { REFINED_MECHANISMS } from '../../src/sim/mechanisms.js';
import { bigLoop, ROOT, tempDir } from './helpers.js';
import { hasTmux, tmuxServer } from '../ui/helpers/tmux.js';

const MAIN = join(ROOT, 'dist', 'cli', 'main.cjs');

test('a region of 40,003 lines with 10,000 loads builds its model (store forwarding included) in under 4 s of CPU', async () => {
  const file = bigLoop(tempDir('bigloop'), 10_000);
  const a = await analyse({ file, arch: 'SKL', loop: loopFor(2), maxInstructions: 50_000 });
  assert.equal(a.program.instructions.length, 40_003);
  assert.ok(REFINED_MECHANISMS.storeForwarding, 'the default model forwards stores');
  const t0 = process.cpuUsage();
  new CompiledProgram(a.program, a.params, REFINED_MECHANISMS);
  const cpu = process.cpuUsage(t0);
  const s = (cpu.user + cpu.system) / 1e6;
  // quadratic, this took 12.7 s of CPU (0.4 s at a quarter of the size); linear, 0.3 s (both
  // measured on the loaded 2-vCPU guest); a report builds it once per run and placement
  assert.ok(s < 4, `${s.toFixed(1)} s of CPU`);
});

test('a stage line for a large region only, in a terminal only; the final line says lines, runs and time', () => {
  const writes: string[] = [];
  const stream = {
    isTTY: true,
    columns: 80,
    write: (t: string) => writes.push(t) > 0,
  } as unknown as NodeJS.WriteStream;
  let now = 0;
  const small = new RunsProgress(stream, () => now);
  small.stage('looking up figures', LARGE_REGION_LINES - 1);
  small.done();
  assert.deepEqual(writes, [], 'a small region: nothing');
  const large = new RunsProgress(stream, () => now);
  large.stage('looking up figures', 50_000);
  assert.deepEqual(writes, ['\r\x1b[2Kuopscope: 50,000 lines · looking up figures · 0 s']);
  now = 12_000;
  large.local().end();
  large.done();
  assert.equal(writes.at(-1), '\r\x1b[2Kuopscope: reported 50,000 lines (1 run) in 12 s\n');
  const pipe: string[] = [];
  const off = new RunsProgress({
    isTTY: false,
    write: (t: string) => pipe.push(t) > 0,
  } as unknown as NodeJS.WriteStream);
  off.stage('simulating', 50_000);
  off.done();
  assert.deepEqual(pipe, [], 'not a terminal: nothing');
});

test('report of a 6,003-line region in a real terminal: its stages on stderr, the report whole on stdout', {
  skip: (!hasTmux && 'needs tmux') || (!existsSync(MAIN) && 'needs the built CLI (npm run build)'),
  timeout: 240_000,
}, async () => {
  const { newSession, waitFor, stopServer } = tmuxServer('uopscope-large');
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-large-'));
  try {
    const file = bigLoop(dir, 1500);
    newSession(
      'large',
      ROOT,
      `bash -c 'node ${MAIN} report ${file} --iterations 1 --fast >${dir}/out; echo "EXITED rc=$?"; sleep 60'`,
      { cols: 100, env: [`UOPSCOPE_CACHE_DIR=${dir}/cache`] },
    );
    const seen = await waitFor('large', /uopscope: 6,003 lines · [a-z ]+ · \d+ s/, 'a stage line', 180_000);
    assert.match(seen, /looking up figures|simulating|collecting the report/);
    const end = await waitFor('large', /EXITED rc=\d+/, 'the end', 180_000);
    assert.match(end, /EXITED rc=0/);
    assert.match(end, /uopscope: reported 6,003 lines \(\d+ runs?\) in \d+ s/);
    const out = readFileSync(join(dir, 'out'), 'utf8');
    assert.match(out, /Block throughput/);
    assert.doesNotMatch(out, /\x1b|lines · /, 'nothing of the progress on stdout');
  } finally {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the explorer on a 20,003-line region in a real terminal: its loading stages on stderr, then the explorer', {
  skip: (!hasTmux && 'needs tmux') || (!existsSync(MAIN) && 'needs the built CLI (npm run build)'),
  timeout: 240_000,
}, async () => {
  const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-large-ui');
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-large-ui-'));
  try {
    const file = bigLoop(dir, 5000);
    newSession('ui', ROOT, `bash -c 'node ${MAIN} ${file} --max-instructions 30000; echo "EXITED rc=$?"; sleep 60'`, {
      cols: 100,
      rows: 30,
      env: [`UOPSCOPE_CACHE_DIR=${dir}/cache`, `UOPSCOPE_CONFIG_DIR=${dir}/cfg`],
    });
    await waitFor(
      'ui',
      /uopscope: 20,003 lines · (building the dependency graph|looking up figures) · \d+ s/,
      'a stage line',
      180_000,
    );
    await waitFor('ui', /cycle/i, 'the explorer', 180_000);
    tmux('send-keys', '-t', 'ui', 'q');
    await waitFor('ui', /EXITED rc=0/, 'a clean exit', 60_000);
  } finally {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  }
});
