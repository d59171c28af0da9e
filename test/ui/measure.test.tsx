// The explorer's measure key (M): the measurement runs in the background through an injected
// MeasureRunner (a real one runs the native harness: see the last tests), the header says
// "measuring…", then measured vs the model for the host's architecture, or why not.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import { Explorer } from '../../src/ui/components/Explorer.js';
import type { ExplorerProps, MeasureOutcome, MeasureRunner } from '../../src/ui/types.js';
import { measureText } from '../../src/ui/hooks/useMeasure.js';
import { scriptedSession } from './helpers/scriptedEngine.js';
import { KEY, plain, press, tick, until } from './helpers/render.js';

afterEach(() => cleanup());

/** A runner whose measurement ends when the test says so. */
function scriptedRunner(hostArch: string | null) {
  const calls = { runs: 0, cancels: 0 };
  let finish: (o: MeasureOutcome) => void = () => {};
  const runner: MeasureRunner = {
    hostArch,
    run: () => {
      calls.runs++;
      return {
        promise: new Promise<MeasureOutcome>((res) => {
          finish = res;
        }),
        cancel: () => {
          calls.cancels++;
        },
      };
    },
  };
  return { runner, calls, finish: (o: MeasureOutcome) => finish(o) };
}

function mount(over: Partial<ExplorerProps> = {}) {
  let quit = 0;
  const props: ExplorerProps = {
    session: scriptedSession('SKL'),
    iterations: 10,
    archs: [
      { arch: 'SKL', name: 'Skylake' },
      { arch: 'HSW', name: 'Haswell' },
    ],
    loadArch: async (a) => scriptedSession(a),
    saveExport: async () => '/tmp/x.txt',
    size: { columns: 80, rows: 24 },
    color: false,
    onQuit: () => {
      quit++;
    },
    ...over,
  };
  const r = render(<Explorer {...props} />);
  return { r, frame: () => plain(r.lastFrame()), quits: () => quit };
}

test('M measures in the background: "measuring…", the interface keeps stepping, then measured beside the model in the header at 80 columns', async () => {
  const m = scriptedRunner('SKL');
  const { r, frame } = mount({ measure: m.runner });
  await tick(30);
  assert.doesNotMatch(frame(), /measur/);
  await press(r, 'M');
  await until(() => frame().split('\n')[2]!.includes('measuring…'), 'the status while it runs');
  await press(r, 'l', 'l');
  assert.match(frame(), /cycle 2 of/, 'the explorer is not blocked');
  await press(r, 'M');
  assert.equal(m.calls.runs, 1, 'a second M while measuring starts nothing');
  m.finish({ ok: true, cyclesPerIteration: 2.014, method: 'tsc', variant: 'loop' });
  await until(
    () => /measured 2\.01 c\/it \(TSC-calibrated, loop\) · model \d+\.\d\d/.test(frame()),
    'measured vs model',
  );
  const head = frame().split('\n')[2]!;
  assert.ok(head.length <= 80, head);
  // the essentials stay on the header's first line; the measurement has its own, Esc dismisses it
  assert.match(frame().split('\n')[0]!, /loop\.o · IACA region 1 · SKL · 10 iter · .* · variant: baseline/);
  await press(r, KEY.escape);
  assert.doesNotMatch(frame(), /measured 2\.01/, 'Esc dismissed the measurement');
  // M again measures again
  await press(r, 'M');
  assert.equal(m.calls.runs, 2);
});

test("M on an architecture that is not the host's: the measurement is said to be this host's, not compared", async () => {
  const m = scriptedRunner('HSW');
  const { r, frame } = mount({ measure: m.runner });
  await press(r, 'M');
  m.finish({ ok: true, cyclesPerIteration: 3, method: 'perf', variant: 'unrolled' });
  await until(
    () => /this host \(HSW\) measured 3\.00 c\/it \(perf cycles\): not compared with SKL/.test(frame()),
    `not compared: ${frame().split('\n')[2]}`,
  );
  assert.doesNotMatch(frame(), /· model /);
  const none = measureText(
    { kind: 'done', outcome: { ok: true, cyclesPerIteration: 3, method: 'perf', variant: 'loop' } },
    { runner: { hostArch: null, run: m.runner.run }, arch: 'SKL', panes: [{ branch: null, total: 2 }] },
  );
  assert.equal(none, 'this host (no uopscope model) measured 3.00 c/it (perf cycles): not compared with SKL');
});

test('a region that is not measurable: one line with the reason; without a runner M says it is not available', async () => {
  const m = scriptedRunner('SKL');
  const { r, frame } = mount({ measure: m.runner });
  await press(r, 'M');
  m.finish({ ok: false, reason: 'not measurable: an illegal or unsupported instruction (SIGILL) at line 2' });
  await until(
    () => frame().includes('not measurable: an illegal or unsupported instruction (SIGILL) at line 2'),
    'the reason in full, on the message line',
  );
  assert.match(frame().split('\n')[2]!, /not measurable \(why: below\)/);
  cleanup();
  const bare = mount();
  await press(bare.r, 'M');
  await until(() => bare.frame().includes('not measurable: measuring is not available in this session'), 'no runner');
});

test('quitting while measuring cancels the measurement', async () => {
  const m = scriptedRunner('SKL');
  const { r, quits } = mount({ measure: m.runner });
  await press(r, 'M');
  assert.equal(m.calls.runs, 1);
  await press(r, 'q');
  await until(() => quits() === 1, 'quit');
  r.unmount();
  assert.equal(m.calls.cancels, 1);
});

test('the help lists M', async () => {
  const { r, frame } = mount({ size: { columns: 100, rows: 40 } });
  await press(r, '?');
  let found = false;
  for (let page = 0; page < 4 && !found; page++) {
    found = /M\s+measure the region on this machine/.test(frame());
    if (!found) await press(r, '?');
  }
  assert.ok(found, frame());
});

test("a region with a branch inside: M measures each side; with b on, each beside its pane's model", async () => {
  const m = scriptedRunner('SKL');
  const { r, frame } = mount({ measure: m.runner });
  await press(r, 'M');
  m.finish({
    ok: true,
    method: 'tsc',
    variant: 'unrolled',
    sides: [
      { label: 'fall-through', cyclesPerIteration: 1.99 },
      {
        label: 'taken',
        cyclesPerIteration: null,
        reason: 'not measurable: a trap (SIGTRAP: int3 or a debug instruction)',
      },
    ],
  });
  await until(
    () => /measured fall-through 1\.99, taken – c\/it \(TSC-calibrated\) · model: press b/.test(frame()),
    'both sides, the model not on screen',
  );
  assert.match(frame(), /taken side not measurable: a trap/, "the failed side's reason on the message line");
  await press(r, 'b');
  await until(
    () =>
      /measured vs model, c\/it \(TSC(-calibrated)?\): fall-through 1\.99 vs \d+\.\d\d, taken – vs \d+\.\d\d/.test(
        frame(),
      ),
    `each side beside its pane: ${frame().split('\n')[2]}`,
  );
  assert.ok(frame().split('\n')[2]!.length <= 80);
});

test('measureText: a whole-region measurement while the panes show the sides is not compared with a side', () => {
  const done = {
    kind: 'done' as const,
    outcome: { ok: true as const, cyclesPerIteration: 2, method: 'perf' as const, variant: 'loop' as const },
  };
  const runner: MeasureRunner = { hostArch: 'SKL', run: () => ({ promise: new Promise(() => {}), cancel: () => {} }) };
  assert.equal(
    measureText(done, {
      runner,
      arch: 'SKL',
      panes: [
        { branch: 0, total: 3 },
        { branch: 1, total: 4 },
      ],
    }),
    'measured 2.00 c/it (perf cycles, loop) · model (b off)',
  );
  assert.equal(
    measureText(done, { runner, arch: 'SKL', panes: [{ branch: null, total: null }] }),
    'measured 2.00 c/it (perf cycles, loop) · model …',
  );
  assert.equal(measureText({ kind: 'idle' }, { runner, arch: 'SKL', panes: [] }), null);
});

test('measureText at 80 columns: a measurement of both sides not compared says so first, its figures whole', () => {
  const done = {
    kind: 'done' as const,
    outcome: {
      ok: true as const,
      method: 'perf' as const,
      variant: 'loop' as const,
      sides: [
        { label: 'fall-through', cyclesPerIteration: 12.34 },
        { label: 'taken', cyclesPerIteration: 12.5 },
      ],
    },
  };
  const runner: MeasureRunner = { hostArch: null, run: () => ({ promise: new Promise(() => {}), cancel: () => {} }) };
  const t = measureText(done, { runner, arch: 'ADL-P', panes: [] }, 80)!;
  assert.ok(t.length <= 80, t);
  assert.equal(t, "not vs ADL-P: this host's fall-through 12.34, taken 12.50 c/it (perf)");
});
