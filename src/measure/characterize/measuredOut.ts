// The characterization's results in the measured-figures file format (src/data/measuredFormat.ts):
// operand labels become operand references, combinations without port numbers (a core uopscope
// has no model for) stay in the check's notes, and every failed consistency check marks the form
// 'failed' with its reasons (kept in the file, not used by the resolver).

import type { MeasuredForm, MeasuredMachine, MeasuredParameter, MeasuredPorts } from '../../data/measuredFormat.js';
import { formatPorts, MAX_PORTS } from '../../data/ports.js';
import type { Figure, FormResult, MachineResult } from './types.js';

/** 'op1 (gpr64)' → 'o1', 'op1 address' → 'o1.base', a gather's 'op1 index' → 'o1.index',
 *  'flags', 'RAX' as they are. */
function operandRef(label: string): string | null {
  let m = /^op(\d+) address$/.exec(label);
  if (m) return `o${m[1]}.base`;
  m = /^op(\d+) index$/.exec(label);
  if (m) return `o${m[1]}.index`;
  m = /^op(\d+) \(/.exec(label);
  if (m) return `o${m[1]}`;
  if (label === 'flags' || /^[A-Z][A-Z0-9]{0,7}$/.test(label)) return label;
  return null;
}

/** A whole number when the figure is within 0.15 of one (noise), else two decimals. */
function cyclesOf(v: number): number {
  const r = Math.round(v);
  return Math.abs(v - r) <= 0.15 ? Math.max(0, r) : Math.max(0, Math.round(v * 100) / 100);
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Port numbers in the format's notation: 'p0156', 10 to 29 as A to T (a Zen record's pipes). */
function portName(ports: readonly number[]): string | null {
  if (ports.some((p) => !(Number.isInteger(p) && p >= 0 && p < MAX_PORTS))) return null;
  return formatPorts([{ count: 1, ports: [...ports] }]).replace(/^1\*/, '');
}

export function measuredForm(r: FormResult, code?: string): MeasuredForm {
  const failed: string[] = [];
  const notes: string[] = [];
  const mark = (what: string, f: Figure | undefined): void => {
    if (f?.inconsistent) failed.push(`${what}: ${f.inconsistent}`);
  };
  const unbounded: string[] = [];
  const { latencies, spread: latencySpread } = measuredLatencies(r, notes, mark, failed, unbounded);
  let spread = latencySpread;
  const throughput: NonNullable<MeasuredForm['throughput']> = {};
  if (r.throughput && Number.isFinite(r.throughput.value) && r.throughput.value >= 0) {
    throughput.plain = Math.round(r.throughput.value * 100) / 100;
    mark('throughput', r.throughput);
    spread = Math.max(spread, r.throughput.spread);
  }
  // a figure without a usable run (every one failed or ran under contention) is no figure: the
  // form's others are not the whole story, so it is not used
  for (const [what, f] of [
    ['throughput', r.throughput],
    ['throughput with breakers', r.throughputBroken],
  ] as const)
    if (f && !(Number.isFinite(f.value) && f.value >= 0)) failed.push(`${what}: ${f.inconsistent ?? 'not measured'}`);
  if (r.throughputBroken && Number.isFinite(r.throughputBroken.value) && r.throughputBroken.value >= 0) {
    throughput.dependencyBroken = Math.round(r.throughputBroken.value * 100) / 100;
    mark('throughput with breakers', r.throughputBroken);
  }
  const { ports, unnamed } = measuredPorts(r, notes);
  const onPorts = ports.reduce((s, p) => s + p.uops, 0) + unnamed;
  const uops: MeasuredForm['uops'] = { unfused: onPorts };
  const fu = r.fusedUops;
  if (fu && Number.isInteger(fu.value) && fu.value >= 0 && !fu.inconsistent) uops.fused = fu.value;
  else if (fu)
    // a negative count is noise of the NOP filler (the block ran faster than its NOPs allow)
    failed.push(
      `fused-domain µops: ${fu.inconsistent ?? (fu.value < 0 ? `negative (${fu.value.toFixed(2)}): the NOP filler did not bound the block` : `not a whole number (${fu.value.toFixed(2)})`)}`,
    );
  if (r.portsInconsistent) failed.push(`port usage: ${r.portsInconsistent}`);
  for (const d of r.passesDisagree ?? []) failed.push(`passes disagree: ${d}`);
  // without port numbers (a core uopscope has no model of) the unfused count is not known
  if (unnamed > 0 || (ports.length === 0 && !r.eliminated && r.ports.length === 0 && uops.fused === undefined)) {
    failed.push(
      'unfused µops unknown: the port usage could not be written in port numbers on this core (the count given is only what was found)',
    );
  }
  for (const n of r.notes) {
    if (/not a whole number/.test(n)) failed.push(n);
    else if (!/^port usage inconsistent/.test(n)) notes.push(n);
  }
  if (r.eliminated) notes.push('executed at rename: a chain of it runs faster than one per cycle');
  const notMeasurable = [...new Set([...(r.notMeasurable ?? []), ...unbounded])];
  const out: MeasuredForm = {
    latencies,
    ports,
    uops,
    check: {
      ...(failed.length
        ? { status: 'failed' as const, notes: [...failed, ...notes] }
        : { status: 'passed' as const, ...(notes.length ? { notes } : {}) }),
      ...(notMeasurable.length ? { notMeasurable } : {}),
    },
    spread: round3(spread),
    ...(keptShare(formFigures(r)) !== undefined ? { kept: keptShare(formFigures(r))! } : {}),
    ...(r.passes !== undefined ? { passes: r.passes } : {}),
    instance: r.intel,
    ...(code ? { code } : {}),
  };
  if (throughput.plain !== undefined || throughput.dependencyBroken !== undefined) out.throughput = throughput;
  if (r.divCycles && Number.isFinite(r.divCycles.value)) out.divCycles = cyclesOf(r.divCycles.value);
  return out;
}

/** Every timed figure of a form. */
const formFigures = (r: FormResult): Figure[] =>
  [...r.latencies, r.throughput, r.throughputBroken, r.fusedUops, r.divCycles].filter((f): f is Figure => !!f);

/** The share of harness runs kept over `figs`, to two decimals; undefined when none says. */
function keptShare(figs: readonly Figure[]): number | undefined {
  let kept = 0,
    tried = 0;
  for (const f of figs)
    if (f.kept) {
      kept += f.kept.kept;
      tried += f.kept.tried;
    }
  return tried > 0 ? Math.round((kept / tried) * 100) / 100 : undefined;
}

/** The latencies that have operand references; the others are notes. */
function measuredLatencies(
  r: FormResult,
  notes: string[],
  mark: (what: string, f: Figure) => void,
  failed: string[],
  unbounded: string[],
): { latencies: MeasuredForm['latencies']; spread: number } {
  const latencies: MeasuredForm['latencies'] = [];
  let spread = 0;
  for (const l of r.latencies) {
    const loose = looseBound(l);
    if (loose) {
      unbounded.push(`latency ${l.from} → ${l.to}: ${loose}`);
      continue;
    }
    const from = operandRef(l.from),
      to = operandRef(l.to);
    if (!Number.isFinite(l.value)) {
      // a benchmark that ran but gave no usable run fails the form; one the method has no
      // benchmark for is a note
      if (l.inconsistent) failed.push(`latency ${l.from} → ${l.to}: ${l.inconsistent}`);
      else notes.push(`${l.from} → ${l.to}: not measurable`);
      continue;
    }
    if (from === null || to === null) {
      notes.push(`${l.from} → ${l.to}: ${l.value.toFixed(2)} cycles (no operand reference for it)`);
      continue;
    }
    mark(`latency ${l.from} → ${l.to}`, l);
    // a latency is a whole number of cycles (the core's clock): a chain that does not come out
    // whole was timed off (a pass under a burst the canary missed, a chain not isolated)
    if (!l.upperBound && !Number.isInteger(cyclesOf(l.value)))
      failed.push(`latency ${l.from} → ${l.to}: ${l.value.toFixed(2)} cycles, not a whole number`);
    spread = Math.max(spread, l.spread);
    latencies.push({
      from,
      to,
      cycles: cyclesOf(l.value),
      ...(l.upperBound ? { upperBound: true } : {}),
      spread: round3(l.spread),
    });
  }
  return { latencies, spread };
}

/**
 * Why an upper bound is no figure, or null when it is one. A bound comes from a chain the pair
 * cannot be isolated in (through an instruction of another class, or beside the destination's
 * own chain), and the resolver would take it as the pair's latency. A chain of whole-cycle
 * instructions takes whole cycles, so a bound that is not whole was timed off or paced by
 * something else: `shr r32, cl` → flags read 32.45 here, `cmovl` flags → result 0.73 (an
 * executed µop takes a cycle at least).
 */
function looseBound(l: FormResult['latencies'][number]): string | null {
  if (!l.upperBound || !Number.isFinite(l.value) || Number.isInteger(cyclesOf(l.value))) return null;
  return `an upper bound of ${l.value.toFixed(2)} cycles, not a whole number: not written (the pair cannot be isolated without counters)`;
}

/** The port usage in port numbers; µops on ports without numbers on this core are counted apart. */
function measuredPorts(r: FormResult, notes: string[]): { ports: MeasuredPorts[]; unnamed: number } {
  const ports: MeasuredPorts[] = [];
  let unnamed = 0;
  for (const p of r.ports) {
    // a count the blocking runs gave no figure for (every run failed or was noise) is said, not written
    if (!Number.isFinite(p.count) || p.count < 0) {
      notes.push(`µops on ${p.combination}: not measured`);
      continue;
    }
    const name = p.ports ? portName(p.ports) : null;
    if (name === null) {
      unnamed += p.count;
      notes.push(`${p.count} µop(s) on ${p.combination} (no port numbers for it on this core)`);
      continue;
    }
    ports.push({ uops: p.count, ports: name, from: p.from === 'measured' ? 'measured' : 'record' });
  }
  return { ports, unnamed };
}

function parameter(f: Figure, problem?: string): MeasuredParameter {
  const failed = [f.inconsistent, problem].filter((x): x is string => !!x);
  return {
    value: Math.round(f.value * 100) / 100,
    benchmark: f.method,
    spread: round3(f.spread),
    ...(keptShare([f]) !== undefined ? { kept: keptShare([f])! } : {}),
    check: failed.length ? { status: 'failed', notes: failed } : { status: 'passed' },
  };
}

/** A parameter the benchmark gave no figure for (every run failed or was dropped as noise) is left
 *  out of the file: the run's summary says why. */
const usable = (f: Figure): boolean => Number.isFinite(f.value) && f.value >= 0;

export function measuredMachine(m: MachineResult): MeasuredMachine {
  return {
    ...(usable(m.renameWidth) ? { renameWidth: parameter(m.renameWidth, m.fillerProblem) } : {}),
    ...(usable(m.takenBranchesPerCycle) ? { takenBranchesPerCycle: parameter(m.takenBranchesPerCycle) } : {}),
    ...(usable(m.loadToUse) ? { loadToUse: parameter(m.loadToUse) } : {}),
    ...(usable(m.storeForwarding) ? { storeForwarding: parameter(m.storeForwarding) } : {}),
    eliminations: {
      zeroIdioms: {
        eliminated: m.zeroIdiom.noPort,
        forms: ['XOR (R32, R32)'],
        benchmark: `${m.zeroIdiom.figure.method} (${m.zeroIdiom.figure.value.toFixed(2)} per cycle); dependency-breaking: ${m.zeroIdiom.breaksDependency ? 'yes' : 'no'} (imul rax, rax; xor eax, eax)`,
        spread: round3(m.zeroIdiom.figure.spread),
      },
      moves: {
        eliminated: m.moveElimination.eliminated,
        forms: ['MOV (R64, R64)'],
        benchmark: `${m.moveElimination.latency.method}: ${m.moveElimination.latency.value.toFixed(2)} cycles per move`,
        spread: round3(m.moveElimination.latency.spread),
      },
      immediateAdds: {
        eliminated: m.immediateAddition.folded,
        forms: ['ADD (R64, I8)'],
        benchmark: `${m.immediateAddition.latency.method}: ${m.immediateAddition.latency.value.toFixed(2)} cycles per add`,
        spread: round3(m.immediateAddition.latency.spread),
      },
    },
  };
}
