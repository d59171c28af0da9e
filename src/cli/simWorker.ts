// Worker thread for the explorer's long computations: a run's length, and the first cycle at
// which two runs differ. Plain data in (programs, machine, config), a number or a Divergence out.
import { parentPort } from 'node:worker_threads';
import { createEngine } from '../sim/index.js';
import type { MachineParams, SimConfig, SimProgram } from '../sim/types.js';
import { continueScan, startScan } from '../ui/compare.js';

export type WorkerRequest =
  | { kind: 'total'; program: SimProgram; machine: MachineParams; config: SimConfig }
  | { kind: 'diverge'; a: { program: SimProgram; config: SimConfig }; b: { program: SimProgram; config: SimConfig }; machine: MachineParams };

parentPort?.once('message', (req: WorkerRequest) => {
  if (req.kind === 'total') {
    parentPort!.postMessage(createEngine(req.program, req.machine, req.config).totalCycles());
    return;
  }
  const scan = startScan(createEngine(req.a.program, req.machine, req.a.config), createEngine(req.b.program, req.machine, req.b.config));
  let r = scan.result;
  while (r.kind === 'searching') r = continueScan(scan, 4096);
  parentPort!.postMessage(r);
});
