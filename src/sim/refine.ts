// The refined model's compile-time part for the execution-side mechanisms:
// zero idioms, move elimination, the store-address port rule and store-to-load forwarding change
// the program the core reads — which µops may use which ports, which dependencies exist and with
// what latency, which lines are executed at rename — before CompiledProgram lays it out. All off:
// `refinePlan` returns null and CompiledProgram reads the program as it is (SUACA's model).
// Rules and sources: docs/engine.md, "Refined model: the execution-side mechanisms". Pure.

import type { MechanismSet } from './mechanisms.js';
import type { SimDep, SimProgram } from './types.js';

/** How a line is handled at rename (CompiledProgram.renamed). */
const RENAME_NONE = 0;
/** always executed at rename: no port, no latency (a zero idiom with `idiom.noPort`) */
export const RENAME_ALWAYS = 1;
/** a move-elimination candidate: executed at rename unless the move-elimination rule says not
 *  (decided per instance by the scheduler, units/scheduler.ts) */
export const RENAME_MOVE = 2;

/** A dependency through memory added by store-to-load forwarding. */
export interface MemoryDep {
  /** the store (or read-modify-write) line, index into the program */
  from: number;
  /** the load (or read-modify-write) line */
  to: number;
  /** the load is in the next iteration (invariant address) */
  loopCarried: boolean;
  /** cycles after the store starts until the load may start */
  latency: number;
  /** true: `latency` is uops.info's measured `cycles_mem` round trip of a read-modify-write form;
   *  false: no forwarding figure exists for this pair — the load waits only until the store has
   *  executed (the store's own latency), and the report must say "no figure" */
  figure: boolean;
  source: string;
}

interface RefinedPlan {
  /** per line: the µops' ports after the store-address port rule */
  uops: number[][][];
  /** the dependencies the core honours: the program's, minus the inputs of dependency-breaking
   *  idioms, plus the memory dependencies (resource 'MEM'; their index ≥ `memFrom`) */
  deps: SimDep[];
  /** deps[memFrom + x] is memDeps[x] */
  memFrom: number;
  memDeps: MemoryDep[];
  /** per line: RENAME_* */
  renamed: Uint8Array;
  /** per line and µop: the simple store-address port removed (loadStorePorts) */
  portsRemoved: { line: number; uop: number; port: number }[];
}

/** The resource name of a dependency through memory. */
const MEMORY_RESOURCE = 'MEM';

const COMPILE_TIME: readonly (keyof MechanismSet)[] = [
  'zeroIdioms',
  'moveElimination',
  'loadStorePorts',
  'storeForwarding',
];

/** The plan, or null when none of the compile-time mechanisms is on (the program is used as is). */
export function refinePlan(program: SimProgram, mech: Partial<MechanismSet> | undefined): RefinedPlan | null {
  if (!mech || !COMPILE_TIME.some((k) => mech[k] === true)) return null;
  const ins = program.instructions;
  const n = ins.length;
  const renamed = new Uint8Array(n);
  const dropInputs = new Uint8Array(n);
  const portsRemoved: RefinedPlan['portsRemoved'] = [];
  const uops = ins.map((x) => x.uops.map((u) => u.slice()));
  ins.forEach((x, i) => {
    const f = x.refined;
    if (!f) return;
    if (mech.zeroIdioms && f.idiom.dependencyBreaking) {
      // intel-opt-manual §3.5.1.8: a zero idiom (and pcmpeq of a register with itself) does not
      // depend on its input; with noPort the renamer executes it — unless it is the first half of
      // a macro-fused pair (sub ecx, ecx; jz): the pair is one branch µop (§3.4.2.2) that executes
      if (f.idiom.noPort && !(mech.macroFusion && fusesIntoJcc(program, i))) renamed[i] = RENAME_ALWAYS;
      dropInputs[i] = 1;
    }
    if (mech.moveElimination && f.moveElimination.candidate && renamed[i] === RENAME_NONE) renamed[i] = RENAME_MOVE;
    // an immediate addition the core executes at rename (a dependent chain of them too), unless
    // it is the first half of a macro-fused pair: the pair is one branch µop
    if (
      mech.moveElimination &&
      f.immediateAdd?.atRename &&
      renamed[i] === RENAME_NONE &&
      !(mech.macroFusion && fusesIntoJcc(program, i))
    )
      renamed[i] = RENAME_ALWAYS;
    const m = f.memory;
    if (
      mech.loadStorePorts &&
      m &&
      !m.simpleStoreAddress &&
      m.simpleStaPort !== null &&
      (m.role === 'store' || m.role === 'load-store')
    ) {
      // an indexed store's store-address µop may not use the simple store-address port (HSW–CLX p7)
      for (const u of m.staUops) {
        const ports = uops[i]![u];
        if (!ports) continue;
        const k = ports.indexOf(m.simpleStaPort);
        if (k >= 0 && ports.length > 1) {
          ports.splice(k, 1);
          portsRemoved.push({ line: i, uop: u, port: m.simpleStaPort });
        }
      }
    }
  });
  const deps = program.deps.filter((d) => !(d.to >= 0 && d.to < n && dropInputs[d.to]));
  const memFrom = deps.length;
  const memDeps = mech.storeForwarding ? memoryDeps(program) : [];
  for (const d of memDeps) deps.push({ from: d.from, to: d.to, resource: MEMORY_RESOURCE, loopCarried: d.loopCarried });
  return { uops, deps, memFrom, memDeps, renamed, portsRemoved };
}

/** Whether line i forms a macro-fused pair with the Jcc after it when macro-fusion is on: the
 *  condition CompiledProgram applies (the Jcc's facts say it fuses with the line before, and it
 *  has a µop with a port to fuse onto). */
function fusesIntoJcc(program: SimProgram, i: number): boolean {
  const a = program.instructions[i];
  const b = program.instructions[i + 1];
  return !!a?.refined && !!b?.refined?.macroFusion.fusesWithPrevious && b.uops.some((u) => u.length > 0);
}

/**
 * Store-to-load forwarding (identical address expressions, in the same iteration or across
 * iterations). A load (or the load of a read-modify-write) depends on the last earlier
 * store in program order with the same address expression (`memory.key`) when no line between
 * them writes a register of the address; with none before it in the iteration, on the last store
 * of the loop with that expression (the previous iteration's) when no line of the loop writes a
 * register of the address (the address is invariant). "Writes a register of the address" is read
 * from the dependency graph: the load's own dependencies on its base or index register name the
 * last writer before it.
 */
function memoryDeps(program: SimProgram): MemoryDep[] {
  const ins = program.instructions;
  const n = ins.length;
  const out: MemoryDep[] = [];
  const storeKey = (i: number): string | null => {
    const m = ins[i]!.refined?.memory;
    return m && (m.role === 'store' || m.role === 'load-store') ? m.key : null;
  };
  // linear in the region (a region of 10,000 lines with 2,500 loads took 9.5 s when each load
  // searched every dependency and every line): each line's dependencies, the last store of the
  // loop per address expression, and the last store so far as the lines are walked in order
  const depsTo: (typeof program.deps)[] = Array.from({ length: n }, () => []);
  for (const d of program.deps) if (d.to >= 0 && d.to < n) depsTo[d.to]!.push(d);
  const lastStore = new Map<string, number>();
  for (let s = 0; s < n; s++) {
    const k = storeKey(s);
    if (k !== null) lastStore.set(k, s);
  }
  const storeSoFar = new Map<string, number>();
  for (let l = 0; l < n; l++) {
    const m = ins[l]!.refined?.memory;
    if (m && (m.role === 'load' || m.role === 'load-store')) memoryDepOf(l, m);
    const k = storeKey(l);
    if (k !== null) storeSoFar.set(k, l);
  }
  return out;

  function memoryDepOf(l: number, m: { key: string; base: string | null; index: string | null }): void {
    const regs = [m.base, m.index].filter((r): r is string => r !== null && r !== 'RIP');
    const addrDeps = depsTo[l]!.filter((d) => regs.includes(d.resource));
    // the last writer of an address register before the load in this iteration (-1: none)
    let lastWriter = -1;
    for (const d of addrDeps) if (!d.loopCarried && d.from < l) lastWriter = Math.max(lastWriter, d.from);
    // the last earlier store with the same address expression
    const from = storeSoFar.get(m.key) ?? -1;
    if (from >= 0) {
      if (lastWriter > from) return; // the address registers change between them
      out.push(memDep(program, from, l, false));
      return;
    }
    if (addrDeps.length > 0) return; // the address is not invariant across iterations
    // none before it: the last store of the loop with that expression (at or after the load)
    const last = lastStore.get(m.key);
    if (last !== undefined) out.push(memDep(program, last, l, true));
  }
}

/** A load and a store of the loop with the same address expression whose registers change from
 *  one iteration to the next other than by a constant: whether the load reads the previous
 *  iteration's store depends on the data (a histogram's `add dword ptr [rdi+rax*4], 1` after
 *  `movzx eax, byte ptr [rsi]`). */
interface DataMemoryPair {
  /** the store's line index (the last store of the loop with that expression) */
  store: number;
  /** the load's line index */
  load: number;
}

/** An instruction that changes its register by a constant (`add rsi, 1`, `sub rcx, 8`, `inc`,
 *  `dec`, `lea r, [r+8]`): an address register it writes strides, so the address never repeats
 *  the previous iteration's. */
const STRIDE =
  /^(?:(?:add|sub) \w+, -?(?:0x[0-9a-f]+|\d+)|(?:inc|dec) \w+|lea (\w+), \[\1 ?[+-] ?(?:0x[0-9a-f]+|\d+)\])$/i;

/**
 * The loop's load-store pairs through data (DataMemoryPair): per load, the last store of the loop
 * with its address expression (`memory.key`), when some line of the loop writes a register of
 * the address and one such write is not a constant stride. Invariant addresses are store
 * forwarding's (memoryDeps), striding ones never meet the previous iteration's store.
 */
export function dataMemoryPairs(program: SimProgram): DataMemoryPair[] {
  const ins = program.instructions;
  // the last store of the loop per address expression, and each line's producers by resource
  const lastStore = new Map<string, number>();
  ins.forEach((x, i) => {
    const r = x.refined?.memory;
    if (r && (r.role === 'store' || r.role === 'load-store')) lastStore.set(r.key, i);
  });
  if (lastStore.size === 0) return [];
  const producers = new Map<number, SimDep[]>();
  for (const d of program.deps) {
    const list = producers.get(d.to);
    if (list) list.push(d);
    else producers.set(d.to, [d]);
  }
  const out: DataMemoryPair[] = [];
  for (let l = 0; l < ins.length; l++) {
    const m = ins[l]!.refined?.memory;
    if (!m || (m.role !== 'load' && m.role !== 'load-store')) continue;
    const store = lastStore.get(m.key);
    if (store === undefined) continue;
    const regs = [m.base, m.index].filter((r): r is string => r !== null && r !== 'RIP');
    const writers = (producers.get(l) ?? []).filter((d) => regs.includes(d.resource)).map((d) => d.from);
    if (writers.length === 0 || writers.every((w) => STRIDE.test(ins[w]!.asm.trim()))) continue;
    out.push({ store, load: l });
  }
  return out;
}

/** `program` with each pair's load depending on the previous iteration's store (resource 'MEM',
 *  the store's own latency, as store forwarding without a figure): the what-if "loads read the
 *  last iteration's stores" (the worst case of DataMemoryPair). */
export function withDataMemoryDeps(program: SimProgram, pairs: readonly DataMemoryPair[]): SimProgram {
  return {
    instructions: program.instructions,
    deps: [
      ...program.deps,
      ...pairs.map((p): SimDep => ({ from: p.store, to: p.load, resource: MEMORY_RESOURCE, loopCarried: true })),
    ],
  };
}

/** The what-if's names, one home for the report's line and the explorer's split: `label` in a
 *  sentence, `title` a pane's, `short` where two panes' figures stand side by side. */
export const DATA_MEMORY_WHAT_IF = {
  label: "loads read the previous iteration's stores",
  title: "loads read last iteration's stores",
  short: 'worst case',
} as const;

function memDep(program: SimProgram, from: number, to: number, loopCarried: boolean): MemoryDep {
  const p = program.instructions[from]!;
  const own = Math.max(1, p.latency);
  const rt = from === to ? (p.refined?.memory?.roundTrip ?? null) : null;
  if (rt) {
    // the measured round trip of one instance to the next; the engine's own latency of the form
    // includes it (src/data/resolve.ts entryLatency takes cycles_mem into the maximum)
    return { from, to, loopCarried, latency: Math.max(1, Math.min(rt.value, own)), figure: true, source: rt.source };
  }
  return {
    from,
    to,
    loopCarried,
    latency: own,
    figure: false,
    source: 'no store-to-load forwarding figure: the load waits until the store has executed (its own latency)',
  };
}

/** What the execution-side mechanisms did to this program, one line each, for the report: the
 *  dependencies through memory (and whether their latency has a figure), the ports removed, the
 *  lines executed at rename. Empty when none of them is on or none applies. */
export function mechanismNotes(program: SimProgram, mech: Partial<MechanismSet> | undefined): string[] {
  const plan = refinePlan(program, mech);
  if (!plan) return [];
  const ins = program.instructions;
  const at = (i: number): string => `line ${ins[i]!.line} (${ins[i]!.asm})`;
  const out: string[] = [];
  const atRename = ins.map((_, i) => i).filter((i) => plan.renamed[i] === RENAME_ALWAYS);
  const adds = atRename.filter((i) => ins[i]!.refined?.immediateAdd?.atRename === true);
  const idioms = atRename.filter((i) => !adds.includes(i));
  if (idioms.length)
    out.push(`zero idioms: ${idioms.map(at).join(', ')} executed at rename (no port, no latency, no input)`);
  if (adds.length)
    out.push(
      `immediate additions: ${adds.map(at).join(', ')} executed at rename (no port, no latency; the limits are not published)`,
    );
  const moves = ins.map((_, i) => i).filter((i) => plan.renamed[i] === RENAME_MOVE);
  if (moves.length) {
    out.push(
      `move elimination: ${moves.map(at).join(', ')} eliminated unless the source comes from an eliminated move (a modelling choice: docs/engine.md)`,
    );
  }
  for (const r of plan.portsRemoved)
    out.push(`load/store ports: ${at(r.line)}: indexed store address, not on port ${r.port}`);
  for (const d of plan.memDeps) {
    const how = d.figure
      ? `${d.latency} cycles (${d.source})`
      : `no store-to-load forwarding figure: the load waits for the store's own latency (${d.latency} cycle${d.latency === 1 ? '' : 's'})`;
    out.push(
      `store forwarding: ${at(d.to)} reads what ${at(d.from)} stored${d.loopCarried ? ' in the previous iteration' : ''}: ${how}`,
    );
  }
  return out;
}
