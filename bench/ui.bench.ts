// Explorer responsiveness (issue 5): a 60-instruction region at 10,000 iterations.
//   keypress → next frame: median ≤ 16 ms;  variant or architecture switch → frame: ≤ 250 ms.
// The region is assembled from examples of the forms in test/fixtures/thesis/thesis-instructions.xml
// (real uops.info figures), run through the real pipeline (disasm → data → sim) and the real Ink
// renderer writing to an in-memory terminal of 120×40 (not the debug renderer).
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRegion } from '../src/disasm/index.js';
import { buildExplorerSession } from '../src/cli/explorerSession.js';
import { shareInkOutputCache } from '../src/ui/inkOutputCache.js';

const XML = new URL('../test/fixtures/thesis/thesis-instructions.xml', import.meta.url).pathname;
const ITERATIONS = 10_000;
const BODY = [
  'vmovsd xmm0, qword ptr [rdi+8]', 'vaddsd xmm0, xmm0, qword ptr [rdi+16]', 'vmulsd xmm1, xmm0, xmm2',
  'vmovsd qword ptr [rsi], xmm1', 'add rax, rbx', 'adc rcx, 1', 'inc rdx', 'cmp rdx, 100', 'mov r8, 1', 'add r9, r8',
];

class Stdout extends EventEmitter {
  isTTY = true;
  columns = 120;
  rows = 40;
  frames = 0;
  waiters: (() => void)[] = [];
  write = (_s: string) => { this.frames++; const w = this.waiters; this.waiters = []; for (const f of w) f(); return true; };
  nextFrame = () => new Promise<void>((r) => this.waiters.push(r));
}
class Stdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (d: string) => { this.data = d; this.emit('readable'); };
  read = () => { const d = this.data; this.data = null; return d; };
  setEncoding() {} setRawMode() {} resume() {} pause() {} ref() {} unref() {}
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const fmt = (x: number) => `${x.toFixed(2)} ms`;

export async function main(): Promise<boolean> {
  // as the CLI runs it: React's production build (chosen when React is first loaded, below)
  if (process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';
  const React = (await import('react')).default;
  const { render } = await import('ink');
  const { Explorer } = await import('../src/ui/components/Explorer.js');
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-bench-'));
  const src = join(dir, 'sixty.s');
  const lines = Array.from({ length: 6 }, () => BODY).flat();
  writeFileSync(src, ['.intel_syntax noprefix', '.text', '.globl f', 'f:', 'mov ebx, 111', '.byte 0x64, 0x67, 0x90', '1:',
    ...lines, 'mov ebx, 222', '.byte 0x64, 0x67, 0x90', 'ret', ''].join('\n'));
  const loaded = await loadRegion({ file: src });
  rmSync(dir, { recursive: true, force: true });
  if (loaded.instructions.length !== 60) throw new Error(`expected 60 instructions, got ${loaded.instructions.length}`);
  const session = await buildExplorerSession(loaded, 'SKL', { uopsXml: XML });
  const shared = process.env.UOPSCOPE_NO_INK_CACHE ? false : await shareInkOutputCache();
  let archLoaded = false;
  const renderTimes: number[] = [];
  const stdout = new Stdout();
  const stdin = new Stdin();
  const app = render(React.createElement(Explorer, {
    session, iterations: ITERATIONS, archs: [{ arch: 'SKL', name: 'Skylake' }, { arch: 'CFL', name: 'Coffee Lake' }],
    loadArch: async (a: string) => { const s = await buildExplorerSession(loaded, a, { uopsXml: XML }); archLoaded = true; return s; }, saveExport: async () => '/dev/null', color: process.env.NO_COLOR === undefined,
  }), { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, debug: false, exitOnCtrlC: false, patchConsole: false, maxFps: 60, onRender: (m: { renderTime: number }) => { renderTimes.push(m.renderTime); } });
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
  const settle = async (ms = 40) => { await sleep(ms); };
  await settle(300);

  const steps: number[] = [];
  // into the run, then single steps forward and back, ±10, ±100
  await press('}'); await settle(); await press('}'); await settle();
  for (let i = 0; i < 40; i++) { steps.push(await press(i % 2 ? 'h' : 'l')); await settle(); }
  for (let i = 0; i < 10; i++) { steps.push(await press(i % 2 ? '[' : ']')); await settle(); }
  for (let i = 0; i < 10; i++) { steps.push(await press(i % 2 ? '{' : '}')); await settle(); }
  for (let i = 0; i < 10; i++) { steps.push(await press(i % 2 ? 'k' : 'j')); await settle(); }

  const variant: number[] = [];
  for (const k of ['f', 'f', 'p', 'p', 'd', 'd']) { variant.push(await press(k)); await settle(300); }
  // stepping with a split pane
  await press('f'); await settle(300);
  const splitSteps: number[] = [];
  for (let i = 0; i < 20; i++) { splitSteps.push(await press(i % 2 ? 'h' : 'l')); await settle(); }
  await press('f'); await settle(300);

  // architecture switch: open the picker, move to CFL, enter → the first frame on CFL
  await press('a'); await settle();
  await press('\u001B[B'); await settle();
  // the picker's enter shows 'loading CFL…' at once; the switch is done at the first frame
  // drawn after the new session is in (onArch below marks it)
  const t0 = performance.now();
  stdin.write('\r');
  while (!archLoaded && performance.now() - t0 < 5000) await stdout.nextFrame();
  if (archLoaded) await stdout.nextFrame();
  const archMs = performance.now() - t0;
  app.unmount();

  const okSteps = median(steps) <= 16;
  const okSplit = median(splitSteps) <= 16;
  const okVariant = Math.max(...variant) <= 250;
  const okArch = archMs <= 250;
  console.log(`ui: 60 instructions × ${ITERATIONS} iterations, 120×40 terminal, React ${process.env.NODE_ENV ?? 'development'} build, shared Ink line cache ${shared ? 'on' : 'off'}`);
  console.log(`  keypress → frame, one pane:   median ${fmt(median(steps))}, max ${fmt(Math.max(...steps))} (${steps.length} keys) ${okSteps ? 'ok' : 'FAIL (> 16 ms)'}`);
  console.log(`  keypress → frame, split pane: median ${fmt(median(splitSteps))}, max ${fmt(Math.max(...splitSteps))} ${okSplit ? 'ok' : 'FAIL (> 16 ms)'}`);
  console.log(`  CPU time of this process per key: median ${fmt(median(cpu))} (the machine's load average: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`);
  console.log(`  of which Ink's layout and output: median ${fmt(median(renderTimes))} per frame (${renderTimes.length} frames)`);
  console.log(`  variant toggle → frame:       max ${fmt(Math.max(...variant))} (${variant.map((x) => x.toFixed(0)).join(', ')} ms) ${okVariant ? 'ok' : 'FAIL (> 250 ms)'}`);
  console.log(`  architecture switch → frame:  ${fmt(archMs)} ${okArch ? 'ok' : 'FAIL (> 250 ms)'}`);
  return okSteps && okSplit && okVariant && okArch;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then((ok) => { process.exitCode = ok ? 0 : 1; }, (e) => { console.error(e); process.exitCode = 1; });
}
