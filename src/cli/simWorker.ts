// Worker thread for the explorer's long computations: a run's length, and the first cycle at
// which two runs differ. Plain data in (programs, machine, config); out: the run's cycles and block
// throughput from the engine's final statistics, or a Divergence.
// One job at a time, in order; the main thread terminates the worker to cancel the running one.
import { parentPort } from 'node:worker_threads';
import { createEngine, type EngineOptions } from '../sim/index.js';
import type { MachineParams, SimConfig, SimProgram } from '../sim/types.js';
import { continueScan, startScan, type Divergence } from '../ui/compare.js';
import type { RunTotal } from '../ui/types.js';

export type WorkerRequest =
  | { kind: 'total'; program: SimProgram; machine: MachineParams; config: SimConfig; opts?: EngineOptions }
  | {
      kind: 'diverge';
      a: { program: SimProgram; config: SimConfig; opts?: EngineOptions };
      b: { program: SimProgram; config: SimConfig; opts?: EngineOptions };
      machine: MachineParams;
    };

export function runRequest(req: WorkerRequest): RunTotal | Divergence {
  if (req.kind === 'total') {
    // the run's length without snapshots, its periodic part skipped (src/sim/steady.ts); the run
    // itself goes back too, for the pane's engine to adopt (nothing is simulated twice)
    const run = createEngine(req.program, req.machine, req.config, req.opts).wholeRun();
    return { cycles: run.cycles, blockThroughput: run.stats.blockThroughput, run };
  }
  const scan = startScan(
    createEngine(req.a.program, req.machine, req.a.config, req.a.opts),
    createEngine(req.b.program, req.machine, req.b.config, req.b.opts),
  );
  let r = scan.result;
  while (r.kind === 'searching') r = continueScan(scan, 4096);
  return r;
}

parentPort?.on('message', (m: { id: number; req: WorkerRequest }) => {
  parentPort!.postMessage({ id: m.id, result: runRequest(m.req) });
});
