// Worker thread of simPool.ts: simulates each job it is sent and posts the result back.
import { parentPort } from 'node:worker_threads';
import { simulate } from '../sim/index.js';
import type { MachineParams, SimConfig, SimProgram } from '../sim/types.js';

export interface PoolJob { program: SimProgram; machine: MachineParams; config: SimConfig }

parentPort?.on('message', (job: PoolJob) => {
  parentPort!.postMessage(simulate(job.program, job.machine, job.config));
});
