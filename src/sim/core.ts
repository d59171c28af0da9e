// The simulation core: SUACA's scheduler model (thesis ch. 3, Algorithms 3–7 and §3.6) as hardware
// units on typed arrays — a front end (units/frontEnd.ts, units/refinedFrontEnd.ts), the scheduler
// with its reservation station and execution stage (units/scheduler.ts), the ports and a port
// policy (units/ports.ts, units/portPolicy.ts) and the divider (units/divider.ts) — observed by the
// thesis's statistics (recorder.ts). The factory (parts.ts) builds the units; each declares its
// state once (units/state.ts) and saves, restores, moves and keys it from that declaration; the
// core wires them and runs a cycle. Pure and deterministic. docs/engine.md, "The core's units".

import './inlining.js';
import { CompiledProgram } from './compiled.js';
import type { MachineParams, SimConfig, SimProgram } from './types.js';
import { DEFAULT_MODEL, buildParts } from './parts.js';
import type { ModelOptions } from './parts.js';
import type { FrontEnd, FrontEndState } from './units/frontEnd.js';
import type { Scheduler, SchedulerState } from './units/scheduler.js';
import type { Ports, PortsState } from './units/ports.js';
import type { PortPolicy, PortPolicyState } from './units/portPolicy.js';
import type { Divider, DividerState } from './units/divider.js';
import type { BlameRecorder, RecorderState } from './recorder.js';
import type { KeyWriter, Periods } from './units/state.js';

export { CompiledProgram };
export { DEFAULT_MODEL } from './parts.js';
export type { ModelOptions } from './parts.js';
export { ST_WAIT_DEP, ST_WAIT_PORT, ST_EXEC, ST_DONE } from './units/scheduler.js';
export { DIVIDER_BLOCK_BIT } from './units/divider.js';

/** instance numbers are used in 32-bit integer arithmetic */
const MAX_INSTANCES = 0x7ffffff0;

/** A long run's progress: instances completed so far, of the run's total. */
export type Progress = (completed: number, total: number) => void;

/** Runs to the end report their progress every this many cycles (a power of two): a few hundred
 *  times a second at the engine's speed, one comparison per cycle otherwise. */
export const PROGRESS_CYCLES = 1 << 14;
export const PROGRESS_MASK = PROGRESS_CYCLES - 1;

/** Saved state of a Core (for checkpoints), by unit. */
export interface CoreState {
  cycle: number;
  frontEnd: FrontEndState;
  scheduler: SchedulerState;
  ports: PortsState;
  policy: PortPolicyState;
  divider: DividerState;
  stats: RecorderState;
}

export class Core {
  readonly cp: CompiledProgram;
  readonly iterations: number;
  /** instances in the run (iterations × lines) */
  readonly N: number;
  readonly model: ModelOptions;

  cycle = 0;
  readonly frontEnd: FrontEnd;
  readonly scheduler: Scheduler;
  readonly ports: Ports;
  readonly policy: PortPolicy;
  readonly divider: Divider;
  readonly recorder: BlameRecorder;

  constructor(
    program: SimProgram,
    machine: MachineParams,
    config: SimConfig,
    model: ModelOptions = DEFAULT_MODEL,
    compiled?: CompiledProgram,
  ) {
    this.cp = compiled ?? new CompiledProgram(program, machine, model.mechanisms);
    if (!Number.isFinite(config.iterations) || config.iterations < 1) {
      throw new RangeError(`iterations must be a whole number ≥ 1 (got ${config.iterations})`);
    }
    this.iterations = Math.floor(config.iterations);
    const N = this.cp.n * this.iterations;
    if (N > MAX_INSTANCES) {
      throw new RangeError(
        `${this.iterations} iterations of ${this.cp.n} instructions exceed the engine's ${MAX_INSTANCES} instances`,
      );
    }
    // whole numbers kept as small integers (`| 0`, N < 2^31 here): a field that once held a double
    // stays a double field for every core, and each comparison in the cycle then converts
    this.N = N | 0;
    this.model = model;
    const parts = buildParts(this.cp, this.N, machine, config, model);
    this.frontEnd = parts.frontEnd;
    this.scheduler = parts.scheduler;
    this.ports = parts.ports;
    this.policy = parts.policy;
    this.divider = parts.divider;
    this.recorder = parts.recorder;
  }

  get finished(): boolean {
    return this.scheduler.completed >= this.N;
  }

  /** Perform one cycle (Algorithm 7). */
  step(): void {
    if (this.finished) return;
    const c = ++this.cycle;
    this.ports.newCycle();
    this.frontEnd.load(this.scheduler);
    this.scheduler.wakeDue(c);
    this.scheduler.dispatch(c);
    this.ports.endCycle();
    this.scheduler.execute(c);
  }

  /** Bring the recorder's wait counts up to date (dependency waits are accounted lazily). */
  flush(): void {
    this.scheduler.flush(this.cycle);
  }

  runToEnd(onProgress?: Progress): void {
    // guard against a program that cannot progress (should not happen): more than 1,000,000
    // cycles in a row without an instance completing. (Every cycle runs the same property reads
    // and the same comparison: code first reached late in a run would make V8 deoptimise the
    // loop.)
    const rs = this.scheduler;
    let lastCompleted = rs.completed;
    let lastProgress = this.cycle;
    while (!this.finished) {
      this.step();
      const c = this.cycle,
        done = rs.completed;
      if (done !== lastCompleted) {
        lastCompleted = done;
        lastProgress = c;
      }
      if (c - lastProgress > 1_000_000) throw new Error('engine made no progress for 1,000,000 cycles');
      if (onProgress !== undefined && (c & PROGRESS_MASK) === 0) onProgress(done, this.N);
    }
  }

  /** The core's state relative to the head instance and the cycle, every unit's part (steady.ts). */
  writeKey(out: KeyWriter): void {
    const at = { head: this.scheduler.head, cycle: this.cycle, n: this.cp.n };
    this.scheduler.writeKey(at, out);
    this.frontEnd.writeKey(at, out);
    this.ports.writeKey(at, out);
    this.policy.writeKey(at, out);
    this.divider.writeKey(at, out);
  }

  /** Move every unit forward by whole periods (steady.ts; the recorder's counters are moved there). */
  shift(by: Periods): void {
    this.scheduler.shift(by);
    this.ports.shift(by);
    this.policy.shift(by);
    this.frontEnd.shift(by);
    this.divider.shift(by);
    this.cycle += by.dc;
    this.scheduler.relink(this.cycle);
  }

  save(): CoreState {
    return {
      cycle: this.cycle,
      frontEnd: this.frontEnd.save(),
      scheduler: this.scheduler.save(),
      ports: this.ports.save(),
      policy: this.policy.save(),
      divider: this.divider.save(),
      stats: this.recorder.save(),
    };
  }

  restore(st: CoreState): void {
    this.cycle = st.cycle;
    this.frontEnd.restore(st.frontEnd);
    this.scheduler.restore(st.scheduler);
    this.ports.restore(st.ports);
    this.policy.restore(st.policy);
    this.divider.restore(st.divider);
    this.recorder.restore(st.stats);
    this.scheduler.relink(this.cycle);
  }
}
