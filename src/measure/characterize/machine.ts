// Machine parameters, each from one documented microbenchmark (docs/characterize.md), and the
// port combinations of the blocking instructions. Runs through a Runner, so the virtual CPU's
// tests check the same code.

import type { Instruction } from '../../disasm/iced.js';
import type { Runner, Starts } from './runner.js';
import { spreadOf, SPREAD_LIMIT } from './runner.js';
import type { Combination, Figure, MachineResult } from './types.js';
import * as x from './x86.js';

/** Measures `code` and divides by `per` (instances in the body). */
export function figure(
  runner: Runner,
  name: string,
  code: Uint8Array,
  per: number,
  method: string,
  starts?: Starts,
): Figure {
  const t = runner.run({ name, code, ...starts });
  const kept = t.kept ? { kept: t.kept } : {};
  if (t.failed) return { value: NaN, spread: 0, method, inconsistent: t.failed, ...kept };
  const spread = spreadOf(t);
  return {
    value: t.cycles / per,
    spread,
    method,
    ...kept,
    ...(spread > SPREAD_LIMIT ? { inconsistent: `runs disagree by ${(spread * 100).toFixed(1)} %` } : {}),
  };
}

const rep = (n: number, f: (k: number) => Instruction | Instruction[]): Instruction[] =>
  Array.from({ length: n }, (_, k) => f(k)).flat();

/** A blocking instruction candidate: instance k of an independent block (registers cycle). */
export interface Blocker {
  /** Intel syntax of one instance */
  text: string;
  /** latency of its own chain (to pick enough registers for the block to be independent) */
  latency: number;
  make: (k: number) => Instruction;
  /** the ports the hypothesis (the LLVM model of the host's core, or the virtual CPU's) gives */
  ports?: number[];
}

/** General-purpose blockers, independent instances over registers 8–14 (the forms use 0–7 first;
 *  xmm15 is the harness's, x86.ts VEC_POOL). */
export const DEFAULT_BLOCKERS: Blocker[] = [
  // destinations r8–r13 and xmm8–xmm12 (xmm8–xmm13 for pshufd), written without being read where
  // the form allows (three operands), so the block has no chain; add's chains are one cycle long
  // over six registers
  { text: 'add r64, r64', latency: 1, make: (k) => x.add64(8 + (k % 6), 14) },
  { text: 'imul r64, r64, imm8', latency: 3, make: (k) => x.imul3(8 + (k % 6), 14) },
  { text: 'mov r64, [r64]', latency: 5, make: (k) => x.load64(8 + (k % 6), 14) },
  { text: 'vpaddd xmm, xmm, xmm', latency: 1, make: (k) => x.vpaddd(8 + (k % 5), 13, 14) },
  { text: 'pshufd xmm, xmm, imm8', latency: 1, make: (k) => x.pshufd('xmm', false, 8 + (k % 6), 14) },
  { text: 'vpmuludq xmm, xmm, xmm', latency: 5, make: (k) => x.vpmuludq(8 + (k % 5), 13, 14) },
];

/**
 * Blocking instructions a core's record chooses from: for each pipe group of the record, the first
 * of these whose record port set is exactly that group (one µop) blocks it (session.ts
 * `hypotheses`). They cover the groups of Intel's ports and of Zen's pipes: the ALUs, the integer
 * multiplier, the shifters, the load pipes, the vector-integer adders and Zen's overlapping FP pipe
 * pairs (FMUL FP0/1, FADD FP2/3, shifts and shuffles FP1/2, vector multiply FP0/3, FP→integer
 * FP4/5). Each blocker's size is verified by its own measured throughput before it is used
 * (`measureCombinations`). Written without reading their destination where the instruction allows,
 * over registers 8–14 (the forms take 0–7).
 */
export const BLOCKER_CANDIDATES: Blocker[] = [
  ...DEFAULT_BLOCKERS,
  { text: 'vmulpd xmm, xmm, xmm', latency: 3, make: (k) => x.vex3(x.V.mulpd, 8 + (k % 5), 13, 14) },
  { text: 'vaddpd xmm, xmm, xmm', latency: 3, make: (k) => x.vex3(x.V.addpd, 8 + (k % 5), 13, 14) },
  // shl reads its destination: six one-cycle chains, more than two shifters can run
  { text: 'shl r64, imm8', latency: 1, make: (k) => x.shlImm(8 + (k % 6), 3) },
  { text: 'vpsllq xmm, xmm, imm8', latency: 1, make: (k) => x.vpsllq(8 + (k % 6), 14) },
  { text: 'vunpcklpd xmm, xmm, xmm', latency: 1, make: (k) => x.vex3(x.V.unpcklpd, 8 + (k % 5), 13, 14) },
  { text: 'movq r64, xmm', latency: 3, make: (k) => x.movqToGpr(8 + (k % 6), 14) },
];

/** The blockers with the hypothesis' ports filled in by `portsOf` (null: unknown). */
export function withPorts(list: readonly Blocker[], portsOf: (b: Blocker) => number[] | null): Blocker[] {
  return list.map((b) => {
    const p = portsOf(b);
    return p ? { ...b, ports: p } : { ...b };
  });
}

/** The machine parameters and the blockers' combinations. */
export function characterizeMachine(runner: Runner, blockers: readonly Blocker[]): MachineResult {
  const n = 48;
  const nops = 240;
  const renameWidth = figure(
    runner,
    'rename width: NOPs',
    x.encode(rep(nops, () => x.nop())),
    nops,
    `${nops} four-byte NOPs (nop dword ptr [rax+0]): a rename slot each and no port; per cycle`,
  );
  renameWidth.value = 1 / renameWidth.value;
  const fillerOk = calibrateFiller(runner, renameWidth.value);
  const jumps = figure(
    runner,
    'taken branches: jmp',
    x.jumps(n),
    n + (runner.loopBranch ? 1 : 0),
    `${n} taken jumps, one per 64-byte line (always predicted)${runner.loopBranch ? ", and the loop's branch" : ''}; per cycle`,
  );
  jumps.value = 1 / jumps.value;
  const loadToUse = figure(
    runner,
    'load to use: mov rax, [rax]',
    x.encode(rep(16, () => x.load64(0, 0))),
    16,
    'a chain of mov rax, [rax] (rax holds its own address)',
  );
  const storeForwarding = figure(
    runner,
    'store forwarding: mov [rax], rbx; mov rbx, [rax]',
    x.encode(rep(8, () => [x.store64(0, 3), x.load64(3, 0)])),
    8,
    'a chain of mov [rax], rbx; mov rbx, [rax]: store data to the load that reads it back (the round trip)',
  );
  const { imul, imulChain, xorRate, moves, adds } = renameTimeFigures(runner, n);
  const rejectedBlockers: string[] = [];
  // dispatch bounds a block of more pipes than it feeds: the narrower of the NOPs' and the zero
  // idioms' rates (neither takes a pipe)
  const dispatch = Math.min(renameWidth.value, 1 / xorRate.value);
  const combinations = measureCombinations(runner, blockers, rejectedBlockers, dispatch);
  const alu = combinations.find((c) => c.blocker === 'add r64, r64')?.size ?? 1;
  const zeroNoPort = 1 / xorRate.value > alu + 0.5;
  return {
    renameWidth: dispatchBound(renameWidth, xorRate, zeroNoPort),
    ...(fillerOk !== null ? { fillerProblem: fillerOk } : {}),
    takenBranchesPerCycle: jumps,
    loadToUse,
    storeForwarding,
    zeroIdiom: {
      breaksDependency: imul.value < imulChain.value * 0.75,
      noPort: zeroNoPort,
      figure: {
        ...xorRate,
        value: 1 / xorRate.value,
        method: `${xorRate.method}: per cycle (above the ${alu} ALU ports of add: executed at rename)`,
      },
    },
    moveElimination: { latency: moves, eliminated: moves.value < 0.9 },
    immediateAddition: { latency: adds, folded: adds.value < 0.9 },
    combinations,
    ...(rejectedBlockers.length ? { rejectedBlockers } : {}),
  };
}

/** A combination's name from port numbers, as the format writes it ('p0156'; Zen's pipes 10 and
 *  up as letters, 'p9AB'). */
export const pname = (ports: readonly number[]): string =>
  `p${[...ports]
    .sort((a, b) => a - b)
    .map((p) => (p < 10 ? String(p) : String.fromCharCode(55 + p)))
    .join('')}`;

/** The widest dispatch of any x86 core so far (Lion Cove's rename, Zen 5's dispatch: 8 per
 *  cycle): a rename width measured above it is not the stage's. */
const WIDEST_DISPATCH = 8;

/**
 * The rename (dispatch) width: the NOPs' rate, unless the core does not give a NOP a slot each —
 * Zen 4 runs about 12 four-byte NOPs per cycle on a 6-wide dispatch — and zero idioms, which take
 * a slot and no port, run slower: then theirs (6.00 per cycle on Zen 4). A figure above any
 * core's dispatch width is flagged, not given as the stage's.
 */
function dispatchBound(nops: Figure, xorRate: Figure, zeroNoPort: boolean): Figure {
  const zeros = 1 / xorRate.value;
  let f = nops;
  if (zeroNoPort && Number.isFinite(zeros) && nops.value > zeros * 1.25)
    f = {
      ...xorRate,
      value: zeros,
      method: `independent xor r32, r32 (zero idioms: a dispatch slot each, no port); per cycle — ${nops.method.replace(/; per cycle$/, '')} ran at ${nops.value.toFixed(2)} per cycle, faster than dispatch: this core does not give a NOP a slot each`,
    };
  if (f.value > WIDEST_DISPATCH + 0.5) {
    const why = `implausible: ${f.value.toFixed(2)} per cycle is above any x86 core's dispatch width (${WIDEST_DISPATCH})`;
    f = { ...f, inconsistent: f.inconsistent ? `${f.inconsistent}; ${why}` : why };
  }
  return f;
}

/** The benchmarks of what rename may do without a port: zero idioms, move elimination, folded
 *  immediate additions. */
function renameTimeFigures(
  runner: Runner,
  n: number,
): Record<'imul' | 'imulChain' | 'xorRate' | 'moves' | 'adds', Figure> {
  const imul = figure(
    runner,
    'zero idiom: imul rax, rax; xor eax, eax',
    x.encode(rep(8, () => [x.imul64(0, 0), x.xor32(0, 0)])),
    8,
    'imul rax, rax; xor eax, eax repeated: the imul chain (3 cycles) is cut when xor does not read rax',
  );
  const imulChain = figure(
    runner,
    'imul chain',
    x.encode(rep(16, () => x.imul64(0, 0))),
    16,
    'a chain of imul rax, rax',
  );
  const xorRate = figure(
    runner,
    'zero idiom rate: xor r32, r32',
    x.encode(rep(n, (k) => x.xor32(8 + (k % 6), 8 + (k % 6)))),
    n,
    'independent xor r32, r32 with itself',
  );
  const moves = figure(
    runner,
    'move elimination: mov rbx, rax; mov rax, rbx',
    x.encode(rep(8, () => [x.mov64(3, 0), x.mov64(0, 3)])),
    16,
    'a chain of mov r64, r64',
  );
  const adds = figure(
    runner,
    'immediate addition: add rax, 1',
    x.encode(rep(16, () => x.addImm(0, 1))),
    16,
    'a chain of add rax, 1',
  );
  return { imul, imulChain, xorRate, moves, adds };
}

/**
 * Fused-domain µops per instance of `each` (k instances, possibly with dependency breakers, one
 * fused µop each): the instructions spread between enough NOPs that renaming is the bottleneck;
 * µops = cycles × width − NOPs, per instance, less the breakers. `tp` is the instance's own
 * reciprocal throughput (to choose enough NOPs, and to tell when the block was not rename-bound).
 */
export function fusedBetweenNops(
  runner: Runner,
  W: number,
  each: readonly Instruction[],
  k: number,
  tp: number,
  starts?: Starts,
): Figure {
  const m = Math.min(1200, Math.ceil(2 * W * k * Math.max(tp, 1)) + 2 * Math.round(W));
  const per = Math.ceil(m / each.length);
  const body: Instruction[] = [];
  for (const ins of each) {
    body.push(ins);
    for (let j = 0; j < per; j++) body.push(x.nop());
  }
  const nops = per * each.length;
  const f = figure(
    runner,
    'fused µops between NOPs',
    x.encode(body),
    1,
    `${k} instances between ${nops} NOPs (rename-bound at ${W.toFixed(2)} per cycle): µops = cycles × width − NOPs, less one per dependency breaker`,
    starts,
  );
  const breakersPer = each.length / k - 1;
  const v = (f.value * W - nops) / k - breakersPer;
  const r = Math.round(v);
  const out: Figure = {
    ...f,
    value: Math.abs(v - r) <= 0.25 ? r : v,
    ...(Math.abs(v - r) > 0.25 ? { inconsistent: `not a whole number (${v.toFixed(2)})` } : {}),
  };
  if (f.value < k * tp * 1.15 && tp * W > 1.2)
    out.inconsistent = "the block was not rename-bound (the form's own throughput set the pace)";
  return out;
}

/**
 * The NOP filler bounds the rename stage when known one-µop instructions between NOPs count as
 * one: `add r64, r64` (a quarter cycle each) and `imul r64, r64, imm8` (one cycle each), as the
 * forms are measured. On a core that fuses or drops NOPs before rename (the AMD Zen 4 this was
 * developed on runs 12 of them per cycle) they do not, and then no fused-domain count is derived.
 * Returns null when the filler works, else why not.
 */
function calibrateFiller(runner: Runner, W: number): string | null {
  const probes: [string, Instruction[], number][] = [
    ['add r64, r64', [0, 1, 2, 3].map((j) => x.add64(8 + j, 14)), 0.25],
    ['imul r64, r64, imm8', [0, 1, 2, 3].map((j) => x.imul3(8 + j, 14)), 1],
  ];
  for (const [text, each, tp] of probes) {
    const f = fusedBetweenNops(runner, W, each, 4, tp);
    if (f.inconsistent || f.value !== 1)
      return `NOPs do not bound the rename stage here: a one-µop ${text} between NOPs counts as ${f.value.toFixed(2)} µops${f.inconsistent ? ` (${f.inconsistent})` : ''}; fused-domain µops are not derived from them`;
  }
  return null;
}

/** Each blocker's combination: its size is 1 / its reciprocal throughput; its ports are the
 *  hypothesis' when the sizes agree; subsets from the hypothesis' ports, or measured (a blocker
 *  whose µop runs only on another's ports adds 1/size cycles to that one's block). */
function measureCombinations(
  runner: Runner,
  blockers: readonly Blocker[],
  rejected: string[],
  dispatch: number,
): Combination[] {
  let list: (Combination & { b: Blocker; tp: number })[] = [];
  for (const b of blockers) {
    const n = 24;
    // the record's alternatives for a group already blocked are not needed
    if (b.ports && list.some((c) => c.ports && pname(c.ports) === pname(b.ports!))) continue;
    const tp = figure(runner, `blocker ${b.text}`, x.encode(rep(n, b.make)), n, `${n} independent ${b.text}`);
    // no usable run (every one failed or ran under contention): no combination for it
    if (!(Number.isFinite(tp.value) && tp.value > 0)) continue;
    const size = Math.max(1, Math.round(1 / tp.value));
    // a blocker the record names ports for blocks them only when its own throughput shows that
    // many pipes: otherwise the record's group is not what it saturates here, and it is left out
    // (said in the output) rather than kept under a name its measurement contradicts
    if (b.ports && b.ports.length !== size) {
      rejected.push(
        `${b.text}: ${tp.value.toFixed(2)} cycles each, ${size} pipe(s), not the record's ${b.ports.length}: not used as a blocker`,
      );
      continue;
    }
    const known = b.ports && b.ports.length === size ? b.ports : undefined;
    const name = known ? pname(known) : `ports of ${b.text} (${size})`;
    if (list.some((c) => c.name === name)) continue;
    list.push({ name, blocker: b.text, size, ...(known ? { ports: known } : {}), subsets: [], b, tp: tp.value });
  }
  list = verifyOverlaps(runner, list, rejected, dispatch);
  for (const c of list) {
    for (const d of list) {
      if (c === d || d.size >= c.size) continue;
      let sub: boolean;
      if (c.ports && d.ports) sub = d.ports.every((p) => c.ports!.includes(p));
      else {
        const u = confined(runner, c.b, c.size, (k) => [d.b.make(k + 3)], 1);
        sub = u > 0.75;
      }
      if (sub) c.subsets.push(d.name);
    }
  }
  return list.map(({ b: _b, tp: _tp, ...c }) => c);
}

/**
 * The record's pipe groups checked against each other: two blockers of known ports, 12 of each
 * interleaved, run on as many pipes as the union of their groups (FMUL FP0/1 and FADD FP2/3: 4;
 * two groups sharing a pipe: fewer). A pair whose union is as wide as dispatch is not tested (the
 * block would measure dispatch). Where a pair contradicts the record, the blocker in the most
 * contradictions (the later candidate on a tie) is left out, until none is left: its record group
 * is not what it blocks here (on the Zen 4 this was developed on, vpmuludq shares FMUL's two pipes,
 * where the record has FP0/FP3).
 */
function verifyOverlaps<T extends Combination & { b: Blocker }>(
  runner: Runner,
  list: T[],
  rejected: string[],
  dispatch: number,
): T[] {
  const known = list.filter((c) => c.ports);
  const bad: [T, T, number, number][] = [];
  for (let i = 0; i < known.length; i++)
    for (let j = i + 1; j < known.length; j++) {
      const a = known[i]!,
        b = known[j]!;
      const union = new Set([...a.ports!, ...b.ports!]).size;
      if (!(union < dispatch - 0.5)) continue;
      // the record's cycles for n of each: the busiest of each group alone and their union
      // (imul's one pipe inside add's four: n cycles; FMUL's and FADD's pairs: 2n over 4)
      const predicted = Math.max(1 / a.ports!.length, 1 / b.ports!.length, 2 / union);
      const n = 12;
      const f = figure(
        runner,
        `blockers ${a.blocker} + ${b.blocker}`,
        x.encode(rep(n, (k) => [a.b.make(k), b.b.make(k + 3)])),
        2 * n,
        `${n} ${a.blocker} and ${n} ${b.blocker} interleaved`,
      );
      if (!(Number.isFinite(f.value) && f.value > 0)) continue;
      // per instance of the 2n: as many pipes as the record's groups keep busy
      const pipes = Math.round(1 / f.value);
      const want = Math.round(2 / predicted);
      if (pipes !== want) bad.push([a, b, pipes, want]);
    }
  const out = [...list];
  let left = bad;
  while (left.length) {
    const count = (c: T): number => left.filter(([a, b]) => a === c || b === c).length;
    const worst = out.reduce((w, c) => (count(c) >= count(w) ? c : w));
    const why = left
      .filter(([a, b]) => a === worst || b === worst)
      .map(
        ([a, b, pipes, want]) =>
          `with ${(a === worst ? b : a).blocker} it keeps ${pipes} pipes busy, the record's groups ${want}`,
      )
      .join('; ');
    rejected.push(`${worst.blocker}: ${why}: not used as a blocker`);
    out.splice(out.indexOf(worst), 1);
    left = left.filter(([a, b]) => a !== worst && b !== worst);
  }
  return out;
}

/** µops of a form (instances made by `make`) confined to the blocker's combination: the extra
 *  cycles a block of the blocker takes with them, times the combination's size. `extra` are
 *  instructions each instance needs beside the form (dependency breakers): the block is timed
 *  with them, without the form, as the base. */
export function confined(
  runner: Runner,
  b: Blocker,
  size: number,
  make: (k: number) => Instruction[],
  instances: number,
  atLeast = 8,
  extra?: (k: number) => Instruction[],
  starts?: Starts,
): number {
  const n = Math.max(atLeast, size * 8);
  if (!(n > 0)) return NaN; // a size or length from a benchmark without a usable run
  const blk = (k: number): Instruction[] => rep(n, (j) => b.make(j + k * n));
  const base = extra
    ? runner.run({
        name: `block ${b.text} ×${n} + breakers`,
        code: x.encode(rep(instances, (k) => [...blk(k), ...extra(k)])),
        ...starts,
      }).cycles / instances
    : blockCycles(runner, b, n, instances);
  const withForm = runner.run({
    name: `block ${b.text} ×${n} + form`,
    code: x.encode(rep(instances, (k) => [...blk(k), ...(extra ? extra(k) : []), ...make(k)])),
    ...starts,
  });
  return (withForm.cycles / instances - base) * size;
}

const blockCache = new WeakMap<Runner, Map<string, number>>();

/** Cycles of one block of n blocker instances, timed as `instances` blocks in one body, as the
 *  block with the form is: the harness's loop branch and counter (an ALU µop) then weigh the same
 *  in both, and do not show as µops of the form on the ALUs (negative ones, once). */
function blockCycles(runner: Runner, b: Blocker, n: number, instances: number): number {
  let m = blockCache.get(runner);
  if (!m) {
    m = new Map();
    blockCache.set(runner, m);
  }
  const key = `${b.text}/${n}/${instances}`;
  const hit = m.get(key);
  if (hit !== undefined) return hit;
  const t = runner.run({ name: `block ${b.text} ×${n}`, code: x.encode(rep(n * instances, b.make)) });
  const per = t.cycles / instances;
  m.set(key, per);
  return per;
}
