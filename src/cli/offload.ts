// Runs the explorer's long computations in a worker thread so that keys stay responsive.
import { Worker } from 'node:worker_threads';
import type { MachineParams, SimProgram } from '../sim/types.js';
import type { Divergence } from '../ui/compare.js';
import type { Cancellable, Offload, PaneSpec } from '../ui/types.js';
import type { WorkerRequest } from './simWorker.js';

// under tsx (tests, development) this file is .ts and so is the worker; built, both are .js
const here = new URL(import.meta.url);
const ext = here.pathname.endsWith('.ts') ? '.ts' : '.js';

/** A worker thread running src/cli/<name>.ts (tests, development under tsx) or dist/cli/<name>.js. */
export function spawnWorker(name: string): Worker {
  const url = new URL(`./${name}${ext}`, here);
  // under tsx the worker registers tsx's loader itself (a Worker's --import is not honoured everywhere)
  return ext === '.ts'
    ? new Worker(`import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(url.href)}); })`, { eval: true })
    : new Worker(url);
}

function run<T>(req: WorkerRequest): Cancellable<T> {
  const worker = spawnWorker('simWorker');
  let settled = false;
  const promise = new Promise<T>((resolve, reject) => {
    worker.once('message', (m: T) => { settled = true; resolve(m); void worker.terminate(); });
    worker.once('error', (e) => { settled = true; reject(e); });
    worker.once('exit', (code) => { if (!settled) reject(new Error(`worker stopped (${code})`)); });
  });
  worker.postMessage(req);
  worker.unref();   // never keeps uopscope running after the explorer quits
  return { promise, cancel: () => { settled = true; void worker.terminate(); } };
}

export function workerOffload(programFor: (spec: PaneSpec, iterations: number) => SimProgram, machine: MachineParams): Offload {
  return {
    totalCycles: (pane, iterations) => run<number>({ kind: 'total', program: programFor(pane, iterations), machine, config: { iterations, variant: pane.variant } }),
    divergence: (a, b, iterations) => run<Divergence>({
      kind: 'diverge', machine,
      a: { program: programFor(a, iterations), config: { iterations, variant: a.variant } },
      b: { program: programFor(b, iterations), config: { iterations, variant: b.variant } },
    }),
  };
}
