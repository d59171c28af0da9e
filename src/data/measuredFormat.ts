// The file format of figures measured on a host by uopscope (`uopscope data measure`): one JSON
// file per core, in the user's cache (<cache root>/measured/<ARCH>.json) or shipped with uopscope
// (assets/uarch/measured/<ARCH>.json). The format is documented in docs/data.md ("Figures measured
// on this machine"); this module is its one home: the types, a validating parser whose errors are
// one line (what, where, what to do), and the writer every producer goes through.
//
// Compatibility: a reader accepts every `version` up to MEASURED_VERSION; a later version of the
// format only adds optional fields, and bumps `version` when an older reader would misread it.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../atomicWrite.js';
import { UserError, printable } from '../errors.js';
import { readSmallFile } from '../readSmall.js';
import { LockTimeout, withLockSync } from '../lock.js';
import { makeDirs } from '../mkdirs.js';
import { archFile, parseArchName } from './archName.js';
import { formKey } from './formKey.js';
import { assetsDir, cacheRoot } from './paths.js';
import { parsePorts } from './ports.js';
import type { ArchName, PortGroup } from './types.js';

export const MEASURED_FORMAT = 'uopscope-measured';
export const MEASURED_VERSION = 1;
/** Larger files are refused unread: every form a core runs, with all its figures, is far smaller. */
export const MEASURED_MAX_BYTES = 64 * 1024 * 1024;

/** Where a measured file came from and on what. */
export interface MeasuredProvenance {
  /** the CPU's brand string ('Intel(R) Xeon(R) Platinum 8480+'; /proc/cpuinfo's model name) */
  cpu: string;
  /** CPUID's vendor, family, model and stepping ('GenuineIntel family 6 model 0x8f stepping 8') */
  cpuid: string;
  /** the microcode revision ('0x2b000590'), or 'unknown' when the host does not say */
  microcode: string;
  /** the kernel the measurement ran under ('Linux 6.1.0-27-amd64') */
  kernel: string;
  /** CPUID's hypervisor bit was set */
  virtualMachine: boolean;
  /** when the measurement finished, ISO 8601 UTC ('2026-11-27T11:00:00Z') */
  date: string;
  /** the uopscope version that measured ('0.1.0') */
  uopscope: string;
  /** the command line that produced the file, as it can be run again */
  command: string;
  /** the core the figures are for, and why it was taken to be that core (CPUID model, feature
   *  flags, cache geometry, or the user's choice; disagreements said) */
  core: { arch: ArchName; why: string };
  /** performance counters used besides the cycle counter ('none' on a host without a PMU) */
  counters?: string;
}

/** The status of a figure's consistency checks: 'failed' figures are kept in the file with the
 *  reason but not used by the resolver. */
interface MeasuredCheck {
  status: 'passed' | 'failed' | 'unchecked';
  /** what was checked or what failed, one line each ('port µops 3 ≠ unfused µops 2') */
  notes?: string[];
  /** figures this host cannot measure (no performance counters: which of symmetric pipes, macro-op
   *  counts on Zen, the µops of a form executed at rename), one line each: not a failure — the
   *  core's record's value is the model there, and the figures the host can check decide `status` */
  notMeasurable?: string[];
}

/**
 * A reference to an operand in a latency pair, relative to the decoded instruction measured:
 * `oN` — explicit operand N in Intel order, 0-based (DecodedInstruction.operands; the LLVM data's
 * `oN`); for a memory operand its data; `oN.base` / `oN.index` — a memory operand's base or
 * index register (the address); `flags` — the flags (read or written); a flag's name (`CF`); an
 * implicit register by its normalized name (`RAX`, `RDX`, `XMM0`).
 */
type OperandRef = string;

/** The latency from one input operand to one output operand (uops.info's method, §5.2). */
interface MeasuredLatency {
  from: OperandRef;
  to: OperandRef;
  cycles: number;
  /** the pair could not be isolated: the figure is an upper bound */
  upperBound?: boolean;
  /** relative spread of the repeated runs (0.02 = 2 %) */
  spread?: number;
}

/** µops confined to one port combination, with whether the measurement decided it. */
export interface MeasuredPorts {
  uops: number;
  /** the combination in uops.info's notation without a count: 'p0156', 'p23', 'pAB' (A = 10,
   *  B = 11, on to T = 29 for a core whose record numbers more ports, as Zen's pipes) */
  ports: string;
  /** 'measured': the blocking experiment showed these µops on this combination; 'record': kept
   *  from the core's record (its model's port group, the hypothesis) because no measurement here
   *  decides it (not measurable without counters); 'llvm': the same, in files written before the
   *  record was named so */
  from: 'measured' | 'record' | 'llvm';
}

/** Figures of one instruction instance (the form as measured, or its same-register variant). */
export interface MeasuredFigures {
  latencies: MeasuredLatency[];
  /** reciprocal throughput in cycles (§5.3): of independent instances as written, and with
   *  dependency-breaking instructions for the dependencies the form cannot avoid (implicit
   *  operands, flags read and written) */
  throughput?: { plain?: number; dependencyBroken?: number };
  ports: MeasuredPorts[];
  /** µops in the fused domain (issue/rename slots) and the unfused domain (execution) */
  uops: { fused?: number; unfused: number };
  /** cycles the divider stays busy per instance (0 or absent: none) */
  divCycles?: number;
  /** the largest relative spread among the figures' repeated runs */
  spread?: number;
  /** the share of harness runs kept (the others ran while the contention canary read high) */
  kept?: number;
  /** passes over the form that were compared (their disagreements fail the check) */
  passes?: number;
  check: MeasuredCheck;
}

/** One form's figures. The key of `MeasuredFile.forms` is the form's key (src/data/formKey.ts):
 *  the decoded signature ('ADD (R64, I8)'), plus `|name=value,…` attributes when they matter. */
export interface MeasuredForm extends MeasuredFigures {
  /** the iced-x86 Code of the instance measured, with the LLVM data's suffix (`Add_rm64_imm8`,
   *  `:m`, `:s`, …): ties the form to the LLVM hypothesis it started from */
  code?: string;
  /** the instance that was measured, in Intel syntax ('add rax, 0x1') */
  instance?: string;
  /** the same form with every register operand the same register (`xor eax, eax`), when its
   *  figures differ */
  sameReg?: MeasuredFigures;
}

/** A machine parameter and the microbenchmark that measured it. */
export interface MeasuredParameter {
  value: number;
  /** the microbenchmark's name and what it runs ('rename-width: 64 independent nop µops per
   *  iteration; µops / cycles') */
  benchmark: string;
  spread?: number;
  /** the share of harness runs kept (the others ran while the contention canary read high) */
  kept?: number;
  check?: MeasuredCheck;
}

/** Whether a kind of instruction is eliminated at rename (no port, no latency). */
interface MeasuredElimination {
  eliminated: boolean;
  /** the forms it was measured with ('XOR (R32, R32)', 'MOV (R64, R64)') */
  forms?: string[];
  benchmark: string;
  spread?: number;
  check?: MeasuredCheck;
}

export interface MeasuredMachine {
  /** µops renamed (issued) per cycle */
  renameWidth?: MeasuredParameter;
  /** taken branches per cycle */
  takenBranchesPerCycle?: MeasuredParameter;
  /** load-to-use latency in cycles (a pointer chase through a simple address) */
  loadToUse?: MeasuredParameter;
  /** store-to-load forwarding latency in cycles */
  storeForwarding?: MeasuredParameter;
  /** eliminations at rename by kind: 'zeroIdioms', 'moves', 'immediateAdds', and more */
  eliminations?: Record<string, MeasuredElimination>;
}

export interface MeasuredFile {
  format: typeof MEASURED_FORMAT;
  version: number;
  arch: ArchName;
  provenance: MeasuredProvenance;
  machine: MeasuredMachine;
  forms: Record<string, MeasuredForm>;
}

/** The key of a form in `MeasuredFile.forms` (the project's form key). */
export function measuredFormKey(signature: string, attributes: Record<string, string> = {}): string {
  return formKey({ string: signature, attributes });
}

/** The signature and attributes of a key written by measuredFormKey. */
export function splitMeasuredKey(key: string): { signature: string; attributes: Record<string, string> } {
  const bar = key.indexOf('|');
  if (bar === -1) return { signature: key, attributes: {} };
  const attributes: Record<string, string> = {};
  for (const kv of key.slice(bar + 1).split(',')) {
    const eq = kv.indexOf('=');
    attributes[eq === -1 ? kv : kv.slice(0, eq)] = eq === -1 ? '' : kv.slice(eq + 1);
  }
  return { signature: key.slice(0, bar), attributes };
}

/** The port groups of a form's figures, as the engine takes them. */
export function measuredPortGroups(ports: readonly MeasuredPorts[]): PortGroup[] {
  const groups: PortGroup[] = [];
  for (const p of ports) {
    const g = parsePorts(`${p.uops}*${p.ports}`)![0]!;
    const same = groups.find((x) => x.ports.length === g.ports.length && x.ports.every((q, i) => q === g.ports[i]));
    if (same) same.count += g.count;
    else groups.push(g);
  }
  return groups;
}

// ---- locations

/** Whether the resolver uses a measured form's figures (those whose check did not fail) — the one
 *  rule `data list`'s counts and `data measure`'s closing table both take. */
export const measuredUsed = (f: MeasuredFigures | undefined): f is MeasuredFigures =>
  f !== undefined && f.check.status !== 'failed';

/** Why a form is not used, in a few words: the kind of its first failed check. */
function unusedWhy(f: MeasuredFigures): string {
  const first = f.check.notes?.[0] ?? 'failed check';
  for (const [re, why] of UNUSED_KINDS) if (re.test(first)) return why;
  return first.replace(/:.*$/, '').slice(0, 60);
}
const UNUSED_KINDS: [RegExp, string][] = [
  [/contention canary/, 'runs under contention'],
  [/^latency .*not a whole number/, 'latency not a whole number'],
  [/faster than those pipes allow/, "throughput faster than the port usage's pipes allow"],
  [/passes disagree/, 'two passes disagree'],
  [/runs disagree/, 'runs disagree (spread over 5 %)'],
  [/not a whole number/, 'µops not a whole number'],
  [/unfused \u00b5ops unknown|no port numbers/, "µops on ports outside the record's numbering"],
  [/port usage/, 'port usage contradicts the throughput'],
  [/not measurable: /, 'the harness could not run it (a fault)'],
];

/** A measured file's forms: how many, how many used, and the others by why (most first). */
export function measuredUsage(file: MeasuredFile): {
  written: number;
  used: number;
  /** of the used, those with figures not measurable here (the record's kept for them) */
  notMeasurable: number;
  marked: [string, number][];
} {
  const why = new Map<string, number>();
  let used = 0;
  let notMeasurable = 0;
  const forms = Object.values(file.forms);
  for (const f of forms) {
    if (measuredUsed(f)) {
      used++;
      if (f.check.notMeasurable?.length) notMeasurable++;
    } else why.set(unusedWhy(f), (why.get(unusedWhy(f)) ?? 0) + 1);
  }
  return { written: forms.length, used, notMeasurable, marked: [...why].sort((a, b) => b[1] - a[1]) };
}

/** The user's measured file of a core: <cache root>/measured/<ARCH>.json (outside the versioned
 *  cache directory: a cache layout change must not discard minutes of measuring). */
export function userMeasuredPath(arch: ArchName, cacheDirOverride?: string): string {
  return archFile(join(cacheRoot(cacheDirOverride), 'measured'), arch);
}

/** The measured file shipped with uopscope for a core: assets/uarch/measured/<ARCH>.json. */
export function shippedMeasuredPath(arch: ArchName): string {
  return archFile(join(assetsDir(), 'measured'), arch);
}

/** The architectures with a measured file in a directory (the user's by default). */
export function listMeasuredArchs(
  cacheDirOverride?: string,
  dir = join(cacheRoot(cacheDirOverride), 'measured'),
): ArchName[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -5))
    .filter((a): a is ArchName => parseArchName(a) === a)
    .sort();
}

/** The architectures with a measured file shipped with uopscope. */
export function listShippedMeasuredArchs(): ArchName[] {
  return listMeasuredArchs(undefined, join(assetsDir(), 'measured'));
}

// ---- validation

const HINT = "measure again with 'uopscope data measure', or remove the file";

class Bad extends Error {}

type Obj = Record<string, unknown>;

/** 'where.k', or 'k' at the top of the file. */
const at = (where: string, k: string): string => (where ? `${where}.${k}` : k);

function fail(where: string, what: string): never {
  throw new Bad(`${where}: ${what}`);
}

function obj(v: unknown, where: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(where || 'the file', 'must be an object');
  return v as Obj;
}

function only(o: Obj, where: string, allowed: readonly string[]): void {
  for (const k of Object.keys(o))
    if (!allowed.includes(k))
      fail(where || 'the file', `unknown field '${printable(k, 40)}' (known: ${allowed.join(', ')})`);
}

function str(o: Obj, k: string, where: string, optional = false): string | undefined {
  const v = o[k];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string' || v === '') fail(at(where, k), 'must be a non-empty string');
  if (v.length > 10000) fail(at(where, k), 'is longer than 10,000 characters');
  // every text of the file reaches the terminal (data list, disasm's footnote, the report's notes)
  if (CONTROL.test(v)) fail(at(where, k), `'${printable(v, 40)}' holds control characters`);
  return v;
}

const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;

function num(
  o: Obj,
  k: string,
  where: string,
  opts: { optional?: boolean; integer?: boolean; max?: number } = {},
): number | undefined {
  const v = o[k];
  if (v === undefined && opts.optional) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
    fail(at(where, k), `must be a non-negative number, not ${printable(JSON.stringify(v) ?? 'nothing', 30)}`);
  if (opts.integer && !Number.isInteger(v)) fail(at(where, k), `must be a whole number, not ${v}`);
  if (opts.max !== undefined && v > opts.max) fail(at(where, k), `must be at most ${opts.max}, not ${v}`);
  return v;
}

function bool(o: Obj, k: string, where: string, optional = false): boolean | undefined {
  const v = o[k];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'boolean') fail(at(where, k), 'must be true or false');
  return v;
}

function arr(v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) fail(where, 'must be a list');
  return v;
}

const CYCLES_MAX = 100000;
const UOPS_MAX = 10000;
const OPERAND_REF = /^(o\d{1,2}(\.(base|index))?|flags|[A-Z][A-Z0-9]{0,7})$/;

function check(v: unknown, where: string): MeasuredCheck {
  const o = obj(v, where);
  only(o, where, ['status', 'notes', 'notMeasurable']);
  const status = o.status;
  if (status !== 'passed' && status !== 'failed' && status !== 'unchecked')
    fail(`${where}.status`, "must be 'passed', 'failed' or 'unchecked'");
  const out: MeasuredCheck = { status };
  if (o.notes !== undefined) {
    out.notes = arr(o.notes, `${where}.notes`).map((n, i) => {
      if (typeof n !== 'string' || n.length > 10000) fail(`${where}.notes[${i}]`, 'must be a string');
      return n;
    });
  }
  if (o.notMeasurable !== undefined) {
    out.notMeasurable = arr(o.notMeasurable, `${where}.notMeasurable`).map((n, i) => {
      if (typeof n !== 'string' || n.length > 10000) fail(`${where}.notMeasurable[${i}]`, 'must be a string');
      return n;
    });
  }
  if (status === 'failed' && !out.notes?.length) fail(`${where}.notes`, 'a failed check must say what failed');
  return out;
}

function latency(v: unknown, where: string): MeasuredLatency {
  const o = obj(v, where);
  only(o, where, ['from', 'to', 'cycles', 'upperBound', 'spread']);
  const ref = (k: 'from' | 'to'): string => {
    const r = str(o, k, where)!;
    if (!OPERAND_REF.test(r))
      fail(
        at(where, k),
        `'${printable(r, 30)}' is not an operand (oN, oN.base, oN.index, flags, a flag or an implicit register such as RAX)`,
      );
    return r;
  };
  const out: MeasuredLatency = {
    from: ref('from'),
    to: ref('to'),
    cycles: num(o, 'cycles', where, { max: CYCLES_MAX })!,
  };
  if (bool(o, 'upperBound', where, true)) out.upperBound = true;
  const spread = num(o, 'spread', where, { optional: true });
  if (spread !== undefined) out.spread = spread;
  return out;
}

function ports(v: unknown, where: string): MeasuredPorts {
  const o = obj(v, where);
  only(o, where, ['uops', 'ports', 'from']);
  const uops = num(o, 'uops', where, { integer: true, max: UOPS_MAX })!;
  if (uops === 0) fail(`${where}.uops`, 'must be at least 1 (leave out a combination without µops)');
  const p = str(o, 'ports', where)!;
  const parsed = /^p[0-9A-T]+$/.test(p) ? parsePorts(p) : null;
  if (parsed?.length !== 1)
    fail(
      `${where}.ports`,
      `'${printable(p, 30)}' is not a port combination such as p0156 (ports 0-9, A = 10 … T = 29)`,
    );
  if (o.from !== 'measured' && o.from !== 'record' && o.from !== 'llvm')
    fail(`${where}.from`, "must be 'measured', 'record' or 'llvm'");
  return { uops, ports: p, from: o.from };
}

const FIGURE_FIELDS = [
  'latencies',
  'throughput',
  'ports',
  'uops',
  'divCycles',
  'spread',
  'kept',
  'passes',
  'check',
] as const;

function figures(o: Obj, where: string): MeasuredFigures {
  const out: MeasuredFigures = {
    latencies: arr(o.latencies, `${where}.latencies`).map((l, i) => latency(l, `${where}.latencies[${i}]`)),
    ports: arr(o.ports, `${where}.ports`).map((p, i) => ports(p, `${where}.ports[${i}]`)),
    uops: { unfused: 0 },
    check: check(o.check, `${where}.check`),
  };
  if (o.throughput !== undefined) {
    const t = obj(o.throughput, `${where}.throughput`);
    only(t, `${where}.throughput`, ['plain', 'dependencyBroken']);
    const plain = num(t, 'plain', `${where}.throughput`, { optional: true, max: CYCLES_MAX });
    const broken = num(t, 'dependencyBroken', `${where}.throughput`, { optional: true, max: CYCLES_MAX });
    if (plain === undefined && broken === undefined)
      fail(`${where}.throughput`, "needs 'plain' or 'dependencyBroken' (or leave it out)");
    out.throughput = {};
    if (plain !== undefined) out.throughput.plain = plain;
    if (broken !== undefined) out.throughput.dependencyBroken = broken;
  }
  const u = obj(o.uops, `${where}.uops`);
  only(u, `${where}.uops`, ['fused', 'unfused']);
  out.uops = { unfused: num(u, 'unfused', `${where}.uops`, { integer: true, max: UOPS_MAX })! };
  const fused = num(u, 'fused', `${where}.uops`, { optional: true, integer: true, max: UOPS_MAX });
  if (fused !== undefined) out.uops = { fused, unfused: out.uops.unfused };
  const div = num(o, 'divCycles', where, { optional: true, max: CYCLES_MAX });
  if (div !== undefined) out.divCycles = div;
  const spread = num(o, 'spread', where, { optional: true });
  if (spread !== undefined) out.spread = spread;
  const kept = num(o, 'kept', where, { optional: true, max: 1 });
  if (kept !== undefined) out.kept = kept;
  const passes = num(o, 'passes', where, { optional: true, integer: true, max: 100 });
  if (passes !== undefined) out.passes = passes;
  // the port µops are the unfused µops that execute on a port: more than those cannot be
  const onPorts = out.ports.reduce((n, p) => n + p.uops, 0);
  if (onPorts > out.uops.unfused)
    fail(`${where}.ports`, `${onPorts} µops on ports, more than the ${out.uops.unfused} unfused µops`);
  return out;
}

function form(v: unknown, where: string): MeasuredForm {
  const o = obj(v, where);
  only(o, where, [...FIGURE_FIELDS, 'code', 'instance', 'sameReg']);
  const out: MeasuredForm = figures(o, where);
  const code = str(o, 'code', where, true);
  if (code !== undefined) {
    if (!/^[A-Za-z0-9_]+(:[mskzb])?$/.test(code))
      fail(`${where}.code`, `'${printable(code, 40)}' is not an iced-x86 Code name (with :m, :s, :k, :z or :b)`);
    out.code = code;
  }
  const instance = str(o, 'instance', where, true);
  if (instance !== undefined) out.instance = instance;
  if (o.sameReg !== undefined) {
    const s = obj(o.sameReg, `${where}.sameReg`);
    only(s, `${where}.sameReg`, FIGURE_FIELDS);
    out.sameReg = figures(s, `${where}.sameReg`);
  }
  return out;
}

function parameter(v: unknown, where: string): MeasuredParameter {
  const o = obj(v, where);
  only(o, where, ['value', 'benchmark', 'spread', 'kept', 'check']);
  const out: MeasuredParameter = {
    value: num(o, 'value', where, { max: CYCLES_MAX })!,
    benchmark: str(o, 'benchmark', where)!,
  };
  const spread = num(o, 'spread', where, { optional: true });
  if (spread !== undefined) out.spread = spread;
  const kept = num(o, 'kept', where, { optional: true, max: 1 });
  if (kept !== undefined) out.kept = kept;
  if (o.check !== undefined) out.check = check(o.check, `${where}.check`);
  return out;
}

function elimination(v: unknown, where: string): MeasuredElimination {
  const o = obj(v, where);
  only(o, where, ['eliminated', 'forms', 'benchmark', 'spread', 'check']);
  const out: MeasuredElimination = {
    eliminated: bool(o, 'eliminated', where)!,
    benchmark: str(o, 'benchmark', where)!,
  };
  if (o.forms !== undefined) {
    out.forms = arr(o.forms, `${where}.forms`).map((f, i) => {
      if (typeof f !== 'string' || f === '' || f.length > 200 || CONTROL.test(f))
        fail(`${where}.forms[${i}]`, 'must be a form such as MOV (R64, R64)');
      return f;
    });
  }
  const spread = num(o, 'spread', where, { optional: true });
  if (spread !== undefined) out.spread = spread;
  if (o.check !== undefined) out.check = check(o.check, `${where}.check`);
  return out;
}

const MACHINE_PARAMETERS = ['renameWidth', 'takenBranchesPerCycle', 'loadToUse', 'storeForwarding'] as const;

function machine(v: unknown, where: string): MeasuredMachine {
  const o = obj(v, where);
  only(o, where, [...MACHINE_PARAMETERS, 'eliminations']);
  const out: MeasuredMachine = {};
  for (const k of MACHINE_PARAMETERS) if (o[k] !== undefined) out[k] = parameter(o[k], `${where}.${k}`);
  if (o.eliminations !== undefined) {
    const e = obj(o.eliminations, `${where}.eliminations`);
    out.eliminations = {};
    for (const [k, x] of Object.entries(e)) {
      if (!/^[a-z][A-Za-z0-9]{0,40}$/.test(k))
        fail(`${where}.eliminations`, `'${printable(k, 40)}' is not a name such as zeroIdioms, moves, immediateAdds`);
      out.eliminations[k] = elimination(x, `${where}.eliminations.${k}`);
    }
  }
  return out;
}

function provenance(v: unknown, where: string): MeasuredProvenance {
  const o = obj(v, where);
  only(o, where, [
    'cpu',
    'cpuid',
    'microcode',
    'kernel',
    'virtualMachine',
    'date',
    'uopscope',
    'command',
    'core',
    'counters',
  ]);
  const date = str(o, 'date', where)!;
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z$/.test(date) || Number.isNaN(Date.parse(date)))
    fail(`${where}.date`, `'${printable(date, 30)}' is not an ISO 8601 UTC time such as 2026-11-27T11:00:00Z`);
  const c = obj(o.core, `${where}.core`);
  only(c, `${where}.core`, ['arch', 'why']);
  const out: MeasuredProvenance = {
    cpu: str(o, 'cpu', where)!,
    cpuid: str(o, 'cpuid', where)!,
    microcode: str(o, 'microcode', where)!,
    kernel: str(o, 'kernel', where)!,
    virtualMachine: bool(o, 'virtualMachine', where)!,
    date,
    uopscope: str(o, 'uopscope', where)!,
    command: str(o, 'command', where)!,
    core: { arch: archName(c, `${where}.core`), why: str(c, 'why', `${where}.core`)! },
  };
  const counters = str(o, 'counters', where, true);
  if (counters !== undefined) out.counters = counters;
  return out;
}

function archName(o: Obj, where: string): ArchName {
  const a = str(o, 'arch', where)!;
  const n = parseArchName(a);
  if (n === null) fail(at(where, 'arch'), `'${printable(a, 20)}' is not an architecture name such as SPR`);
  if (n !== a) fail(at(where, 'arch'), `'${printable(a, 20)}' must be written as ${n}`);
  return n;
}

/** Checks a parsed JSON value; returns the file with only the known fields, or the first
 *  problem as `where: what` (e.g. `forms["ADD (R64, I8)"].uops.unfused: must be …`). */
export function validateMeasured(value: unknown): { file: MeasuredFile } | { error: string } {
  try {
    const o = obj(value, '');
    if (o.format !== MEASURED_FORMAT)
      fail('format', `must be '${MEASURED_FORMAT}' (this is not a file of measured figures)`);
    const version = num(o, 'version', '', { integer: true })!;
    if (version < 1) fail('version', 'must be at least 1');
    if (version > MEASURED_VERSION)
      fail('version', `${version} is newer than this uopscope reads (${MEASURED_VERSION}): update uopscope`);
    only(o, '', ['format', 'version', 'arch', 'provenance', 'machine', 'forms']);
    const arch = archName(o, '');
    const prov = provenance(o.provenance, 'provenance');
    if (prov.core.arch !== arch) fail('provenance.core.arch', `${prov.core.arch} is not the file's arch ${arch}`);
    const forms: Record<string, MeasuredForm> = {};
    const f = obj(o.forms, 'forms');
    for (const [key, v] of Object.entries(f)) {
      const where = `forms[${JSON.stringify(printable(key, 60))}]`;
      if (CONTROL.test(key)) fail(where, 'the key holds control characters');
      const { signature, attributes } = splitMeasuredKey(key);
      if (!/^[A-Z][A-Z0-9_]*( [A-Z][A-Z0-9_]*)*( \(.*\))?$/.test(signature))
        fail(where, "the key must be a form's signature such as 'ADD (R64, I8)'");
      if (measuredFormKey(signature, attributes) !== key)
        fail(
          where,
          `the key must list its attributes sorted: '${printable(measuredFormKey(signature, attributes), 60)}'`,
        );
      forms[key] = form(v, where);
    }
    return {
      file: { format: MEASURED_FORMAT, version, arch, provenance: prov, machine: machine(o.machine, 'machine'), forms },
    };
  } catch (e) {
    if (e instanceof Bad) return { error: e.message };
    throw e;
  }
}

/** Parses a measured file's text; a problem is a UserError of one line naming the file. */
export function parseMeasured(text: string, path: string, hint = HINT): MeasuredFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UserError(`measured figures ${path} are not valid JSON (${(e as Error).message}) — ${hint}`);
  }
  const r = validateMeasured(value);
  if ('error' in r) throw new UserError(`measured figures ${path}: ${r.error} — ${hint}`);
  return r.file;
}

/** Reads a measured file; null when it does not exist. `private`: a file of the user's cache,
 *  refused when another user could have written it (a cache in a shared directory). */
export function readMeasured(path: string, hint = HINT, opts: { private?: boolean } = {}): MeasuredFile | null {
  const r = readSmallFile(path, MEASURED_MAX_BYTES, opts);
  if (!r.ok && r.missing) return null;
  if (!r.ok) throw new UserError(`measured figures ${printable(path, 160)} ${r.why} — ${hint}`);
  return parseMeasured(r.text, path, hint);
}

// ---- writing

/** The file's text: validated, forms in key order, one field per line (diffs of regenerated
 *  shipped files stay readable). A file that does not validate is a bug of its producer. */
export function measuredText(file: MeasuredFile): string {
  const r = validateMeasured(file);
  if ('error' in r) throw new Error(`measured figures for ${file.arch} do not validate: ${r.error}`);
  const forms = Object.fromEntries(
    Object.keys(r.file.forms)
      .sort()
      .map((k) => [k, r.file.forms[k]!]),
  );
  return `${JSON.stringify({ ...r.file, forms }, null, 1)}\n`;
}

/**
 * Writes a measured file atomically (directories created), holding its lock (src/lock.ts) and
 * keeping the forms the file on disk has that `file` lacks: two `data measure` runs on the same
 * core at once both keep their forms (each run reads the file at its start and writes it after
 * every form). `file.forms` gets the kept forms, so what the run then reports written is in the
 * file. Errors are Node's (the caller turns them into its one-line message), or a UserError.
 */
export function writeMeasured(path: string, file: MeasuredFile): void {
  makeDirs(dirname(path));
  let locked = false;
  try {
    withLockSync(`${path}.lock`, { what: 'uopscope data measure', waitMs: 120_000 }, () => {
      locked = true;
      const onDisk = readMeasured(path);
      if (onDisk && onDisk.arch === file.arch && onDisk.provenance.cpuid === file.provenance.cpuid)
        for (const [k, f] of Object.entries(onDisk.forms)) if (!(k in file.forms)) file.forms[k] = f;
      writeFileAtomic(path, measuredText(file), { mkdir: true });
    });
  } catch (e) {
    if (!locked && e instanceof LockTimeout)
      throw new UserError(
        `${printable(e.holder, 100)} has held ${e.lock} for 2 minutes; wait for it, or remove the lock if no uopscope runs`,
      );
    throw e;
  }
}

/** An empty file for a core: the start of a measurement. */
export function emptyMeasured(provenance: MeasuredProvenance): MeasuredFile {
  return {
    format: MEASURED_FORMAT,
    version: MEASURED_VERSION,
    arch: provenance.core.arch,
    provenance,
    machine: {},
    forms: {},
  };
}

/** Removes a user's measured file; false when there was none. */
export function removeMeasured(path: string): boolean {
  try {
    statSync(path);
  } catch {
    return false;
  }
  rmSync(path, { force: true });
  return true;
}
