// The explorer's background work (src/cli/offload.ts) carries each pane's model: the worker's
// whole-run and divergence requests name the pane's mechanisms, all of them (all off: SUACA's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workerOffload, type JobQueue } from '../../src/cli/offload.js';
import { runRequest, type WorkerRequest } from '../../src/cli/simWorker.js';
import { BASELINE, REFINED_MECHANISMS, SUACA_MECHANISMS, simulate } from '../../src/sim/index.js';
import type { MachineParams, SimProgram } from '../../src/sim/types.js';

const SKL: MachineParams = { arch: 'SKL', ports: [0, 1, 5, 6], issueWidth: 4, rsSize: 97, dividerPort: 0 };
const program: SimProgram = {
  instructions: [
    {
      line: 0,
      asm: 'add rax, rbx',
      uops: [[0, 1, 5, 6]],
      latency: 1,
      latencyByResource: {},
      divCycles: 0,
      unknown: false,
    },
  ],
  deps: [{ from: 0, to: 0, resource: 'RAX', loopCarried: true }],
};

test("whole-run and divergence requests carry each pane's mechanisms (absent: all off)", () => {
  const sent: WorkerRequest[] = [];
  const queue = {
    submit: (req: WorkerRequest) => {
      sent.push(req);
      return { promise: new Promise(() => {}), cancel: () => {} };
    },
  } as unknown as JobQueue;
  const off = workerOffload(() => program, SKL, queue);
  off.wholeRun({ variant: BASELINE, branch: null, mechanisms: { ...REFINED_MECHANISMS, frontEnd: false } }, 10);
  off.wholeRun({ variant: BASELINE, branch: null }, 10);
  off.divergence(
    { variant: BASELINE, branch: null, mechanisms: { ...REFINED_MECHANISMS } },
    { variant: BASELINE, branch: null, mechanisms: { ...SUACA_MECHANISMS } },
    10,
  );
  const t0 = sent[0] as Extract<WorkerRequest, { kind: 'total' }>;
  const t1 = sent[1] as Extract<WorkerRequest, { kind: 'total' }>;
  const d = sent[2] as Extract<WorkerRequest, { kind: 'diverge' }>;
  assert.deepEqual(t0.opts?.model?.mechanisms, { ...REFINED_MECHANISMS, frontEnd: false });
  assert.deepEqual(t1.opts?.model?.mechanisms, SUACA_MECHANISMS);
  assert.deepEqual(d.a.opts?.model?.mechanisms, REFINED_MECHANISMS);
  assert.deepEqual(d.b.opts?.model?.mechanisms, SUACA_MECHANISMS);
  // the worker runs a request with its options as simulate() does
  const st = simulate(program, SKL, t0.config, t0.opts).stats;
  const r0 = runRequest(t0) as { cycles: number; blockThroughput: number };
  assert.deepEqual(
    { cycles: r0.cycles, blockThroughput: r0.blockThroughput },
    { cycles: st.cycles, blockThroughput: st.blockThroughput },
  );
});
