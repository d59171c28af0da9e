// Explorer responsiveness: a 60-instruction region at 10,000 iterations, and a
// 200-instruction region at 100,000 iterations (the large case, with `G` and peak memory).
//   keypress → next frame: median ≤ 16 ms;  variant or architecture switch → its frame: ≤ 250 ms;
//   G → the frame at the run's end: ≤ 250 ms; peak memory (the whole process) ≤ 300 MB;
//   ← from the end of a run that never repeats (1,000,000 iterations): the first ≤ 250 ms (as G),
//   the next ones median ≤ 16 ms (as a step).
// The region (bench/loopSource.ts) is assembled from examples of the forms in examples/thesis/thesis-instructions.xml
// (real uops.info figures), run through the real pipeline (disasm → data → sim) with the CLI's
// worker, and drawn by Ink's real (non-debug) renderer into an in-memory terminal, at 80×24 and
// at 120×40. Wall-clock times depend on the machine's load: the CPU time per key is printed too.
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRegion, type LoadedRegion } from '../src/disasm/index.js';
import { regionAnalysis, sessionLoader } from '../src/cli/explorerSession.js';
import { backgroundIdle, stopBackground } from '../src/cli/offload.js';
import { shareInkOutputCache } from '../src/ui/inkOutputCache.js';
import { LOOP_BODY, loopSource } from './loopSource.js';

const XML = new URL('../examples/thesis/thesis-instructions.xml', import.meta.url).pathname;

class Stdout extends EventEmitter {
  isTTY = true;
  frames = 0;
  waiters: (() => void)[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  onFrame: (() => void) | null = null;
  last = '';
  write = (s: string) => {
    this.last = s;
    this.frames++;
    this.onFrame?.();
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
    return true;
  };
  nextFrame = () => new Promise<void>((r) => this.waiters.push(r));
}
class Stdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (d: string) => {
    this.data = d;
    this.emit('readable');
  };
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const fmt = (x: number) => `${x.toFixed(1)} ms`;
const settle = (ms = 40) => sleep(ms);
const idle = async () => {
  const t = performance.now();
  while (!backgroundIdle() && performance.now() - t < 120_000) await settle(20);
  return performance.now() - t;
};

/** Ink's options for a bench render: the fake terminal, no console patching, 60 frames a second. */
function inkOptions(stdout: Stdout, stdin: Stdin) {
  return {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: false,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 60,
  };
}

async function region(copies: number): Promise<LoadedRegion> {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-bench-'));
  const src = join(dir, 'sixty.s');
  writeFileSync(src, loopSource(copies));
  try {
    return await loadRegion({ file: src });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(loaded: LoadedRegion, columns: number, rows: number, ITERATIONS: number): Promise<boolean> {
  const React = (await import('react')).default;
  const { render } = await import('ink');
  const { Explorer } = await import('../src/ui/components/Explorer.js');
  const base = regionAnalysis(loaded);
  const load = sessionLoader(base, { uopsXml: XML });
  const session = await load('SKL');
  let archLoaded = false;
  const stdout = new Stdout(columns, rows);
  const stdin = new Stdin();
  const app = render(
    React.createElement(Explorer, {
      session,
      iterations: ITERATIONS,
      archs: [
        { arch: 'SKL', name: 'Skylake' },
        { arch: 'CFL', name: 'Coffee Lake' },
      ],
      loadArch: async (a: string) => {
        const s = await load(a);
        archLoaded = true;
        return s;
      },
      saveExport: async () => '/dev/null',
      color: true,
    }),
    inkOptions(stdout, stdin),
  );
  const cpu: number[] = [];
  const press = async (k: string) => {
    const f = stdout.nextFrame();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    stdin.write(k);
    await f;
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    return ms;
  };
  await settle(200);
  const firstTotals = await idle();

  // into the run, then single steps forward and back, ±10, ±100, line selection
  const steps: number[] = [];
  await press('}');
  await settle();
  await press('}');
  await settle();
  for (let i = 0; i < 40; i++) {
    steps.push(await press(i % 2 ? 'h' : 'l'));
    await settle();
  }
  for (let i = 0; i < 10; i++) {
    steps.push(await press(i % 2 ? '[' : ']'));
    await settle();
  }
  for (let i = 0; i < 10; i++) {
    steps.push(await press(i % 2 ? '{' : '}'));
    await settle();
  }
  for (let i = 0; i < 10; i++) {
    steps.push(await press(i % 2 ? 'k' : 'j'));
    await settle();
  }
  const cpuOne = median(cpu);

  const variant: number[] = [];
  for (const k of ['f', 'f', 'p', 'p', 'd', 'd']) {
    variant.push(await press(k));
    await idle();
  }

  // stepping with a split pane, while the worker computes the run lengths and the divergence…
  await press('f');
  const busy: number[] = [];
  for (let i = 0; i < 10; i++) {
    busy.push(await press(i % 2 ? 'h' : 'l'));
    await settle();
  }
  const background = await idle();
  // …and after (the steady state)
  const split: number[] = [];
  for (let i = 0; i < 20; i++) {
    split.push(await press(i % 2 ? 'h' : 'l'));
    await settle();
  }
  await press('f');
  await idle();

  // architecture switch: picker, CFL, enter → the first frame drawn with the new session
  await press('a');
  await settle();
  await press('\u001B[B');
  await settle();
  let archFrameAt = 0;
  stdout.onFrame = () => {
    if (archLoaded && !archFrameAt) archFrameAt = performance.now();
  };
  const t0 = performance.now();
  stdin.write('\r');
  while (!archFrameAt && performance.now() - t0 < 10_000) await settle(1);
  const archMs = archFrameAt - t0;
  stdout.onFrame = null;
  await idle();

  // G: to the run's end, once the worker has the run (its length is on screen): the pane's engine
  // adopts the worker's run, so nothing is simulated again on this thread
  await settle(100);
  const g0 = performance.now();
  stdin.write('G');
  let seen = '';
  const atEnd = () => /cycle (\d+) of \1\b/.test(seen);
  stdout.onFrame = () => {
    seen += stdout.last;
    if (seen.length > 100_000) seen = seen.slice(-50_000);
  };
  while (!atEnd() && performance.now() - g0 < 30_000) await Promise.race([stdout.nextFrame(), settle(5)]);
  stdout.onFrame = null;
  if (!atEnd())
    console.log(
      `  (G: no frame at the run's end within 30 s; last output ${JSON.stringify(stdout.last.slice(0, 200))})`,
    );
  const gMs = performance.now() - g0;
  app.unmount();
  await idle();

  const ok = {
    steps: median(steps) <= 16,
    split: median(split) <= 16,
    variant: Math.max(...variant) <= 250,
    arch: archMs <= 250,
    g: gMs <= 250,
  };
  console.log(`-- ${columns}×${rows}`);
  console.log(
    `  keypress → frame, one pane:   median ${fmt(median(steps))}, max ${fmt(Math.max(...steps))} (${steps.length} keys; CPU ${fmt(cpuOne)} per key) ${ok.steps ? 'ok' : 'FAIL (> 16 ms)'}`,
  );
  console.log(
    `  keypress → frame, split pane: median ${fmt(median(split))}, max ${fmt(Math.max(...split))} ${ok.split ? 'ok' : 'FAIL (> 16 ms)'}`,
  );
  console.log(
    `    while the worker runs:     median ${fmt(median(busy))} (run lengths and divergence known ${fmt(background)} after the toggle's frame; first run length ${fmt(firstTotals)})`,
  );
  console.log(
    `  variant toggle → frame:       max ${fmt(Math.max(...variant))} (${variant.map((x) => x.toFixed(0)).join(', ')} ms) ${ok.variant ? 'ok' : 'FAIL (> 250 ms)'}`,
  );
  console.log(`  architecture switch → frame:  ${fmt(archMs)} ${ok.arch ? 'ok' : 'FAIL (> 250 ms)'}`);
  console.log(`  G → the frame at the end:      ${fmt(gMs)} ${ok.g ? 'ok' : 'FAIL (> 250 ms)'}`);
  return ok.steps && ok.split && ok.variant && ok.arch && ok.g;
}

/** ← from the end of a run that never repeats (the thesis's stencil with port choice at issue,
 *  1,000,000 iterations): the first step back and the next ones, each key → the frame showing its
 *  cycle. Before checkpoints it replayed the run from cycle 0. Target: as G, ≤ 250 ms. */
async function backStepFromEnd(): Promise<boolean> {
  const React = (await import('react')).default;
  const { render } = await import('ink');
  const { Explorer } = await import('../src/ui/components/Explorer.js');
  const { REFINED_MECHANISMS } = await import('../src/sim/mechanisms.js');
  const ITERATIONS = 1_000_000;
  const loaded = await loadRegion({ file: new URL('../examples/bin/stencil', import.meta.url).pathname });
  const session = await sessionLoader(regionAnalysis(loaded), { uopsXml: XML })('SKL');
  const stdout = new Stdout(80, 24);
  const stdin = new Stdin();
  const app = render(
    React.createElement(Explorer, {
      session,
      iterations: ITERATIONS,
      mechanisms: { ...REFINED_MECHANISMS, portChoice: true },
      archs: [{ arch: 'SKL', name: 'Skylake' }],
      loadArch: async () => session,
      saveExport: async () => '/dev/null',
      color: true,
    }),
    inkOptions(stdout, stdin),
  );
  let seen = '';
  stdout.onFrame = () => {
    seen += stdout.last;
    if (seen.length > 100_000) seen = seen.slice(-50_000);
  };
  /** key → the first frame that shows `re` (ms; Infinity after 30 s) */
  const until = async (key: string, re: RegExp): Promise<number> => {
    seen = '';
    const t0 = performance.now();
    stdin.write(key);
    while (!re.test(seen)) {
      if (performance.now() - t0 > 30_000) return Number.POSITIVE_INFINITY;
      await Promise.race([stdout.nextFrame(), settle(5)]);
    }
    return performance.now() - t0;
  };
  // the worker's whole run: its length on screen
  const w0 = performance.now();
  let m: RegExpExecArray | null = null;
  while (!(m = /cycle 0 of (\d+)/.exec(seen)) && performance.now() - w0 < 300_000)
    await Promise.race([stdout.nextFrame(), settle(50)]);
  const worker = performance.now() - w0;
  if (!m) console.log(`  (no run length within 300 s; last output ${JSON.stringify(stdout.last.slice(0, 200))})`);
  const end = m ? Number(m[1]) : Number.NaN;
  await idle();
  const gMs = await until('G', new RegExp(`cycle ${end} of ${end}`));
  await settle(100);
  const back: number[] = [];
  for (let k = 1; k <= 20; k++) {
    back.push(await until('\u001B[D', new RegExp(`cycle ${end - k} of ${end}`)));
    if (!Number.isFinite(back[back.length - 1]!)) break;
    await settle();
  }
  stdout.onFrame = null;
  app.unmount();
  await idle();
  const ok = back[0]! <= 250 && median(back) <= 16;
  console.log(
    `ui: ← from the end, stencil (port choice at issue: never repeats) × ${ITERATIONS} iterations, ${end} cycles, 80×24; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
  );
  console.log(`  worker's whole run: ${fmt(worker)}; G → the end: ${fmt(gMs)}`);
  console.log(
    `  first ← from the end → frame: ${fmt(back[0]!)} ${back[0]! <= 250 ? 'ok' : 'FAIL (> 250 ms)'}; the next 19: median ${fmt(median(back.slice(1)))}, max ${fmt(Math.max(...back.slice(1)))} ${median(back) <= 16 ? 'ok' : 'FAIL (> 16 ms)'}`,
  );
  return ok;
}

export async function main(): Promise<boolean> {
  // as the CLI runs it: React's production build (chosen when React is first loaded)
  if (process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';
  const shared = await shareInkOutputCache();
  let all = true;
  for (const [copies, iterations] of [
    [6, 10_000],
    [20, 100_000],
  ] as const) {
    const loaded = await region(copies);
    const n = copies * LOOP_BODY.length;
    if (loaded.instructions.length !== n)
      throw new Error(`expected ${n} instructions, got ${loaded.instructions.length}`);
    console.log(
      `ui: ${n} instructions × ${iterations} iterations, React ${process.env.NODE_ENV} build, shared Ink line cache ${shared ? 'on' : 'off'}; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
    );
    for (const [c, r] of [
      [80, 24],
      [120, 40],
    ] as const)
      all = (await measure(loaded, c, r, iterations)) && all;
  }
  all = (await backStepFromEnd()) && all;
  stopBackground();
  // peak resident memory of the whole process (the interface, the worker threads, Node itself)
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(
    `  peak memory (RSS of the process, all runs): ${peak.toFixed(0)} MB ${peak <= 300 ? 'ok' : 'FAIL (> 300 MB)'}`,
  );
  console.log(`  (load average at the end: ${loadavg()[0]!.toFixed(1)})`);
  return all && peak <= 300;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (ok) => {
      process.exitCode = ok ? 0 : 1;
    },
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
