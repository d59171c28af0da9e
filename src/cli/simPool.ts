// Several simulations of one program at once: worker threads and the calling thread take them
// from a shared queue. Used by `uopscope report` for the what-if runs at
// large iteration counts (each run is independent and deterministic, so the figures are the same
// as one after the other; only the time differs).
import { availableParallelism } from 'node:os';
import { simulate } from '../sim/index.js';
import type { EngineOptions } from '../sim/index.js';
import type { MachineParams, SimConfig, SimProgram, SimResult } from '../sim/types.js';
import { SIMULATION_BYTES_PER_LINE, workersThatFit } from './addressSpace.js';
import { spawnWorker } from './offload.js';
import { type RunsProgress, jobDone, withProgress } from './progress.js';
import type { PoolJobs, PoolMessage } from './simPoolWorker.js';

interface PoolOptions {
  /** worker threads to start (default: one less than the CPUs, at most one per job; 0: none) */
  workers?: number;
  /** the engine options of each job (the model's mechanisms), in the order of `configs` */
  engineOptions?: (EngineOptions | undefined)[];
  /** where each job's progress is shown (every thread writes its jobs' into shared slots) */
  progress?: RunsProgress;
}

/** Worker threads uopscope may use: $UOPSCOPE_WORKERS when set, else the CPUs but one. */
function defaultWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.UOPSCOPE_WORKERS;
  if (v !== undefined && /^\d+$/.test(v.trim())) return Number(v);
  return Math.max(0, availableParallelism() - 1);
}

/**
 * Runs `configs` on `program` and returns their results in the same order. Every thread — the
 * calling one and the workers — takes the next job from a shared counter when it is free, so
 * the calling thread starts with the first and no thread waits while a job is left; with no
 * worker this is a plain loop.
 */
export async function simulateAll(
  program: SimProgram,
  machine: MachineParams,
  configs: SimConfig[],
  opts: PoolOptions = {},
): Promise<SimResult[]> {
  const results: (SimResult | undefined)[] = new Array(configs.length);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const take = (): number => Atomics.add(next, 0, 1);
  let k = take(); // the first job is the calling thread's
  const slots = opts.progress?.slots(configs.length);
  // under an address-space limit, only the workers it leaves room for (the rest run here)
  const nWorkers = workersThatFit(
    Math.max(0, Math.min(opts.workers ?? defaultWorkers(), configs.length - 1)),
    undefined,
    program.instructions.length * SIMULATION_BYTES_PER_LINE,
  );
  const workers = Array.from({ length: nWorkers }, () => spawnWorker('simPoolWorker'));
  const done = workers.map(
    (w) =>
      new Promise<void>((resolve) => {
        w.on('message', (m: PoolMessage) => {
          if ('done' in m) resolve();
          else results[m.k] = m.result;
        });
        // a worker that fails leaves its job to the calling thread (below)
        w.once('error', () => resolve());
        w.once('exit', () => resolve());
        const jobs: PoolJobs = {
          program,
          machine,
          configs,
          next,
          ...(opts.engineOptions ? { engineOptions: opts.engineOptions } : {}),
          ...(slots ? { progress: slots } : {}),
        };
        w.postMessage(jobs);
      }),
  );
  let all = false;
  const tick = opts.progress ? () => opts.progress!.tick() : undefined;
  // redraws while this thread waits for the workers (while it simulates, its own runs redraw)
  const timer = tick ? setInterval(tick, 100) : undefined;
  try {
    for (; k < configs.length; k = take()) {
      results[k] = simulate(program, machine, configs[k]!, withProgress(opts.engineOptions?.[k], slots, k, tick));
      jobDone(slots, k);
    }
    // the calling thread ran every job (runs whose periodic part is skipped take milliseconds,
    // less than a worker takes to start): do not wait for the workers to start, nor to stop
    all = true;
    for (let j = 0; j < results.length; j++) if (results[j] === undefined) all = false; // (a sparse array: not every())
    if (!all) await Promise.all(done);
  } finally {
    clearInterval(timer);
    if (all)
      for (const w of workers) {
        w.unref();
        void w.terminate();
      }
    else await Promise.all(workers.map((w) => w.terminate()));
  }
  return results.map((r, j) => r ?? simulate(program, machine, configs[j]!, opts.engineOptions?.[j]));
}
