// The refined model's front end (mechanisms microFusion / frontEnd; docs/engine.md, "The refined
// front end"): fused-domain µops issue from the IDQ into the station, up to the issue width; with
// the front end mechanism the plan (frontEndPlan.ts) delivers groups of instructions into the IDQ
// from the decoders, the µop cache or the microcode sequencer, or the loop stream detector streams
// the loop.

import type { CompiledProgram } from '../compiled.js';
import type { Snapshot } from '../types.js';
import type { Scheduler } from './scheduler.js';
import type { Queues } from './queues.js';
import { positionFields } from './frontEnd.js';
import type { FrontEnd, FrontEndPosition, FrontEndState } from './frontEnd.js';
import { restoreFields, saveFields, shiftFields, writeFieldsKey } from './state.js';
import type { Fields, KeyAt, KeyWriter, Periods } from './state.js';

const SRC_DSB = 1;
const SRC_MITE = 2;
const SRC_LSD = 3;
const SRC_MS = 4;
const SOURCE = [null, 'DSB', 'MITE', 'LSD', 'MS'] as const;

interface RefinedFrontEndState extends FrontEndPosition {
  /** fused-domain µops of `next` issued so far */
  loadedF: number;
  /** delivery position: iteration and group of the plan the next delivery cycle delivers */
  dIter: number;
  dGroup: number;
  /** fused-domain µops of group `dGroup` already in the IDQ (a group larger than the IDQ enters in
   *  parts; 0 otherwise) */
  dPart: number;
  /** fused-domain µops in the instruction decode queue (delivered, not issued) */
  idq: number;
  /** fused-domain µops delivered / issued in the last cycle, and the source that delivered
   *  (0 none, SRC_DSB, SRC_MITE, SRC_LSD, SRC_MS) */
  deliveredThisCycle: number;
  issuedThisCycle: number;
  source: number;
}

const FIELDS: Fields<RefinedFrontEnd, RefinedFrontEndState> = {
  ...positionFields<RefinedFrontEnd>(),
  // the LSD's place in its unrolled body
  iteration: { move: { by: 'iteration' }, key: (fe, _at, out) => out.put(fe.iteration % fe.lsdUnroll) },
  loadedF: { move: 'stays', key: 'value' },
  // the delivery position relative to head (nothing is delivered without delivery groups)
  dIter: {
    move: (fe, by) => {
      if (fe.delivers) fe.dIter += by.dk;
    },
    key: (fe, at, out) => out.put(fe.delivers ? fe.deliveredUpTo() - at.head : 0),
  },
  dGroup: { move: 'stays', key: 'value' },
  dPart: { move: 'stays', key: 'value' },
  idq: { move: 'stays', key: 'value' },
  deliveredThisCycle: { move: 'stays', key: 'value' },
  issuedThisCycle: { move: 'stays', key: 'value' },
  source: { move: 'stays', key: 'value' },
};

export class RefinedFrontEnd implements FrontEnd, RefinedFrontEndState {
  next = 0;
  loaded = 0;
  line = 0;
  iteration = 0;
  loadedThisCycle = 0;
  loadedF = 0;
  dIter = 0;
  dGroup = 0;
  dPart = 0;
  idq = 0;
  deliveredThisCycle = 0;
  issuedThisCycle = 0;
  source = 0;
  private readonly groupStart: Int32Array;
  private readonly groupFused: Int32Array;
  /** fused µops of the group's first instance delivered by earlier groups (the sequencer's) */
  private readonly groupSkip: Int32Array;
  private readonly groupSrc: Uint8Array;
  /** after the last group delivery goes on with group `repeatFrom`, `period` iterations later */
  private readonly repeatFrom: number;
  private readonly period: number;
  readonly idqSize: number;
  private readonly lsd: boolean;
  /** LSD: iterations per issue run (uiCA's LSD unrolling) */
  readonly lsdUnroll: number;

  /** `deliveryLimits` false: issue only (the perfect front end, or no front end mechanism) */
  constructor(
    private readonly cp: CompiledProgram,
    readonly N: number,
    readonly width: number,
    deliveryLimits: boolean,
    /** the core's scheduler queues (null: one station, whose free space bounds issue) */
    private readonly queues: Queues | null = null,
  ) {
    const plan = deliveryLimits ? (cp.frontEnd?.plan ?? null) : null;
    this.lsd = plan?.source === 'LSD';
    this.lsdUnroll = this.lsd ? Math.max(1, plan!.lsdUnroll) : 1;
    const groups = plan === null || this.lsd ? [] : plan.groups;
    this.groupStart = Int32Array.from(groups.map((g) => g.start));
    this.groupFused = Int32Array.from(groups.map((g) => g.fused));
    this.groupSkip = Int32Array.from(groups.map((g) => g.skip ?? 0));
    this.groupSrc = Uint8Array.from(
      groups.map((g) => (g.source === 'DSB' ? SRC_DSB : g.source === 'MS' ? SRC_MS : SRC_MITE)),
    );
    this.repeatFrom = plan?.repeatFrom ?? 0;
    this.period = plan?.period ?? 1;
    this.idqSize = plan?.idqSize ?? 0;
    if (this.lsd) this.source = SRC_LSD;
  }

  /** the front end delivers group by group (frontEnd on, a plan that is not the LSD) */
  get delivers(): boolean {
    return this.groupStart.length > 0;
  }

  frontier(): number {
    return this.groupStart.length > 0 ? Math.max(this.next, this.deliveredUpTo()) : this.next;
  }

  /** first instance not delivered in full yet (all delivered without delivery limits) */
  deliveredUpTo(): number {
    if (this.groupStart.length === 0) return this.N;
    const fused = this.cp.fused,
      n = this.cp.n;
    let line = this.groupStart[this.dGroup]!;
    let rest = this.dPart + this.groupSkip[this.dGroup]!;
    while (rest > 0 && fused[line % n]! <= rest) rest -= fused[line++ % n]!;
    return this.dIter * this.cp.n + line;
  }

  /** fused-domain µops of instance deliveredUpTo() already in the IDQ (a group larger than the IDQ
   *  enters in parts, and its instance issues as far as it has been delivered) */
  private partDelivered(): number {
    const fused = this.cp.fused,
      n = this.cp.n;
    let line = this.groupStart[this.dGroup]!;
    let rest = this.dPart + this.groupSkip[this.dGroup]!;
    while (rest > 0 && fused[line % n]! <= rest) rest -= fused[line++ % n]!;
    return rest;
  }

  isLoaded(g: number): boolean {
    return g < this.next || (g === this.next && this.loaded > 0);
  }

  /** The cycle: issue from the IDQ, then delivery into it. */
  load(rs: Scheduler): void {
    if (this.queues !== null) this.queues.newCycle();
    const issued = this.issue(rs);
    if (this.lsd) this.deliveredThisCycle = issued; // the LSD streams what issues
    if (this.groupStart.length > 0) this.deliver(issued);
  }

  /**
   * Issue: up to `width` fused-domain µops from the IDQ (instances delivered in earlier cycles), in
   * program order, each fused µop only when the station has room for the unfused µops it carries;
   * an instruction's fused µops continue next cycle when the width or the station runs out; a
   * fused-away Jcc (0 µops) enters with its pair, taking no slot. From the LSD issue does not
   * continue past the end of the unrolled loop body (every `lsdUnroll` iterations) in the same
   * cycle. Returns the fused µops issued.
   */
  private issue(rs: Scheduler): number {
    const cp = this.cp;
    const n = cp.n,
      maxF = cp.maxF,
      fused = cp.fused,
      cum = cp.fusedCum;
    let slots = this.width;
    let room = rs.capacity - rs.used;
    // with scheduler queues each µop needs room in the queue it is steered to instead
    const qs = this.queues;
    const upTo = this.deliveredUpTo();
    const partF = this.dPart > 0 || (this.groupSkip[this.dGroup] ?? 0) > 0 ? this.partDelivered() : 0;
    let issued = 0,
      loadedNow = 0;
    // the position as locals (rs.enter / loadUops do not read the front end), written back below
    let next = this.next,
      line = this.line,
      iteration = this.iteration,
      loaded = this.loaded,
      loadedF = this.loadedF;
    const N = this.N,
      lsd = this.lsd,
      lsdUnroll = this.lsdUnroll,
      uops = cp.uops;
    outer: while (next < N && (next < upTo || (next === upTo && loadedF < partF))) {
      const g = next;
      const i = line;
      const F = fused[i]!;
      if (lsd && i === 0 && loadedF === 0 && issued > 0 && iteration % lsdUnroll === 0) break;
      if (F === 0) {
        // no fused µop (a fused-away Jcc, an instruction without µops): enters, takes no slot
        const u = uops[i]!;
        if (qs !== null && u > 0 && !qs.take(g, i, 0, u)) break;
        rs.enter(g, i, iteration);
        if (u > 0) {
          loaded = u;
          rs.loadUops(g, u, u);
          room -= u;
          loadedNow += u;
        }
      } else {
        while (loadedF < F) {
          if (slots <= 0 || (next === upTo && loadedF >= partF)) break outer;
          const after = cum[i * maxF + loadedF]!;
          const take = after - loaded;
          if (qs === null ? take > room : !qs.take(g, i, loaded, after)) break outer;
          if (loadedF === 0) rs.enter(g, i, iteration);
          loadedF++;
          slots--;
          issued++;
          room -= take;
          loaded = after;
          rs.loadUops(g, after, take);
          loadedNow += take;
        }
      }
      next++;
      loaded = 0;
      loadedF = 0;
      if (++line === n) {
        line = 0;
        iteration++;
      }
    }
    this.next = next;
    this.line = line;
    this.iteration = iteration;
    this.loaded = loaded;
    this.loadedF = loadedF;
    this.loadedThisCycle = loadedNow;
    this.issuedThisCycle = issued;
    return issued;
  }

  /**
   * Delivery: the plan's next group enters the IDQ when it fits; a group larger than the IDQ (a
   * microcoded instruction's µops) enters in parts, each as large as the IDQ has room for, its rest
   * once that fits. The IDQ never holds more than its size.
   */
  private deliver(issued: number): void {
    const n = this.cp.n;
    this.idq -= issued;
    this.deliveredThisCycle = 0;
    const gs = this.groupStart;
    if (this.dIter * n + gs[this.dGroup]! >= this.N) {
      this.source = 0;
      return;
    }
    const f = this.groupFused[this.dGroup]!;
    this.source = this.groupSrc[this.dGroup]!;
    const rest = f - this.dPart;
    let take = rest;
    if (this.idq + rest > this.idqSize) {
      if (rest <= this.idqSize) return; // the IDQ is full: a stall
      take = this.idqSize - this.idq;
      if (take <= 0) return;
    }
    this.idq += take;
    this.deliveredThisCycle = take;
    this.dPart += take;
    if (this.dPart < f) return;
    this.dPart = 0;
    if (++this.dGroup === gs.length) {
      this.dGroup = this.repeatFrom;
      this.dIter += this.period;
    }
  }

  view(cycle: number): Snapshot['frontEnd']['refined'] {
    const delivers = this.delivers;
    return {
      source: cycle > 0 ? (SOURCE[this.source] ?? null) : null,
      delivered: cycle > 0 ? this.deliveredThisCycle : 0,
      issued: cycle > 0 ? this.issuedThisCycle : 0,
      idq: delivers ? this.idq : null,
      idqSize: delivers ? this.idqSize : null,
    };
  }

  shift(by: Periods): void {
    shiftFields(this, FIELDS, by);
  }
  save(): FrontEndState {
    return saveFields(this, FIELDS) as unknown as FrontEndState;
  }
  restore(s: FrontEndState): void {
    restoreFields(this, FIELDS, s as unknown as RefinedFrontEndState);
  }
  writeKey(at: KeyAt, out: KeyWriter): void {
    writeFieldsKey(this, FIELDS, at, out);
  }
}
