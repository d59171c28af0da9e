// The probes as runners: suaca.ts's JavaScript in this process, and suaca.c (the same function in
// C) natively with gcc -O2 and as WebAssembly with clang-19 and wasm-ld-19 (Debian: clang-19,
// lld-19), run by this Node. The C ones are built into a temporary directory at run time; nothing
// is committed but the source. A missing compiler gives the reason instead of a runner (the bench
// then says which probe it skipped). `engineResult` is what they must all equal.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeInput, probeJs } from './suaca.js';
import type { ProbeResult } from './suaca.js';
import { type CompiledProgram, Core } from '../../src/sim/core.js';
import type { MachineParams, SimProgram, Variant } from '../../src/sim/types.js';

// the WebAssembly API as this file uses it (tsconfig's lib has no DOM types)
interface WasmMemory {
  buffer: ArrayBuffer;
}
interface WasmApi {
  Instance: new (m: unknown, imports: object) => { exports: Record<string, unknown> };
  Module: new (bytes: Uint8Array) => unknown;
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'suaca.c');
const STATS = ['had', 'caused', 'portUse', 'predBlame', 'portWas', 'portCaused'] as const;

/** One probe: runs `runs` times (`width` µops loaded per cycle into a station of `rsCap`); CPU
 *  seconds per run and the result. */
export type ProbeRunner = (
  cp: CompiledProgram,
  rsCap: number,
  width: number,
  iterations: number,
  runs: number,
) => { sec: number[]; result: ProbeResult };
export type Probe = { run: ProbeRunner; dispose(): void } | { why: string };

/** The JavaScript probe (suaca.ts), in this process. */
export function jsProbe(): Probe {
  const run: ProbeRunner = (cp, rsCap, width, iterations, runs) => {
    const sec: number[] = [];
    let result: ProbeResult | undefined;
    for (let k = 0; k < runs; k++) {
      const t0 = process.cpuUsage();
      result = probeJs(cp, rsCap, width, iterations);
      const d = process.cpuUsage(t0);
      sec.push((d.user + d.system) / 1e6);
    }
    return { sec, result: result! };
  };
  return { run, dispose: () => {} };
}

/** What a probe must compute: the engine's cycles and recorder (its default options). */
export function engineResult(
  program: SimProgram,
  machine: MachineParams,
  variant: Variant,
  iterations: number,
): ProbeResult {
  const core = new Core(program, machine, { iterations, variant });
  core.runToEnd();
  core.flush();
  const r = core.recorder;
  return {
    cycles: core.cycle,
    had: r.had,
    caused: r.caused,
    portUse: r.portUse,
    predBlame: r.predBlame,
    portWas: r.portWas,
    portCaused: r.portCaused,
  };
}

function have(cmd: string): boolean {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** The native probe (gcc -O2), or the reason there is none. */
export function nativeProbe(): Probe {
  if (!have('gcc')) return { why: 'gcc is not installed' };
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-probe-'));
  const exe = join(dir, 'probe');
  const b = spawnSync('gcc', ['-O2', '-DPROBE_NATIVE', '-o', exe, SOURCE], { encoding: 'utf8' });
  if (b.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { why: `gcc failed: ${b.stderr.trim()}` };
  }
  const run: ProbeRunner = (cp, rsCap, width, iterations, runs) => {
    const input = probeInput(cp, rsCap, width, iterations);
    const file = join(dir, 'input.bin');
    writeFileSync(file, Buffer.from(input.buffer, input.byteOffset, input.byteLength));
    const r = spawnSync(exe, [file, String(runs)], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`native probe: exit ${r.status}: ${r.stderr}`);
    const j = JSON.parse(r.stdout) as Record<string, number[]> & { cycles: number; sec: number[] };
    const result = { cycles: j.cycles } as ProbeResult;
    for (const k of STATS) result[k] = Float64Array.from(j[k]!);
    return { sec: j.sec, result };
  };
  return { run, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The WebAssembly probe (clang-19 --target=wasm32 -O2, wasm-ld-19), or the reason there is none. */
export function wasmProbe(): Probe {
  if (!have('clang-19')) return { why: 'clang-19 is not installed (Debian: clang-19)' };
  if (!have('wasm-ld-19')) return { why: 'wasm-ld-19 is not installed (Debian: lld-19)' };
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-probe-'));
  try {
    const out = join(dir, 'probe.wasm');
    const exports = ['probe_input', 'probe_input_size', 'probe_run', ...STATS.map((s) => `probe_${s}`)].map(
      (e) => `-Wl,--export=${e}`,
    );
    // -mbulk-memory: the clearing loops become memory.fill (there is no C library to call memset in)
    const b = spawnSync(
      'clang-19',
      ['--target=wasm32', '-O2', '-mbulk-memory', '-nostdlib', '-Wl,--no-entry', ...exports, '-o', out, SOURCE],
      { encoding: 'utf8', env: { ...process.env, PATH: `/usr/lib/llvm-19/bin:${process.env.PATH ?? ''}` } },
    );
    if (b.status !== 0) return { why: `clang-19 failed: ${b.stderr.trim()}` };
    const x = new WA.Instance(new WA.Module(readFileSync(out)), {}).exports;
    const call = (name: string) => (x[name] as () => number)();
    const mem = x.memory as WasmMemory;
    const run: ProbeRunner = (cp, rsCap, width, iterations, runs) => {
      const input = probeInput(cp, rsCap, width, iterations);
      if (input.length > call('probe_input_size')) throw new Error('wasm probe: input too large');
      new Int32Array(mem.buffer, call('probe_input'), input.length).set(input);
      const sec: number[] = [];
      let cycles = 0;
      for (let r = 0; r < runs; r++) {
        const t0 = process.cpuUsage();
        cycles = call('probe_run');
        const d = process.cpuUsage(t0);
        sec.push((d.user + d.system) / 1e6);
      }
      if (cycles < 0) throw new Error(`wasm probe: refused (${cycles})`);
      const n = input[0]!,
        P = input[1]!,
        E = input[3]!;
      const len = { had: n, caused: n, portUse: n * P, predBlame: E, portWas: n * P, portCaused: n * P };
      const result = { cycles } as ProbeResult;
      for (const k of STATS) result[k] = new Float64Array(mem.buffer, call(`probe_${k}`), len[k]).slice();
      return { sec, result };
    };
    return { run, dispose: () => {} };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first statistic in which a probe's result differs from the core's, or null. */
export function probeDiffers(a: ProbeResult, b: ProbeResult): string | null {
  if (a.cycles !== b.cycles) return `cycles ${a.cycles} ≠ ${b.cycles}`;
  for (const k of STATS) {
    const x = a[k],
      y = b[k];
    if (x.length !== y.length) return `${k}: ${x.length} ≠ ${y.length} entries`;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return `${k}[${j}] ${x[j]} ≠ ${y[j]}`;
  }
  return null;
}
