// The front end unit (thesis Algorithm 3): µops enter the station in program order, up to the
// issue width and the station's free space per cycle. An instruction may be split across cycles.
// `limit()` is the one place that says how many µops may enter this cycle; a front end with its
// own delivery limits (fused-domain counting, decoders, µop cache, loop stream detector) changes
// `limit()` and what `load` counts, and keeps the rest.

import type { CompiledProgram } from '../compiled.js';
import type { Scheduler } from './scheduler.js';

export interface FrontEndState {
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
  // ---- the refined front end (mechanisms microFusion / frontEnd; unused in SUACA's model) ----
  /** fused-domain µops of `next` issued so far */
  loadedF: number;
  /** delivery position: iteration and group of the plan the next delivery cycle delivers */
  dIter: number;
  dGroup: number;
  /** fused-domain µops in the instruction decode queue (delivered, not issued) */
  idq: number;
  /** fused-domain µops delivered / issued in the last cycle, and the source that delivered
   *  (0 none, SRC_DSB, SRC_MITE, SRC_LSD) */
  deliveredThisCycle: number;
  issuedThisCycle: number;
  source: number;
}

export const SRC_DSB = 1;
export const SRC_MITE = 2;
export const SRC_LSD = 3;

export class FrontEnd implements FrontEndState {
  next = 0;
  loaded = 0;
  line = 0;
  iteration = 0;
  loadedThisCycle = 0;
  loadedF = 0;
  dIter = 0;
  dGroup = 0;
  idq = 0;
  deliveredThisCycle = 0;
  issuedThisCycle = 0;
  source = 0;
  /** the refined front end: fused-domain issue (always), delivery plan (null: none), LSD rule */
  readonly refined: boolean;
  private readonly groupStart: Int32Array;
  private readonly groupFused: Int32Array;
  private readonly groupSrc: Uint8Array;
  private readonly idqSize: number;
  private readonly lsd: boolean;
  /** LSD: iterations per issue run (uiCA's LSD unrolling) */
  readonly lsdUnroll: number;

  constructor(private readonly cp: CompiledProgram, readonly N: number, readonly width: number, deliveryLimits = true) {
    this.refined = cp.refinedIssue;
    const plan = deliveryLimits ? cp.frontEnd?.plan ?? null : null;
    this.lsd = plan?.source === 'LSD';
    this.lsdUnroll = this.lsd ? Math.max(1, plan!.lsdUnroll) : 1;
    const groups = plan === null || this.lsd ? [] : plan.groups;
    this.groupStart = Int32Array.from(groups.map((g) => g.start));
    this.groupFused = Int32Array.from(groups.map((g) => g.fused));
    this.groupSrc = Uint8Array.from(groups.map((g) => (g.source === 'DSB' ? SRC_DSB : SRC_MITE)));
    this.idqSize = plan?.idqSize ?? 0;
    if (this.lsd) this.source = SRC_LSD;
  }

  /** the front end delivers group by group (frontEnd on, a plan that is not the LSD) */
  get delivers(): boolean { return this.groupStart.length > 0; }

  /** the furthest instance the front end has reached: the next to load, or with delivery limits
   *  the next to deliver (steady.ts keeps the skipped periods before the program's end) */
  frontier(): number {
    return this.groupStart.length > 0 ? Math.max(this.next, this.deliveredUpTo()) : this.next;
  }

  /** first instance not delivered yet (all delivered without delivery limits) */
  deliveredUpTo(): number {
    return this.groupStart.length > 0 ? this.dIter * this.cp.n + this.groupStart[this.dGroup]! : this.N;
  }

  /**
   * The refined front end's cycle (mechanisms microFusion / frontEnd; docs/engine.md, "The
   * refined front end"). Issue first: up to `width` fused-domain µops from the IDQ (instances
   * delivered in earlier cycles), in program order, each fused µop only when the station has room
   * for the unfused µops it carries; an instruction's fused µops continue next cycle when the
   * width or the station runs out; a fused-away Jcc (0 µops) enters with its pair, taking no slot.
   * From the LSD issue does not continue past the end of the unrolled loop body (every
   * `lsdUnroll` iterations) in the same cycle. Then
   * delivery: the plan's next group enters the IDQ when it has room (an empty IDQ takes any group).
   */
  loadRefined(rs: Scheduler): void {
    const cp = this.cp;
    const n = cp.n, maxF = cp.maxF, fused = cp.fused, cum = cp.fusedCum;
    let slots = this.width;
    let room = rs.capacity - rs.used;
    const upTo = this.deliveredUpTo();
    let issued = 0, loadedNow = 0;
    // the position as locals (rs.enter / loadUops do not read the front end), written back below
    let next = this.next, line = this.line, iteration = this.iteration, loaded = this.loaded, loadedF = this.loadedF;
    const N = this.N, lsd = this.lsd, lsdUnroll = this.lsdUnroll, uops = cp.uops;
    outer: while (next < N && next < upTo) {
      const g = next;
      const i = line;
      const F = fused[i]!;
      if (lsd && i === 0 && loadedF === 0 && issued > 0 && iteration % lsdUnroll === 0) break;
      if (F === 0) {
        // no fused µop (a fused-away Jcc, an instruction without µops): enters, takes no slot
        rs.enter(g, i, iteration);
        const u = uops[i]!;
        if (u > 0) { loaded = u; rs.loadUops(g, u, u); room -= u; loadedNow += u; }
      } else {
        while (loadedF < F) {
          if (slots <= 0) break outer;
          const after = cum[i * maxF + loadedF]!;
          const take = after - loaded;
          if (take > room) break outer;
          if (loadedF === 0) rs.enter(g, i, iteration);
          loadedF++;
          slots--; issued++;
          room -= take;
          loaded = after;
          rs.loadUops(g, after, take);
          loadedNow += take;
        }
      }
      next++; loaded = 0; loadedF = 0;
      if (++line === n) { line = 0; iteration++; }
    }
    this.next = next; this.line = line; this.iteration = iteration; this.loaded = loaded; this.loadedF = loadedF;
    this.loadedThisCycle = loadedNow;
    this.issuedThisCycle = issued;
    if (this.lsd) this.deliveredThisCycle = issued;    // the LSD streams what issues
    if (this.groupStart.length === 0) return;
    this.idq -= issued;
    // delivery into the IDQ
    this.deliveredThisCycle = 0;
    const gs = this.groupStart;
    if (this.dIter * n + gs[this.dGroup]! >= this.N) { this.source = 0; return; }
    const f = this.groupFused[this.dGroup]!;
    this.source = this.groupSrc[this.dGroup]!;
    if (this.idq > 0 && this.idq + f > this.idqSize) return;     // the IDQ is full: a stall
    this.idq += f;
    this.deliveredThisCycle = f;
    if (++this.dGroup === gs.length) { this.dGroup = 0; this.dIter++; }
  }

  /** Is instance g at least partially loaded (in the station or beyond)? */
  isLoaded(g: number): boolean {
    return g < this.next || (g === this.next && this.loaded > 0);
  }

  /** µops that may enter the station this cycle */
  limit(rs: Scheduler): number {
    const room = rs.capacity - rs.used;
    return this.width < room ? this.width : room;
  }

  /** Algorithm 3: load µops in program order into the station. */
  load(rs: Scheduler): void {
    if (this.refined) { this.loadRefined(rs); return; }   // the refined front end (one boolean per cycle)
    const cp = this.cp;
    let loadable = this.limit(rs);
    let loadedNow = 0;
    // the position as locals (rs.enter / loadUops do not read the front end), written back below
    let next = this.next, line = this.line, iteration = this.iteration, loaded = this.loaded;
    const N = this.N, n = cp.n, uops = cp.uops;
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
        next++; loaded = 0;
        if (++line === n) { line = 0; iteration++; }
      } else break;
    }
    this.next = next; this.line = line; this.iteration = iteration; this.loaded = loaded;
    this.loadedThisCycle = loadedNow;
  }

  /** move forward by dg instances (= dk iterations; steady.ts) */
  shift(dg: number, dk: number): void {
    this.next += dg;
    this.iteration += dk;
    this.dIter += dk;
  }

  save(): FrontEndState {
    return {
      next: this.next, loaded: this.loaded, line: this.line, iteration: this.iteration, loadedThisCycle: this.loadedThisCycle,
      loadedF: this.loadedF, dIter: this.dIter, dGroup: this.dGroup, idq: this.idq,
      deliveredThisCycle: this.deliveredThisCycle, issuedThisCycle: this.issuedThisCycle, source: this.source,
    };
  }

  restore(s: FrontEndState): void {
    this.next = s.next; this.loaded = s.loaded; this.line = s.line; this.iteration = s.iteration; this.loadedThisCycle = s.loadedThisCycle;
    this.loadedF = s.loadedF; this.dIter = s.dIter; this.dGroup = s.dGroup; this.idq = s.idq;
    this.deliveredThisCycle = s.deliveredThisCycle; this.issuedThisCycle = s.issuedThisCycle; this.source = s.source;
  }
}
