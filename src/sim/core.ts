// The simulation core: SUACA's scheduler model (thesis ch. 3, Algorithms 3–7 and §3.6) as hardware
// units on typed arrays — the front end (units/frontEnd.ts), the scheduler with its reservation
// station and execution stage (units/scheduler.ts), the ports (units/ports.ts) and the divider
// (units/divider.ts) — observed by the thesis's statistics (recorder.ts). Each unit owns its state
// and saves it by name; the core wires them and runs a cycle. Pure and deterministic.
// docs/engine.md, "The core's units", describes the structure.

import { CompiledProgram } from './compiled.js';
import type { MachineParams, SimConfig, SimProgram } from './types.js';
import type { MechanismSet } from './mechanisms.js';
import { FrontEnd } from './units/frontEnd.js';
import type { FrontEndState } from './units/frontEnd.js';
import { Scheduler } from './units/scheduler.js';
import type { SchedulerState } from './units/scheduler.js';
import { Ports } from './units/ports.js';
import type { PortsState } from './units/ports.js';
import { Divider } from './units/divider.js';
import type { DividerState } from './units/divider.js';
import { BlameRecorder } from './recorder.js';
import type { RecorderState } from './recorder.js';

export { CompiledProgram };
export { ST_LOADING, ST_WAIT_DEP, ST_WAIT_PORT, ST_EXEC, ST_DONE } from './units/scheduler.js';
export { UNLIMITED_PORT_CAP } from './units/ports.js';
export { DIVIDER_BLOCK_BIT } from './units/divider.js';

/**
 * How the core runs (the model itself has no options: where the thesis leaves a detail open, the
 * engine does what reproduces its printed tables — µops leave the station when they get their
 * port, port ties go to the lower port number, only unresolved producers are blamed; see
 * docs/engine.md, "Interpretation choices").
 */
export interface ModelOptions {
  /** skip dependency-blocked instances until a producer releases (false: look at every instance
   *  every cycle, as the thesis's pseudo code does; test/sim/random.test.ts checks that the
   *  statistics are the same) */
  lazyWaits?: boolean;
  /** how the scheduler finds the instances to look at each cycle: 'events' (default) keeps the
   *  instances blocked on a dependency in a timing wheel keyed by the cycle they can next change,
   *  and visits only the others and the woken ones, in program order; 'walk' walks every waiting
   *  instance (the previous implementation; test/sim/eventScheduler.test.ts checks both agree) */
  scheduler?: 'walk' | 'events';
  /** the refined model's mechanisms (src/sim/mechanisms.ts); absent or all off: SUACA's model */
  mechanisms?: Partial<MechanismSet>;
}

export const DEFAULT_MODEL: ModelOptions = {};

/** x as a small integer when it is a whole number that fits in 30 bits (`| 0`: V8 then keeps the
 *  field an integer field), else x unchanged */
export function smallInt(x: number): number {
  return Number.isInteger(x) && Math.abs(x) < 0x40000000 ? x | 0 : x;
}

/** instance numbers are used in 32-bit integer arithmetic */
export const MAX_INSTANCES = 0x7ffffff0;

/** Saved state of a Core (for checkpoints), by unit. */
export interface CoreState {
  cycle: number;
  frontEnd: FrontEndState;
  scheduler: SchedulerState;
  ports: PortsState;
  divider: DividerState;
  stats: RecorderState;
}

export class Core {
  readonly cp: CompiledProgram;
  readonly iterations: number;
  /** instances in the run (iterations × lines) */
  readonly N: number;
  readonly noDeps: boolean;
  readonly model: ModelOptions;

  cycle = 0;
  readonly frontEnd: FrontEnd;
  readonly scheduler: Scheduler;
  readonly ports: Ports;
  readonly divider: Divider;
  readonly recorder: BlameRecorder;

  constructor(program: SimProgram, machine: MachineParams, config: SimConfig, model: ModelOptions = DEFAULT_MODEL, compiled?: CompiledProgram) {
    this.cp = compiled ?? new CompiledProgram(program, machine, model.mechanisms);
    const v = config.variant;
    if (!Number.isFinite(config.iterations) || config.iterations < 1) {
      throw new RangeError(`iterations must be a whole number ≥ 1 (got ${config.iterations})`);
    }
    this.iterations = Math.floor(config.iterations);
    const N = this.cp.n * this.iterations;
    if (N > MAX_INSTANCES) {
      throw new RangeError(`${this.iterations} iterations of ${this.cp.n} instructions exceed the engine's ${MAX_INSTANCES} instances`);
    }
    // whole numbers kept as small integers (`| 0`, N < 2^31 here): a field that once held a double
    // stays a double field for every core, and each comparison in the cycle then converts
    this.N = N | 0;
    const rsCap = smallInt(Math.max(1, v.rsSize ?? machine.rsSize));
    const feWidth = smallInt(v.perfectFrontEnd ? rsCap : Math.max(1, v.issueWidth ?? machine.issueWidth));
    this.noDeps = v.noDependencies;
    this.model = model;
    this.recorder = new BlameRecorder(this.cp);
    this.divider = new Divider();
    this.ports = new Ports(this.cp, v.infinitePorts ? Number.POSITIVE_INFINITY : Math.max(1, v.portCapacity ?? 1), this.divider, this.recorder);
    // the perfect front end (what-if) has no delivery limits in the refined model either
    this.frontEnd = new FrontEnd(this.cp, this.N, feWidth, !v.perfectFrontEnd);
    this.scheduler = new Scheduler(this.cp, rsCap, this.noDeps, model.lazyWaits !== false, this.frontEnd, this.ports, this.recorder,
      model.mechanisms?.portChoice === true, model.scheduler !== 'walk');
  }

  get finished(): boolean { return this.scheduler.completed >= this.N; }

  /** Perform one cycle (Algorithm 7). */
  step(): void {
    if (this.finished) return;
    const c = ++this.cycle;
    this.ports.newCycle();
    this.frontEnd.load(this.scheduler);
    this.scheduler.dispatch(c);
    this.scheduler.execute(c);
  }

  /** Bring the recorder's wait counts up to date (dependency waits are accounted lazily). */
  flush(): void {
    this.scheduler.flush(this.cycle);
  }

  runToEnd(): void {
    // guard against a program that cannot progress (should not happen): more than 1,000,000
    // cycles in a row without an instance completing. (Every cycle runs the same property reads
    // and the same comparison: code first reached late in a run would make V8 deoptimise the
    // loop.)
    const rs = this.scheduler;
    let lastCompleted = rs.completed;
    let lastProgress = this.cycle;
    while (!this.finished) {
      this.step();
      const c = this.cycle, done = rs.completed;
      if (done !== lastCompleted) { lastCompleted = done; lastProgress = c; }
      if (c - lastProgress > 1_000_000) throw new Error('engine made no progress for 1,000,000 cycles');
    }
  }

  save(): CoreState {
    return {
      cycle: this.cycle,
      frontEnd: this.frontEnd.save(),
      scheduler: this.scheduler.save(),
      ports: this.ports.save(),
      divider: this.divider.save(),
      stats: this.recorder.save(),
    };
  }

  restore(st: CoreState): void {
    this.cycle = st.cycle;
    this.frontEnd.restore(st.frontEnd);
    this.scheduler.restore(st.scheduler);
    this.ports.restore(st.ports);
    this.divider.restore(st.divider);
    this.recorder.restore(st.stats);
    this.scheduler.relink(this.cycle);
  }
}
