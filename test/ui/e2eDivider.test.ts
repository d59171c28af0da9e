// The divider in a real terminal (tmux), on gcc -O2's idiv loops (examples/corpus int_div, and
// test/fixtures/microcode idiv32: `idiv dword ptr [mem]`, on Skylake-SP): while a
// division executes, the Ports pane shows the divider busy with it (LLVM 19's skylake and
// alderlake models give `idiv` no divider resource; the cited corrections give it uops.info's
// measured occupancy) — or, where no source gives the division divider cycles (Sapphire Rapids'
// FP16 vdivph), says that the divider is not modelled for it and why, beside the same instance
// executing in the Reservation station.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { hasTmux, tmuxServer } from './helpers/tmux.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-divider', 30_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';
const IDIV = 'examples/corpus/bin/int_div.gcc.O2.sse2.o';
// gcc -O2's loop of `s += a[i] / b[i]` over int: `idiv dword ptr [mem]`, line 2 as in int_div
const IDIV32 = 'test/fixtures/microcode/idiv32.gcc-O2.o';
// a loop of an AVX512-FP16 division: no source gives Golden Cove's vdivph a divider occupancy
const dir = mkdtempSync(join(tmpdir(), 'uopscope-divider-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const VDIVPH = join(dir, 'vdivph.s');
writeFileSync(VDIVPH, '.intel_syntax noprefix\n1:\nmov eax, 1\nvdivph xmm0, xmm1, xmm2\ndec rcx\njnz 1b\n');
// a loop of vdivpd ymm: LLVM's sapphirerapids model gives it no divider, uops.info 8 cycles
const VDIVPD = join(dir, 'vdivpd.s');
writeFileSync(
  VDIVPD,
  '.intel_syntax noprefix\n1:\nvdivpd ymm0, ymm1, ymm2\nvdivpd ymm3, ymm1, ymm2\ndec rcx\njnz 1b\n',
);

/** Starts the explorer on a loop (the idiv loop by default) in a terminal of the size given; the
 *  screen function. */
async function open(session: string, arch: string, cols: number, rows: number, file = IDIV): Promise<() => string> {
  const cmd = `node --import tsx src/cli/main.cts ${file} --arch ${arch} --iterations 20; sleep 60`;
  newSession(session, ROOT, cmd, { cols, rows });
  await waitFor(session, /cycle 0 of/, 'the explorer');
  return () => tmux('capture-pane', '-p', '-t', session);
}

/** Steps one cycle at a time until `done(screen)` holds (at most `max` steps). */
async function stepUntil(session: string, screen: () => string, done: (s: string) => boolean, max = 60) {
  for (let c = 1; c <= max; c++) {
    tmux('send-keys', '-t', session, 'l');
    await waitFor(session, new RegExp(`cycle ${c} of`), `cycle ${c}`);
    const s = screen();
    if (done(s)) return s;
  }
  assert.fail(`not seen within ${max} cycles; the screen:\n${screen()}`);
}

/** The instance of line 2 (the idiv) the station shows executing, or null. */
const executingIdiv = (s: string) => /▶ (L2#\d+)\s+\d+µ executing/.exec(s)?.[1] ?? null;

test('the divider says why it is free while vdivph executes: SPR, 80×24, Ports tab', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  try {
    const screen = await open('spr', 'SPR', 80, 24, VDIVPH);
    // select the division's line: the station's window follows it
    tmux('send-keys', '-t', 'spr', 'j', '3');
    await waitFor('spr', /divider:/, 'the Ports tab');
    const s = await stepUntil('spr', screen, (x) => /divider: not modelled for L1#\d+ \(executing\)/.test(x));
    assert.match(s, /divider: not modelled for L1#\d+ \(executing\): no divider in LLVM's model/);
    for (const line of s.split('\n')) assert.ok(line.length <= 80, line);
    // the same instance in the station: executing
    const who = /not modelled for (L1#\d+)/.exec(s)![1]!;
    tmux('send-keys', '-t', 'spr', '2');
    const rs = await waitFor('spr', /Reservation station/, 'the Reservation tab');
    assert.match(rs, new RegExp(`▶ ${who}\\s+\\d+µ executing`));
  } finally {
    await stopServer();
  }
});

for (const [arch, file] of [
  ['SKL', IDIV],
  ['ADL-P', IDIV],
  ['HSW', IDIV],
  ['SKX', IDIV32],
] as const) {
  test(`the divider while idiv executes: ${arch}, ${file === IDIV ? 'idiv r64' : 'idiv m32'}, 160×50 (every pane at once)`, {
    skip: SKIP,
    timeout: 120_000,
  }, async () => {
    try {
      const session = arch.replace('-', '');
      const screen = await open(session, arch, 160, 50, file);
      const s = await stepUntil(session, screen, (x) => executingIdiv(x) !== null);
      const who = executingIdiv(s)!;
      // LLVM's haswell model gives idiv m64 10 cycles on the divider; its skylake, skylake-avx512
      // and alderlake models none, the cited corrections uops.info's measured throughput: busy,
      // held by it
      assert.match(s, new RegExp(`divider: busy, (\\d+ cycles? left|last cycle), held by ${who}`));
    } finally {
      await stopServer();
    }
  });
}

test('the divider is busy while vdivpd ymm executes on SPR (the cited occupancy), 160×50', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  try {
    const screen = await open('sprdiv', 'SPR', 160, 50, VDIVPD);
    const s = await stepUntil('sprdiv', screen, (x) => /▶ L[01]#\d+\s+\d+µ executing/.test(x));
    const who = /▶ (L[01]#\d+)\s+\d+µ executing/.exec(s)![1]!;
    assert.match(s, new RegExp(`divider: busy, (\\d+ cycles? left|last cycle), held by ${who}`));
  } finally {
    await stopServer();
  }
});

test('no divider is invented: the report says why it is not modelled (SPR vdivph), and is silent where a source gives it (SKL, ADL-P idiv)', () => {
  const report = (file: string, arch: string) =>
    execFileSync('node', ['--import', 'tsx', 'src/cli/main.cts', 'report', file, '--arch', arch], {
      cwd: ROOT,
      encoding: 'utf8',
    }).replace(/\s+/g, ' ');
  assert.match(
    report(VDIVPH, 'SPR'),
    /Not modelled on SPR: the divider, line 1 \(vdivph xmm0, xmm1, xmm2\): LLVM 19\.\S+ sapphirerapids model gives this form no divider resource/,
  );
  for (const arch of ['SKL', 'ADL-P']) {
    const out = report(IDIV, arch);
    assert.doesNotMatch(out, /Not modelled on \S+: the divider/, arch);
    assert.match(out, /Figures: \d+ lines: .*1 LLVM 19 model with cited corrections/, arch);
  }
});
