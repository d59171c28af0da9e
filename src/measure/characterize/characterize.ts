// The characterization of one form (uops.info's method, Abel & Reineke 2019, §5), from cycles
// alone: latency per operand pair with dependency chains (§5.2), reciprocal throughput with
// independent instances, with and without dependency-breaking instructions (§5.3), port usage
// with blocking instructions (§5.1, Algorithm 1, the µops on a combination inferred from the
// extra cycles of a block that saturates it), fused-domain µops from rename-bound blocks, and
// the divider's occupancy. The design of each benchmark: docs/characterize.md.

import type { Instruction } from '../../disasm/iced.js';
import type { PortGroup } from '../../data/types.js';
import { instance, type Assignment, type FormSpec, type Slot } from './forms.js';
import { confined, figure, fusedBetweenNops, pname, type Blocker } from './machine.js';
import type { Runner, Starts, VectorStart } from './runner.js';
import type { Combination, Figure, FormResult, LatencyFigure, MachineResult, PortUse } from './types.js';
import * as x from './x86.js';
import type { RegClass } from './x86.js';

interface CharacterizeOptions {
  machine: MachineResult;
  /** the blockers, in the order of machine.combinations (same blocker texts) */
  blockers: readonly Blocker[];
  /** the LLVM model's port groups for the form on the host's core (the hypothesis) */
  hypothesis?: PortGroup[];
  /** the ports of each of the record's scheduler queues, when it steers µops evenly over them
   *  whatever they hold (Zen): a µop steered to a queue whose pipes of a group are all blocked
   *  waits there although the group's other pipes are free (see measureCombinations) */
  steeredQueues?: number[][];
}

/** An operand as a latency source or destination. */
interface End {
  label: string;
  /** 'index': a gather's vector index; 'kmask': its AVX-512 opmask */
  kind: 'reg' | 'flags' | 'addr' | 'mem' | 'index' | 'kmask';
  cls?: RegClass;
  /** the explicit slot, or the implicit register's number */
  slot?: Slot;
  fixed?: number;
}

const family = (c: RegClass | undefined): 'gpr' | 'vec' | 'k' | 'mm' | undefined =>
  c === undefined ? undefined : c.startsWith('gpr') ? 'gpr' : x.VECTOR.has(c) ? 'vec' : (c as 'k' | 'mm');

/** Hands out registers: general-purpose (never rsp, r15) and vector, avoiding `taken`. */
class Alloc {
  private gi = 0;
  private vi = 0;
  constructor(
    private readonly taken: Set<number>,
    private readonly gprs: readonly number[] = x.GPR_POOL,
    private readonly vecs: readonly number[] = x.VEC_POOL,
  ) {}
  gpr(): number {
    while (this.gi < this.gprs.length) {
      const n = this.gprs[this.gi++]!;
      if (!this.taken.has(n)) {
        this.taken.add(n);
        return n;
      }
    }
    throw new RangeError('out of general-purpose registers');
  }
  vec(): number {
    if (this.vi >= this.vecs.length) throw new RangeError('out of vector registers');
    return this.vecs[this.vi++]!;
  }
  of(cls: RegClass): number {
    return family(cls) === 'vec' ? this.vec() : cls === 'k' ? 1 + (this.vi++ % 7) : this.gpr();
  }
  private ki = 0;
  /** an opmask register, k1 … k7 in turn (k0 cannot mask a gather; instances share them when
   *  more than 7: each instance's reset writes its mask anew) */
  k(): number {
    return 1 + (this.ki++ % 7);
  }
}

const rep = <T>(n: number, f: (k: number) => T | T[]): T[] => Array.from({ length: n }, (_, k) => f(k)).flat() as T[];

/** Instances per latency benchmark. */
const PER = 4;
/** The most code a benchmark's body may have: the harness's limit (src/measure/harness.ts). */
const MAX_BODY = 4096;

/** Characterizes `form` on `runner`. */
export function characterizeForm(runner: Runner, form: FormSpec, opts: CharacterizeOptions): FormResult {
  const c = new FormBenches(runner, form);
  const latencies = measureLatencies(c);
  // a gather's mask is empty after its first instance: only instances after a reset of their
  // mask are a gather's throughput (throughputBroken)
  const throughput = form.gather ? undefined : throughputOf(c, false);
  if (form.gather)
    c.notes.push(
      "throughput: only with the mask reset before each gather (it clears its mask); the reset's cost is included, as a dependency breaker's",
    );
  const throughputBroken = c.rwImplicit ? throughputOf(c, true) : undefined;
  const tp = Math.min(throughput?.value ?? Infinity, throughputBroken?.value ?? Infinity);
  const W = opts.machine.renameWidth.value;
  const fusedUops = fusedDomainUops(c, opts.machine, tp);
  noDependency(latencies, tp);
  if (form.gather) throughputBound(latencies, tp);
  const eliminated = markEliminated(latencies, W);
  const { ports, portsFrom, portsInconsistent } = portUsage(c, opts, latencies, tp);
  // a form executed at rename runs as fast as rename and its elimination resources let it: its
  // rate bounds no pipe and is not the form's to compare or simulate with
  let plain = throughput;
  if (eliminated && throughput && Number.isFinite(throughput.value)) {
    c.notMeasurable.push(
      `throughput: ${throughput.value.toFixed(2)} cycles per instance measured, set by rename (the form is executed there), not by a pipe: not the form's own figure`,
    );
    plain = undefined;
  }
  const unfusedUops = ports.reduce((s, p) => s + p.count, 0);
  if (
    fusedUops &&
    Number.isFinite(fusedUops.value) &&
    unfusedUops > 0 &&
    fusedUops.value > unfusedUops + 0.25 &&
    !eliminated
  ) {
    c.notes.push(
      `fused-domain µops (${fusedUops.value}) exceed the port usage's ${unfusedUops}: µops on ports without a blocking instruction`,
    );
  }
  // the divider: the reciprocal throughput of independent divisions
  let divCycles: Figure | undefined;
  const div = form.division ? (throughputBroken ?? throughput) : undefined;
  if (div)
    divCycles = {
      ...div,
      method: `the reciprocal throughput of independent divisions (${div.method}); operands: the harness's pattern values`,
    };
  return {
    key: form.key,
    intel: form.intel,
    latencies,
    ...(plain ? { throughput: plain } : {}),
    ...(throughputBroken ? { throughputBroken } : {}),
    ...(fusedUops ? { fusedUops } : {}),
    ...(unfusedUops > 0 ? { unfusedUops } : {}),
    ports,
    portsFrom,
    ...(portsInconsistent ? { portsInconsistent } : {}),
    ...(divCycles ? { divCycles } : {}),
    ...(eliminated ? { eliminated } : {}),
    notes: c.notes,
    notMeasurable: c.notMeasurable,
    benches: c.benches,
  };
}

/** One form's benchmarks: runs them and counts them, hands out its registers, keeps the notes and
 *  the latencies measured so far that later benchmarks subtract. */
class FormBenches {
  benches = 0;
  readonly notes: string[] = [];
  /** figures a counter-less host cannot measure for this form, and why (not failures) */
  readonly notMeasurable: string[] = [];
  /** general-purpose registers the form names itself (implicit or fixed operands) */
  readonly fixedGprs: Set<number>;
  /** whether the form reads and writes flags or an implicit register (a dependency across instances) */
  readonly rwImplicit: boolean;
  /** a division starts with the dividend's high half at 0 (as prepare.ts divisionStarts): the
   *  harness's pattern there would overflow the quotient; later divisions leave the remainder */
  readonly startValues: { number: number; value: bigint }[] | undefined;
  /** each destination's latency through itself (the form chained alone) */
  readonly selfLat = new Map<string, number>();
  private readonly chainLatency = new Map<string, number>();

  constructor(
    readonly runner: Runner,
    readonly form: FormSpec,
  ) {
    this.startValues = form.division && form.implicitReads.includes(2) ? [{ number: 2, value: 0n }] : undefined;
    this.fixedGprs = new Set<number>([
      ...form.implicitReads,
      ...form.implicitWrites,
      ...form.slots.filter((s) => s.fixed !== undefined && family(s.cls) === 'gpr').map((s) => s.fixed!),
    ]);
    // a gather clears its mask: every instance needs the reset, a dependency breaker
    this.rwImplicit =
      form.flagsRead || form.implicitReads.some((n) => form.implicitWrites.includes(n)) || !!form.gather;
  }

  /** vector registers the benchmark being built needs started (a gather's index, all-ones) */
  private vectorStarts = new Map<number, VectorStart>();

  /** The start values of the benchmark built since the last call (then forgotten). */
  takeStarts(): Starts {
    const vectorStarts = [...this.vectorStarts.values()];
    this.vectorStarts.clear();
    return {
      ...(this.startValues ? { startValues: this.startValues } : {}),
      ...(vectorStarts.length ? { vectorStarts } : {}),
    };
  }

  /** Register `n` starts with lanes 1, 2, … (a gather's index) or all ones. */
  startVector(n: number, lanes: VectorStart['lanes'], element: 4 | 8, width: VectorStart['width']): void {
    this.vectorStarts.set(n, { number: n, lanes, element, width });
  }

  run(name: string, code: Instruction[], per: number, method: string, starts: Starts = this.takeStarts()): Figure {
    this.benches++;
    return figure(this.runner, `${this.form.key}: ${name}`, x.encode(code), per, method, starts);
  }

  /**
   * A latency chain of `n` units per body: cycles per unit. A gather's chain is timed at n and 2n
   * units and the difference taken: in a chain of gathers the harness's loop costs a cycle and a
   * half per body (Zen 4: 4 and 8 index chains per body gave 16.36 and 16.18 cycles per unit,
   * their difference 16.00), which dividing by n would spread over the units.
   */
  chain(name: string, unit: () => Instruction[], n: number, method: string): Figure {
    if (!this.form.gather) return this.run(name, rep(n, unit), n, method);
    const starts = this.takeStarts();
    const one = this.run(`${name} ×${n}`, rep(n, unit), 1, method, starts);
    const two = this.run(`${name} ×${2 * n}`, rep(2 * n, unit), 1, method, starts);
    const kept =
      one.kept && two.kept
        ? { kept: { kept: one.kept.kept + two.kept.kept, tried: one.kept.tried + two.kept.tried } }
        : {};
    const inconsistent = one.inconsistent ?? two.inconsistent;
    return {
      value: (two.value - one.value) / n,
      spread: Math.max(one.spread, two.spread),
      method: `${method}, timed at ${n} and ${2 * n} per body and the difference taken`,
      ...kept,
      ...(inconsistent ? { inconsistent } : {}),
    };
  }

  /** A fresh assignment: every renamable register slot its own register, the memory operand its
   *  own base; a gather's index, opmask and the registers its helper instructions read. */
  assign(alloc: Alloc, ones = false): Assignment & GatherRegs {
    const regs = new Map<number, number>();
    for (const s of this.form.slots) if (s.kind === 'reg' && s.fixed === undefined) regs.set(s.op, alloc.of(s.cls!));
    const hasMem = this.form.slots.some((s) => s.kind === 'mem');
    const a: Assignment & GatherRegs = { regs, ...(hasMem ? { base: alloc.gpr() } : {}) };
    if (this.form.gather) Object.assign(a, this.gatherRegs(alloc, ones));
    return a;
  }

  /** A gather's index (its lanes started at 1, 2, …), opmask, the reset's source register and,
   *  when asked, a register of all ones (started so: no instruction of the benchmark writes it). */
  gatherRegs(alloc: Alloc, ones = false): GatherRegs & Pick<Assignment, 'index' | 'kmask'> {
    const g = this.form.gather!;
    const index = alloc.vec();
    this.startVector(index, 'ordinal', g.indexElement, g.index);
    const out: GatherRegs & Pick<Assignment, 'index' | 'kmask'> = { index };
    if (g.mask.kind === 'k') out.kmask = alloc.k();
    else out.zero = alloc.vec();
    if (ones && g.mask.kind === 'vec') {
      out.ones = alloc.vec();
      this.startVector(out.ones, 'ones', 8, g.mask.cls);
    }
    return out;
  }

  /** The instruction that resets a gather's mask before an instance: it reads a register nothing
   *  writes, so it depends on nothing (docs/characterize.md, Gathers). */
  reset(a: Assignment & GatherRegs): Instruction {
    const g = this.form.gather!;
    if (g.mask.kind === 'k') return x.kxnorOnes(a.kmask!);
    return x.vpcmpeqdOnes(g.mask.cls, a.regs.get(g.mask.op)!, a.zero!);
  }

  /** Instructions that overwrite the form's read-and-written flags and implicit registers, and a
   *  gather's mask (its reset, for the instance of `a`). */
  breakers(scratch: number | undefined, a?: Assignment & GatherRegs): Instruction[] {
    const brk: Instruction[] = [];
    if (this.form.gather && a) brk.push(this.reset(a));
    if (this.form.flagsRead) brk.push(flagBreaker(scratch!));
    for (const n of this.form.implicitReads)
      if (this.form.implicitWrites.includes(n))
        brk.push(this.form.division && n === 0 ? x.movImm32(0, 0x2324000) : x.xor32(n, n));
    return brk;
  }

  /** Whether another operand than s and d is read and written (its chain may set the pace); a
   *  gather's mask is reset before each instance, so it carries no chain. */
  otherRw(s: End, d: End): boolean {
    const form = this.form;
    const mask = form.gather?.mask.kind === 'vec' ? form.gather.mask.op : -1;
    return (
      form.slots.some((t) => t.kind === 'reg' && t.read && t.write && t !== s.slot && t !== d.slot && t.op !== mask) ||
      form.implicitReads.some((n) => form.implicitWrites.includes(n) && n !== s.fixed && n !== d.fixed)
    );
  }

  /** A chain instruction's latency, measured once per form. */
  known(key: string, code: () => Instruction[], per: number): number {
    const hit = this.chainLatency.get(key);
    if (hit !== undefined) return hit;
    const f = this.run(`chain ${key}`, code(), per, key);
    this.chainLatency.set(key, f.value);
    return f.value;
  }

  latGprChain(): number {
    return this.known('movsxd r64, r32', () => rep(8, () => [x.movsxd(3, 0), x.movsxd(0, 3)]), 16);
  }

  latVecChain(cls: 'xmm' | 'ymm' | 'zmm'): number {
    const vex = this.form.vex;
    return this.known(
      `pshufd ${cls}${vex ? ' (VEX)' : ''}`,
      () => rep(8, () => [x.pshufd(cls, vex, 1, 0), x.pshufd(cls, vex, 0, 1)]),
      16,
    );
  }

  latXor(): number {
    return this.known('xor r64, r64', () => rep(16, () => x.xor64(0, 3)), 16);
  }

  latVpxor(cls: 'xmm' | 'ymm' | 'zmm'): number {
    return this.known(`vpxor ${cls}`, () => rep(16, () => x.vpxor(cls, 0, 0, 1)), 16);
  }

  /** Chain instruction writing `s`'s register from `d`'s. */
  chainOf(s: End, d: End, a: Assignment): { ins: Instruction; lat: number } | null {
    const sr = regOf(s, a)!,
      dr = regOf(d, a)!;
    if (family(s.cls) === 'gpr' && family(d.cls) === 'gpr') {
      const ins = d.cls === 'gpr16' ? x.movsx16(sr, dr) : d.cls === 'gpr8' ? x.movsx8(sr, dr) : x.movsxd(sr, dr);
      return { ins, lat: this.latGprChain() };
    }
    if (family(s.cls) === 'vec' && family(d.cls) === 'vec') {
      const cls = s.cls as 'xmm' | 'ymm' | 'zmm';
      return { ins: x.pshufd(cls, this.form.vex || cls !== 'xmm', sr, dr), lat: this.latVecChain(cls) };
    }
    return null;
  }
}

const flagBreaker = (scratch: number): Instruction => x.xor32(scratch, scratch);

/** Registers a gather's benchmark reads beside the form's: the source of its mask's reset (AVX2)
 *  and a register of all ones (the chain from the result into the mask). */
interface GatherRegs {
  zero?: number;
  ones?: number;
}

const WIDTH = { xmm: 16, ymm: 32, zmm: 64 } as const;
const wider = (p: 'xmm' | 'ymm' | 'zmm', q: 'xmm' | 'ymm' | 'zmm'): 'xmm' | 'ymm' | 'zmm' =>
  WIDTH[p] >= WIDTH[q] ? p : q;

const regOf = (e: End, a: Assignment): number | undefined => e.fixed ?? (e.slot ? a.regs.get(e.slot.op) : undefined);

const sameEnd = (s: End, d: End): boolean =>
  (s.kind === 'flags' && d.kind === 'flags') ||
  (s.kind === 'reg' &&
    d.kind === 'reg' &&
    family(s.cls) === family(d.cls) &&
    ((s.slot !== undefined && s.slot === d.slot) || (s.fixed !== undefined && s.fixed === d.fixed)));

/** The ends of the latency pairs: what the form reads (sources) and writes (destinations). */
function latencyEnds(form: FormSpec): { sources: End[]; dests: End[] } {
  const sources: End[] = [];
  const dests: End[] = [];
  const g = form.gather;
  form.slots.forEach((s) => {
    const label = `op${s.ref ?? s.op}`;
    if (s.kind === 'reg') {
      const e: End = {
        label: `${label} (${s.cls})`,
        kind: 'reg',
        cls: s.cls!,
        slot: s,
        ...(s.fixed !== undefined ? { fixed: s.fixed } : {}),
      };
      if (s.read) sources.push(e);
      // a gather's mask is cleared as it completes: every benchmark resets it (no latency into it)
      if (s.write && !(g?.mask.kind === 'vec' && g.mask.op === s.op)) dests.push(e);
    } else if (s.kind === 'mem') {
      sources.push({ label: `${label} address`, kind: 'addr', slot: s });
      if (g) sources.push({ label: `${label} index`, kind: 'index', cls: g.index, slot: s });
      if (s.read) sources.push({ label: `${label} (memory)`, kind: 'mem', slot: s });
      if (s.write) dests.push({ label: `${label} (memory)`, kind: 'mem', slot: s });
    }
  });
  for (const n of form.implicitReads) sources.push({ label: regName(n), kind: 'reg', cls: 'gpr64', fixed: n });
  for (const n of form.implicitWrites) dests.push({ label: regName(n), kind: 'reg', cls: 'gpr64', fixed: n });
  if (form.flagsRead) sources.push({ label: 'flags', kind: 'flags' });
  if (form.flagsWritten) dests.push({ label: 'flags', kind: 'flags' });
  if (g?.mask.kind === 'k') sources.push({ label: 'op1 (k)', kind: 'kmask', cls: 'k' });
  return { sources, dests };
}

/** The latency of every source–destination pair, each operand through itself first (§5.2). */
function measureLatencies(c: FormBenches): LatencyFigure[] {
  const { sources, dests } = latencyEnds(c.form);
  const latencies: LatencyFigure[] = [];
  if (c.form.gather)
    c.notMeasurable.push(
      'latencies into the mask (the gather clears it as it completes): every benchmark resets the mask before the next gather, so nothing waits for the cleared one',
    );
  const ordered: [End, End][] = [];
  for (const d of dests) for (const s of sources) if (sameEnd(s, d)) ordered.push([s, d]);
  for (const d of dests) for (const s of sources) if (!sameEnd(s, d)) ordered.push([s, d]);
  for (const [s, d] of ordered) {
    try {
      const lf = latencyOf(c, s, d);
      if (lf) latencies.push(lf);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      c.notes.push(`${s.label} → ${d.label}: not measured (${e.message})`);
    }
  }
  return latencies;
}

/** The registers and instances of one latency benchmark. */
interface LatencyBench {
  c: FormBenches;
  a: Assignment & GatherRegs;
  scratch: number;
  /** one instance of the form (after a flags breaker when the flags are not the source) */
  I: () => Instruction[];
  pair: string;
  /** another operand is read and written: the figure may be its chain's */
  upper: boolean;
}

function latencyOf(c: FormBenches, s: End, d: End): LatencyFigure | null {
  const g = c.form.gather;
  const maskSource = g?.mask.kind === 'vec' && s.slot?.op === g.mask.op && s.kind === 'reg';
  if (s.kind === 'kmask') {
    c.notMeasurable.push(
      `latency ${s.label} → ${d.label}: a chain from the result into an opmask goes through an instruction of another class (vpmov*2m), which cannot be isolated without counters`,
    );
    return null;
  }
  if (s.kind === 'mem' || d.kind === 'mem') {
    c.notes.push(`${s.label} → ${d.label}: through memory, not measured`);
    return null;
  }
  c.takeStarts(); // a benchmark given up on before it ran leaves no start behind
  const alloc = new Alloc(new Set(c.fixedGprs));
  const a = c.assign(alloc, maskSource);
  const scratch = alloc.gpr();
  const breakFlags = c.form.flagsRead && s.kind !== 'flags' ? [flagBreaker(scratch)] : [];
  // a gather's mask is reset before each instance, but where the chain runs through the mask
  const reset = g && !maskSource ? () => [c.reset(a)] : () => [];
  const b: LatencyBench = {
    c,
    a,
    scratch,
    I: () => [...breakFlags, ...reset(), instance(c.form, a)],
    pair: `${s.label} → ${d.label}`,
    upper: c.otherRw(s, d),
  };
  if (g && (s.kind === 'index' || maskSource)) return gatherXorLatency(b, s, d);
  if (sameEnd(s, d)) return selfLatency(b, s, d);
  if (s.kind === 'addr') return addressLatency(b, s, d);
  // different operands: a chain instruction from d back to s
  if (s.kind === 'reg' && d.kind === 'reg') {
    const chain = c.chainOf(s, d, a);
    if (chain) return chainedLatency(b, s, d, chain);
  }
  return crossClassLatency(b, s, d);
}

/**
 * A gather's result into its vector index or its AVX2 mask, by two vpxor (§5.2.2's xor into the
 * base, in the vector registers): `index ^= result` twice leaves the index as it was (lanes 1, 2,
 * …: the next gather reads inside the harness's memory again) with the result on its chain; the
 * mask is made again as `ones ^ result ^ result` (all ones, the reset the chain replaces). The
 * vpxor pair's measured latency is subtracted. The destination is also read (the lanes a mask
 * leaves out keep their value): when the chain is no slower than the destination's own, the
 * figure is an upper bound, as for a chain instruction.
 */
function gatherXorLatency({ c, a, I, pair, upper }: LatencyBench, s: End, d: End): LatencyFigure {
  const g = c.form.gather!;
  const dr = regOf(d, a)!;
  const into = s.kind === 'index' ? a.index! : a.regs.get(g.mask.kind === 'vec' ? g.mask.op : -1)!;
  const intoCls = s.kind === 'index' ? g.index : (s.cls as 'xmm' | 'ymm');
  // as wide as the wider of the two, so that the whole result is on the chain (a wider write to
  // the index leaves the lanes the gather reads as they were)
  const cls = wider(intoCls, d.cls as 'xmm' | 'ymm' | 'zmm');
  const first = s.kind === 'index' ? x.vpxor(cls, into, into, dr) : x.vpxor(cls, into, a.ones!, dr);
  const f = c.chain(
    `lat ${pair}`,
    () => [...I(), first, x.vpxor(cls, into, into, dr)],
    PER,
    s.kind === 'index'
      ? 'the result into the index by vpxor index, result twice (the index unchanged)'
      : 'the result into the mask by vpxor mask, ones, result and vpxor mask, result (the mask all ones again)',
  );
  const lx = c.latVpxor(cls);
  const self = c.selfLat.get(d.label);
  const bounded = upper || (self !== undefined && Math.abs(f.value - self) < 0.15);
  return {
    ...f,
    value: Math.max(0, f.value - 2 * lx),
    from: s.label,
    to: d.label,
    ...(bounded ? { upperBound: true } : {}),
    method: `${f.method}, minus 2 × vpxor's measured latency (${lx.toFixed(2)})${bounded ? '; the destination is also read, so its own chain may set the pace: an upper bound' : ''}`,
  };
}

/** An operand through itself: a chain of the form alone. */
function selfLatency({ c, I, pair, upper }: LatencyBench, s: End, d: End): LatencyFigure {
  const f = c.chain(`lat ${pair}`, I, 8, `a chain of the form through ${d.label}`);
  c.selfLat.set(d.label, f.value);
  return {
    ...f,
    from: s.label,
    to: d.label,
    ...(upper
      ? { upperBound: true, method: `${f.method}; another operand is read and written, so the chain may be its` }
      : {}),
  };
}

/** The result into the memory operand's address: through xor (general-purpose) or movq (vector). */
function addressLatency({ c, a, scratch, I, pair }: LatencyBench, s: End, d: End): LatencyFigure | null {
  const base = a.base!;
  if (d.kind === 'reg' && family(d.cls) === 'gpr') {
    const dr = regOf(d, a)!;
    const f = c.run(
      `lat ${pair}`,
      rep(PER, () => [...I(), x.xor64(base, dr), x.xor64(base, dr), flagBreaker(scratch)]),
      PER,
      'the result into the address by xor base, result twice (the base unchanged)',
    );
    const v = f.value - 2 * c.latXor();
    return { ...f, value: v, from: s.label, to: d.label, method: `${f.method}, minus 2 × xor's measured latency` };
  }
  if (d.kind === 'reg' && family(d.cls) === 'vec') {
    const g = scratch;
    const f = c.chain(
      `lat ${pair}`,
      () => [...I(), x.movqToGpr(g, regOf(d, a)!), x.xor64(base, g), x.xor64(base, g)],
      PER,
      'the result into the address by movq, then xor base twice',
    );
    return {
      ...f,
      value: f.value - 2 * c.latXor() - 1,
      upperBound: true,
      from: s.label,
      to: d.label,
      method: `${f.method}, minus xor's latency twice and 1 for movq: an upper bound`,
    };
  }
  c.notes.push(`${pair}: not measured (no chain from ${d.label} to an address)`);
  return null;
}

/** Two registers of one class: the form and a chain instruction of measured latency back. */
function chainedLatency(
  { c, I, pair, upper }: LatencyBench,
  s: End,
  d: End,
  chain: { ins: Instruction; lat: number },
): LatencyFigure {
  const f = c.run(
    `lat ${pair}`,
    rep(PER, () => [...I(), chain.ins]),
    PER,
    'the form and a chain instruction of measured latency',
  );
  let v = f.value - chain.lat;
  const self = c.selfLat.get(d.label);
  const bounded = upper || (self !== undefined && Math.abs(f.value - self) < 0.15);
  if (v < 0) v = 0;
  return {
    ...f,
    value: v,
    from: s.label,
    to: d.label,
    ...(bounded ? { upperBound: true } : {}),
    method: `${f.method} (${chain.lat.toFixed(2)} subtracted)${bounded ? '; the destination is also read, so its own chain may set the pace: an upper bound' : ''}`,
  };
}

/** Different classes: compose with the reverse chain instruction and subtract 1 (an upper bound). */
function crossClassLatency({ c, a, pair }: LatencyBench, s: End, d: End): LatencyFigure | null {
  const sr = s.kind === 'reg' ? regOf(s, a) : undefined;
  const dr = d.kind === 'reg' ? regOf(d, a) : undefined;
  let back: Instruction[] | null = null;
  if (s.kind === 'flags' && d.kind === 'reg' && family(d.cls) === 'gpr') back = [x.test64(dr!)];
  else if (s.kind === 'reg' && family(s.cls) === 'gpr' && d.kind === 'flags') back = [x.cmovb(sr!, sr!)];
  else if (s.kind === 'reg' && family(s.cls) === 'vec' && d.kind === 'reg' && family(d.cls) === 'gpr')
    back = [x.movqToVec(sr!, dr!)];
  else if (s.kind === 'reg' && family(s.cls) === 'gpr' && d.kind === 'reg' && family(d.cls) === 'vec')
    back = [x.movqToGpr(sr!, dr!)];
  if (!back) {
    c.notes.push(`${pair}: not measured (no chain instruction between these classes)`);
    return null;
  }
  const f = c.run(
    `lat ${pair}`,
    rep(PER, () => [instance(c.form, a), ...back!]),
    PER,
    'the form composed with a chain instruction of the other class',
  );
  return {
    ...f,
    value: Math.max(0, f.value - 1),
    upperBound: true,
    from: s.label,
    to: d.label,
    method: `${f.method}, minus 1: an upper bound (the pair cannot be isolated)`,
  };
}

/** `k` independent instances, repeated to at least 16, each after `breakers` when asked. */
function independent(c: FormBenches, k: number, breakers: boolean): { code: Instruction[]; count: number } {
  const form = c.form;
  const taken = new Set(c.fixedGprs);
  const alloc = new Alloc(taken);
  const shared = new Map<number, number>();
  for (const s of form.slots)
    if (s.kind === 'reg' && s.fixed === undefined && !s.write) shared.set(s.op, alloc.of(s.cls!));
  const memRw = form.slots.some((s) => s.kind === 'mem' && s.write);
  const sharedBase = form.slots.some((s) => s.kind === 'mem') && !memRw ? alloc.gpr() : undefined;
  const scratch = breakers ? alloc.gpr() : undefined;
  // a gather's index and its reset's source are read only: shared, as the read-only registers
  const gather = form.gather ? c.gatherRegs(alloc) : undefined;
  const insts: Instruction[][] = [];
  for (let i = 0; i < k; i++) {
    const regs = new Map(shared);
    for (const s of form.slots)
      if (s.kind === 'reg' && s.fixed === undefined && s.write) regs.set(s.op, alloc.of(s.cls!));
    const base = form.slots.some((s) => s.kind === 'mem') ? (sharedBase ?? alloc.gpr()) : undefined;
    const a: Assignment & GatherRegs = {
      regs,
      ...(base !== undefined ? { base } : {}),
      ...(gather ? { ...gather, ...(gather.kmask !== undefined ? { kmask: alloc.k() } : {}) } : {}),
    };
    const brk = breakers ? c.breakers(scratch, a) : [];
    insts.push([...brk, instance(form, a)]);
  }
  const reps = Math.max(1, Math.ceil(16 / k));
  return { code: rep(reps, () => insts.flat()), count: reps * k };
}

/** The reciprocal throughput (§5.3): the lowest of 8 and 4 independent instances (1 when registers run out). */
function throughputOf(c: FormBenches, breakers: boolean): Figure | undefined {
  let best: Figure | undefined;
  for (const k of [8, 4, 1]) {
    let b: { code: Instruction[]; count: number };
    try {
      b = independent(c, k, breakers);
    } catch (e) {
      if (e instanceof RangeError) continue;
      throw e;
    }
    const f = c.run(
      `tp ×${k}${breakers ? ' with breakers' : ''}`,
      b.code,
      b.count,
      `${k} independent instances${breakers ? ', each after instructions that overwrite its implicit read-and-written operands' : ''}, the lowest of 8 and 4`,
    );
    if (!best || f.value < best.value) best = f;
    if (k === 4) break;
  }
  return best;
}

/** Fused-domain µops: a rename-bound block (the form between NOPs). */
function fusedDomainUops(c: FormBenches, machine: MachineResult, tp: number): Figure | undefined {
  const W = machine.renameWidth.value;
  if (machine.fillerProblem) {
    c.notMeasurable.push(
      `fused-domain µops (macro-ops): ${machine.fillerProblem.replace(/; fused-domain \u00b5ops are not derived from them$/, '')}, and no counter counts them: the record's count is the model`,
    );
    return undefined;
  }
  if (!(Number.isFinite(tp) && W > 0)) return undefined;
  const b = independent(c, 4, c.rwImplicit);
  const each = b.code.slice(0, b.code.length / (b.count / 4));
  const f = fusedBetweenNops(c.runner, W, each, 4, tp, c.takeStarts());
  c.benches++;
  return f;
}

/**
 * An operand's chain through itself that runs as fast as independent instances (within the 5 %
 * the passes are compared by, +0.02 cycle) and under a cycle carries no dependency: the form does
 * not wait for that operand (cvtsi2sd xmm, m32 on Zen 4 does not merge into its destination's
 * old value). Its latency is 0, not the throughput the chain showed.
 */
function noDependency(latencies: LatencyFigure[], tp: number): void {
  if (!Number.isFinite(tp)) return;
  for (const l of latencies) {
    if (l.upperBound || l.from !== l.to || !(l.value < 0.9) || !(l.value <= tp * 1.05 + 0.02)) continue;
    l.method += `: ${l.value.toFixed(2)} cycles per instance, the form's own throughput (${tp.toFixed(2)}): no dependency through ${l.to}`;
    l.value = 0;
  }
}

/** A gather's chain through its destination (the lanes its mask leaves out) that runs as fast as
 *  independent gathers shows their throughput, not a wait for the destination: the dependency is
 *  at most that long, an upper bound. */
function throughputBound(latencies: LatencyFigure[], tp: number): void {
  if (!Number.isFinite(tp)) return;
  for (const l of latencies)
    if (l.from === l.to && !l.upperBound && l.value <= tp * 1.05 + 0.02) {
      l.upperBound = true;
      l.method += `: ${l.value.toFixed(2)} cycles per gather, as fast as independent gathers (${tp.toFixed(2)}): an upper bound`;
    }
}

/** An operand's chain through itself faster than 1 per cycle (with rename wider than 1) is
 *  executed at rename: those latencies become 0. Returns whether the form is eliminated. */
function markEliminated(latencies: LatencyFigure[], W: number): true | undefined {
  // every pair faster than a cycle, not only the operand through itself: cvtsi2sd xmm, m32 does
  // not wait for its destination (a chain of it is fast) yet takes 12 cycles from its address
  const measured = latencies.filter((l) => Number.isFinite(l.value));
  const self = measured.filter((l) => !l.upperBound);
  if (!(self.length > 0 && measured.every((l) => l.value < 0.9) && W > 1)) return undefined;
  for (const l of self) {
    l.method += `: ${(1 / Math.max(l.value, 1e-9)).toFixed(2)} per cycle, executed at rename`;
    l.value = 0;
  }
  return true;
}

/** The port usage (Algorithm 1, cycles instead of per-port counters), merged with the hypothesis
 *  and checked against the throughput; its notes go to the form's. */
function portUsage(
  c: FormBenches,
  opts: CharacterizeOptions,
  latencies: LatencyFigure[],
  tp: number,
): { ports: PortUse[]; portsFrom: FormResult['portsFrom']; portsInconsistent?: string } {
  const W = opts.machine.renameWidth.value;
  const combos = [...opts.machine.combinations].sort((p, q) => p.size - q.size);
  const portNotes: string[] = [];
  const undecided = new Set<string>();
  // a gather is a microcoded sequence that holds up the blocking instructions behind it: on Zen 4
  // vgatherdpd ymm showed 16 µops on ALU0–3 and 8 on ALU1/2, more than all its work, so no
  // blocking run counts its µops and the record's groups stand
  if (c.form.gather) for (const q of combos) undecided.add(q.name);
  const measuredOn = c.form.gather
    ? new Map<string, number>()
    : measureCombinations(c, opts, combos, latencies, tp, portNotes, undecided);
  const { ports, kept, dropped } = mergePorts(measuredOn, combos, opts.hypothesis, W, undecided);
  let portsFrom: FormResult['portsFrom'] = 'none';
  if (ports.some((p) => p.from === 'measured'))
    portsFrom = ports.some((p) => p.from === 'hypothesis') ? 'measured and hypothesis' : 'measured';
  else if (ports.length) portsFrom = 'hypothesis';
  if (c.form.gather)
    c.notMeasurable.push(
      `port usage${kept.length ? ` ${kept.map((p) => `${p.count}*${p.combination}`).join(' + ')}` : ''}: the record's, kept: a gather's microcoded sequence holds up the blocking instructions behind it, so their extra cycles do not count its µops (not measured)`,
    );
  else if (kept.length)
    c.notMeasurable.push(
      `port usage ${kept.map((p) => `${p.count}*${p.combination}`).join(' + ')}: the record's, kept (no blocking experiment here decides it: no verified blocker for that pipe group, or its run gave no whole count)`,
    );
  if (dropped.length)
    portNotes.push(`the record's ${dropped.join(' + ')} contradicted by the blocking experiments (dropped)`);
  // the port usage bounds the throughput from below (§5.3.2, each group alone): a measured
  // throughput faster than that bound means some experiment misattributed µops
  const bound = portBound(ports, combos);
  let portsInconsistent: string | undefined;
  if (Number.isFinite(tp) && bound > tp * 1.15 + 0.02) {
    portsInconsistent = `the port usage implies at least ${bound.toFixed(2)} cycles per instruction, the measured throughput is ${tp.toFixed(2)}: faster than those pipes allow`;
    portNotes.push(`port usage inconsistent: ${portsInconsistent}`);
  }
  c.notes.push(...portNotes);
  return { ports, portsFrom, ...(portsInconsistent ? { portsInconsistent } : {}) };
}

/**
 * Whether blocking `sub` traps µops of the larger group `sup` under the record's even steering:
 * some queue's pipes of `sup` are all in `sub` (Zen's ALU1 has a queue of its own: an add steered
 * there waits behind an imul block; each FP queue holds one pipe of each FP pair, so a µop steered
 * to either still finds a free pipe of FP0–3 when one pair is blocked).
 */
export function trapping(
  opts: Pick<CharacterizeOptions, 'steeredQueues'>,
  sub: Combination,
  sup: Combination,
): boolean {
  if (!opts.steeredQueues || !sub.ports || !sup.ports) return false;
  return opts.steeredQueues.some((q) => {
    const mine = q.filter((p) => sup.ports!.includes(p));
    return mine.length > 0 && mine.every((p) => sub.ports!.includes(p));
  });
}

/**
 * The fewest cycles per instance the port usage allows: for every union of its groups, the µops
 * confined to that union over the union's pipes (overlapping groups, as Zen's FP pipe pairs, share
 * pipes: 1*FP0/FP3 + 1*FP0/FP1 need 2 µops on 3 pipes, 0.67 cycles, not 0.5). A group without
 * port numbers counts alone, over its measured size.
 */
export function portBound(ports: readonly PortUse[], combos: readonly Combination[]): number {
  let bound = 0;
  const named = ports.filter((p) => p.ports && p.ports.length > 0);
  for (const p of ports)
    if (!(p.ports && p.ports.length > 0))
      bound = Math.max(bound, p.count / (combos.find((q) => q.name === p.combination)?.size ?? 1));
  const n = Math.min(named.length, 12);
  for (let mask = 1; mask < 1 << n; mask++) {
    const union = new Set<number>();
    for (let i = 0; i < n; i++) if (mask & (1 << i)) for (const q of named[i]!.ports!) union.add(q);
    const inside = named.filter((p) => p.ports!.every((q) => union.has(q))).reduce((s, p) => s + p.count, 0);
    bound = Math.max(bound, inside / union.size);
  }
  return bound;
}

/** The µops on each combination, smallest first, each less those on its measured subsets. */
function measureCombinations(
  c: FormBenches,
  opts: CharacterizeOptions,
  combos: Combination[],
  latencies: LatencyFigure[],
  tp: number,
  portNotes: string[],
  undecided: Set<string>,
): Map<string, number> {
  const W = opts.machine.renameWidth.value;
  const measuredOn = new Map<string, number>();
  const maxLat = Math.max(1, ...latencies.map((l) => l.value).filter(Number.isFinite));
  for (const combo of combos) {
    const b = opts.blockers.find((bl) => bl.text === combo.blocker);
    if (!b) continue;
    if (!opts.machine.fillerProblem && combo.size >= W - 0.5) {
      portNotes.push(`${combo.name}: not measured (its block would be rename-bound at ${W.toFixed(1)} per cycle)`);
      continue;
    }
    const made = blockedInstances(c);
    if (!made) {
      portNotes.push(`${combo.name}: not measured (not enough registers beside the blocker's)`);
      continue;
    }
    const body = blockedBody(combo, b, made, maxLat, tp);
    if (!body) {
      portNotes.push(`${combo.name}: not measured (its block would exceed the harness's ${MAX_BODY} bytes of code)`);
      continue;
    }
    c.benches += made.makeBrk ? 2 : 1;
    const { instances, atLeast } = body;
    const raw = confined(c.runner, b, combo.size, made.makeForm, instances, atLeast, made.makeBrk, made.starts);
    let u = raw;
    for (const sub of combo.subsets) u -= measuredOn.get(sub) ?? 0;
    const r = Math.round(u);
    // with the record as hypothesis, a blocking run that gives no whole count (Zen's FP pipes come
    // in overlapping pairs, and a µop steered to a queue whose pipe is blocked waits although
    // another queue's pipe is free; Zen spreads integer µops evenly over its four ALU queues)
    // decides nothing: the record's group stays, said as such. A larger combination then keeps
    // its whole count, and the record's groups say where it goes (mergePorts)
    if (opts.hypothesis && (Math.abs(u - r) > 0.25 || r < 0)) {
      undecided.add(combo.name);
      c.notMeasurable.push(
        `µops on ${combo.name}: ${u.toFixed(2)} from the blocking run (${raw.toFixed(2)} before its subsets), not a whole count: which of these pipes is not measurable here, the record's group decides`,
      );
      continue;
    }
    // with even steering, a µop any pipe of the larger group could run is steered in turn into
    // the queues of the blocked subset too, and waits there: a count on a subset (ALU1, ALU1/2)
    // cannot tell "confined to these pipes" from "steered behind the block". It confirms the
    // record's group on those pipes; anything else there is not measurable here
    const inside = combos.some((q) => q.subsets.includes(combo.name) && trapping(opts, combo, q));
    if (opts.hypothesis && inside && r > 0 && !opts.hypothesis.some((g) => pname(g.ports) === combo.name)) {
      undecided.add(combo.name);
      c.notMeasurable.push(
        `µops on ${combo.name}: ${u.toFixed(2)}, where the record has none — the record's schedulers steer evenly, so a µop free to use the larger group's pipes also waits in the blocked pipes' queues: not a count here, the record's groups decide`,
      );
      continue;
    }
    // with even steering, a µop confined to a subset (imul on ALU1) waits behind its queue's
    // quarter of an ALU block: the whole group's run counts it several times over, so beyond a
    // subset that holds the form's µops the larger group's count is not the form's
    const onSubset = combo.subsets.some(
      (q) => (measuredOn.get(q) ?? 0) > 0 && trapping(opts, combos.find((x) => x.name === q)!, combo),
    );
    if (opts.hypothesis && onSubset && r > 0) {
      undecided.add(combo.name);
      c.notMeasurable.push(
        `µops on ${combo.name}: ${u.toFixed(2)} beyond its subsets' — the record's schedulers steer evenly, so a block of the whole group delays a µop confined to a subset by more than its µops: not a count here, the record's groups decide`,
      );
      continue;
    }
    if (Math.abs(u - r) > 0.25)
      portNotes.push(`${combo.name}: ${u.toFixed(2)} µops, not a whole number (kept rounded, marked)`);
    if (r > 0) measuredOn.set(combo.name, r);
  }
  return measuredOn;
}

/** A blocking run's body: how many of the form's instances it holds and the blocker instructions
 *  before each, long enough to outlast the form's latency and throughput; 8 instances, fewer
 *  where a slow form's blocks (a gather's) would not fit the harness's code; null when not even
 *  one fits. */
function blockedBody(
  combo: Combination,
  b: CharacterizeOptions['blockers'][number],
  made: NonNullable<ReturnType<typeof blockedInstances>>,
  maxLat: number,
  tp: number,
): { instances: number; atLeast: number } | null {
  // a throughput without a usable run (NaN) sets no length
  const lengthFor = (instances: number): number =>
    Math.ceil(combo.size * Math.max(8, (2 * maxLat) / instances, Number.isFinite(tp) ? 2 * tp : 0));
  const blockBytes = x.encode([b.make(0)]).length;
  const tailBytes = x.encode([...(made.makeBrk ? made.makeBrk(0) : []), ...made.makeForm(0)]).length;
  const instances = [8, 4, 2, 1].find(
    (k) => k * (Math.max(lengthFor(k), combo.size * 8) * blockBytes + tailBytes) <= MAX_BODY,
  );
  return instances === undefined ? null : { instances, atLeast: lengthFor(instances) };
}

/** The form's instances beside a blocker (registers the blocker leaves free): 4 register sets,
 *  else 2, else 1; null when not even one fits. */
function blockedInstances(c: FormBenches): {
  makeForm: (k: number) => Instruction[];
  makeBrk: ((k: number) => Instruction[]) | undefined;
  starts: Starts;
} | null {
  for (let instances = 4; instances >= 1; instances = instances === 4 ? 2 : instances - 1) {
    try {
      c.takeStarts();
      const alloc = new Alloc(new Set(c.fixedGprs), [0, 1, 2, 3, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]);
      const sets = rep(instances, () => [c.assign(alloc)]);
      const scratch = c.rwImplicit ? alloc.gpr() : undefined;
      const n = instances;
      const makeForm = (k: number) => [instance(c.form, sets[k % n]!)];
      const makeBrk = c.rwImplicit ? (k: number) => c.breakers(scratch, sets[k % n]) : undefined;
      return { makeForm, makeBrk, starts: c.takeStarts() };
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
  }
  return null;
}

/**
 * The port usage from the measured µops per combination and the hypothesis (the LLVM model's
 * groups). A measured count goes, in this order, to a hypothesis group on the same ports, to a
 * group on a strict subset that has no blocking instruction of its own (the measurement cannot
 * tell the two apart: the group is kept, marked 'hypothesis'), or to a larger group whose own
 * combination could not be measured; what is left is the measured combination's. A hypothesis
 * group nothing measured accounts for is dropped when its own combination was measured (the
 * experiment found no µop there) and kept, marked, otherwise.
 */
function mergePorts(
  measured: ReadonlyMap<string, number>,
  combos: readonly Combination[],
  hypothesis: readonly PortGroup[] | undefined,
  W: number,
  undecided: ReadonlySet<string> = new Set(),
): { ports: PortUse[]; kept: PortUse[]; dropped: string[] } {
  const decided = (name: string): boolean =>
    combos.some((q) => q.name === name && q.size < W - 0.5) && !undecided.has(name);
  const hyp = (hypothesis ?? []).map((g) => ({ count: g.count, ports: [...g.ports].sort((a, b) => a - b) }));
  const ports: PortUse[] = [];
  const add = (count: number, combination: string, p: number[] | undefined, from: PortUse['from']): void => {
    const same = ports.find((q) => q.combination === combination && q.from === from);
    if (same) same.count += count;
    else ports.push({ count, combination, ...(p ? { ports: p } : {}), from });
  };
  for (const [name, count] of measured) {
    const c = combos.find((q) => q.name === name)!;
    let left = count;
    const take = (g: { count: number }): number => {
      const t = Math.min(left, g.count);
      left -= t;
      g.count -= t;
      return t;
    };
    for (const g of hyp)
      if (left > 0 && g.count > 0 && pname(g.ports) === name) add(take(g), name, c.ports, 'measured');
    if (c.ports) {
      for (const g of hyp) {
        if (
          left > 0 &&
          g.count > 0 &&
          g.ports.length < c.ports.length &&
          g.ports.every((p) => c.ports!.includes(p)) &&
          !decided(pname(g.ports))
        )
          add(take(g), pname(g.ports), g.ports, 'hypothesis');
      }
      for (const g of hyp) {
        if (
          left > 0 &&
          g.count > 0 &&
          g.ports.length > c.ports.length &&
          c.ports.every((p) => g.ports.includes(p)) &&
          !decided(pname(g.ports))
        ) {
          take(g);
        }
      }
    }
    if (left > 0) add(left, name, c.ports, 'measured');
  }
  const kept: PortUse[] = [];
  const dropped: string[] = [];
  for (const g of hyp) {
    if (g.count <= 0) continue;
    const name = pname(g.ports);
    if (decided(name)) {
      dropped.push(`${g.count}*${name}`);
      continue;
    }
    const k: PortUse = { count: g.count, combination: name, ports: g.ports, from: 'hypothesis' };
    kept.push(k);
    add(g.count, name, g.ports, 'hypothesis');
  }
  return { ports, kept, dropped };
}

function regName(n: number): string {
  return ['RAX', 'RCX', 'RDX', 'RBX', 'RSP', 'RBP', 'RSI', 'RDI'][n] ?? `R${n}`;
}
