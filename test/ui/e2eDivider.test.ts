// The divider in a real terminal (tmux), on gcc -O2's idiv loop (examples/corpus int_div): while a
// division executes, the Ports pane shows the divider busy with it — or, where the figures give
// the division no divider cycles (LLVM 19's skylake and alderlake models: `idiv` is µops on the
// ALU ports only), says that the divider is not modelled for it and why, beside the same
// instance executing in the Reservation station.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { hasTmux, tmuxServer } from './helpers/tmux.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { tmux, waitFor, stopServer } = tmuxServer('uopscope-divider', 30_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';
const IDIV = 'examples/corpus/bin/int_div.gcc.O2.sse2.o';

/** Starts the explorer on the idiv loop in a terminal of the size given; the screen function. */
async function open(session: string, arch: string, cols: number, rows: number): Promise<() => string> {
  const cmd = `node --import tsx src/cli/main.cts ${IDIV} --arch ${arch} --iterations 20; sleep 60`;
  tmux('new-session', '-d', '-s', session, '-x', String(cols), '-y', String(rows), '-c', ROOT, cmd);
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

test('the divider says why it is free while idiv executes: SKL, 80×24, Ports tab', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  try {
    const screen = await open('skl', 'SKL', 80, 24);
    // select the idiv's line: the station's window follows it
    tmux('send-keys', '-t', 'skl', 'j', 'j', '3');
    await waitFor('skl', /divider:/, 'the Ports tab');
    const s = await stepUntil('skl', screen, (x) => /divider: not modelled for L2#\d+ \(executing\)/.test(x));
    assert.match(s, /divider: not modelled for L2#\d+ \(executing\): no divider in LLVM's model/);
    for (const line of s.split('\n')) assert.ok(line.length <= 80, line);
    // the same instance in the station: executing
    const who = /not modelled for (L2#\d+)/.exec(s)![1]!;
    tmux('send-keys', '-t', 'skl', '2');
    const rs = await waitFor('skl', /Reservation station/, 'the Reservation tab');
    assert.match(rs, new RegExp(`▶ ${who}\\s+\\d+µ executing`));
  } finally {
    await stopServer();
  }
});

for (const arch of ['ADL-P', 'HSW']) {
  test(`the divider while idiv executes: ${arch}, 160×50 (every pane at once)`, {
    skip: SKIP,
    timeout: 120_000,
  }, async () => {
    try {
      const session = arch.replace('-', '');
      const screen = await open(session, arch, 160, 50);
      const s = await stepUntil(session, screen, (x) => executingIdiv(x) !== null);
      const who = executingIdiv(s)!;
      if (arch === 'HSW')
        // LLVM's haswell model gives idiv m64 10 cycles on the divider: busy, held by the division
        assert.match(s, new RegExp(`divider: busy, (\\d+ cycles? left|last cycle), held by ${who}`));
      // LLVM's alderlake model has no divider resource for idiv: said, with the reason
      else assert.match(s, new RegExp(`divider: not modelled for ${who} \\(executing\\): no divider in LLVM's model`));
    } finally {
      await stopServer();
    }
  });
}

test('no divider is invented: the report says why it is not modelled (SKL, ADL-P)', () => {
  // the same note in the report's header, from the same data (src/data/divider.ts)
  for (const [arch, cpu] of [
    ['SKL', 'skylake'],
    ['ADL-P', 'alderlake'],
  ]) {
    const out = execFileSync('node', ['--import', 'tsx', 'src/cli/main.cts', 'report', IDIV, '--arch', arch!], {
      cwd: ROOT,
      encoding: 'utf8',
    }).replace(/\s+/g, ' ');
    assert.match(
      out,
      new RegExp(
        `Not modelled on ${arch}: the divider, line 2 \\(idiv qword ptr \\[rcx\\+rsi\\*8\\]\\): LLVM 19\\.\\S+ ${cpu} model gives this form no divider resource`,
      ),
    );
  }
});
