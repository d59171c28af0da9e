// The factory: the one place that builds a core's units from the machine, the run's configuration
// and the mechanism set, as llvm-mca's Context::createDefaultPipeline composes its stages. Each
// mechanism of the refined model is either a change to the compiled program (compiled.ts,
// refine.ts, frontEndPlan.ts: fusion, eliminations at rename, load/store ports, store forwarding,
// the front end's delivery plan) or a part chosen here (the front end, the port rule, the port
// policy). A new mechanism that is a part: its unit, one line below, and its field in the snapshot.

import type { CompiledProgram } from './compiled.js';
import { resolveMechanisms } from './mechanisms.js';
import type { MechanismSet } from './mechanisms.js';
import type { MachineParams, SimConfig } from './types.js';
import { BlameRecorder } from './recorder.js';
import { Divider } from './units/divider.js';
import { SuacaFrontEnd } from './units/frontEnd.js';
import type { FrontEnd } from './units/frontEnd.js';
import { RefinedFrontEnd } from './units/refinedFrontEnd.js';
import { Ports } from './units/ports.js';
import { AssignedAtIssue, LeastUsedAtDispatch } from './units/portPolicy.js';
import type { PortPolicy } from './units/portPolicy.js';
import { Scheduler } from './units/scheduler.js';
import type { SchedulerParts } from './units/scheduler.js';
import { Queues, queuesOf } from './units/queues.js';
import type { QueueParams } from './types.js';

/** Units that replace the factory's own (reference implementations: test/sim/oracles.ts). */
interface UnitClasses {
  scheduler?: new (cp: CompiledProgram, parts: SchedulerParts) => Scheduler;
  ports?: new (
    cp: CompiledProgram,
    cap: number,
    divider: Divider,
    recorder: BlameRecorder,
    sharesOwn: boolean,
  ) => Ports;
}

/** The options of a core: which mechanisms are on (absent: resolveMechanisms' default, SUACA's
 *  model), and units replacing the factory's. */
export interface ModelOptions {
  mechanisms?: Partial<MechanismSet>;
  units?: UnitClasses;
}

export const DEFAULT_MODEL: ModelOptions = {};

/** The units of one core. */
interface CoreParts {
  frontEnd: FrontEnd;
  scheduler: Scheduler;
  ports: Ports;
  policy: PortPolicy;
  divider: Divider;
  recorder: BlameRecorder;
}

/** x as a small integer when it is a whole number that fits in 30 bits (`| 0`: V8 then keeps the
 *  field an integer field), else x unchanged */
function smallInt(x: number): number {
  return Number.isInteger(x) && Math.abs(x) < 0x40000000 ? x | 0 : x;
}

/** Build the units of a core running `N` instances of `cp` (compiled under the same mechanisms). */
export function buildParts(
  cp: CompiledProgram,
  N: number,
  machine: MachineParams,
  config: SimConfig,
  model: ModelOptions,
): CoreParts {
  const mech = resolveMechanisms(model.mechanisms);
  const units = model.units ?? {};
  const v = config.variant;
  const sq = queuesOf(machine);
  // with queues, the what-if's station size is their total: each queue scaled to it
  const sizes = sq ? queueSizes(sq, machine.rsSize, v.rsSize) : null;
  const capacity = smallInt(
    sizes
      ? Math.max(
          1,
          sizes.queues.reduce((a, b) => a + b, 0),
        )
      : Math.max(1, v.rsSize ?? machine.rsSize),
  );
  const width = smallInt(v.perfectFrontEnd ? capacity : Math.max(1, v.issueWidth ?? machine.issueWidth));
  const recorder = new BlameRecorder(cp, sq ? sq.queues.length + sq.nonScheduling.length : 0);
  const divider = new Divider();
  const portCap = v.infinitePorts ? Number.POSITIVE_INFINITY : Math.max(1, v.portCapacity ?? 1);
  // the mechanisms that are parts: the port rule and the port policy from their switches (onePerPort:
  // a port takes at most portCap µops per cycle, an instance's own µops included; off, SUACA's
  // rule that an instruction never blocks itself); the front end from what the
  // compiled program says (the fused domain counted: micro-fusion or the front end mechanism), as
  // every other mechanism reaches the core through the compiled program (test/sim/runKey.test.ts)
  const ports = new (units.ports ?? Ports)(cp, portCap, divider, recorder, !mech.onePerPort);
  // a core with several scheduler queues: the queues are the port policy (a µop's ports are its
  // queue's; the port choice at issue, when on, among them) and the front end loads into them
  const queues = sq
    ? new Queues(cp, sq, ports, recorder, {
        portsAtIssue: mech.portChoice,
        noDispatchLimit: v.perfectFrontEnd,
        sizes: sizes!.queues,
        nsqSizes: sizes!.nonScheduling,
      })
    : null;
  const policy = queues ?? (mech.portChoice ? new AssignedAtIssue(cp, ports) : new LeastUsedAtDispatch(cp, ports));
  // (the perfect front end, a what-if, has no delivery limits in the refined model either)
  const frontEnd = cp.refinedIssue
    ? new RefinedFrontEnd(cp, N, width, !v.perfectFrontEnd, queues)
    : new SuacaFrontEnd(cp, N, width, queues, sq?.unit === 'macro-op');
  const scheduler = new (units.scheduler ?? Scheduler)(cp, {
    capacity,
    noDependencies: v.noDependencies,
    frontEnd,
    ports,
    policy,
    recorder,
  });
  queues?.bind(scheduler);
  return { frontEnd, scheduler, ports, policy, divider, recorder };
}

/** The queues' sizes under the what-if station size `rsSize` (absent: the record's): each scaled
 *  by rsSize ÷ the record's total, rounded, at least 1 (the non-scheduling queues too). */
function queueSizes(sq: QueueParams, total: number, rsSize: number | undefined) {
  const scale = (x: number) => (rsSize === undefined ? x : Math.max(1, Math.round((x * rsSize) / total)));
  return { queues: sq.queues.map((q) => scale(q.size)), nonScheduling: sq.nonScheduling.map((x) => scale(x.size)) };
}

/** The names of replaced units, for a run's key ('' when none is replaced). */
export function unitsKey(model: ModelOptions): string {
  return Object.entries(model.units ?? {})
    .filter(([, c]) => c !== undefined)
    .map(([k, c]) => `${k}:${(c as { name: string }).name}`)
    .sort()
    .join(',');
}

/** Can an instance's µops ever share a port under `cp` (two µops of one line that may use a common
 *  port)? When none can, the port rule (onePerPort) changes nothing: SUACA's rule that an
 *  instruction never blocks itself only ever lets a µop onto a port its own instance holds. */
export function mayShareOwnPort(cp: CompiledProgram): boolean {
  const { uops, uopMask, maxU } = cp;
  for (let i = 0; i < cp.n; i++) {
    let seen = 0;
    for (let u = 0; u < uops[i]!; u++) {
      const m = uopMask[i * maxU + u]!;
      if ((seen & m) !== 0) return true;
      seen |= m;
    }
  }
  return false;
}
