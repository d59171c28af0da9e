// Several simulations of one program at once: worker threads take them from a queue, and the
// calling thread takes its share between them. Used by `uopscope report` for the what-if runs at
// large iteration counts (each run is independent and deterministic, so the figures are the same
// as one after the other; only the time differs).
import { availableParallelism } from 'node:os';
import { simulate } from '../sim/index.js';
import type { MachineParams, SimConfig, SimProgram, SimResult } from '../sim/types.js';
import { spawnWorker } from './offload.js';
import type { PoolJob } from './simPoolWorker.js';

export interface PoolOptions {
  /** worker threads to start (default: one less than the CPUs, at most one per job; 0: none) */
  workers?: number;
}

/** Worker threads uopscope may use: $UOPSCOPE_WORKERS when set, else the CPUs but one. */
export function defaultWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.UOPSCOPE_WORKERS;
  if (v !== undefined && /^\d+$/.test(v.trim())) return Number(v);
  return Math.max(0, availableParallelism() - 1);
}

/**
 * Runs `configs` on `program` and returns their results in the same order. The calling thread
 * runs jobs too (it starts with the first), so with no worker this is a plain loop.
 */
export async function simulateAll(program: SimProgram, machine: MachineParams, configs: SimConfig[], opts: PoolOptions = {}): Promise<SimResult[]> {
  const results: (SimResult | undefined)[] = new Array(configs.length);
  let next = 0;
  const nWorkers = Math.max(0, Math.min(opts.workers ?? defaultWorkers(), configs.length - 1));
  const workers = Array.from({ length: nWorkers }, () => spawnWorker('simPoolWorker'));
  const done = workers.map((w) => new Promise<void>((resolve) => {
    let current = -1;
    const give = (): void => {
      if (next >= configs.length) { resolve(); return; }
      current = next++;
      const job: PoolJob = { program, machine, config: configs[current]! };
      w.postMessage(job);
    };
    w.on('message', (r: SimResult) => { results[current] = r; give(); });
    // a worker that fails leaves its job to the calling thread (below)
    w.once('error', () => resolve());
    w.once('exit', () => resolve());
    give();
  }));
  try {
    // the calling thread's share: one job at a time, letting the workers pick up theirs in between
    while (next < configs.length) {
      const k = next++;
      results[k] = simulate(program, machine, configs[k]!);
      await new Promise<void>((r) => setImmediate(r));
    }
    await Promise.all(done);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results.map((r, k) => r ?? simulate(program, machine, configs[k]!));
}
