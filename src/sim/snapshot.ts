// What a viewer sees of one cycle: each instance's state, defined here once, and everything the
// snapshot counts and lists from it. A snapshot shows cycle c as it runs: an instance executes in
// every cycle from the one it got its last port to the last cycle of its latency (so a 1-cycle µop
// on a port this cycle is executing, not done), it is done from the cycle after; a macro-fused
// pair is one µop, so its Jcc shows the state of the line before it and finishes with it. The
// run's last cycle is shown as it runs, like every other: the µops that end the run execute in it
// (in their last cycle), so that none goes from waiting to done without a cycle shown executing.

import { DIVIDER_BLOCK_BIT, ST_DONE, ST_EXEC, ST_WAIT_DEP, ST_WAIT_PORT } from './core.js';
import type { CompiledProgram, Core } from './core.js';
import { statsOf, statsStateOf, type InFlightCounts } from './stats.js';
import { Queues } from './units/queues.js';
import type { Resource } from '../disasm/types.js';
import type {
  DividerSnapshot,
  EntryState,
  LineCount,
  PortSlot,
  QueuesSnapshot,
  RsEntry,
  SimProgram,
  Snapshot,
  StateName,
} from './types.js';

type Inst = { line: number; iteration: number };

function lineOf(i: number, program: SimProgram): number {
  return program.instructions[i]!.line;
}

/** The state name of an entry state: the one word every pane shows for it. */
export function stateName(s: EntryState): StateName {
  switch (s.kind) {
    case 'loading':
    case 'waiting-dep':
      return 'waiting';
    case 'waiting-port':
      return 'ready';
    case 'executing':
      return 'executing';
    case 'done':
      return 'done';
  }
}

/** Reads the core's station for the cycle it stands at. */
class StationView {
  readonly cp: CompiledProgram;
  readonly c: number;
  constructor(
    readonly core: Core,
    readonly program: SimProgram,
  ) {
    this.cp = core.cp;
    this.c = core.cycle;
  }

  inst(g: number): Inst {
    return { line: lineOf(g % this.cp.n, this.program), iteration: Math.floor(g / this.cp.n) };
  }

  /** The state of instance g (loaded by the front end) in this cycle. */
  stateOf(g: number): EntryState {
    const rsu = this.core.scheduler,
      cp = this.cp,
      c = this.c;
    if (g < rsu.headBefore) return { kind: 'done' };
    const s = g & rsu.mask;
    const i = g % cp.n;
    const status = rsu.status[s]!;
    // the Jcc of a fused pair has no µop: it is where the pair's µop is (unless a latency of its
    // own, longer than the pair's, keeps it executing after its first half: then that)
    if (rsu.fusedAway !== null && rsu.fusedAway[i] === 1) {
      const mate = this.stateOf(g - 1);
      const ended = mate.kind === 'done' || (mate.kind === 'executing' && mate.cyclesLeft === 0);
      if (!(ended && status === ST_EXEC)) return mate;
    }
    // cycles held back only by its own µops on a port (one µop per port per cycle) are counted
    // in its latency (Scheduler.begin moves its start back): it ends no earlier than the cycle
    // it got its last port
    const self = rsu.selfBlocks ? rsu.selfWait[s]! : 0;
    if (status === ST_DONE) {
      // executed at rename: done in the cycle it started, without a port
      if (rsu.renames && rsu.zeroLat[s] === 1) return { kind: 'done' };
      const last = rsu.start[s]! + Math.max(cp.lat[i]! - 1, self);
      return last >= c
        ? { kind: 'executing', cyclesDone: c - rsu.start[s]! + 1, cyclesLeft: last - c }
        : { kind: 'done' };
    }
    if (status === ST_EXEC) {
      const last = rsu.start[s]! + Math.max(cp.lat[i]! - 1, self);
      return { kind: 'executing', cyclesDone: c - rsu.start[s]! + 1, cyclesLeft: last - c };
    }
    if (status === ST_WAIT_DEP) return { kind: 'waiting-dep', on: this.producers(s, i, Math.floor(g / cp.n)) };
    // an instance not fully loaded waits (thesis Algorithm 4 line 33), port or not
    // (held back by its own µop, it is ready: the port shows who holds it, itself)
    if (status === ST_WAIT_PORT && rsu.loaded[s] === cp.uops[i])
      return { kind: 'waiting-port', ports: this.blockers(g, s, i) };
    return { kind: 'loading' };
  }

  private producers(s: number, i: number, k: number): { line: number; iteration: number; resource: Resource }[] {
    const cp = this.cp;
    const on: { line: number; iteration: number; resource: Resource }[] = [];
    const e0 = cp.predStart[i]!;
    const m = this.core.scheduler.depWait[s]!;
    for (let e = e0; e < cp.predStart[i + 1]!; e++) {
      if ((m & (1 << Math.min(e - e0, 30))) === 0) continue;
      const it = cp.predLC[e] ? k - 1 : k;
      for (const di of cp.predDeps[e]!) {
        on.push({ line: lineOf(cp.predLine[e]!, this.program), iteration: it, resource: cp.deps[di]!.resource });
      }
    }
    return on;
  }

  private blockers(g: number, s: number, i: number): { port: number; heldBy: Inst | null; divider?: boolean }[] {
    const cp = this.cp,
      core = this.core;
    const out: { port: number; heldBy: Inst | null; divider?: boolean }[] = [];
    const m = core.scheduler.portBlock[s]!;
    for (let p = 0; p < cp.P; p++) {
      if ((m & (1 << p)) === 0) continue;
      const holders = core.ports.holdersOf(p);
      const hs = holders.filter((h) => h !== g);
      // held only by the instance's own µop (the refined model's one µop per port per cycle)
      if (hs.length === 0) out.push({ port: cp.portIds[p]!, heldBy: holders.includes(g) ? this.inst(g) : null });
      for (const h of new Set(hs)) out.push({ port: cp.portIds[p]!, heldBy: this.inst(h) });
    }
    const div = core.divider;
    if ((m & DIVIDER_BLOCK_BIT) !== 0) {
      out.push({
        port: cp.portIds[cp.divPortOf[i]!]!,
        heldBy: div.owner >= 0 ? this.inst(div.owner) : null,
        divider: true,
      });
    }
    return out;
  }
}

const pairsOf = new WeakMap<CompiledProgram, readonly number[] | null>();

/** The refined front end's part of a snapshot, or {} in SUACA's model: the front end unit's own
 *  view (FrontEnd.view) and the macro-fused pairs. */
function refinedFrontEnd(core: Core, program: SimProgram): Pick<Snapshot['frontEnd'], 'refined' | 'fusedPairs'> {
  const cp = core.cp;
  let pairs = pairsOf.get(cp);
  if (pairs === undefined) {
    const ls: number[] = [];
    cp.fusedWithNext.forEach((f, i) => {
      if (f) ls.push(lineOf(i, program));
    });
    pairs = ls.length > 0 ? Object.freeze(ls) : null;
    pairsOf.set(cp, pairs);
  }
  const out: Pick<Snapshot['frontEnd'], 'refined' | 'fusedPairs'> = {};
  if (pairs !== null) out.fusedPairs = pairs;
  const view = core.frontEnd.view(core.cycle);
  if (view !== undefined) out.refined = view;
  return out;
}

const noDividerOf = new WeakMap<SimProgram, DividerSnapshot['notModelled'] | null>();

/** The divisions whose figures give the divider nothing to do (SimInstruction.noDivider), once per program. */
function dividerNotModelled(program: SimProgram): DividerSnapshot['notModelled'] | null {
  let x = noDividerOf.get(program);
  if (x === undefined) {
    const ls = program.instructions.filter((i) => i.noDivider).map((i) => ({ line: i.line, ...i.noDivider! }));
    x = ls.length > 0 ? Object.freeze(ls) : null;
    noDividerOf.set(program, x);
  }
  return x;
}

/** The station's entries in flight this cycle (program order), the counts per line and the ready list. */
function station(v: StationView): { rs: RsEntry[]; counts: LineCount[]; ready: Inst[]; inFlight: InFlightCounts } {
  const { core, cp, program } = v;
  const n = cp.n;
  const P = cp.P;
  const inFlight: InFlightCounts = {
    portUse: new Float64Array(n * P),
    had: new Float64Array(n),
    divUse: new Float64Array(n),
  };
  const rsu = core.scheduler,
    fe = core.frontEnd;
  const rs: RsEntry[] = [];
  const ready: Inst[] = [];
  const counts: LineCount[] = program.instructions.map((x) => ({
    line: x.line,
    notLoaded: 0,
    waiting: 0,
    ready: 0,
    executing: 0,
    done: 0,
  }));
  let g = rsu.headBefore;
  for (; fe.isLoaded(g); g++) {
    const state = v.stateOf(g);
    if (state.kind === 'done') continue;
    const s = g & rsu.mask;
    const i = g % n;
    const k = Math.floor(g / n);
    const away = rsu.fusedAway !== null && rsu.fusedAway[i] === 1;
    let assigned = 0;
    for (let u = 0; u < cp.maxU; u++) {
      const p = rsu.uopPort[s * cp.maxU + u]!;
      if (p < 0) continue;
      assigned++;
      inFlight.portUse[i * P + p]!++;
      if (cp.div[i]! > 0 && cp.divUop[i] === u && p === cp.divPortOf[i]) inFlight.divUse[i]! += cp.div[i]!;
    }
    inFlight.had[i]! += rsu.waited[s]!;
    const e: RsEntry = {
      line: lineOf(i, program),
      iteration: k,
      uops: cp.uops[i]!,
      loaded: rsu.loaded[s]!,
      assigned,
      state,
    };
    if (away) e.fusedWith = v.inst(g - 1);
    if (core.policy instanceof Queues) e.queues = core.policy.holding(g);
    rs.push(e);
    const name = stateName(state);
    if (name === 'ready') ready.push(v.inst(g));
    counts[i]![name === 'done' ? 'done' : name]++;
  }
  // instances begun loading: every g before the first one not loaded
  for (let i = 0; i < n; i++) {
    const lc = counts[i]!;
    const started = Math.floor(g / n) + (i < g % n ? 1 : 0);
    lc.notLoaded = core.iterations - started;
    lc.done = started - lc.waiting - lc.ready - lc.executing;
  }
  return { rs, counts, ready, inFlight };
}

/** The ports this cycle: the µops that took each one (an instance still short of a port for
 *  another µop marked so: it is ready, not executing), the µops so
 *  far and the use. */
function portSlots(v: StationView): PortSlot[] {
  const { core, cp, c } = v;
  const ports = core.ports;
  return cp.portIds.map((port, p) => ({
    port,
    uops:
      c > 0
        ? ports.holdersOf(p).map((h) => {
            const x = v.inst(h);
            return v.stateOf(h).kind === 'executing' ? x : { ...x, waitsForPort: true as const };
          })
        : [],
    cumulative: ports.usage[p]!,
    use: ports.usage[p]! / Math.max(1, c),
  }));
}

function dividerOf(v: StationView): DividerSnapshot {
  const div = v.core.divider,
    c = v.c;
  const busy = div.busyAt(c);
  const none = dividerNotModelled(v.program);
  return {
    busy,
    cyclesLeft: busy ? div.busyUntil - c : 0,
    owner: busy ? v.inst(div.owner) : null,
    ...(none ? { notModelled: none } : {}),
  };
}

/** Build the snapshot of the core's current state. */
export function snapshotOf(core: Core, program: SimProgram): Snapshot {
  // the waits accounted first: the station's in-flight counts and the recorder's agree
  const state = statsStateOf(core);
  const v = new StationView(core, program);
  const { cp, c } = v;
  const fe = core.frontEnd;
  const { rs, counts, ready, inFlight } = station(v);
  const next = fe.next < core.N ? { ...v.inst(fe.next), uopsLeft: cp.uops[fe.next % cp.n]! - fe.loaded } : null;
  return {
    cycle: c,
    finished: core.finished,
    rs,
    rsUsed: core.scheduler.used,
    rsCapacity: core.scheduler.capacity,
    ports: portSlots(v),
    divider: dividerOf(v),
    ready,
    frontEnd: {
      next,
      loadedThisCycle: c > 0 ? fe.loadedThisCycle : 0,
      ...(cp.refinedIssue || cp.frontEnd !== null || cp.fusedWithNext.includes(1)
        ? refinedFrontEnd(core, program)
        : {}),
    },
    completed: core.scheduler.completed,
    total: core.N,
    stats: statsOf(cp, program, { ...state, lineDone: counts.map((x) => x.done), inFlight }),
    lineCounts: counts,
    ...(core.policy instanceof Queues ? { queues: queuesView(core.policy, c) } : {}),
  };
}

/** the scheduler queues' part of the snapshot */
function queuesView(qs: Queues, c: number): QueuesSnapshot {
  return {
    list: qs.view(),
    stalledOn: c > 0 && qs.stalled >= 0 ? qs.names[qs.stalled]! : null,
    steering: qs.steering,
    unit: qs.unit,
  };
}
