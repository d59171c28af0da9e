// A scripted Engine for UI tests: hand-written snapshots that follow a fixed pattern (one
// instance finishes per `period` cycles), so that frames can be asserted on exact numbers
// without the real engine. It is NOT a model of anything; the integration tests use src/sim.
import {
  BASELINE,
  type Engine,
  type LineDetail,
  type MachineParams,
  type SimConfig,
  type SimProgram,
  type Snapshot,
  type Variant,
} from '../../../src/sim/types.js';
import type { ExplorerSession } from '../../../src/ui/types.js';

export interface Script {
  lines: { line: number; asm: string }[];
  ports: number[];
  /** cycles per finished instance for a variant (baseline 2, perfect front end 1 after `splitAt`) */
  period(v: Variant): number;
  splitAt: number;
}

export function scriptedEngine(script: Script, lines: number[], variant: Variant, iterations: number): Engine {
  const n = lines.length;
  const total = n * iterations;
  const per = script.period(variant);
  // instances finished by cycle c: identical to the baseline (period 2) up to splitAt, then `per`
  const doneAt = (c: number) => {
    const base = Math.floor(Math.min(c, script.splitAt) / 2);
    const extra = c > script.splitAt ? Math.floor((c - script.splitAt) / per) : 0;
    return Math.min(total, base + extra);
  };
  let end = 0;
  while (doneAt(end) < total) end++;
  const program: SimProgram = {
    instructions: lines.map((l) => ({
      line: l,
      asm: script.lines.find((x) => x.line === l)!.asm,
      uops: [[0]],
      latency: 1,
      latencyByResource: {},
      divCycles: 0,
      unknown: false,
    })),
    deps: [],
  };
  const machine: MachineParams = { arch: 'TST', ports: script.ports, issueWidth: 4, rsSize: 8, dividerPort: 0 };
  const config: SimConfig = { iterations, variant };
  const at = (k: number) => ({ line: lines[k % n]!, iteration: Math.floor(k / n) });
  const snap = (c: number): Snapshot => {
    const done = doneAt(c);
    const rs = [];
    for (let k = done; k < Math.min(total, done + 3); k++) {
      const x = at(k);
      const state =
        k === done
          ? { kind: 'executing' as const, cyclesLeft: 1, cyclesDone: 1 }
          : k === done + 1
            ? { kind: 'waiting-port' as const, ports: [{ port: script.ports[0]!, heldBy: at(done) }] }
            : { kind: 'waiting-dep' as const, on: [{ ...at(k - 1), resource: 'RAX' as const }] };
      rs.push({ ...x, uops: 1, loaded: 1, assigned: k === done ? 1 : 0, state });
    }
    const loadedTo = Math.min(total, done + 3);
    const finished = done >= total;
    const cyc = Math.max(1, c);
    // where each instance is in this script: done before `done`, in the station up to `loadedTo`
    const lineCounts = lines.map((line) => ({ line, notLoaded: 0, waiting: 0, ready: 0, executing: 0, done: 0 }));
    for (let k = 0; k < total; k++) {
      const lc = lineCounts[k % n]!;
      if (k < done) lc.done++;
      else if (k >= loadedTo) lc.notLoaded++;
      else if (k === done) lc.executing++;
      else if (k === done + 1) lc.ready++;
      else lc.waiting++;
    }
    return {
      cycle: c,
      finished,
      rs,
      rsUsed: rs.length,
      rsCapacity: 8,
      ports: script.ports.map((p, i) => ({
        port: p,
        uops: i === done % script.ports.length && !finished && c > 0 ? [at(done)] : [],
        cumulative: Math.floor((done + script.ports.length - 1 - i) / script.ports.length),
        use: Math.floor((done + script.ports.length - 1 - i) / script.ports.length) / cyc,
      })),
      divider: { busy: false, cyclesLeft: 0, owner: null },
      ready: rs.filter((e) => e.state.kind === 'waiting-port').map((e) => ({ line: e.line, iteration: e.iteration })),
      frontEnd: {
        next: loadedTo < total ? { ...at(loadedTo), uopsLeft: 1 } : null,
        loadedThisCycle: c > 0 && !finished ? 1 : 0,
      },
      completed: done,
      total,
      stats: {
        // as the engine: per iteration completed so far (all of them at the end)
        cycles: c,
        iterations,
        iterationsCompleted: finished ? iterations : done / n,
        blockThroughput: done > 0 ? c / (finished ? iterations : done / n) : NaN,
        uopsPerCycle: done / cyc,
        totalUops: n,
        lines: lines.map((l) => ({
          line: l,
          asm: program.instructions.find((x) => x.line === l)!.asm,
          uops: 1,
          hadToWait: 0.5,
          causedToWait: 0.25,
          ports: { [String(script.ports[0])]: 1 },
          divider: 0,
          unknown: false,
        })),
        portTotals: { [String(script.ports[0])]: n },
        dividerUsed: false,
      },
      lineCounts,
    };
  };
  let cur = 0;
  return {
    program,
    machine,
    config,
    snapshot: () => snap(cur),
    step: () => {
      if (doneAt(cur) < total) cur++;
      return snap(cur);
    },
    seek: (c: number) => {
      cur = Math.max(0, Math.min(end, c));
      return snap(cur);
    },
    // a budget of simulated cycles, as the engine counts them: at most `budget` cycles forward
    seekToward: (c: number, budget: number) => {
      const t = Math.max(0, Math.min(end, c));
      cur = t <= cur ? t : Math.min(t, cur + Math.max(1, Math.floor(budget)));
      return snap(cur);
    },
    runToEnd: () => {
      cur = end;
      return snap(cur);
    },
    totalCycles: () => end,
    finalStats: () => snap(end).stats,
    wholeRun: () => ({ cycles: end, stats: snap(end).stats, state: null }),
    adopt: () => false,
    detail: (line: number): LineDetail => ({
      line,
      asm: `asm of ${line}`,
      maxLatency: 3,
      latencies: [{ line: 0, fromThis: 3, toThis: null }],
      dependencyDelays: [{ line: 0, otherDelayedByThis: 0.5, thisDelayedByOther: 0 }],
      portDelays: [{ port: 0, thisDelayedByPort: 0.25, othersDelayedByThis: 0.75 }],
    }),
  };
}

export const SCRIPT: Script = {
  lines: [
    { line: 0, asm: 'add rax, rbx' },
    { line: 1, asm: 'cmp rax, rcx' },
    { line: 2, asm: 'jne 0x401010' },
    { line: 3, asm: 'imul rbx, rbx' },
    { line: 4, asm: 'dec rdx' },
  ],
  ports: [0, 1, 5, 6],
  period: (v) => (v.perfectFrontEnd ? 1 : 2),
  splitAt: 6,
};

export function scriptedSession(arch = 'SKL', script: Script = SCRIPT): ExplorerSession {
  const all = script.lines.map((l) => l.line);
  return {
    file: 'loop.o',
    region: 'IACA region 1',
    arch,
    archName: `${arch} test machine`,
    ports: script.ports,
    dividerPort: 0,
    lines: script.lines,
    makeEngine: (v, it) => scriptedEngine(script, all, v ?? BASELINE, it),
    branches: {
      branchLine: 2,
      paths: [
        {
          label: 'fall-through',
          lines: [0, 1, 2, 3, 4],
          makeEngine: (v, it) => scriptedEngine(script, [0, 1, 2, 3, 4], v, it),
        },
        { label: 'taken', lines: [0, 1, 2, 4], makeEngine: (v, it) => scriptedEngine(script, [0, 1, 2, 4], v, it) },
      ],
    },
  };
}
