// Worker thread of simPool.ts: takes jobs from the shared counter until none is left, posting
// each result back as { k, result }, then { done: true }.
import { parentPort } from 'node:worker_threads';
import { simulate } from '../sim/index.js';
import type { EngineOptions } from '../sim/index.js';
import { jobDone, withProgress } from './progress.js';
import type { MachineParams, SimConfig, SimProgram, SimResult } from '../sim/types.js';

export interface PoolJobs {
  program: SimProgram;
  machine: MachineParams;
  configs: SimConfig[];
  /** per job, the engine options (the model's mechanisms) */
  engineOptions?: (EngineOptions | undefined)[];
  /** [0]: the next job to take (Atomics.add by every thread) */
  next: Int32Array;
  /** per job k: [2k] instances completed, [2k+1] its total (simPool.ts withProgress) */
  progress?: Int32Array;
}

export type PoolMessage = { k: number; result: SimResult } | { done: true };

parentPort?.once('message', (jobs: PoolJobs) => {
  for (let k = Atomics.add(jobs.next, 0, 1); k < jobs.configs.length; k = Atomics.add(jobs.next, 0, 1)) {
    const result = simulate(
      jobs.program,
      jobs.machine,
      jobs.configs[k]!,
      withProgress(jobs.engineOptions?.[k], jobs.progress, k),
    );
    jobDone(jobs.progress, k);
    parentPort!.postMessage({ k, result } satisfies PoolMessage);
  }
  parentPort!.postMessage({ done: true } satisfies PoolMessage);
});
