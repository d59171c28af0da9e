// Contract of the engine (src/sim): its input, its snapshots and its results.
// src/sim is pure: no I/O, no terminal, deterministic. The report and the UI only read these.

import type { Resource } from '../disasm/types.js';
import type { CoreFrontEnd, RefinedFacts } from '../data/refinedFacts.js';
import type { ZeroUops } from '../data/types.js';

export type { Resource };

/** One instruction as the engine sees it (built from a decoded instruction + its resolved data). */
export interface SimInstruction {
  /** line in the original program (kept through branch analysis) */
  line: number;
  asm: string; // Intel text, for display
  /** one entry per µop: the ports it may use (sorted). Empty array = no µop (eliminated). */
  uops: number[][];
  /** the instruction's own latency: cycles it executes (max of its per-operand latencies, ≥ 1 when it has µops) */
  latency: number;
  /** per resource it writes: cycles of execution after which a consumer reading it is released */
  latencyByResource: Record<Resource, number>;
  /** cycles the divider pipe is blocked once the divider µop gets its port (0: no divider use) */
  divCycles: number;
  /** µops of these port sets hold the port they take this many cycles (absent: one cycle each;
   *  ResolvedInstruction.portHold) */
  portHold?: { ports: number[]; cycles: number }[];
  /** a division whose figures give the divider no cycles (divCycles 0): why, in full and short
   *  (src/data/resolve.ts `missingDivider`); the viewer and the report say so */
  noDivider?: { why: string; short: string };
  /** the data's model gives the form no µops: what its figures give it instead (ResolvedInstruction.zeroUops) */
  zeroUops?: ZeroUops;
  /** no data was found (IACA's X) */
  unknown: boolean;
  /** per resource it reads late: cycles by which a dependency on it is shortened (LLVM's
   *  ReadAdvance: a load-op form reads its register operand only after the load), so that a
   *  chain through that operand costs the operation's latency, not the load's as well */
  readAdvance?: Record<Resource, number>;
  /** the refined model's facts of this instruction on the core (src/data/refinedFacts.ts):
   *  set when buildSimProgram was given the machine model; SUACA's model reads none of them */
  refined?: RefinedFacts;
}

/** A dependency between two instructions of the program (read-after-write). */
export interface SimDep {
  from: number; // producer index into SimProgram.instructions
  to: number; // consumer index
  resource: Resource;
  /** producer is in the previous iteration */
  loopCarried: boolean;
}

export interface SimProgram {
  instructions: SimInstruction[];
  deps: SimDep[];
}

export interface MachineParams {
  arch: string;
  ports: number[]; // all ports, e.g. [0,1,2,3,4,5]
  issueWidth: number; // µops loaded per cycle
  rsSize: number; // reservation-station capacity (µops)
  dividerPort: number;
  /** the ports' display names, one per entry of `ports` (the record's portNames: AMD's pipe names);
   *  absent: ports are shown by number */
  portNames?: string[];
  /** the core's front-end figures (from its record); absent: the front end is not modelled */
  frontEnd?: CoreFrontEnd;
  /** the scheduler queues (from its record); absent: one unified station of `rsSize` µops */
  schedulers?: QueueParams;
}

/** A core's scheduler queues as the engine reads them (docs/engine.md, "Scheduler queues"). */
export interface QueueParams {
  /** in record order; `ports` are port numbers (entries of MachineParams.ports) */
  queues: { name: string; size: number; ports: number[]; dispatchPerCycle: number | null }[];
  /** FIFOs in front of queues (`queues`: indices into the list above) */
  nonScheduling: { name: string; size: number; queues: number[] }[];
  /** 'even': round-robin over the eligible queues in record order, whatever their occupancy */
  steering: 'even';
  /** what the issue width and the entries count */
  unit: 'macro-op' | 'uop';
}

/** What-if variants (thesis §2.1) and the future-work knobs. */
export interface Variant {
  perfectFrontEnd: boolean; // loads per cycle = RS capacity
  infinitePorts: boolean; // any number of µops per port per cycle
  noDependencies: boolean;
  /** per-port capacity N µops per cycle instead of 1 (ignored when infinitePorts) */
  portCapacity?: number;
  issueWidth?: number; // override
  rsSize?: number; // override
}

export const BASELINE: Variant = { perfectFrontEnd: false, infinitePorts: false, noDependencies: false };

export interface SimConfig {
  iterations: number; // ≥ 1; 1 = latency analysis
  variant: Variant;
  /** keep a per-cycle trace (memory grows with cycles); off by default */
  trace?: boolean;
}

/**
 * Where an instance is in the cycle a snapshot shows, defined once (src/sim/snapshot.ts; the
 * panes, the counts and the lists all read it):
 * - `loading`: some of its µops are not in the station yet (it waits: thesis Algorithm 4 line 33);
 * - `waiting-dep`: a producer has not released a register or flag it reads;
 * - `waiting-port` (ready): fully loaded, its inputs released, some µop refused a port (µops that
 *   got one keep it, and are on their port in the cycle they got it);
 * - `executing`: every µop has its port; from the cycle it got its last port through the last
 *   cycle of its latency (`cyclesLeft` after this one: 0 in its last cycle);
 * - `done`: finished in an earlier cycle, or executed at rename (no port, no latency).
 * The Jcc of a macro-fused pair is the pair's µop: it has its first half's state.
 */
export type EntryState =
  | { kind: 'loading' } // not all µops loaded yet
  | { kind: 'waiting-dep'; on: { line: number; iteration: number; resource: Resource }[] }
  | {
      kind: 'waiting-port';
      ports: { port: number; heldBy: { line: number; iteration: number } | null; divider?: boolean }[];
    }
  | { kind: 'executing'; cyclesLeft: number; cyclesDone: number }
  | { kind: 'done' };

/** The word for an EntryState every pane shows (loading and waiting-dep are both waiting:
 *  src/sim/snapshot.ts `stateName`). */
export type StateName = 'waiting' | 'ready' | 'executing' | 'done';

/** One instance (line, iteration) in the reservation station. */
export interface RsEntry {
  line: number;
  iteration: number; // 0-based
  uops: number; // total µops of the instruction
  loaded: number; // µops loaded so far
  assigned: number; // µops that hold a port (this or earlier cycles)
  state: EntryState;
  /** the Jcc of a macro-fused pair: the first half, whose state this is */
  fusedWith?: { line: number; iteration: number };
  /** on a core with several scheduler queues: the queues its µops without a port wait in (a
   *  non-scheduling queue's name while they wait there); empty once every µop has its port */
  queues?: string[];
}

export interface PortSlot {
  port: number;
  /** instances whose µop took the port this cycle (more than one only with infinite ports /
   *  capacity N): executing, or, `waitsForPort`, ready (another of its µops has no port yet) */
  uops: { line: number; iteration: number; waitsForPort?: true }[];
  /** cumulative µops assigned to this port up to and including this cycle */
  cumulative: number;
  /** share of the cycles so far the port was used: cumulative ÷ max(1, cycle) */
  use: number;
}

/** Where the instances of one line are at a snapshot (they add up to the run's iterations). */
export interface LineCount {
  line: number;
  /** not loaded by the front end yet (an instance partly loaded counts as loaded) */
  notLoaded: number;
  /** in the station, loading or waiting on a dependency */
  waiting: number;
  /** in the station, fully loaded, dependencies resolved, waiting for a port */
  ready: number;
  /** executing in this cycle (its last cycle included) */
  executing: number;
  /** finished before this cycle (or executed at rename) */
  done: number;
}

/** The divider as a snapshot shows it (the unit's own saved state is DividerState, units/divider.ts). */
export interface DividerSnapshot {
  /** busy in this cycle */
  busy: boolean;
  /** busy cycles after this one (0 in its last) */
  cyclesLeft: number;
  owner: { line: number; iteration: number } | null;
  /** the divisions of the program whose figures give the divider no cycles, and why (present
   *  only when there are such lines): the divider stays free while they execute */
  notModelled?: readonly { line: number; why: string; short: string }[];
}

/** Everything a viewer shows for one cycle. Immutable; plain data. */
export interface Snapshot {
  /** cycles performed so far (0 before the first step) */
  cycle: number;
  finished: boolean;
  /** instances in flight in this cycle (loaded, not done: the EntryState of each), program order */
  rs: RsEntry[];
  /** µops occupying the station at the end of this cycle: loaded and without a port (a µop
   *  leaves the station when it gets its port, so executing instances are in `rs`, not here) */
  rsUsed: number;
  rsCapacity: number;
  ports: PortSlot[];
  divider: DividerSnapshot;
  /** the instances in state ready (`waiting-port`) this cycle, program order */
  ready: { line: number; iteration: number }[];
  frontEnd: {
    /** next instance to load, or null when all are loaded */
    next: { line: number; iteration: number; uopsLeft: number } | null;
    loadedThisCycle: number;
    /** the refined front end's state (present when micro-fusion or the front end mechanism
     *  is on): the source whose turn it was this cycle (null: no delivery modelled, or the program's
     *  end; `delivered` 0 with a source: the IDQ was full, or a switch to or from the microcode
     *  sequencer), fused-domain µops delivered into the
     *  IDQ and issued from it this cycle, and
     *  the IDQ's occupancy and size (null: no delivery limits modelled) */
    refined?: {
      source: 'DSB' | 'MITE' | 'LSD' | 'MS' | null;
      delivered: number;
      issued: number;
      idq: number | null;
      idqSize: number | null;
    };
    /** lines (original numbers) that are the first half of a macro-fused pair (present
     *  when macro-fusion is on and some pair fuses); the pair's Jcc is the next line of the program */
    fusedPairs?: readonly number[];
  };
  /** instances finished by the end of this cycle (those in their last cycle of execution
   *  included; the statistics' divisor) */
  completed: number;
  total: number; // instances in the whole run (lines × iterations)
  /** statistics accumulated up to this cycle */
  stats: Stats;
  /** per line of the program, in program order: how many instances are in which state */
  lineCounts: LineCount[];
  /** the scheduler queues (absent on a core with one station, where `rsUsed` is its occupancy) */
  queues?: QueuesSnapshot;
}

/** A core's scheduler queues in one cycle (units/queues.ts). */
export interface QueuesSnapshot {
  /** each scheduler queue, then each non-scheduling queue (`feeds`: the queues it is in front of),
   *  with its entries at the end of this cycle */
  list: { name: string; size: number; used: number; feeds?: string[] }[];
  /** the queue the next op did not fit in, which stopped the front end this cycle (null: none) */
  stalledOn: string | null;
  steering: 'even';
  unit: 'macro-op' | 'uop';
}

export interface LineStats {
  line: number;
  asm: string;
  uops: number;
  /** average cycles per iteration the line was delayed (dependencies or blocked ports) */
  hadToWait: number;
  /** average cycles per iteration the line delayed another instruction (not transitive) */
  causedToWait: number;
  /** port → average µops (cycles, for the divider) per iteration */
  ports: Record<string, number>;
  /** divider cycles per iteration (only when used) */
  divider: number;
  unknown: boolean;
}

export interface Stats {
  cycles: number;
  iterations: number;
  /** the iterations complete so far (= iterations at the end). In a snapshot: the whole
   *  iterations every line's instance of which is done, and each line's figures are over that
   *  line's done instances; elsewhere, the iterations' worth of instances completed. cycles /
   *  iterationsCompleted is the rate so far; NaN until the first is complete. */
  iterationsCompleted: number;
  /** cycles / iterationsCompleted (at the end: cycles / iterations) */
  blockThroughput: number;
  uopsPerCycle: number;
  totalUops: number; // µops of one iteration
  lines: LineStats[];
  /** per-port total average use per iteration */
  portTotals: Record<string, number>;
  dividerUsed: boolean;
  /** per scheduler queue, then per non-scheduling queue (absent on a core with one station):
   *  per iteration, the ops steered into it and the cycles the front end stopped because the
   *  next op did not fit in it; its average entries per cycle */
  queues?: QueueStats[];
}

interface QueueStats {
  name: string;
  steered: number;
  stallCycles: number;
  occupancy: number;
}

/** Thesis §2.6 for one line. */
export interface LineDetail {
  line: number;
  asm: string;
  maxLatency: number;
  /** latency of each dependency, both directions: other line → cycles (null: no such dependency) */
  latencies: { line: number; fromThis: number | null; toThis: number | null }[];
  /** per dependent/depended line: avg cycles that line was delayed by this one / this one by it */
  dependencyDelays: { line: number; otherDelayedByThis: number; thisDelayedByOther: number }[];
  /** per port: avg cycles this line was delayed because the port was blocked / it blocked others */
  portDelays: { port: number; thisDelayedByPort: number; othersDelayedByThis: number }[];
}

export interface SimResult {
  stats: Stats;
  details: LineDetail[];
}

/** A whole run as an engine computed it (see Engine.wholeRun). */
export interface EngineRun {
  cycles: number;
  stats: Stats;
  /** the engine's own (opaque) state of the finished run and its period */
  state: unknown;
}

/** The steppable engine. */
export interface Engine {
  readonly program: SimProgram;
  readonly machine: MachineParams;
  readonly config: SimConfig;
  snapshot(): Snapshot;
  /** advance one cycle; returns the new snapshot (unchanged when finished) */
  step(): Snapshot;
  /** go to cycle N (forwards or backwards, clamped to [0, end]) */
  seek(cycle: number): Snapshot;
  /** seek in slices: move toward `cycle` simulating at most `budget` cycles, so that a viewer
   *  stays responsive on a long replay; the snapshot reached (at `cycle`, or the run's end, when
   *  done). Never runs the whole run to find its period (seek may). */
  seekToward(cycle: number, budget: number): Snapshot;
  runToEnd(): Snapshot;
  /** total cycles of the whole run (runs it on first call, then cached) */
  totalCycles(): number;
  /** statistics of the whole run, without moving the position */
  finalStats(): Stats;
  /** the whole run (its length, final statistics and the state seeking needs), computed once:
   *  plain data a worker can post to another engine of the same run */
  wholeRun(): EngineRun;
  /** take over a run another engine of the same program, machine, config and model computed
   *  (a worker's wholeRun()), so that the run's length, final statistics, `runToEnd` and far
   *  seeks do not simulate it again; false (nothing taken) when it is not this engine's run */
  adopt(run: EngineRun): boolean;
  detail(line: number): LineDetail;
}
