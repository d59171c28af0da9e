// The refined front end's delivery plan (mechanism `frontEnd`): which source delivers
// the loop — the loop stream detector (LSD), the µop cache (DSB) or the legacy decoders (MITE),
// with the microcode sequencer (MS) for a microcoded instruction's µops where a figure splits
// them — and which instructions each source delivers per front-end cycle, computed once per program from
// the instructions' front-end facts (src/data/refinedFacts.ts) and the core's figures
// (MachineParams.frontEnd, from the core's record). Static and deterministic: the same loop gives the same groups every
// iteration. docs/engine.md, "The refined front end", states the rules and their sources.

import { SRC } from '../data/refinedFacts.js';
import type { CoreFrontEnd } from '../data/refinedFacts.js';
import type { MachineParams, SimInstruction, SimProgram } from './types.js';

type FrontEndSource = 'DSB' | 'MITE' | 'LSD' | 'MS';

/** Instances [start, end) delivered in one front-end cycle, counted from the plan's first instance
 *  (iteration 0, line 0; a group may run past the loop's end into the next iteration); may be
 *  empty: a cycle in which the legacy decoders wait for fetched bytes, or a switch to or from the
 *  microcode sequencer. */
interface DeliveryGroup {
  start: number;
  end: number;
  /** fused-domain µops of instance `start` that earlier groups delivered (the microcode
   *  sequencer delivers an instruction's µops after its decoder's, over several cycles) */
  skip?: number;
  /** fused-domain µops delivered */
  fused: number;
  source: FrontEndSource;
}

/** A figure the front end applied, with its source. */
interface FrontEndLimit {
  limit: string;
  value: number | boolean | string;
  source: string;
}

interface FrontEndPlan {
  /** the loop's source: the LSD, the µop cache, the legacy decoders, or both of the last two */
  source: 'LSD' | 'DSB' | 'MITE' | 'DSB+MITE';
  /** in order from iteration 0 (empty for the LSD: it streams from the IDQ); after the last,
   *  delivery goes on with group `repeatFrom`, `period` iterations later */
  groups: DeliveryGroup[];
  repeatFrom: number;
  period: number;
  /** fused-domain µops the IDQ holds */
  idqSize: number;
  /** LSD: iterations unrolled in the loop buffer (issue stops at the end of the unrolled body) */
  lsdUnroll: number;
}

/** What the front end applies on this program and core: its plan (null: no delivery limits) and
 *  every limit applied or not, with the reason. */
export interface FrontEndLimits {
  plan: FrontEndPlan | null;
  applied: FrontEndLimit[];
  notApplied: { limit: string; why: string }[];
}

/** An instruction, or a macro-fused pair, as the front end delivers it: lines [start, end). */
interface Unit {
  start: number;
  end: number;
  fused: number;
  /** its first byte's address, the address after its last byte, and its 32-byte window */
  addr: number;
  endAddr: number;
  window: number;
  /** needs the complex decoder (more than one fused-domain µop) */
  complex: boolean;
  /** a flag-setting instruction that can fuse with a following Jcc on this core */
  fusible: boolean;
  /** fused-domain µops the microcode sequencer delivers after the unit's others (0: none, or no
   *  figure splits them: then all are the decoder's) */
  ms: number;
}

/** The microcode sequencer's figures from the core's record. */
interface Sequencer {
  /** µops per cycle */
  width: number;
  /** cycles without delivery on a switch from the µop cache to the sequencer */
  dsbStall: number;
  /** cycles without delivery on a switch from the legacy decoders, and again on the way back */
  miteStall: number;
}

/**
 * The delivery plan of `program` on `machine`; `fused` is each line's fused-domain µop count as
 * issued (after macro- and micro-fusion as switched), `pairFirst[i]` = 1 when line i is the first
 * half of a macro-fused pair (the Jcc i+1 is delivered with it).
 */
export function frontEndPlan(
  program: SimProgram,
  machine: MachineParams,
  fused: Int32Array,
  pairFirst: Uint8Array,
): FrontEndLimits {
  const ins = program.instructions;
  const n = ins.length;
  const limits: FrontEndLimits = { plan: null, applied: [], notApplied: [] };
  const none = (why: string): FrontEndLimits => {
    limits.notApplied.push({ limit: 'delivery (LSD, µop cache, legacy decoders)', why });
    return limits;
  };
  if (n === 0 || ins.some((x) => x.refined === undefined))
    return none('the program has no front-end facts (built without the machine model)');
  const fe = machine.frontEnd;
  if (fe === undefined) return none(`no front-end figures in ${machine.arch}'s machine model`);
  if (fe.notModelled) return none(fe.notModelled);
  limits.applied.push({ limit: 'issue width (fused domain)', value: machine.issueWidth, source: fe.issueWidth.source });
  if (fe.idqSize === null) return none(`no citable size of ${machine.arch}'s instruction decode queue`);
  const idq = fe.idqSize.value;
  limits.applied.push({ limit: 'instruction decode queue (µops)', value: idq, source: fe.idqSize.source });
  let total = 0;
  for (let i = 0; i < n; i++) total += fused[i]!;
  const units = deliveryUnits(ins, fused, pairFirst);
  const ms = sequencer(fe, machine.arch, ins, units, limits);
  const uncached = uncachedWindows(fe, ins, units, limits);
  const someMs = ms !== null && units.some((u) => u.ms > 0);
  const unroll = lsdUnroll(fe, machine.arch, total, idq, uncached.size > 0, someMs, limits);
  if (unroll !== null) {
    limits.plan = { source: 'LSD', groups: [], repeatFrom: 0, period: 1, idqSize: idq, lsdUnroll: unroll };
    return limits;
  }
  const why = decoderFigures(fe, machine.arch, units, uncached, limits);
  if (why !== null) return none(why);
  const blocks = uncached.size === 0 ? dsbBlockDelivery(ins, fe, units, ms, limits) : null;
  if (blocks !== null) {
    limits.plan = { source: 'DSB', ...blocks, idqSize: idq, lsdUnroll: 1 };
    return limits;
  }
  const groups = deliveryGroups(ins, fe, units, uncached, ms);
  const kinds = new Set(groups.map((g) => g.source).filter((x) => x !== 'MS'));
  const source = kinds.size === 2 ? 'DSB+MITE' : kinds.has('MITE') ? 'MITE' : 'DSB';
  limits.plan = { source, groups, repeatFrom: 0, period: 1, idqSize: idq, lsdUnroll: 1 };
  return limits;
}

/** The loop's delivery units, in order: an instruction, or a macro-fused pair (delivered and
 *  decoded together). */
function deliveryUnits(ins: SimInstruction[], fused: Int32Array, pairFirst: Uint8Array): Unit[] {
  const n = ins.length;
  const units: Unit[] = [];
  for (let i = 0; i < n; i++) {
    const f = ins[i]!.refined!.frontEnd;
    const j = pairFirst[i] && i + 1 < n ? i + 1 : i;
    const g = ins[j]!.refined!.frontEnd;
    units.push({
      start: i,
      end: j + 1,
      fused: fused[i]! + (j > i ? fused[j]! : 0),
      addr: f.address,
      endAddr: g.address + g.length,
      window: Math.floor(f.address / 32),
      complex: f.complexDecoder,
      fusible: ins[i]!.refined!.macroFusion.firstHalf,
      ms: 0,
    });
    i = j;
  }
  return units;
}

/**
 * The microcode sequencer: each unit's µops from it (`Unit.ms`: uops.info's uops_MS for the
 * form, at most all but one of its fused µops: uiCA takes at least one from the decoder), and the
 * core's figures; null when the core's record has none. A microcoded instruction (more than 4
 * fused µops) that no figure splits is named in `notApplied`: its µops enter as the decoder's.
 */
function sequencer(
  fe: CoreFrontEnd,
  arch: string,
  ins: SimInstruction[],
  units: Unit[],
  limits: FrontEndLimits,
): Sequencer | null {
  const split: Unit[] = [];
  for (const u of units) {
    const f = ins[u.start]!.refined!.frontEnd;
    if (!f.microcodeSequencer || u.end - u.start !== 1) continue;
    const x = ins[u.start]!;
    if (f.msUops === undefined) {
      limits.notApplied.push({
        limit: `microcode sequencer for line ${x.line} (${x.asm})`,
        why: `no figure splits its ${u.fused} fused µops between the decoders and the sequencer (uops.info's uops_MS is not in its figures): they enter as the decoders' µops`,
      });
    } else split.push(u);
  }
  if (split.length === 0) return null;
  const { msWidth: w, dsbMsStall: dsb, miteMsStall: mite } = fe;
  if (!w || !dsb || !mite) {
    limits.notApplied.push({
      limit: 'microcode sequencer',
      why: `no citable delivery rate or switch stalls for ${arch}: its µops enter as the decoders' µops`,
    });
    return null;
  }
  for (const u of split) u.ms = Math.min(ins[u.start]!.refined!.frontEnd.msUops!, u.fused - 1);
  limits.applied.push({ limit: 'microcode sequencer µops per cycle', value: w.value, source: w.source });
  limits.applied.push({ limit: 'µop cache to microcode sequencer stall cycles', value: dsb.value, source: dsb.source });
  limits.applied.push({
    limit: 'legacy decoders to microcode sequencer stall cycles (and back)',
    value: mite.value,
    source: mite.source,
  });
  return { width: w.value, dsbStall: dsb.value, miteStall: mite.value };
}

/** The groups of a switch to the microcode sequencer for the instance at `at` (counted from the
 *  plan's first), whose first `dec` fused µops its decoder or µop-cache entry delivered:
 *  `before` cycles without delivery, its `ms` µops `width` per cycle, `after` cycles without
 *  delivery (uiCA MicrocodeSequencer.cycle). */
function sequencerGroups(
  groups: DeliveryGroup[],
  at: number,
  dec: number,
  ms: number,
  width: number,
  before: number,
  after: number,
): void {
  for (let k = 0; k < before; k++) groups.push({ start: at, end: at, skip: dec, fused: 0, source: 'MS' });
  for (let d = 0; d < ms; d += width) {
    const f = Math.min(width, ms - d);
    groups.push({ start: at, end: d + f === ms ? at + 1 : at, skip: dec + d, fused: f, source: 'MS' });
  }
  for (let k = 0; k < after; k++) groups.push({ start: at + 1, end: at + 1, fused: 0, source: 'MS' });
}

/** The 32-byte windows the µop cache does not hold: the JCC erratum (a jump or fused pair crossing
 *  or ending on a 32-byte boundary) and, where uiCA says so, the other half of its 64-byte line. */
function uncachedWindows(fe: CoreFrontEnd, ins: SimInstruction[], units: Unit[], limits: FrontEndLimits): Set<number> {
  const uncached = new Set<number>();
  if (!fe.jccErratum.value) return uncached;
  for (const u of units) {
    if (ins[u.end - 1]!.refined!.frontEnd.jccErratumApplies) uncached.add(u.window);
  }
  limits.applied.push({
    limit: 'JCC erratum (jumps crossing or ending on a 32-byte boundary not cached)',
    value: uncached.size > 0,
    source: fe.jccErratum.source,
  });
  if (uncached.size > 0 && fe.both32ByteBlocksMustBeCacheable?.value) {
    for (const w of [...uncached]) uncached.add(w ^ 1);
    limits.applied.push({
      limit: 'both 32-byte halves of a 64-byte line must be cacheable',
      value: true,
      source: fe.both32ByteBlocksMustBeCacheable.source,
    });
  }
  return uncached;
}

/** The loop stream detector streams the loop when the core has one, all the loop's windows are
 *  cacheable and its `total` fused µops fit the IDQ: then the iterations it unrolls, else null. */
function lsdUnroll(
  fe: CoreFrontEnd,
  arch: string,
  total: number,
  idq: number,
  someUncached: boolean,
  someMs: boolean,
  limits: FrontEndLimits,
): number | null {
  const { applied, notApplied } = limits;
  if (fe.lsd === null) {
    notApplied.push({ limit: 'loop stream detector', why: `no citable figure for ${arch}` });
    return null;
  }
  if (!fe.lsd.value || total > idq || someUncached || someMs) {
    applied.push({
      limit: 'loop stream detector',
      source: `${fe.lsd.source}; ${SRC.uicaLsdRule}${fe.lsd.value && total <= idq && !someUncached ? `; ${SRC.uicaLsdMs}` : ''}`,
      value: !fe.lsd.value
        ? 'off on this core'
        : total > idq
          ? `the loop's ${total} fused µops exceed the IDQ (${idq})`
          : someUncached
            ? 'not used: part of the loop cannot be cached'
            : 'not used: the microcode sequencer delivers part of the loop',
    });
    return null;
  }
  const unroll = fe.lsdUnrolling?.value[total] ?? 1;
  applied.push({
    limit: 'loop stream detector',
    value: `on; the loop's ${total} fused µops fit the IDQ (${idq})`,
    source: `${fe.lsd.source}; ${SRC.uicaLsdRule}`,
  });
  if (fe.lsdUnrolling !== null)
    applied.push({ limit: 'LSD unrolling (iterations per issue run)', value: unroll, source: fe.lsdUnrolling.source });
  else notApplied.push({ limit: 'LSD unrolling', why: `no citable figure for ${arch}: one iteration per issue run` });
  return unroll;
}

/** The µop cache's and the legacy decoders' figures the delivery needs, recorded in `limits`;
 *  without a µop cache width every window is decoded (added to `uncached`). Returns why the loop
 *  cannot be planned (a source it needs has no citable figure), or null. */
function decoderFigures(
  fe: CoreFrontEnd,
  arch: string,
  units: Unit[],
  uncached: Set<number>,
  limits: FrontEndLimits,
): string | null {
  const { applied, notApplied } = limits;
  const dsb = fe.dsbWidth,
    dec = fe.decoders,
    fetch = fe.fetchBytes;
  const miteKnown = dec !== null && fetch !== null;
  if (dsb === null) {
    if (!miteKnown) return `no citable µop cache width nor legacy decoder figures for ${arch}`;
    notApplied.push({
      limit: 'µop cache (DSB)',
      why: `no citable µop cache width for ${arch}: the legacy decoders deliver`,
    });
    for (const u of units) uncached.add(u.window);
  } else applied.push({ limit: 'µop cache µops per cycle', value: dsb.value, source: dsb.source });
  if (uncached.size === 0) return null;
  if (!miteKnown)
    return `the legacy decoders deliver part of the loop, but ${arch} has no citable decoder or fetch figure`;
  applied.push({ limit: 'legacy decoders', value: dec.value, source: dec.source });
  applied.push({ limit: 'legacy decode fetch bytes per cycle', value: fetch.value, source: fetch.source });
  const last = fe.macroFusibleOnLastDecoder;
  if (last !== null)
    applied.push({ limit: 'macro-fusible instruction on the last decoder', value: last.value, source: last.source });
  else
    notApplied.push({ limit: 'macro-fusible instruction on the last decoder', why: `no citable figure for ${arch}` });
  return null;
}

/** The delivery groups of one iteration: each unit from the µop cache, or from the legacy
 *  decoders when its window is not cached. */
function deliveryGroups(
  ins: SimInstruction[],
  fe: CoreFrontEnd,
  units: Unit[],
  uncached: Set<number>,
  ms: Sequencer | null,
): DeliveryGroup[] {
  const delivery = new Delivery(ins, fe, ms);
  let prevEnd = -1;
  for (const u of units) {
    // a taken jump (the address does not continue) ends the cycle's delivery
    const jump = prevEnd >= 0 && u.addr !== prevEnd;
    prevEnd = u.endAddr;
    if (uncached.has(u.window)) delivery.decode(u, jump);
    else delivery.fromCache(u, jump);
    if (u.ms > 0) delivery.sequencer(u, uncached.has(u.window));
  }
  delivery.close();
  return delivery.groups;
}

/** Delivery groups built one unit at a time: the group of the current front-end cycle, and the
 *  legacy decoders' state in that cycle. Figures the caller checked: the µop cache width for
 *  cached units, the decoders and fetch bytes for decoded ones. */
class Delivery {
  readonly groups: DeliveryGroup[] = [];
  private cur: DeliveryGroup | null = null;
  /** MITE: decoders used in the current cycle */
  private slots = 0;
  /** MITE: end of the bytes fetched up to the current cycle */
  private fetched = 0;
  /** MITE: the microcode sequencer ended the last cycle; the bytes fetched stay fetched */
  private afterMs = false;
  private readonly lastDecoderOk: boolean;

  constructor(
    private readonly ins: SimInstruction[],
    private readonly fe: CoreFrontEnd,
    private readonly ms: Sequencer | null,
  ) {
    this.lastDecoderOk = fe.macroFusibleOnLastDecoder?.value ?? true;
  }

  /** `u`'s decoder or µop-cache µops ended the cycle's group: the sequencer delivers the rest, the
   *  switch's stalls around them (from the legacy decoders: before and after; from the µop cache:
   *  before); the next unit starts a new cycle. */
  sequencer(u: Unit, decoded: boolean): void {
    const s = this.ms!;
    this.close();
    this.afterMs = decoded;
    sequencerGroups(
      this.groups,
      u.start,
      u.fused - u.ms,
      u.ms,
      s.width,
      decoded ? s.miteStall : s.dsbStall,
      decoded ? s.miteStall : 0,
    );
  }

  /** The current cycle's group is complete. */
  close(): void {
    if (this.cur !== null) this.groups.push(this.cur);
    this.cur = null;
  }

  /** The µop cache delivers `u`: with the cycle's group while that group comes from the cache, from
   *  the same 32-byte window, and stays within the cache's µops per cycle. */
  fromCache(u: Unit, jump: boolean): void {
    const c = this.cur;
    this.afterMs = false;
    if (
      c === null ||
      jump ||
      c.source !== 'DSB' ||
      Math.floor(this.ins[c.start]!.refined!.frontEnd.address / 32) !== u.window ||
      c.fused + u.fused - u.ms > this.fe.dsbWidth!.value
    ) {
      this.close();
      this.cur = { start: u.start, end: u.end, fused: u.fused - u.ms, source: 'DSB' };
    } else {
      c.end = u.end;
      c.fused += u.fused - u.ms;
    }
  }

  /** The legacy decoders decode `u`, in the first cycle that has its bytes fetched and a decoder
   *  it may use. */
  decode(u: Unit, jump: boolean): void {
    const fb = this.fe.fetchBytes!.value,
      nd = this.fe.decoders!.value;
    let c = this.cur;
    if (c?.source !== 'MITE' || jump) {
      this.close();
      if (jump || !this.afterMs) this.fetched = Math.floor(u.addr / fb) * fb + fb;
      c = this.cur = { start: u.start, end: u.start, fused: 0, source: 'MITE' };
      this.slots = 0;
    }
    this.afterMs = false;
    // next cycle while the bytes are not fetched yet, the decoders are used up, a complex
    // instruction finds the complex decoder taken, or a macro-fusible one would be on the last
    while (
      u.endAddr > this.fetched ||
      this.slots >= nd ||
      (u.complex && this.slots > 0) ||
      (!this.lastDecoderOk && u.fusible && this.slots === nd - 1)
    ) {
      this.groups.push(c);
      c = this.cur = { start: c.end, end: c.end, fused: 0, source: 'MITE' };
      this.slots = 0;
      this.fetched += fb;
    }
    c.end = u.end;
    c.fused += u.fused - u.ms;
    this.slots++;
  }
}

/** Entries of a µop-cache block (way), and of a 32-byte window (uiCA getDSBBlocks; Agner Fog's
 *  microarchitecture guide §9.3: a way holds 6 µops, a 32-byte window up to 3 ways). */
const DSB_BLOCK_ENTRIES = 6;

/** A µop-cache block (way): the units it holds, from one 32-byte window. */
interface DsbBlock {
  units: Unit[];
  window: number;
  /** its last unit comes from the microcode sequencer (a second block of a cycle may not) */
  endsInMs: boolean;
}

/** µop-cache entries of a unit: one per fused µop (at least one; a macro-fused pair one), one more
 *  for a large immediate (`dsbExtraEntry`). */
function dsbEntries(ins: SimInstruction[], u: Unit): number {
  return Math.max(1, u.fused - u.ms) + (ins[u.start]!.refined!.frontEnd.dsbExtraEntry ? 1 : 0);
}

/** The loop's µop-cache blocks in order: each window's units packed into ways of 6 entries, a
 *  microcoded one a way of its own (uiCA getDSBBlocks). */
function dsbBlocks(ins: SimInstruction[], units: Unit[]): DsbBlock[] {
  const blocks: DsbBlock[] = [];
  let left = 0;
  let cur: DsbBlock | null = null;
  for (const u of units) {
    const ms = ins[u.start]!.refined!.frontEnd.microcodeSequencer;
    const entries = dsbEntries(ins, u);
    if (cur === null || cur.window !== u.window || ms || entries > left) {
      cur = { units: [], window: u.window, endsInMs: false };
      blocks.push(cur);
      left = DSB_BLOCK_ENTRIES;
    }
    cur.units.push(u);
    left = ms ? 0 : left - entries;
    cur.endsInMs = ms;
  }
  return blocks;
}

/** The slots a cycle has left when `block` ends with `slots` left (uiCA DSB.cycle, 6-wide µop
 *  caches): none when `next` is in the same window and the block ended the loop (unless the cycle
 *  was `delayed` by a large immediate); into another window, 4 after 1–2 entries taken, 2 after
 *  3–4, 1 after 5 when the cycle began at this block's start (`fresh`), else at the loop's end 4
 *  after one entry (or two ending at the block's fifth entry or later) and at most 2 otherwise. */
function slotsAfterBlock(
  slots: number,
  block: DsbBlock,
  next: DsbBlock,
  c: { ends: boolean; delayed: boolean; fresh: boolean; taken: number },
): number {
  const { ends, taken } = c;
  if (next.window === block.window) return ends && !c.delayed ? 0 : slots;
  if (c.fresh) return taken <= 2 ? 4 : taken <= 4 ? 2 : taken === 5 ? 1 : slots;
  if (!ends) return slots;
  const slot = block.units.reduce((s, x) => s + Math.max(1, x.fused), 0) - 1;
  return taken === 1 || (taken === 2 && slot >= 4) ? 4 : Math.min(slots, 2);
}

/**
 * The µop cache's delivery where the core's record gives uiCA's block rule (`dsbTwoBlocks`) and
 * the whole loop is cached: per cycle up to `dsbWidth` entries, from the block where the last
 * cycle stopped and at most one more block (the next in address order, or, after the loop's last
 * instruction, the loop's first block); when a block ends with slots left, uiCA's DSB.cycle sets
 * them: none when the next block is the same 32-byte window and the block ended the loop; when the
 * next block is another window, 4 after 1–2 entries delivered, 2 after 3–4, 1 after 5 if the cycle
 * began at the block's start, else, at the loop's end, 4 after one entry (or two ending at the
 * block's fifth entry or later) and at most 2 otherwise. An instruction with a large immediate
 * (two entries) ends the cycle, and in the next the back edge into the same window does not. An
 * instruction is not split between cycles (uiCA splits a multi-µop one). The cycles repeat once a cycle starts where an earlier
 * one started: `repeatFrom` and `period`. Null when the rule is not given (then one window per
 * cycle, deliveryGroups).
 */
function dsbBlockDelivery(
  ins: SimInstruction[],
  fe: CoreFrontEnd,
  units: Unit[],
  ms: Sequencer | null,
  limits: FrontEndLimits,
): Pick<FrontEndPlan, 'groups' | 'repeatFrom' | 'period'> | null {
  const rule = fe.dsbTwoBlocks;
  if (!rule?.value || fe.dsbWidth === null) return null;
  const n = ins.length;
  const blocks = dsbBlocks(ins, units);
  const width = fe.dsbWidth.value;
  const lastUnit = units[units.length - 1]!;
  const groups: DeliveryGroup[] = [];
  /** cycle-start position and delay ((block * 64 + unit in block) * 2 + delay) → [group index,
   *  iteration] */
  const seen = new Map<number, [number, number]>();
  let b = 0,
    k = 0,
    it = 0,
    delay = false;
  for (;;) {
    const key = (b * 64 + k) * 2 + (delay ? 1 : 0);
    const was = seen.get(key);
    if (was !== undefined) {
      limits.applied.push({ limit: 'µop cache blocks per cycle', value: 2, source: rule.source });
      return { groups, repeatFrom: was[0], period: it - was[1] };
    }
    seen.set(key, [groups.length, it]);
    const at = it * n + blocks[b]!.units[k]!.start;
    const g: DeliveryGroup = { start: at, end: at, fused: 0, source: 'DSB' };
    const freshStart = k === 0;
    const delayed = delay;
    delay = false;
    let slots = width,
      taken = 0,
      second = false;
    /** the unit whose µops the microcode sequencer delivers after this cycle, and its instance */
    let toMs: [Unit, number] | null = null;
    for (;;) {
      const block = blocks[b]!;
      const u = block.units[k]!;
      const f = ins[u.start]!.refined!.frontEnd;
      const entries = dsbEntries(ins, u);
      if (entries > slots && g.end > g.start) break;
      g.end = it * n + u.end;
      g.fused += u.fused - u.ms;
      taken += Math.max(1, u.fused - u.ms);
      if (u.ms > 0) toMs = [u, it * n + u.start];
      slots = f.microcodeSequencer ? 0 : slots - entries;
      if (f.dsbExtraEntry) {
        slots = 0;
        delay = true;
      }
      if (++k < block.units.length) {
        if (slots <= 0 || block.units[k]!.addr !== u.endAddr) break;
        continue;
      }
      // the block ends: the next one, in the next iteration after the loop's last block
      const ends = u === lastUnit;
      k = 0;
      if (++b === blocks.length) {
        b = 0;
        it++;
      }
      const next = blocks[b]!;
      if (slots > 0 && width === DSB_BLOCK_ENTRIES)
        slots = slotsAfterBlock(slots, block, next, { ends, delayed, fresh: freshStart && !second, taken });
      if (slots <= 0 || second || next.endsInMs) break;
      if (!ends && next.units[0]!.addr !== u.endAddr) break;
      second = true;
    }
    groups.push(g);
    if (toMs !== null) {
      const [x, at] = toMs;
      sequencerGroups(groups, at, x.fused - x.ms, x.ms, ms!.width, ms!.dsbStall, 0);
    }
  }
}
