// Runs the explorer's long computations in one worker thread, one job at a time, so that the
// UI thread keeps a core to itself and keys stay responsive.
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { MachineParams, SimProgram } from '../sim/types.js';
import type { Divergence } from '../ui/compare.js';
import type { Cancellable, Offload, PaneSpec, RunTotal } from '../ui/types.js';
import type { WorkerRequest } from './simWorker.js';
import { engineOptionsOf, SUACA_MECHANISMS } from '../sim/index.js';

// under tsx (tests, development) this file is .ts and so is the worker; built, both are .js
const here = new URL(import.meta.url);
const ext = here.pathname.endsWith('.ts') ? '.ts' : '.js';
/** A worker thread running src/cli/<name>.ts (tests, development under tsx) or dist/cli/<name>.js. */
export function spawnWorker(name: string): Worker {
  // node:worker_threads is loaded when the first worker starts (≈ 10 ms a run that starts none,
  // such as report --fast, does not pay)
  const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const url = new URL(`./${name}${ext}`, here);
  // under tsx the worker registers tsx's loader itself (a Worker's --import is not honoured everywhere)
  return ext === '.ts'
    ? new Worker(
        `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true },
      )
    : new Worker(url);
}

function spawn(): Worker {
  const w = spawnWorker('simWorker');
  w.unref(); // never keeps uopscope running after the explorer quits
  return w;
}

interface Job {
  id: number;
  req: WorkerRequest;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/** One worker, a queue of jobs; cancelling the running job restarts the worker. */
export class JobQueue {
  private worker: Worker | null = null;
  private queue: Job[] = [];
  private current: Job | null = null;
  private nextId = 1;

  submit<T>(req: WorkerRequest): Cancellable<T> {
    let job!: Job;
    const promise = new Promise<T>((resolve, reject) => {
      job = { id: this.nextId++, req, resolve: resolve as (v: unknown) => void, reject };
    });
    this.queue.push(job);
    this.pump();
    return { promise, cancel: () => this.cancel(job) };
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = spawn();
    w.on('message', (m: { id: number; result: unknown }) => {
      if (this.current?.id === m.id) {
        const j = this.current;
        this.current = null;
        j.resolve(m.result);
      }
      this.pump();
    });
    w.on('error', (e) => {
      const j = this.current;
      this.current = null;
      this.worker = null;
      j?.reject(e);
      this.pump();
    });
    w.on('exit', () => {
      if (this.worker === w) {
        this.worker = null;
        const j = this.current;
        this.current = null;
        j?.reject(new Error('worker stopped'));
        this.pump();
      }
    });
    this.worker = w;
    return w;
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    this.current = this.queue.shift()!;
    this.ensureWorker().postMessage({ id: this.current.id, req: this.current.req });
  }

  get idle(): boolean {
    return this.current === null && this.queue.length === 0;
  }

  /** Drops every job and stops the worker (when the explorer quits). */
  stop(): void {
    for (const j of this.queue) j.reject(new Error('stopped'));
    this.queue = [];
    this.current?.reject(new Error('stopped'));
    this.current = null;
    const w = this.worker;
    this.worker = null;
    void w?.terminate();
  }

  private cancel(job: Job): void {
    const i = this.queue.indexOf(job);
    if (i >= 0) {
      this.queue.splice(i, 1);
      job.reject(new Error('cancelled'));
      return;
    }
    if (this.current === job) {
      const w = this.worker;
      this.worker = null;
      this.current = null;
      job.reject(new Error('cancelled'));
      void w?.terminate();
      this.pump();
    }
  }
}

const shared = new JobQueue();

/** No background job is queued or running (benchmarks wait for it). */
export function backgroundIdle(): boolean {
  return shared.idle;
}

/** Stops the background worker (the explorer has quit). */
export function stopBackground(): void {
  shared.stop();
}

export function workerOffload(
  programFor: (spec: PaneSpec, iterations: number) => SimProgram,
  machine: MachineParams,
  queue = shared,
): Offload {
  return {
    wholeRun: (pane, iterations) =>
      queue.submit<RunTotal>({
        kind: 'total',
        program: programFor(pane, iterations),
        machine,
        config: { iterations, variant: pane.variant },
        opts: engineOptionsOf(pane.mechanisms ?? SUACA_MECHANISMS),
      }),
    divergence: (a, b, iterations) =>
      queue.submit<Divergence>({
        kind: 'diverge',
        machine,
        a: {
          program: programFor(a, iterations),
          config: { iterations, variant: a.variant },
          opts: engineOptionsOf(a.mechanisms ?? SUACA_MECHANISMS),
        },
        b: {
          program: programFor(b, iterations),
          config: { iterations, variant: b.variant },
          opts: engineOptionsOf(b.mechanisms ?? SUACA_MECHANISMS),
        },
      }),
  };
}
