// What the characterization finds, per form and for the machine, before it is written in the
// measured-figures file format. Every figure keeps its spread and says how it was obtained.

export interface Figure {
  /** cycles (or µops, or a rate) */
  value: number;
  /** (highest − lowest) / lowest of the repeated runs behind it */
  spread: number;
  /** the figure is an upper bound (the pair could not be isolated) */
  upperBound?: boolean;
  /** why the figure failed a consistency check (it is kept, marked) */
  inconsistent?: string;
  /** how it was measured, one line */
  method: string;
  /** harness runs kept of those tried (the others ran while the contention canary read high) */
  kept?: { kept: number; tried: number };
}

export interface LatencyFigure extends Figure {
  /** the source operand: 'op1 (R64)', 'flags', 'addr (base of M64)', 'RDX' */
  from: string;
  to: string;
}

/** A set of ports a blocking instruction saturates. */
export interface Combination {
  /** 'p0156' when the ports are known (the hypothesis' set, its size confirmed by the blocker's
   *  throughput), else 'ports of imul r64, r64 (1)' */
  name: string;
  /** the blocking instruction, Intel syntax */
  blocker: string;
  /** ports it can use: measured as 1 / its reciprocal throughput */
  size: number;
  /** port numbers, when known from the hypothesis */
  ports?: number[];
  /** names of combinations that are subsets of this one */
  subsets: string[];
}

export interface PortUse {
  count: number;
  combination: string;
  ports?: number[];
  /** 'measured': from the blocking experiment; 'hypothesis': the LLVM model's group, kept where
   *  no measurement decides */
  from: 'measured' | 'hypothesis';
}

export interface FormResult {
  key: string;
  intel: string;
  latencies: LatencyFigure[];
  /** reciprocal throughput, independent instances as far as the operands allow */
  throughput?: Figure;
  /** reciprocal throughput with dependency-breaking instructions added (their cost included) */
  throughputBroken?: Figure;
  fusedUops?: Figure;
  /** unfused-domain µops: the port usage's total */
  unfusedUops?: number;
  ports: PortUse[];
  /** why the port usage failed a consistency check (kept, marked) */
  portsInconsistent?: string;
  /** how the port usage was decided */
  portsFrom: 'measured' | 'hypothesis' | 'measured and hypothesis' | 'none';
  /** cycles the divider is busy (divisions and square roots) */
  divCycles?: Figure;
  /** executed at rename: a chain of it runs at the rename width */
  eliminated?: boolean;
  notes: string[];
  /** figures a counter-less host cannot measure for this form, each with why; the record's value
   *  is the model there (not a failed check) */
  notMeasurable?: string[];
  /** benchmarks run for it */
  benches: number;
  /** where two passes over the form disagree (then its figures are marked, not used) */
  passesDisagree?: string[];
  /** passes compared (1 when the form was measured once) */
  passes?: number;
}

export interface MachineResult {
  renameWidth: Figure;
  /** why the NOP filler cannot bound the rename stage on this core (then no fused-domain count
   *  is derived from it), or absent */
  fillerProblem?: string;
  takenBranchesPerCycle: Figure;
  loadToUse: Figure;
  storeForwarding: Figure;
  zeroIdiom: { breaksDependency: boolean; noPort: boolean; figure: Figure };
  moveElimination: { latency: Figure; eliminated: boolean };
  immediateAddition: { latency: Figure; folded: boolean };
  combinations: Combination[];
  /** record-chosen blockers whose measured throughput contradicted the record's pipe count */
  rejectedBlockers?: string[];
}

export interface Excluded {
  key: string;
  intel: string;
  why: string;
}
