// The steppable engine: snapshots for a viewer, seeking via checkpoints (checkpoints.ts), the
// run's period (steady.ts) and replay.

import { exactJson } from './compiled.js';
import { Checkpoints, type CheckpointSet } from './checkpoints.js';
import { CompiledProgram, Core, DEFAULT_MODEL } from './core.js';
import { snapshotOf } from './snapshot.js';
import type { CoreState, ModelOptions } from './core.js';
import { coreStats, detailOf, detailsOf, statsOf, statsStateOf } from './stats.js';
import type { StatsState } from './stats.js';
import { runToEndSteady, seekPeriodic } from './steady.js';
import type { Progress } from './core.js';
import type { SteadyPeriod } from './steady.js';
import type { FrontEndLimits } from './frontEndPlan.js';
import { mechanismKey, resolveMechanisms } from './mechanisms.js';
import { variantKey, withLimitsBack } from './variants.js';
import { mayShareOwnPort, unitsKey } from './parts.js';
import type { MechanismSet } from './mechanisms.js';
import type {
  Engine,
  EngineRun,
  LineDetail,
  MachineParams,
  SimConfig,
  SimProgram,
  SimResult,
  Snapshot,
  Stats,
  Variant,
} from './types.js';

/** A seek further than this many cycles from where replay would start runs the whole run once
 *  (which lays checkpoints along it and finds its period, if it has one; see steady.ts). */
const FAR_SEEK = 4096;

export interface EngineOptions {
  /** interpretation choices (see core.ts); the defaults are the ones that reproduce the thesis */
  model?: ModelOptions;
  /** simulate every cycle of simulate()'s run (default: skip the periodic part, see steady.ts;
   *  the results are the same, test/sim/steady.test.ts compares them) */
  fullSimulation?: boolean;
  /** called every PROGRESS_CYCLES (core.ts) simulated cycles with the instances completed so far and the
   *  run's total (iterations × instructions): a long run's progress; reads nothing, changes nothing */
  onProgress?: Progress;
}

/** What wholeRun() hands over (opaque outside the engine): the finished core's state and the
 *  run's period, with what identifies the run they belong to. */
interface RunState {
  n: number;
  iterations: number;
  final: CoreState;
  period: SteadyPeriod | null;
  /** the variant whose run it is (runVariantOf's choice) */
  variant: Variant;
  /** states along the run, for seeks (a step back from the end above all) */
  checkpoints: CheckpointSet;
}

class SteppableEngine implements Engine {
  private core: Core;
  private cps: Checkpoints;
  /** the statistics state of snapshots whose detail was asked for */
  private shownStates = new WeakMap<Snapshot, StatsState>();
  private end: number | null = null;
  private final: Stats | null = null;
  private current: Snapshot;
  private trace: Snapshot[] | null;
  private compiled: CompiledProgram;
  /** the run's period, once a run to the end looked for it (null: none found or not looked yet) */
  private period: SteadyPeriod | null = null;
  /** a finished core from that run (given away to runToEnd) */
  private ended: Core | null = null;
  /** the configuration the core runs: `config` with the variant runVariantOf chose, once chosen */
  private run: SimConfig;

  /** `choose` (absent: nothing to choose) is runVariantOf for `config`; it runs whole runs, so it is
   *  asked only when this engine needs its own whole run (a run to the end, its length or final
   *  figures, a far seek) or takes over another engine's: until then steps show `config`'s variant. */
  constructor(
    readonly program: SimProgram,
    readonly machine: MachineParams,
    readonly config: SimConfig,
    private readonly model: ModelOptions,
    private choose?: () => Variant,
  ) {
    this.run = config;
    this.compiled = new CompiledProgram(program, machine, model.mechanisms);
    this.core = new Core(program, machine, config, model, this.compiled);
    this.cps = new Checkpoints(this.core.save());
    this.current = snapshotOf(this.core, program);
    this.trace = config.trace ? [this.current] : null;
  }

  /** Runs the variant chosen for this engine's configuration from now on (asks once). */
  private settle(chosen?: Variant): void {
    const choose = this.choose;
    if (choose === undefined) return;
    this.choose = undefined;
    const v = chosen ?? choose();
    if (variantKey(v) !== variantKey(this.run.variant)) this.switchTo(v);
  }

  /** Starts over with variant `v`'s run and replays it to the cycle shown. */
  private switchTo(v: Variant): void {
    const at = this.core.cycle;
    this.run = { ...this.config, variant: v };
    this.core = new Core(this.program, this.machine, this.run, this.model, this.compiled);
    this.cps = new Checkpoints(this.core.save());
    this.end = this.final = this.period = this.ended = null;
    this.shownStates = new WeakMap();
    this.current = snapshotOf(this.core, this.program);
    this.trace = this.config.trace ? [this.current] : null;
    while (this.core.cycle < at && !this.core.finished) {
      this.advance();
      if (this.trace) this.trace.push(snapshotOf(this.core, this.program));
    }
    this.current = this.trace ? this.trace[this.core.cycle]! : snapshotOf(this.core, this.program);
  }

  snapshot(): Snapshot {
    return this.current;
  }

  private advance(): void {
    this.core.step();
    const c = this.core.cycle;
    if (this.core.finished && this.end === null) this.end = c;
    this.cps.passed(this.core);
  }

  step(): Snapshot {
    if (this.core.finished) return this.current;
    if (this.trace && this.trace.length > this.core.cycle + 1) {
      // moving forward through an already recorded trace
      const s = this.trace[this.core.cycle + 1]!;
      this.advance();
      this.current = s;
      return s;
    }
    this.advance();
    this.current = snapshotOf(this.core, this.program);
    if (this.trace) this.trace.push(this.current);
    return this.current;
  }

  /** Run a fresh core of the same run to its end, skipping its periodic part: the run's length,
   *  final statistics and period, and checkpoints along it, without touching the current core. */
  private runSteady(): Core {
    this.settle();
    if (this.ended) return this.ended;
    const core = new Core(this.program, this.machine, this.run, this.model, this.compiled);
    const cps = this.cps;
    runToEndSteady(
      core,
      (p) => {
        this.period = p;
      },
      // (every PROGRESS_CYCLES cycles: a checkpoint, and the last one before the end)
      () => cps.passedFar(core),
    );
    this.end = core.cycle;
    this.final = coreStats(core, this.program);
    this.ended = core;
    return core;
  }

  /** The cycle `cycle` asks for, within the run as far as its end is known. */
  private clamp(cycle: number): number {
    const target = Math.max(0, Math.floor(cycle));
    return this.end === null ? target : Math.min(target, this.end);
  }

  /** Where a replay toward `target` would start: the core, or the latest checkpoint before it. */
  private startFor(target: number): number {
    const cpt = this.cps.nearest(target).cycle;
    return target >= this.core.cycle ? Math.max(this.core.cycle, cpt) : cpt;
  }

  /** Puts the core at the end of a run computed (or adopted) already: nothing replayed. */
  private toEnd(): Snapshot {
    this.core.restore(this.ended!.save());
    this.current = snapshotOf(this.core, this.program);
    return this.current;
  }

  /** Jumps by the run's period when it covers `target` and less than a period is left to simulate. */
  private jumpPeriodic(target: number): boolean {
    const p = this.period;
    if (p === null || target - Math.max(this.startFor(target), p.cycle) <= 2 * p.dc) return false;
    if (!seekPeriodic(this.core, p, target)) return false;
    this.current = snapshotOf(this.core, this.program);
    return true;
  }

  /** Simulates toward `target` from the latest state before it (the core or a checkpoint), at
   *  most `budget` cycles (a traced engine records each cycle's snapshot on the way). */
  private moveToward(target: number, budget: number): void {
    // (a traced engine starts no later than the last cycle it recorded: its trace has no gaps)
    const cpt = this.cps.nearest(this.trace ? Math.min(target, this.trace.length - 1) : target);
    if (target < this.core.cycle || cpt.cycle > this.core.cycle) this.core.restore(cpt);
    this.cps.aim(this.core.cycle, target);
    const stop = Math.min(target, this.core.cycle + Math.max(1, Math.floor(budget)));
    const trace = this.trace;
    while (this.core.cycle < stop && !this.core.finished) {
      this.advance();
      if (trace && trace.length === this.core.cycle) trace.push(snapshotOf(this.core, this.program));
    }
  }

  seek(cycle: number): Snapshot {
    let target = this.clamp(cycle);
    if (target === this.core.cycle) return this.current;
    if (!this.trace) {
      if (target - this.startFor(target) > FAR_SEEK && this.end === null) {
        // the whole run, once: its end, its period and checkpoints along it
        this.runSteady();
        target = this.clamp(target);
      }
      if (this.ended !== null && target === this.end) return this.toEnd();
      if (target - this.startFor(target) > FAR_SEEK && this.jumpPeriodic(target)) return this.current;
    }
    this.moveToward(target, Number.POSITIVE_INFINITY);
    this.current = this.trace ? this.trace[this.core.cycle]! : snapshotOf(this.core, this.program);
    return this.current;
  }

  seekToward(cycle: number, budget: number): Snapshot {
    // a traced engine records every cycle anyway; the viewer never slices it
    if (this.trace) return this.seek(cycle);
    const target = this.clamp(cycle);
    if (target === this.core.cycle) return this.current;
    if (this.ended !== null && target === this.end) return this.toEnd();
    // the period, when a run to the end found it already, jumps at once (less than a period simulated)
    if (target - this.startFor(target) > FAR_SEEK && this.jumpPeriodic(target)) return this.current;
    this.moveToward(target, budget);
    this.current = snapshotOf(this.core, this.program);
    return this.current;
  }

  runToEnd(): Snapshot {
    if (this.trace) {
      while (!this.core.finished) this.step();
      return this.current;
    }
    if (this.core.finished) return this.current;
    // the end of a fresh run that skipped its periodic part (the same state: test/sim/steady.test.ts),
    // which left checkpoints along the way for seeking back
    this.runSteady();
    return this.toEnd();
  }

  totalCycles(): number {
    if (this.end === null) this.runSteady();
    return this.end!;
  }

  wholeRun(): EngineRun {
    const core = this.runSteady();
    const state: RunState = {
      n: this.compiled.n,
      iterations: core.iterations,
      final: core.save(),
      period: this.period,
      variant: this.run.variant,
      checkpoints: this.cps.exported(),
    };
    return { cycles: this.end!, stats: this.final!, state };
  }

  adopt(run: EngineRun): boolean {
    if (this.ended) return true;
    const st = run.state as RunState | undefined;
    if (!st || st.n !== this.compiled.n || st.iterations !== this.core.iterations || st.final?.cycle !== run.cycles)
      return false;
    // another engine of the same configuration chose the same variant
    this.settle(st.variant);
    if (variantKey(st.variant) !== variantKey(this.run.variant)) return false;
    const core = new Core(this.program, this.machine, this.run, this.model, this.compiled);
    core.restore(st.final);
    if (!core.finished) return false;
    this.ended = core;
    this.end = run.cycles;
    this.final = run.stats;
    this.period = st.period;
    if (st.checkpoints) this.cps.merge(st.checkpoints);
    return true;
  }

  finalStats(): Stats {
    if (this.final === null) this.runSteady();
    return this.final!;
  }

  /** The detail of `line` as of the shown snapshot: from the statistics state saved for it. */
  detail(line: number): LineDetail {
    const idx = this.program.instructions.findIndex((x) => x.line === line);
    if (idx < 0) throw new RangeError(`no instruction with line ${line} in this program`);
    return detailOf(this.compiled, this.program, this.stateOf(this.current), idx);
  }

  /** The statistics state of the cycle snapshot `s` shows (saved on first use; the core is
   *  brought to that cycle if it stands elsewhere). */
  private stateOf(s: Snapshot): StatsState {
    const saved = this.shownStates.get(s);
    if (saved) return saved;
    if (this.core.cycle !== s.cycle) this.moveToward(s.cycle, Number.POSITIVE_INFINITY);
    const live = statsStateOf(this.core);
    const st: StatsState = { ...live, stats: this.core.recorder.save() };
    this.shownStates.set(s, st);
    return st;
  }
}

export function createEngine(
  program: SimProgram,
  machine: MachineParams,
  config: SimConfig,
  opts: EngineOptions = {},
): Engine {
  // the variant's run is chosen when the engine first needs a whole run (SteppableEngine.settle)
  const choose =
    withLimitsBack(config.variant).length > 1 ? () => runVariantOf(program, machine, config, opts) : undefined;
  return new SteppableEngine(program, machine, config, opts.model ?? DEFAULT_MODEL, choose);
}

/**
 * The refined front end's plan and the limits it applies on this program and core, each with its
 * source, and those it cannot apply and why (null when the front end mechanism is off).
 * The report says from it which front-end limits a result rests on.
 */
export function frontEndLimitsOf(
  program: SimProgram,
  machine: MachineParams,
  opts: EngineOptions = {},
): FrontEndLimits | null {
  return compiledOf(program, machine, opts.model?.mechanisms).cp.frontEnd;
}

/** The macro-fused pairs of `program` under `opts`' mechanisms: the index of each pair's first line. */
export function fusedPairsOf(program: SimProgram, machine: MachineParams, opts: EngineOptions = {}): number[] {
  const { cp } = compiledOf(program, machine, opts.model?.mechanisms);
  const out: number[] = [];
  for (let i = 0; i < cp.n; i++) if (cp.fusedWithNext[i]) out.push(i);
  return out;
}

/** A program compiled under one set of mechanisms, and what runKey reads of it: its engineKey()
 *  and whether an instance's µops may share a port (else the port rule changes nothing:
 *  parts.ts, mayShareOwnPort), both computed when first asked. */
interface Compiled {
  cp: CompiledProgram;
  facts: CompiledFacts | null;
}
interface CompiledFacts {
  key: string;
  sharesPort: boolean;
}

const compiledPrograms = new WeakMap<SimProgram, WeakMap<MachineParams, Map<string, Compiled>>>();

/** `program` on `machine` compiled under `mechanisms`, once per set of mechanisms (the compiled
 *  program reads nothing else, and nothing changes it after it is built): the what-if runs of a
 *  report, their keys and the report's figures share one compilation per set. */
function compiledOf(
  program: SimProgram,
  machine: MachineParams,
  mechanisms: Partial<MechanismSet> | undefined,
): Compiled {
  let byMachine = compiledPrograms.get(program);
  if (!byMachine) {
    byMachine = new WeakMap();
    compiledPrograms.set(program, byMachine);
  }
  let byMech = byMachine.get(machine);
  if (!byMech) {
    byMech = new Map();
    byMachine.set(machine, byMech);
  }
  const mk = mechanismKey(mechanisms);
  let c = byMech.get(mk);
  if (c === undefined) {
    c = { cp: new CompiledProgram(program, machine, mechanisms), facts: null };
    byMech.set(mk, c);
  }
  return c;
}

/** CompiledProgram.engineKey() of `program` on `machine` under `mechanisms`, and mayShareOwnPort. */
function compiledFacts(
  program: SimProgram,
  machine: MachineParams,
  mechanisms: Partial<MechanismSet> | undefined,
): CompiledFacts {
  const c = compiledOf(program, machine, mechanisms);
  c.facts ??= { key: c.cp.engineKey(), sharesPort: mayShareOwnPort(c.cp) };
  return c.facts;
}

/**
 * A key of everything simulate()'s result depends on, for one program and machine: the compiled
 * program as the engine reads it (CompiledProgram.engineKey: what the mechanisms made of the
 * program), the run's configuration, and what the factory (parts.ts) reads itself: the parts a
 * mechanism chooses that the compiled program does not show (the port policy; the port rule where
 * an instance's µops may share a port) and replaced units.
 * Two runs of one program and machine with the same key give the
 * same result (test/sim/runKey.test.ts), so a run whose mechanism switch changes none of these — no
 * fused pair for macro-fusion to fuse, no zero idiom, no store→load pair — need not be simulated
 * again (src/sim/whatIf.ts, sharingIdenticalRuns).
 */
export function runKey(
  program: SimProgram,
  machine: MachineParams,
  config: SimConfig,
  opts: EngineOptions = {},
): string {
  const model = opts.model ?? DEFAULT_MODEL;
  const sorted = (o: object): [string, unknown][] =>
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const facts = compiledFacts(program, machine, model.mechanisms);
  const mech = resolveMechanisms(model.mechanisms);
  // (JSON has no raw line break: the two parts cannot run into each other)
  return (
    facts.key +
    '\n' +
    JSON.stringify(
      [
        config.iterations,
        sorted(config.variant),
        unitsKey(model),
        mech.portChoice,
        mech.onePerPort && facts.sharesPort,
        opts.fullSimulation === true,
      ],
      exactJson,
    )
  );
}

/** The cycles of the runs made so far, per program and machine, by runKey: a variant's choice
 *  (runVariantOf) compares runs that a report or an explorer has often made already. */
const cyclesOfRuns = new WeakMap<SimProgram, WeakMap<MachineParams, Map<string, number>>>();

function cyclesCache(program: SimProgram, machine: MachineParams): Map<string, number> {
  let byMachine = cyclesOfRuns.get(program);
  if (!byMachine) {
    byMachine = new WeakMap();
    cyclesOfRuns.set(program, byMachine);
  }
  let m = byMachine.get(machine);
  if (!m) {
    m = new Map();
    byMachine.set(machine, m);
  }
  return m;
}

/** The whole run of exactly `config.variant`, its cycles remembered. */
function simulateVariant(
  program: SimProgram,
  machine: MachineParams,
  config: SimConfig,
  opts: EngineOptions,
): SimResult {
  const model = opts.model ?? DEFAULT_MODEL;
  const core = new Core(program, machine, config, model, compiledOf(program, machine, model.mechanisms).cp);
  if (opts.fullSimulation) core.runToEnd(opts.onProgress);
  else runToEndSteady(core, undefined, opts.onProgress);
  const st = statsStateOf(core);
  cyclesCache(program, machine).set(runKey(program, machine, config, opts), core.cycle);
  return {
    stats: statsOf(core.cp, program, st),
    details: detailsOf(core.cp, program, st),
  };
}

/**
 * The variant whose run stands for `config.variant`: of it and the variants with some of the limits
 * it removes put back (withLimitsBack), the one that finishes in the fewest cycles — itself on a tie.
 * A variant that removes a limit is thus never slower than the run with the limit: the greedy port
 * choice (SUACA's least-used port at dispatch, the refined model's binding at issue) can schedule
 * worse when more µops compete for the ports, and a perfect front end, ports without limit or a
 * run without dependencies may always do what the limited run does (docs/engine.md, "Variants that
 * remove a limit"). `runs` receives the results computed on the way.
 */
export function runVariantOf(
  program: SimProgram,
  machine: MachineParams,
  config: SimConfig,
  opts: EngineOptions = {},
  runs?: Map<string, SimResult>,
): Variant {
  const options = withLimitsBack(config.variant);
  if (options.length === 1) return config.variant;
  const cache = cyclesCache(program, machine);
  let best = config.variant;
  let bestCycles = Number.POSITIVE_INFINITY;
  for (const v of options) {
    const c = { ...config, variant: v };
    const key = runKey(program, machine, c, opts);
    let cycles = cache.get(key);
    if (cycles === undefined) {
      const r = simulateVariant(program, machine, c, opts);
      runs?.set(variantKey(v), r);
      cycles = r.stats.cycles;
    }
    if (cycles < bestCycles) {
      best = v;
      bestCycles = cycles;
    }
  }
  return best;
}

/** Run the whole simulation (no snapshots): statistics and the detail of every line. A variant
 *  that removes limits runs as runVariantOf chooses. */
export function simulate(
  program: SimProgram,
  machine: MachineParams,
  config: SimConfig,
  opts: EngineOptions = {},
): SimResult {
  const runs = new Map<string, SimResult>();
  const v = runVariantOf(program, machine, config, opts, runs);
  return runs.get(variantKey(v)) ?? simulateVariant(program, machine, { ...config, variant: v }, opts);
}
