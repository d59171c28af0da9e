// The front end as a unit: µops enter the station in program order. Two implementations behind one
// interface, chosen by the factory (parts.ts): SUACA's (thesis Algorithm 3: up to the issue width
// and the station's free space per cycle, an instruction split across cycles as needed) and the
// refined model's (units/refinedFrontEnd.ts: fused-domain issue, delivery by the decoders, the µop
// cache or the loop stream detector into the IDQ).

import type { CompiledProgram } from '../compiled.js';
import type { Snapshot } from '../types.js';
import type { Scheduler } from './scheduler.js';
import type { Queues } from './queues.js';
import { restoreFields, saveFields, shiftFields, writeFieldsKey } from './state.js';
import type { Fields, KeyAt, KeyWriter, Periods, StatefulUnit } from './state.js';

/** The position every front end keeps. */
export interface FrontEndPosition {
  /** the next instance to load (g = iteration·n + line) */
  next: number;
  /** its µops loaded so far */
  loaded: number;
  /** next % n */
  line: number;
  /** next / n */
  iteration: number;
  /** µops loaded in the last cycle */
  loadedThisCycle: number;
}

/** A front end's saved state: its position and its own fields. */
export type FrontEndState = FrontEndPosition & Record<string, number>;

export interface FrontEnd extends FrontEndPosition, StatefulUnit<FrontEndState> {
  /** instances in the run */
  readonly N: number;
  /** the cycle's loading: µops into the station (rs.enter, rs.loadUops) */
  load(rs: Scheduler): void;
  /** Is instance g at least partially loaded (in the station or beyond)? */
  isLoaded(g: number): boolean;
  /** the furthest instance the front end has reached (steady.ts keeps the skipped periods before
   *  the program's end) */
  frontier(): number;
  /** its part of the snapshot's front end beyond the position (undefined: none) */
  view(cycle: number): Snapshot['frontEnd']['refined'];
}

/** The position's fields (each front end declares them with its own). */
export function positionFields<U extends FrontEndPosition>(): Fields<U, FrontEndPosition> {
  return {
    next: { move: { by: 'instance' }, key: 'fromHead' },
    loaded: { move: 'stays', key: 'value' },
    line: { move: 'stays', key: { omit: 'next % n' } },
    iteration: { move: { by: 'iteration' }, key: { omit: 'next / n' } },
    loadedThisCycle: { move: 'stays', key: { omit: "the snapshot's figure: no later cycle reads it" } },
  };
}

const SUACA_FIELDS = positionFields<SuacaFrontEnd>();

/** SUACA's front end (Algorithm 3). */
export class SuacaFrontEnd implements FrontEnd {
  next = 0;
  loaded = 0;
  line = 0;
  iteration = 0;
  loadedThisCycle = 0;

  /** `queues`: the core's scheduler queues (null: one station); `macroOps`: the width counts
   *  instructions (macro-ops), not µops */
  constructor(
    private readonly cp: CompiledProgram,
    readonly N: number,
    readonly width: number,
    private readonly queues: Queues | null = null,
    private readonly macroOps = false,
  ) {}

  isLoaded(g: number): boolean {
    return g < this.next || (g === this.next && this.loaded > 0);
  }

  frontier(): number {
    return this.next;
  }

  /** µops that may enter the station this cycle */
  limit(rs: Scheduler): number {
    const room = rs.capacity - rs.used;
    return this.width < room ? this.width : room;
  }

  /** Algorithm 3: load µops in program order into the station. */
  load(rs: Scheduler): void {
    if (this.queues !== null) {
      this.loadQueued(rs, this.queues);
      return;
    }
    const cp = this.cp;
    let loadable = this.limit(rs);
    let loadedNow = 0;
    // the position as locals (rs.enter / loadUops do not read the front end), written back below
    let next = this.next,
      line = this.line,
      iteration = this.iteration,
      loaded = this.loaded;
    const N = this.N,
      n = cp.n,
      uops = cp.uops;
    while (next < N) {
      const g = next;
      const i = line;
      const u = uops[i]!;
      if (loaded === 0) {
        if (u > 0 && loadable <= 0) break;
        rs.enter(g, i, iteration);
      }
      // (a comparison, not Math.min: V8 then keeps `loadable` an integer)
      const take = u - loaded < loadable ? u - loaded : loadable;
      loaded += take;
      rs.loadUops(g, loaded, take);
      loadable -= take;
      loadedNow += take;
      if (loaded >= u) {
        next++;
        loaded = 0;
        if (++line === n) {
          line = 0;
          iteration++;
        }
      } else break;
    }
    this.next = next;
    this.line = line;
    this.iteration = iteration;
    this.loaded = loaded;
    this.loadedThisCycle = loadedNow;
  }

  /** Algorithm 3 on a core with scheduler queues: in program order, each µop (each instruction,
   *  with macro-ops) only when the queue it is steered to takes it; the first that does not fit
   *  stops the loading for the cycle. */
  private loadQueued(rs: Scheduler, qs: Queues): void {
    const cp = this.cp;
    qs.newCycle();
    let slots = this.width;
    let loadedNow = 0;
    let next = this.next,
      line = this.line,
      iteration = this.iteration,
      loaded = this.loaded;
    const N = this.N,
      n = cp.n,
      uops = cp.uops,
      macro = this.macroOps;
    outer: while (next < N) {
      const g = next;
      const i = line;
      const u = uops[i]!;
      if (u === 0) rs.enter(g, i, iteration);
      else if (macro) {
        if (slots <= 0 || !qs.take(g, i, 0, u)) break;
        rs.enter(g, i, iteration);
        rs.loadUops(g, u, u);
        slots--;
        loadedNow += u;
      } else
        while (loaded < u) {
          if (slots <= 0 || !qs.take(g, i, loaded, loaded + 1)) break outer;
          if (loaded === 0) rs.enter(g, i, iteration);
          loaded++;
          rs.loadUops(g, loaded, 1);
          slots--;
          loadedNow++;
        }
      next++;
      loaded = 0;
      if (++line === n) {
        line = 0;
        iteration++;
      }
    }
    this.next = next;
    this.line = line;
    this.iteration = iteration;
    this.loaded = loaded;
    this.loadedThisCycle = loadedNow;
  }

  view(): undefined {
    return undefined;
  }

  shift(by: Periods): void {
    shiftFields(this, SUACA_FIELDS, by);
  }
  save(): FrontEndState {
    return saveFields(this, SUACA_FIELDS) as FrontEndState;
  }
  restore(s: FrontEndState): void {
    restoreFields(this, SUACA_FIELDS, s);
  }
  writeKey(at: KeyAt, out: KeyWriter): void {
    writeFieldsKey(this, SUACA_FIELDS, at, out);
  }
}
