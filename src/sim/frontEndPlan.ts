// The refined front end's delivery plan (mechanism `frontEnd`): which source delivers
// the loop — the loop stream detector (LSD), the µop cache (DSB) or the legacy decoders (MITE) —
// and which instructions each source delivers per front-end cycle, computed once per program from
// the instructions' front-end facts (src/data/refinedFacts.ts) and the core's figures
// (MachineParams.frontEnd, from the core's record). Static and deterministic: the same loop gives the same groups every
// iteration. docs/engine.md, "The refined front end", states the rules and their sources.

import { SRC } from '../data/refinedFacts.js';
import type { MachineParams, SimProgram } from './types.js';

type FrontEndSource = 'DSB' | 'MITE' | 'LSD';

/** Instructions [start, end) of one iteration delivered in one front-end cycle (may be empty: a
 *  cycle in which the legacy decoders wait for fetched bytes). */
interface DeliveryGroup {
  start: number;
  end: number;
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
  /** per iteration, in order (empty for the LSD: it streams from the IDQ) */
  groups: DeliveryGroup[];
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

interface Unit {
  start: number;
  end: number;
  fused: number;
  addr: number;
  endAddr: number;
  window: number;
  complex: boolean;
  fusible: boolean;
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
  const applied: FrontEndLimit[] = [];
  const notApplied: { limit: string; why: string }[] = [];
  const none = (why: string): FrontEndLimits => {
    notApplied.push({ limit: 'delivery (LSD, µop cache, legacy decoders)', why });
    return { plan: null, applied, notApplied };
  };
  if (n === 0 || ins.some((x) => x.refined === undefined))
    return none('the program has no front-end facts (built without the machine model)');
  const fe = machine.frontEnd;
  if (fe === undefined) return none(`no front-end figures in ${machine.arch}'s machine model`);
  if (fe.notModelled) return none(fe.notModelled);
  applied.push({ limit: 'issue width (fused domain)', value: machine.issueWidth, source: fe.issueWidth.source });
  if (fe.idqSize === null) return none(`no citable size of ${machine.arch}'s instruction decode queue`);
  const idq = fe.idqSize.value;
  applied.push({ limit: 'instruction decode queue (µops)', value: idq, source: fe.idqSize.source });
  let total = 0;
  for (let i = 0; i < n; i++) total += fused[i]!;
  // units: an instruction, or a macro-fused pair (delivered and decoded together)
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
    });
    i = j;
  }
  // 32-byte windows the µop cache does not hold: the JCC erratum (a jump or fused pair crossing or
  // ending on a 32-byte boundary) and, where uiCA says so, the other half of its 64-byte line
  const uncached = new Set<number>();
  if (fe.jccErratum.value) {
    for (const u of units) {
      if (ins[u.end - 1]!.refined!.frontEnd.jccErratumApplies) uncached.add(u.window);
    }
    applied.push({
      limit: 'JCC erratum (jumps crossing or ending on a 32-byte boundary not cached)',
      value: uncached.size > 0,
      source: fe.jccErratum.source,
    });
    if (uncached.size > 0 && fe.both32ByteBlocksMustBeCacheable?.value) {
      for (const w of [...uncached]) uncached.add(w ^ 1);
      applied.push({
        limit: 'both 32-byte halves of a 64-byte line must be cacheable',
        value: true,
        source: fe.both32ByteBlocksMustBeCacheable.source,
      });
    }
  }
  // the loop stream detector: on this core, all the loop's windows cacheable, its µops fit the IDQ
  if (fe.lsd === null) notApplied.push({ limit: 'loop stream detector', why: `no citable figure for ${machine.arch}` });
  else if (fe.lsd.value && total <= idq && uncached.size === 0) {
    const unroll = fe.lsdUnrolling?.value[total] ?? 1;
    applied.push({
      limit: 'loop stream detector',
      value: `on; the loop's ${total} fused µops fit the IDQ (${idq})`,
      source: `${fe.lsd.source}; ${SRC.uicaLsdRule}`,
    });
    if (fe.lsdUnrolling !== null)
      applied.push({
        limit: 'LSD unrolling (iterations per issue run)',
        value: unroll,
        source: fe.lsdUnrolling.source,
      });
    else
      notApplied.push({
        limit: 'LSD unrolling',
        why: `no citable figure for ${machine.arch}: one iteration per issue run`,
      });
    return { plan: { source: 'LSD', groups: [], idqSize: idq, lsdUnroll: unroll }, applied, notApplied };
  } else {
    applied.push({
      limit: 'loop stream detector',
      source: `${fe.lsd.source}; ${SRC.uicaLsdRule}`,
      value: !fe.lsd.value
        ? 'off on this core'
        : total > idq
          ? `the loop's ${total} fused µops exceed the IDQ (${idq})`
          : 'not used: part of the loop cannot be cached',
    });
  }
  const dsb = fe.dsbWidth,
    dec = fe.decoders,
    fetch = fe.fetchBytes;
  const miteKnown = dec !== null && fetch !== null;
  if (dsb === null) {
    if (!miteKnown) return none(`no citable µop cache width nor legacy decoder figures for ${machine.arch}`);
    // without a µop cache figure every window comes from the legacy decoders
    notApplied.push({
      limit: 'µop cache (DSB)',
      why: `no citable µop cache width for ${machine.arch}: the legacy decoders deliver`,
    });
    for (const u of units) uncached.add(u.window);
  } else applied.push({ limit: 'µop cache µops per cycle', value: dsb.value, source: dsb.source });
  if (uncached.size > 0) {
    if (!miteKnown)
      return none(
        `the legacy decoders deliver part of the loop, but ${machine.arch} has no citable decoder or fetch figure`,
      );
    applied.push({ limit: 'legacy decoders', value: dec.value, source: dec.source });
    applied.push({ limit: 'legacy decode fetch bytes per cycle', value: fetch.value, source: fetch.source });
    if (fe.macroFusibleOnLastDecoder !== null) {
      applied.push({
        limit: 'macro-fusible instruction on the last decoder',
        value: fe.macroFusibleOnLastDecoder.value,
        source: fe.macroFusibleOnLastDecoder.source,
      });
    } else
      notApplied.push({
        limit: 'macro-fusible instruction on the last decoder',
        why: `no citable figure for ${machine.arch}`,
      });
  }
  const lastDecoderOk = fe.macroFusibleOnLastDecoder?.value ?? true;
  const groups: DeliveryGroup[] = [];
  let cur: DeliveryGroup | null = null;
  let slots = 0; // MITE: decoders used in the current cycle
  let fetched = 0; // MITE: end of the bytes fetched up to the current cycle
  let prevEnd = -1;
  const close = (): void => {
    if (cur !== null) groups.push(cur);
    cur = null;
  };
  for (const u of units) {
    const src: FrontEndSource = uncached.has(u.window) ? 'MITE' : 'DSB';
    // a taken jump (the address does not continue) ends the cycle's delivery
    const jump = prevEnd >= 0 && u.addr !== prevEnd;
    prevEnd = u.endAddr;
    if (src === 'DSB') {
      const c = cur as DeliveryGroup | null;
      if (
        c === null ||
        jump ||
        c.source !== 'DSB' ||
        Math.floor(ins[c.start]!.refined!.frontEnd.address / 32) !== u.window ||
        c.fused + u.fused > dsb!.value
      ) {
        close();
        cur = { start: u.start, end: u.end, fused: u.fused, source: 'DSB' };
      } else {
        c.end = u.end;
        c.fused += u.fused;
      }
      continue;
    }
    const fb = fetch!.value,
      nd = dec!.value;
    if ((cur as DeliveryGroup | null)?.source !== 'MITE' || jump) {
      close();
      fetched = Math.floor(u.addr / fb) * fb + fb;
      cur = { start: u.start, end: u.start, fused: 0, source: 'MITE' };
      slots = 0;
    }
    // next cycle while the bytes are not fetched yet, the decoders are used up, a complex
    // instruction finds the complex decoder taken, or a macro-fusible one would be on the last
    while (
      u.endAddr > fetched ||
      slots >= nd ||
      (u.complex && slots > 0) ||
      (!lastDecoderOk && u.fusible && slots === nd - 1)
    ) {
      const c = cur as unknown as DeliveryGroup;
      groups.push(c);
      cur = { start: c.end, end: c.end, fused: 0, source: 'MITE' };
      slots = 0;
      fetched += fb;
    }
    const c = cur as unknown as DeliveryGroup;
    c.end = u.end;
    c.fused += u.fused;
    slots++;
  }
  close();
  const kinds = new Set(groups.map((g) => g.source));
  const source = kinds.size === 2 ? 'DSB+MITE' : kinds.has('MITE') ? 'MITE' : 'DSB';
  return { plan: { source, groups, idqSize: idq, lsdUnroll: 1 }, applied, notApplied };
}
