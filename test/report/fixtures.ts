// Constructed engine results for the renderer tests (plain data, no simulation).
import type { LineDetail, LineStats, Stats } from '../../src/sim/types.js';
import type { ReportModel, Section, VariantFigures } from '../../src/report/model.js';
import { BASELINE } from '../../src/sim/types.js';
import { SUACA_MECHANISMS } from '../../src/sim/mechanisms.js';

export function line(n: number, asm: string, over: Partial<LineStats> = {}): LineStats {
  return { line: n, asm, uops: 1, hadToWait: 0, causedToWait: 0, ports: {}, divider: 0, unknown: false, ...over };
}

export function stats(lines: LineStats[], cycles: number, iterations: number, over: Partial<Stats> = {}): Stats {
  const totalUops = lines.reduce((a, l) => a + l.uops, 0);
  const portTotals: Record<string, number> = {};
  for (const l of lines) for (const [p, v] of Object.entries(l.ports)) portTotals[p] = (portTotals[p] ?? 0) + v;
  return {
    cycles,
    iterations,
    iterationsCompleted: iterations,
    blockThroughput: cycles / iterations,
    uopsPerCycle: (totalUops * iterations) / cycles,
    totalUops,
    lines,
    portTotals,
    dividerUsed: lines.some((l) => l.divider > 0),
    ...over,
  };
}

export function figures(
  pf: boolean,
  ip: boolean,
  nd: boolean,
  cycles: number,
  iterations: number,
  uops: number,
): VariantFigures {
  return {
    variant: { perfectFrontEnd: pf, infinitePorts: ip, noDependencies: nd },
    cycles,
    blockThroughput: cycles / iterations,
    uopsPerCycle: (uops * iterations) / cycles,
  };
}

/** The thesis's latency analysis of its branch example (§2.2): SNB, one iteration, 3 cycles. */
export function latencyExample(): ReportModel {
  const s = stats(
    [
      line(0, 'mov rax, 0x1', { causedToWait: 1, ports: { '1': 1 } }),
      line(1, 'cmp rcx, 0x0', { ports: { '0': 1 } }),
      line(2, 'jnz 0x7', { hadToWait: 1, causedToWait: 1, ports: { '5': 1 } }),
      line(3, 'add rbx, rax', { hadToWait: 1, causedToWait: 1, ports: { '0': 1 } }),
      line(4, 'jmp 0x5', { hadToWait: 1, causedToWait: 1, ports: { '5': 1 } }),
      line(5, 'add rbx, rax', { causedToWait: 1, ports: { '1': 1 } }),
      line(6, 'add rbx, rbx', { hadToWait: 1, ports: { '0': 1 } }),
    ],
    3,
    1,
  );
  const main: Section = {
    stats: s,
    whatIf: {
      perfectFrontEnd: figures(true, false, false, 3, 1, 7),
      infinitePorts: figures(false, true, false, 3, 1, 7),
      noDependencies: figures(false, false, true, 3, 1, 7),
    },
    combinations: null,
  };
  return {
    arch: 'SNB',
    iterations: 1,
    variant: { ...BASELINE },
    model: { mechanisms: { ...SUACA_MECHANISMS }, effects: null },
    ports: [0, 1, 2, 3, 4, 5],
    dividerPort: 0,
    main,
    unknown: [],
    origins: s.lines.map(() => 'thesis' as const),
  };
}

/** The figures the thesis prints in §2.6 (branch example, SNB, 200 iterations, line 0). */
export const thesisDetail: LineDetail = {
  line: 0,
  asm: 'mov rax, 0x1',
  maxLatency: 1,
  latencies: [
    { line: 3, fromThis: 1, toThis: null },
    { line: 5, fromThis: 1, toThis: null },
  ],
  dependencyDelays: [
    { line: 3, otherDelayedByThis: 15.2, thisDelayedByOther: 0 },
    { line: 5, otherDelayedByThis: 14.5, thisDelayedByOther: 0 },
  ],
  portDelays: [
    { port: 0, thisDelayedByPort: 15.1, othersDelayedByThis: 0 },
    { port: 1, thisDelayedByPort: 15.1, othersDelayedByThis: 13.5 },
    { port: 5, thisDelayedByPort: 15.1, othersDelayedByThis: 0 },
  ],
};
