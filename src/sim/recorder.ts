// The thesis's statistics (§2.1, §2.2, §2.6) as a view of the core: the units report what happened
// through the Recorder interface, and the counts live here, by name, in typed arrays. The core never
// reads them back (they do not change the schedule), so a mechanism may add its own events without
// touching the model. All counts are whole numbers (exact in a Float64Array: the order of the
// additions does not change a figure).

import type { CompiledProgram } from './compiled.js';

/** What the core tells its observer. Each call is a count of whole cycles or µops. */
export interface Recorder {
  /** an instance of `line` was held back (by a producer or a port) for `cycles` cycles */
  onWait(line: number, cycles: number): void;
  /** ... with the producer of dependency entry `predEntry` (program line `producer`) unresolved */
  onDepWait(predEntry: number, producer: number, cycles: number): void;
  /** an instance of `line` found `port` (a port index) taken by an instance of `holder` this cycle */
  onPortBlocked(line: number, holder: number, port: number): void;
  /** The two halves of `onPortBlocked` for holders blamed earlier in the cycle for the same ports,
   *  blamed again (`holders[x]` of port `ports[x]`, x in [from, to)): an instance of `line` found
   *  each port taken... */
  onPortsWaited(line: number, ports: Int32Array, from: number, to: number): void;
  /** ... and each holder made `times` instances wait this cycle (reported once per cycle, before the
   *  cycle ends: the holders' counts grow by `times` at once) */
  onPortsHeld(holders: Int32Array, ports: Int32Array, from: number, to: number, times: number): void;
  /** a µop of `line` got port index `port` */
  onAssigned(line: number, port: number): void;
  /** an instance of `line` took the divider for `cycles` cycles */
  onDivider(line: number, cycles: number): void;
  /** an op was steered into scheduler queue q (units/queues.ts) */
  onQueueSteered(q: number): void;
  /** the front end stopped this cycle: the op it would load next did not fit in queue q */
  onQueueStall(q: number): void;
  /** queue q (a non-scheduling queue: Q + its index) held `entries` as a cycle began */
  onQueueFill(q: number, entries: number): void;
}

/** The recorder's state, by name (counts over the run so far; divided by iterations when read). */
export interface RecorderState {
  /** per line: cycles its instances waited */
  had: Float64Array;
  /** per line: cycles it made others wait (as an unresolved producer or a port holder) */
  caused: Float64Array;
  /** per line × port index: µops it put on the port */
  portUse: Float64Array;
  /** per line: divider cycles */
  divUse: Float64Array;
  /** per dependency entry (CompiledProgram.pred*): cycles the consumer waited with this producer blamed */
  predBlame: Float64Array;
  /** per line × port index: times it was delayed with the port blamed */
  portWas: Float64Array;
  /** per line × port index: times it, holding the port, delayed others */
  portCaused: Float64Array;
  /** per scheduler queue, then per non-scheduling queue (none on a core with one station): ops
   *  steered into it, cycles the front end stopped on it, and entries held summed over cycles */
  queueSteered: Float64Array;
  queueStall: Float64Array;
  queueFill: Float64Array;
  /** µops assigned a port */
  uopsAssigned: number;
}

/** The names of the recorder's per-element counters (what a steady-state period changes). */
export const COUNTER_NAMES = [
  'had',
  'caused',
  'portUse',
  'divUse',
  'predBlame',
  'portWas',
  'portCaused',
  'queueSteered',
  'queueStall',
  'queueFill',
] as const;
export type CounterName = (typeof COUNTER_NAMES)[number];

/** The thesis's blame statistics. One class (monomorphic calls from the core's hot loop). */
export class BlameRecorder implements Recorder, RecorderState {
  had: Float64Array;
  caused: Float64Array;
  portUse: Float64Array;
  divUse: Float64Array;
  predBlame: Float64Array;
  portWas: Float64Array;
  portCaused: Float64Array;
  queueSteered: Float64Array;
  queueStall: Float64Array;
  queueFill: Float64Array;
  uopsAssigned = 0;
  private readonly P: number;

  /** `queues`: scheduler queues and non-scheduling queues (0 with one station) */
  constructor(cp: CompiledProgram, queues = 0) {
    const { n, P } = cp;
    this.P = P;
    this.had = new Float64Array(n);
    this.caused = new Float64Array(n);
    this.portUse = new Float64Array(n * P);
    this.divUse = new Float64Array(n);
    this.predBlame = new Float64Array(cp.predLine.length);
    this.portWas = new Float64Array(n * P);
    this.portCaused = new Float64Array(n * P);
    this.queueSteered = new Float64Array(queues);
    this.queueStall = new Float64Array(queues);
    this.queueFill = new Float64Array(queues);
  }

  onWait(line: number, cycles: number): void {
    this.had[line]! += cycles;
  }

  onDepWait(predEntry: number, producer: number, cycles: number): void {
    this.caused[producer]! += cycles;
    this.predBlame[predEntry]! += cycles;
  }

  onPortBlocked(line: number, holder: number, port: number): void {
    const P = this.P;
    this.caused[holder]!++;
    this.portCaused[holder * P + port]!++;
    this.portWas[line * P + port]!++;
  }

  onPortsWaited(line: number, ports: Int32Array, from: number, to: number): void {
    const portWas = this.portWas,
      at = line * this.P;
    for (let x = from; x < to; x++) portWas[at + ports[x]!]!++;
  }

  onPortsHeld(holders: Int32Array, ports: Int32Array, from: number, to: number, times: number): void {
    const P = this.P,
      caused = this.caused,
      portCaused = this.portCaused;
    for (let x = from; x < to; x++) {
      const h = holders[x]!;
      caused[h]! += times;
      portCaused[h * P + ports[x]!]! += times;
    }
  }

  onAssigned(line: number, port: number): void {
    this.portUse[line * this.P + port]!++;
    this.uopsAssigned++;
  }

  onDivider(line: number, cycles: number): void {
    this.divUse[line]! += cycles;
  }

  onQueueSteered(q: number): void {
    this.queueSteered[q]!++;
  }

  onQueueStall(q: number): void {
    this.queueStall[q]!++;
  }

  onQueueFill(q: number, entries: number): void {
    this.queueFill[q]! += entries;
  }

  save(): RecorderState {
    return {
      had: this.had.slice(),
      caused: this.caused.slice(),
      portUse: this.portUse.slice(),
      divUse: this.divUse.slice(),
      predBlame: this.predBlame.slice(),
      portWas: this.portWas.slice(),
      portCaused: this.portCaused.slice(),
      queueSteered: this.queueSteered.slice(),
      queueStall: this.queueStall.slice(),
      queueFill: this.queueFill.slice(),
      uopsAssigned: this.uopsAssigned,
    };
  }

  restore(s: RecorderState): void {
    this.had = s.had.slice();
    this.caused = s.caused.slice();
    this.portUse = s.portUse.slice();
    this.divUse = s.divUse.slice();
    this.predBlame = s.predBlame.slice();
    this.portWas = s.portWas.slice();
    this.portCaused = s.portCaused.slice();
    this.queueSteered = s.queueSteered.slice();
    this.queueStall = s.queueStall.slice();
    this.queueFill = s.queueFill.slice();
    this.uopsAssigned = s.uopsAssigned;
  }

  /** the counters by name (live arrays) */
  counters(): Record<CounterName, Float64Array> {
    return {
      had: this.had,
      caused: this.caused,
      portUse: this.portUse,
      divUse: this.divUse,
      predBlame: this.predBlame,
      portWas: this.portWas,
      portCaused: this.portCaused,
      queueSteered: this.queueSteered,
      queueStall: this.queueStall,
      queueFill: this.queueFill,
    };
  }
}
