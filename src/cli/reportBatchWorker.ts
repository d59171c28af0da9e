// Worker thread of a report batch (commands/reportBatch.ts): takes the next region from the
// shared counter until none is left, posting each result back as { k, result }, then { done: true }.
import { parentPort } from 'node:worker_threads';
import { BatchContext, type BatchJobs, type BatchMessage } from './commands/reportBatch.js';

parentPort?.once('message', async (jobs: BatchJobs) => {
  const ctx = new BatchContext(jobs);
  for (let k = Atomics.add(jobs.next, 0, 1); k < jobs.items.length; k = Atomics.add(jobs.next, 0, 1)) {
    parentPort!.postMessage({ k, result: await ctx.result(jobs.items[k]!) } satisfies BatchMessage);
  }
  parentPort!.postMessage({ done: true } satisfies BatchMessage);
});
