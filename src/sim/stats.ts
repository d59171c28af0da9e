// Statistics as the thesis defines them (§2.1, §2.2) and the detail analysis of one line (§2.6),
// read from the recorder's counts (recorder.ts) of one moment of a run: functions of saved state,
// not of a live core's position. Averages are per iteration of the whole run; during a run (a
// snapshot), per iteration completed so far, since the cycles and counters so far belong to what
// has been done, not to the iterations still to come. When the state knows each line's done
// instances (a snapshot), the rate is over the whole iterations complete (every line's instance
// done) and each line's figures over its own done instances: the average of the lines' done
// counts runs ahead of the iterations that really finished and would flatter the rate.

import type { CompiledProgram } from './compiled.js';
import type { Core } from './core.js';
import type { RecorderState } from './recorder.js';
import type { LineDetail, LineStats, SimProgram, Stats } from './types.js';

/** What the statistics of one moment of a run are computed from. */
export interface StatsState {
  cycle: number;
  /** instances completed */
  completed: number;
  iterations: number;
  /** the recorder's counts, brought up to date (Core.flush) */
  stats: RecorderState;
  /** per line (program order): its instances done, when known (a snapshot counts them) */
  lineDone?: ArrayLike<number>;
  /** with lineDone: what the instances not done yet added to the counts (a snapshot reads them
   *  from the station), left out so that each figure is over the same instances as its divisor */
  inFlight?: InFlightCounts;
}

/** The counts the instances still in flight added to the recorder's, per line (× port index). */
export interface InFlightCounts {
  portUse: Float64Array;
  had: Float64Array;
  divUse: Float64Array;
}

/** The statistics state of a core as it stands (flushed first); the arrays are the live ones. */
export function statsStateOf(core: Core): StatsState {
  core.flush();
  return { cycle: core.cycle, completed: core.scheduler.completed, iterations: core.iterations, stats: core.recorder };
}

export function coreStats(core: Core, program: SimProgram): Stats {
  return statsOf(core.cp, program, statsStateOf(core));
}

export function statsOf(cp: CompiledProgram, program: SimProgram, st: StatsState): Stats {
  const rec = st.stats;
  const finished = st.completed >= cp.n * st.iterations;
  const perLine = !finished && st.lineDone !== undefined && st.lineDone.length === cp.n;
  // the divisor: all iterations at the end; before, the whole iterations complete (each line: its
  // own instances done) or, without per-line counts, the iterations' worth of instances completed
  // (NaN, shown as '–', until the first completes)
  const done = finished ? st.iterations : perLine ? Math.min(...Array.from(st.lineDone!)) : st.completed / cp.n;
  const divisor = (i: number): number => {
    const d = perLine ? st.lineDone![i]! : done;
    return d > 0 ? d : NaN;
  };
  const K = done > 0 ? done : NaN;
  const P = cp.P;
  const lines: LineStats[] = [];
  const portTotals: Record<string, number> = {};
  for (const p of cp.portIds) portTotals[String(p)] = 0;
  let dividerUsed = false;
  const fly = perLine ? st.inFlight : undefined;
  program.instructions.forEach((ins, i) => {
    const ports: Record<string, number> = {};
    const K = divisor(i);
    for (let p = 0; p < P; p++) {
      const v = rec.portUse[i * P + p]! - (fly ? fly.portUse[i * P + p]! : 0);
      if (v > 0) {
        ports[String(cp.portIds[p])] = v / K;
        portTotals[String(cp.portIds[p])]! += v / K;
      }
    }
    if (cp.div[i]! > 0) dividerUsed = true;
    lines.push({
      line: ins.line,
      asm: ins.asm,
      uops: cp.uops[i]!,
      hadToWait: (rec.had[i]! - (fly ? fly.had[i]! : 0)) / K,
      causedToWait: rec.caused[i]! / K,
      ports,
      divider: (rec.divUse[i]! - (fly ? fly.divUse[i]! : 0)) / K,
      unknown: ins.unknown,
    });
  });
  // before a whole iteration is complete, some line has no figure yet: no total per iteration
  if (!(done > 0)) for (const p of Object.keys(portTotals)) portTotals[p] = NaN;
  const cycles = st.cycle;
  return {
    cycles,
    iterations: st.iterations,
    iterationsCompleted: done,
    blockThroughput: cycles / K,
    uopsPerCycle: cycles > 0 ? rec.uopsAssigned / cycles : 0,
    totalUops: cp.totalUops,
    lines,
    portTotals,
    dividerUsed,
    ...(cp.queueNames.length > 0
      ? {
          queues: cp.queueNames.map((name, q) => ({
            name,
            steered: rec.queueSteered[q]! / K,
            stallCycles: rec.queueStall[q]! / K,
            occupancy: cycles > 0 ? rec.queueFill[q]! / cycles : 0,
          })),
        }
      : {}),
  };
}

/**
 * No line of the program has figures (every one is without data): nothing was simulated, so the
 * run's cycles say nothing about the code and no throughput may be shown for it.
 */
export function simulatesNothing(stats: Pick<Stats, 'lines'>): boolean {
  return stats.lines.length > 0 && stats.lines.every((l) => l.unknown);
}

/** Thesis §2.6 for the instruction at index `idx`, from a moment's statistics state. */
export function detailOf(cp: CompiledProgram, program: SimProgram, st: StatsState, idx: number): LineDetail {
  return detailsOf(cp, program, st, [idx])[0]!;
}

type Partners = Map<
  number,
  { fromThis: number | null; toThis: number | null; otherDelayedByThis: number; thisDelayedByOther: number }
>;

/** detailOf for each of `indices` (every line when omitted), with one pass over the dependency
 *  edges for all of them: the detail of every line of a large region costs the edges once, not
 *  once per line. */
export function detailsOf(
  cp: CompiledProgram,
  program: SimProgram,
  st: StatsState,
  indices?: readonly number[],
): LineDetail[] {
  const want = indices ?? program.instructions.map((_, i) => i);
  const partners = new Map<number, Partners>(want.map((i) => [i, new Map()]));
  const K = st.iterations;
  const rec = st.stats;
  const touch = (m: Partners, j: number) => {
    let p = m.get(j);
    if (!p) {
      p = { fromThis: null, toThis: null, otherDelayedByThis: 0, thisDelayedByOther: 0 };
      m.set(j, p);
    }
    return p;
  };
  for (let j = 0; j < cp.n; j++) {
    const mine = partners.get(j);
    for (let e = cp.predStart[j]!; e < cp.predStart[j + 1]!; e++) {
      const prod = cp.predLine[e]!;
      const theirs = partners.get(prod);
      if (theirs) {
        // prod → j, seen from prod
        const l = touch(theirs, j);
        l.fromThis = Math.max(l.fromThis ?? 0, cp.predLat[e]!);
        l.otherDelayedByThis += rec.predBlame[e]! / K;
      }
      if (mine) {
        // prod → j, seen from j
        const l = touch(mine, prod);
        l.toThis = Math.max(l.toThis ?? 0, cp.predLat[e]!);
        l.thisDelayedByOther += rec.predBlame[e]! / K;
      }
    }
  }
  return want.map((idx) => detailFrom(cp, program, st, idx, partners.get(idx)!));
}

function detailFrom(
  cp: CompiledProgram,
  program: SimProgram,
  st: StatsState,
  idx: number,
  partners: Partners,
): LineDetail {
  const rec = st.stats;
  const K = st.iterations;
  const P = cp.P;
  const ins = program.instructions;
  const me = ins[idx]!;
  const order = [...partners.keys()].sort((a, b) => a - b);
  const portDelays: LineDetail['portDelays'] = [];
  let usable = 0;
  for (let u = 0; u < cp.uops[idx]!; u++) usable |= cp.uopMask[idx * cp.maxU + u]!;
  for (let p = 0; p < P; p++) {
    const was = rec.portWas[idx * P + p]!;
    const has = rec.portCaused[idx * P + p]!;
    if ((usable & (1 << p)) === 0 && was === 0 && has === 0) continue;
    portDelays.push({ port: cp.portIds[p]!, thisDelayedByPort: was / K, othersDelayedByThis: has / K });
  }
  return {
    line: me.line,
    asm: me.asm,
    maxLatency: cp.lat[idx]!,
    latencies: order.map((j) => ({
      line: ins[j]!.line,
      fromThis: partners.get(j)!.fromThis,
      toThis: partners.get(j)!.toThis,
    })),
    dependencyDelays: order.map((j) => ({
      line: ins[j]!.line,
      otherDelayedByThis: partners.get(j)!.otherDelayedByThis,
      thisDelayedByOther: partners.get(j)!.thisDelayedByOther,
    })),
    portDelays,
  };
}
