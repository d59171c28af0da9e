// Statistics as the thesis defines them (§2.1, §2.2) and the detail analysis of one line (§2.6),
// read from a Core's counters. Averages are per iteration of the whole run; during a run (a
// snapshot), per iteration completed so far (the completed instances ÷ the lines), since the
// cycles and counters so far belong to what has been done, not to the iterations still to come.

import type { Core } from './core.js';
import type { LineDetail, LineStats, SimProgram, Stats } from './types.js';

export function coreStats(core: Core, program: SimProgram): Stats {
  core.flush();
  const cp = core.cp;
  // the divisor: all iterations at the end; before, the iterations' worth of instances completed
  // (NaN, shown as '–', until the first instance completes)
  const done = core.finished ? core.iterations : core.completed / cp.n;
  const K = done > 0 ? done : NaN;
  const P = cp.P;
  const lines: LineStats[] = [];
  const portTotals: Record<string, number> = {};
  for (const p of cp.portIds) portTotals[String(p)] = 0;
  let dividerUsed = false;
  program.instructions.forEach((ins, i) => {
    const ports: Record<string, number> = {};
    for (let p = 0; p < P; p++) {
      const v = core.portUse[i * P + p]!;
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
      hadToWait: core.had[i]! / K,
      causedToWait: core.caused[i]! / K,
      ports,
      divider: core.divUse[i]! / K,
      unknown: ins.unknown,
    });
  });
  const cycles = core.cycle;
  return {
    cycles,
    iterations: core.iterations,
    iterationsCompleted: done,
    blockThroughput: cycles / K,
    uopsPerCycle: cycles > 0 ? core.uopsAssigned / cycles : 0,
    totalUops: cp.totalUops,
    lines,
    portTotals,
    dividerUsed,
  };
}

/**
 * No line of the program has figures (every one is without data): nothing was simulated, so the
 * run's cycles say nothing about the code and no throughput may be shown for it.
 */
export function simulatesNothing(stats: Pick<Stats, 'lines'>): boolean {
  return stats.lines.length > 0 && stats.lines.every((l) => l.unknown);
}

/** Thesis §2.6 for the instruction at index `idx` of the program. */
export function coreDetail(core: Core, program: SimProgram, idx: number): LineDetail {
  core.flush();
  const cp = core.cp;
  const K = core.iterations;
  const P = cp.P;
  const ins = program.instructions;
  const me = ins[idx]!;
  const lat = new Map<number, { fromThis: number | null; toThis: number | null }>();
  const delay = new Map<number, { wasDelayed: number; hasDelayed: number }>();
  const touch = (j: number): void => {
    if (!lat.has(j)) lat.set(j, { fromThis: null, toThis: null });
    if (!delay.has(j)) delay.set(j, { wasDelayed: 0, hasDelayed: 0 });
  };
  for (let j = 0; j < cp.n; j++) {
    for (let e = cp.predStart[j]!; e < cp.predStart[j + 1]!; e++) {
      const prod = cp.predLine[e]!;
      if (prod === idx) {            // this line → j
        touch(j);
        const l = lat.get(j)!;
        l.fromThis = Math.max(l.fromThis ?? 0, cp.predLat[e]!);
        delay.get(j)!.wasDelayed += core.predBlame[e]! / K;
      }
      if (j === idx) {               // prod → this line
        touch(prod);
        const l = lat.get(prod)!;
        l.toThis = Math.max(l.toThis ?? 0, cp.predLat[e]!);
        delay.get(prod)!.hasDelayed += core.predBlame[e]! / K;
      }
    }
  }
  const order = [...lat.keys()].sort((a, b) => a - b);
  const portDelays: LineDetail['portDelays'] = [];
  let usable = 0;
  for (let u = 0; u < cp.uops[idx]!; u++) usable |= cp.uopMask[idx * cp.maxU + u]!;
  for (let p = 0; p < P; p++) {
    const was = core.portWas[idx * P + p]!;
    const has = core.portCaused[idx * P + p]!;
    if ((usable & (1 << p)) === 0 && was === 0 && has === 0) continue;
    portDelays.push({ port: cp.portIds[p]!, wasDelayed: was / K, hasDelayed: has / K });
  }
  return {
    line: me.line,
    asm: me.asm,
    maxLatency: cp.lat[idx]!,
    latencies: order.map((j) => ({ line: ins[j]!.line, ...lat.get(j)! })),
    dependencyDelays: order.map((j) => ({ line: ins[j]!.line, ...delay.get(j)! })),
    portDelays,
  };
}
