// The cores uopscope models: one record per core, assets/uarch/machines/<ARCH>.json (fields of
// MachineModel), plus the files of $UOPSCOPE_MACHINES_DIR when set. A record may extend another
// core's (`inherits`); its figures cite sources by id (src/data/citations.ts). Everything about a
// core is read from its record: nothing else in uopscope looks a fact up by a core's name.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError, escapeControls, printable } from '../errors.js';
import { readSmallFile } from '../readSmall.js';
import { MAX_MACHINE_FILE, MAX_PORTS, MAX_RS_SIZE, MAX_WIDTH } from './limits.js';
import { assetsDir } from './paths.js';
import { parseArchName } from './archName.js';
import { expandSource } from './citations.js';
import type { ArchName, MachineModel } from './types.js';

export type { ArchName };
export { parseArchName };

function machinesDir(): string {
  return join(assetsDir(), 'machines');
}

/** The directories machine files are read from: the shipped one, then $UOPSCOPE_MACHINES_DIR. */
function machineDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const extra = env.UOPSCOPE_MACHINES_DIR;
  return extra ? [machinesDir(), extra] : [machinesDir()];
}

// ---- validation ----

const isNums = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A cited figure `{ value, source }` whose value passes `ok`; null allowed when `nullable`. */
function citedOk(v: unknown, ok: (x: unknown) => boolean, nullable: boolean): boolean {
  if (v === null) return nullable;
  return isObj(v) && typeof v.source === 'string' && v.source.length > 0 && ok(v.value);
}
const isBool = (x: unknown) => typeof x === 'boolean';
const isCount = (x: unknown) => Number.isInteger(x) && (x as number) > 0;
const isUnroll = (x: unknown) => isObj(x) && Object.entries(x).every(([k, n]) => /^[1-9]\d*$/.test(k) && isCount(n));

/** The sections and their figures: value check, may be null (no citable figure). */
const SECTIONS: Record<string, Record<string, [(x: unknown) => boolean, boolean]>> = {
  frontEnd: {
    dsbWidth: [isCount, true],
    decoders: [isCount, true],
    fetchBytes: [isCount, true],
    lsd: [isBool, true],
    idqSize: [isCount, true],
    lsdUnrolling: [isUnroll, true],
    jccErratum: [isBool, false],
    both32ByteBlocksMustBeCacheable: [isBool, true],
    macroFusibleOnLastDecoder: [isBool, true],
    dsbTwoBlocks: [isBool, true],
    msWidth: [isCount, true],
    dsbMsStall: [isCount, true],
    miteMsStall: [isCount, true],
  },
  fusion: {
    macro: [(x) => x === 'nhm' || x === 'snb' || x === 'icl' || x === 'zen' || x === 'zen3', true],
    unlamination: [(x) => x === 'snb' || x === 'hsw', true],
  },
  rename: {
    zeroIdiomsNoPort: [isBool, false],
    gprMoveElimination: [isBool, false],
    vecMoveElimination: [isBool, false],
    evexMoveElimination: [isBool, false],
    immediateAdds: [isBool, false],
  },
  microcode: {
    gatherDataSampling: [isBool, false],
  },
};

/** Figures a record may leave out (absent: the mechanism does not exist on the core). */
const OPTIONAL = new Set([
  'rename.immediateAdds',
  'rename.evexMoveElimination',
  'frontEnd.dsbTwoBlocks',
  'frontEnd.msWidth',
  'frontEnd.dsbMsStall',
  'frontEnd.miteMsStall',
]);

/** Fields of a section that are not cited figures. */
const PLAIN: Record<string, Record<string, (x: unknown) => boolean>> = {
  frontEnd: { notModelled: (x) => typeof x === 'string' && x.length > 0 },
};

const COMPILER_NAME = /^[a-z][a-z0-9-]{0,31}$/;
/** A port's display name: a pipe name such as ALU0, AGU2, FP4 (letters, then digits). */
const PORT_NAME = /^[A-Z]{1,6}[0-9]{0,2}$/;

function identityProblems(id: unknown, portNames: readonly string[] | undefined): string[] {
  if (id === undefined) return [];
  if (!isObj(id)) return ['identity'];
  const bad: string[] = [];
  const sigOk = (s: unknown) =>
    isObj(s) &&
    typeof s.vendor === 'string' &&
    Number.isInteger(s.family) &&
    isNums(s.models) &&
    s.models.length > 0 &&
    (s.steppings === undefined ||
      (isNums(s.steppings) && s.steppings.length === 2 && s.steppings[0]! <= s.steppings[1]!)) &&
    (s.note === undefined || typeof s.note === 'string');
  if (!Array.isArray(id.cpuid) || !id.cpuid.every(sigOk)) bad.push('identity.cpuid');
  if (
    id.flags !== undefined &&
    !(Array.isArray(id.flags) && id.flags.every((f) => typeof f === 'string' && /^[a-z0-9_]+$/.test(f)))
  )
    bad.push('identity.flags');
  if (id.l2KiB !== undefined && !(isNums(id.l2KiB) && id.l2KiB.length > 0)) bad.push('identity.l2KiB');
  if (id.llvmCpu !== undefined && !(typeof id.llvmCpu === 'string' && COMPILER_NAME.test(id.llvmCpu)))
    bad.push('identity.llvmCpu');
  if (
    id.llvmPredecessor !== undefined &&
    !(typeof id.llvmPredecessor === 'string' && parseArchName(id.llvmPredecessor) === id.llvmPredecessor)
  )
    bad.push('identity.llvmPredecessor');
  if (
    id.llvmPipes !== undefined &&
    !(
      isObj(id.llvmPipes) &&
      Object.entries(id.llvmPipes).every(
        ([k, v]) =>
          /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(k) &&
          Array.isArray(v) &&
          v.length > 0 &&
          v.every((n) => typeof n === 'string' && (portNames ?? []).includes(n)),
      )
    )
  )
    bad.push('identity.llvmPipes');
  if (
    !Array.isArray(id.compilerNames) ||
    !id.compilerNames.every((n) => typeof n === 'string' && COMPILER_NAME.test(n))
  )
    bad.push('identity.compilerNames');
  if (typeof id.source !== 'string' || !id.source) bad.push('identity.source');
  return bad;
}

/** Bounds of a record's scheduler queues (the engine's port masks hold at most 30 ports). */
const SCHEDULER_LIMITS = { queues: 30, size: 4096, dispatchPerCycle: 64, nonScheduling: 8 } as const;

const QUEUE_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,15}$/;
const sizeOk = (x: unknown) => isCount(x) && (x as number) <= SCHEDULER_LIMITS.size;

/** The problems of a record's `schedulers` (none when absent). Every queue's size and dispatch
 *  limit bounded and cited, its ports in `ports`, every port in exactly one queue, names unique
 *  and none a pipe's (reports print a queue's name beside pipes' names: `FP1 … FP1` would not say
 *  which is which), each non-scheduling queue in front of named queues, and `rsSize` the sum of
 *  the sizes. */
function schedulerProblems(m: Partial<MachineModel>): string[] {
  const sc = (m as Record<string, unknown>).schedulers;
  if (sc === undefined) return [];
  if (!isObj(sc)) return ['schedulers'];
  const bad: string[] = [];
  for (const k of Object.keys(sc))
    if (!['queues', 'nonScheduling', 'steering', 'unit'].includes(k)) bad.push(`schedulers.${k} (unknown field)`);
  if (!citedOk(sc.steering, (x) => x === 'even', false)) bad.push('schedulers.steering');
  if (!citedOk(sc.unit, (x) => x === 'macro-op' || x === 'uop', false)) bad.push('schedulers.unit');
  const qs = sc.queues;
  if (!Array.isArray(qs) || qs.length === 0 || qs.length > SCHEDULER_LIMITS.queues) {
    bad.push('schedulers.queues');
    return bad;
  }
  const ports = isNums(m.ports) ? m.ports : [];
  const owner = new Map<number, number>();
  const names = new Set<string>();
  const pipes = new Set(Array.isArray(m.portNames) ? m.portNames : []);
  let sum = 0;
  qs.forEach((q: unknown, k) => {
    const at = `schedulers.queues[${k}]`;
    if (!isObj(q)) {
      bad.push(at);
      return;
    }
    for (const f of Object.keys(q))
      if (!['name', 'size', 'ports', 'dispatchPerCycle'].includes(f)) bad.push(`${at}.${f} (unknown field)`);
    if (typeof q.name !== 'string' || !QUEUE_NAME.test(q.name) || names.has(q.name)) bad.push(`${at}.name`);
    else if (pipes.has(q.name)) bad.push(`${at}.name (${q.name} is also a pipe's name)`);
    else names.add(q.name);
    if (!citedOk(q.size, sizeOk, false)) bad.push(`${at}.size`);
    else sum += (q.size as { value: number }).value;
    if (
      q.dispatchPerCycle !== undefined &&
      !citedOk(q.dispatchPerCycle, (x) => isCount(x) && (x as number) <= SCHEDULER_LIMITS.dispatchPerCycle, true)
    )
      bad.push(`${at}.dispatchPerCycle`);
    if (!isNums(q.ports) || q.ports.length === 0) {
      bad.push(`${at}.ports`);
      return;
    }
    for (const p of q.ports) {
      if (!ports.includes(p)) bad.push(`${at}.ports (${p} not in ports)`);
      else if (owner.has(p)) bad.push(`${at}.ports (${p} also in queue ${owner.get(p)})`);
      else owner.set(p, k);
    }
  });
  for (const p of ports) if (!owner.has(p)) bad.push(`schedulers.queues (port ${p} in no queue)`);
  if (sum > 0 && m.rsSize !== sum) bad.push(`rsSize (not the sum of the queues' sizes, ${sum})`);
  const ns = sc.nonScheduling;
  if (ns !== undefined) {
    if (!Array.isArray(ns) || ns.length > SCHEDULER_LIMITS.nonScheduling) bad.push('schedulers.nonScheduling');
    else {
      const fed = new Set<string>();
      ns.forEach((x: unknown, k) => {
        const at = `schedulers.nonScheduling[${k}]`;
        if (!isObj(x)) {
          bad.push(at);
          return;
        }
        for (const f of Object.keys(x))
          if (!['name', 'size', 'queues'].includes(f)) bad.push(`${at}.${f} (unknown field)`);
        if (typeof x.name !== 'string' || !QUEUE_NAME.test(x.name) || names.has(x.name)) bad.push(`${at}.name`);
        else if (pipes.has(x.name)) bad.push(`${at}.name (${x.name} is also a pipe's name)`);
        else names.add(x.name);
        if (!citedOk(x.size, sizeOk, false)) bad.push(`${at}.size`);
        const ok =
          Array.isArray(x.queues) &&
          x.queues.length > 0 &&
          x.queues.every(
            (n) => typeof n === 'string' && qs.some((q: unknown) => isObj(q) && q.name === n) && !fed.has(n),
          );
        if (!ok) bad.push(`${at}.queues`);
        else for (const n of x.queues as string[]) fed.add(n);
      });
    }
  }
  return bad;
}

/** Checks one model's fields; returns the problems (empty when valid). */
export function validateMachine(m: Partial<MachineModel>): string[] {
  const bad: string[] = [];
  if (typeof m.arch !== 'string' || parseArchName(m.arch) !== m.arch) bad.push('arch');
  if (m.inheritsDataFrom !== undefined && parseArchName(m.inheritsDataFrom) !== m.inheritsDataFrom)
    bad.push('inheritsDataFrom');
  if (m.inherits !== undefined && parseArchName(m.inherits) !== m.inherits) bad.push('inherits');
  if (typeof m.name !== 'string' || !m.name) bad.push('name');
  if (
    !isNums(m.ports) ||
    m.ports.length === 0 ||
    m.ports.some((p) => p >= MAX_PORTS) ||
    new Set(m.ports).size !== m.ports.length
  )
    bad.push(`ports (distinct numbers below ${MAX_PORTS})`);
  if (m.portNames !== undefined) {
    const names = m.portNames as unknown;
    if (
      !Array.isArray(names) ||
      !names.every((n) => typeof n === 'string' && PORT_NAME.test(n)) ||
      names.length !== (m.ports?.length ?? -1) ||
      new Set(names).size !== names.length
    )
      bad.push('portNames (one distinct name per port, upper-case letters then digits, as ALU0 or FP45)');
  }
  if (!isNums(m.aluPorts) || m.aluPorts.length === 0) bad.push('aluPorts');
  else if (m.ports && m.aluPorts.some((p) => !m.ports!.includes(p))) bad.push('aluPorts (not in ports)');
  if (!Number.isInteger(m.dividerPort) || (m.ports && !m.ports.includes(m.dividerPort!))) bad.push('dividerPort');
  for (const [k, max] of [
    ['issueWidth', MAX_WIDTH],
    ['rsSize', MAX_RS_SIZE],
  ] as const)
    if (!Number.isInteger(m[k]) || m[k]! <= 0 || m[k]! > max) bad.push(`${k} (1 to ${max})`);
  if (!Array.isArray(m.isa) || m.isa.length === 0) bad.push('isa');
  if (!Array.isArray(m.sources) || m.sources.length === 0) bad.push('sources');
  if (m.order !== undefined && !(typeof m.order === 'number' && Number.isFinite(m.order))) bad.push('order');
  bad.push(...identityProblems(m.identity, Array.isArray(m.portNames) ? m.portNames : undefined));
  bad.push(...schedulerProblems(m));
  for (const [section, figures] of Object.entries(SECTIONS)) {
    const v = (m as Record<string, unknown>)[section];
    if (v === undefined) continue;
    if (!isObj(v)) {
      bad.push(section);
      continue;
    }
    for (const [k, [ok, nullable]] of Object.entries(figures))
      if (!(v[k] === undefined && OPTIONAL.has(`${section}.${k}`)) && !citedOk(v[k], ok, nullable))
        bad.push(`${section}.${k}`);
    const plain = PLAIN[section] ?? {};
    for (const [k, ok] of Object.entries(plain))
      if (v[k] !== undefined && v[k] !== null && !ok(v[k])) bad.push(`${section}.${k}`);
    for (const k of Object.keys(v)) if (!(k in figures) && !(k in plain)) bad.push(`${section}.${k} (unknown field)`);
  }
  const mem = m.memory as unknown;
  if (mem !== undefined) {
    const ports = m.ports ?? [];
    const inPorts = (x: unknown) => isNums(x) && x.length > 0 && x.every((p) => ports.includes(p));
    if (
      !isObj(mem) ||
      !inPorts(mem.load) ||
      !inPorts(mem.storeAddress) ||
      !inPorts(mem.storeData) ||
      !(
        mem.simpleStoreAddressPort === null ||
        (Number.isInteger(mem.simpleStoreAddressPort) && ports.includes(mem.simpleStoreAddressPort as number))
      ) ||
      typeof mem.source !== 'string' ||
      !mem.source
    )
      bad.push('memory');
  }
  return bad;
}

// ---- loading: files, inheritance, sources ----

/** Fields each file states for itself (never taken from the core it inherits). */
const OWN = new Set(['arch', 'name', 'order', 'inherits', 'identity', 'notes', 'sources', 'inheritsDataFrom']);

/** `child` over `parent`: objects merged field by field, anything else (arrays, null) replaced. */
function overlay(parent: Record<string, unknown>, child: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...parent };
  for (const [k, v] of Object.entries(child)) {
    const p = out[k];
    // a figure ({ value, source }) is replaced whole, a section is merged
    out[k] = isObj(p) && isObj(v) && !('value' in v) && !('value' in p) ? overlay(p, v) : v;
  }
  return out;
}

/** Every `source` text of the record's cited figures with its ids expanded (see citations.ts). */
function expandSources(m: Record<string, unknown>, where: string): void {
  const extra = isObj(m.citations) ? (m.citations as Record<string, string>) : {};
  const expand = (text: unknown, field: string): string => {
    if (typeof text !== 'string') return text as string;
    try {
      return expandSource(text, extra);
    } catch (e) {
      throw new UserError(
        `machine model ${where}: ${field}: ${(e as Error).message} (see src/data/citations.ts, or add it to the file's "citations") — fix the file`,
      );
    }
  };
  for (const section of [...Object.keys(SECTIONS), 'memory', 'identity']) {
    const v = m[section];
    if (!isObj(v)) continue;
    const copy: Record<string, unknown> = { ...v };
    if ('source' in copy) copy.source = expand(copy.source, `${section}.source`);
    for (const [k, f] of Object.entries(copy)) {
      if (isObj(f) && 'source' in f && 'value' in f) copy[k] = { ...f, source: expand(f.source, `${section}.${k}`) };
    }
    m[section] = copy;
  }
  const sc = m.schedulers;
  if (isObj(sc)) {
    const cite = (f: unknown, field: string) =>
      isObj(f) && 'source' in f && 'value' in f ? { ...f, source: expand(f.source, field) } : f;
    const queues = Array.isArray(sc.queues) ? sc.queues : [];
    const nsq = Array.isArray(sc.nonScheduling) ? sc.nonScheduling : undefined;
    m.schedulers = {
      ...sc,
      steering: cite(sc.steering, 'schedulers.steering'),
      unit: cite(sc.unit, 'schedulers.unit'),
      queues: queues.map((q: unknown, k) =>
        isObj(q)
          ? {
              ...q,
              size: cite(q.size, `schedulers.queues[${k}].size`),
              ...(q.dispatchPerCycle !== undefined
                ? { dispatchPerCycle: cite(q.dispatchPerCycle, `schedulers.queues[${k}].dispatchPerCycle`) }
                : {}),
            }
          : q,
      ),
      ...(nsq
        ? {
            nonScheduling: nsq.map((x: unknown, k) =>
              isObj(x) ? { ...x, size: cite(x.size, `schedulers.nonScheduling[${k}].size`) } : x,
            ),
          }
        : {}),
    };
  }
}

/** The records read and built so far for one set of directories (machineDirs' key). A run reads
 *  only the records it needs (the chosen core, what it inherits, what it takes figures from):
 *  the shipped directory's record of core X is its file X.json (test/data/machines.test.ts
 *  checks every shipped file's name); $UOPSCOPE_MACHINES_DIR is read whole, its names free. A
 *  list of the cores (listMachines) reads and checks every file, as before. */
interface Store {
  key: string;
  /** checked records by core (each built once: listMachines and loadMachine hand out the same object) */
  models: Map<string, MachineModel>;
  /** what inheritance resolved so far (the raw record merged over its parent's) */
  resolved: Map<string, Record<string, unknown>>;
  /** the records read so far, by core; every one of them once `all` */
  raws: Map<string, { raw: Record<string, unknown>; path: string }>;
  /** cores whose shipped file is known to be absent */
  absent: Set<string>;
  /** every file was read and every record checked (listMachines) */
  all: Map<string, MachineModel> | null;
}
let store: Store | undefined;

/** The names of a directory's records; a directory that cannot be listed is one line. */
function recordNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    throw new UserError(
      `machine models: ${printable(dir, 120)} ${code === 'ENOTDIR' ? 'is not a directory' : `cannot be listed (${code ?? (e as Error).message})`} — set UOPSCOPE_MACHINES_DIR to a directory of records`,
    );
  }
}

/** Every string of a record with its control characters shown as \xNN: names, notes and sources
 *  reach the terminal (`data list`, the report's notes), so a record cannot drive it. */
function escapeStrings(v: unknown): unknown {
  if (typeof v === 'string') return escapeControls(v);
  if (Array.isArray(v)) return v.map(escapeStrings);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, escapeStrings(x)]));
  return v;
}

/** One record file, parsed, with a valid `arch`; null when it is missing and `mayBeMissing`. */
function readRecord(path: string, mayBeMissing = false): Record<string, unknown> | null {
  const read = readSmallFile(path, MAX_MACHINE_FILE);
  if (!read.ok) {
    if (read.missing && mayBeMissing) return null;
    throw new UserError(
      `machine model ${printable(path, 120)} ${read.missing ? 'vanished while it was read' : read.why} — fix or remove the file`,
    );
  }
  let raw: unknown;
  try {
    raw = escapeStrings(JSON.parse(read.text));
  } catch (e) {
    throw new UserError(
      `machine model ${printable(path, 120)} is not valid JSON (${printable((e as Error).message, 80)}) — fix or remove the file`,
    );
  }
  if (!isObj(raw) || typeof raw.arch !== 'string' || parseArchName(raw.arch) !== raw.arch) {
    throw new UserError(`machine model ${path} has no valid "arch" (upper-case letters, digits, + - _) — fix the file`);
  }
  return raw;
}

function addRaw(
  raws: Map<string, { raw: Record<string, unknown>; path: string }>,
  raw: Record<string, unknown>,
  path: string,
): void {
  const arch = raw.arch as string;
  const before = raws.get(arch);
  if (before)
    throw new UserError(`machine model ${path} names core ${arch}, as ${before.path} does — remove one of them`);
  raws.set(arch, { raw, path });
}

function readRaw(dirs: string[]): Map<string, { raw: Record<string, unknown>; path: string }> {
  const raws = new Map<string, { raw: Record<string, unknown>; path: string }>();
  for (const dir of dirs) for (const f of recordNames(dir)) addRaw(raws, readRecord(join(dir, f))!, join(dir, f));
  return raws;
}

/** The store of the current directories: on a new key, the extra directory read whole (its
 *  records may name any core, and one the shipped directory has is refused as in a full read). */
function currentStore(): Store {
  const dirs = machineDirs();
  const key = dirs.join('\0');
  if (store?.key === key) return store;
  const raws = readRaw(dirs.slice(1));
  for (const [arch, { path }] of raws) {
    const shipped = join(dirs[0]!, `${arch}.json`);
    if (readRecord(shipped, true)?.arch === arch)
      throw new UserError(`machine model ${path} names core ${arch}, as ${shipped} does — remove one of them`);
  }
  store = { key, models: new Map(), resolved: new Map(), raws, absent: new Set(), all: null };
  return store;
}

/** The raw record of `arch` (read from the shipped directory on first use), or undefined. */
function rawOf(s: Store, arch: string): { raw: Record<string, unknown>; path: string } | undefined {
  const known = s.raws.get(arch);
  if (known || s.all || s.absent.has(arch) || parseArchName(arch) !== arch) return known;
  const path = join(machinesDir(), `${arch}.json`);
  const raw = readRecord(path, true);
  if (raw === null || raw.arch !== arch) {
    // no file of that name, or one that names another core: only a full read can tell
    if (raw !== null) return loadAll().has(arch) ? s.raws.get(arch) : undefined;
    s.absent.add(arch);
    return undefined;
  }
  s.raws.set(arch, { raw, path });
  return s.raws.get(arch);
}

/** The raw record of `arch` merged over what it inherits (a cycle or an unknown parent is one line). */
function resolveRaw(s: Store, arch: string, seen: string[]): Record<string, unknown> {
  const done = s.resolved.get(arch);
  if (done) return done;
  const { raw, path } = rawOf(s, arch)!;
  let rec = raw;
  if (raw.inherits !== undefined) {
    const parent = String(raw.inherits);
    if (!rawOf(s, parent))
      throw new UserError(`machine model ${path} inherits from unknown core '${printable(parent, 20)}' — fix the file`);
    if (seen.includes(parent))
      throw new UserError(
        `machine model ${path}: "inherits" makes a cycle (${[...seen, parent].join(' → ')}) — fix the file`,
      );
    const base = Object.fromEntries(
      Object.entries(resolveRaw(s, parent, [...seen, parent])).filter(([k]) => !OWN.has(k)),
    );
    // sources are expanded after merging: the parent's citations serve the child's figures too
    rec = overlay(base, raw);
  }
  s.resolved.set(arch, rec);
  return rec;
}

/** The checked record of `arch`, or undefined when there is none. */
function modelOf(s: Store, arch: string): MachineModel | undefined {
  const hit = s.models.get(arch);
  if (hit) return hit;
  const entry = rawOf(s, arch);
  if (!entry) return undefined;
  const rec = structuredClone(resolveRaw(s, arch, [arch]));
  expandSources(rec, entry.path);
  const m = rec as unknown as MachineModel;
  const bad = validateMachine(m);
  if (bad.length) throw new UserError(`machine model ${entry.path} has bad fields: ${bad.join(', ')} — fix the file`);
  if (m.inheritsDataFrom && !rawOf(s, m.inheritsDataFrom))
    throw new UserError(`machine model ${m.arch} inherits data from unknown ${m.inheritsDataFrom} — fix ${entry.path}`);
  s.models.set(arch, m);
  return m;
}

/** Every record of the current directories, read and checked (for lists of the cores). */
function loadAll(): Map<string, MachineModel> {
  const s = currentStore();
  if (s.all) return s.all;
  const raws = readRaw(machineDirs());
  // what was read before is the same file (an extra directory's were all read); records read
  // again now are those of the shipped directory not read yet
  for (const [arch, r] of raws) if (!s.raws.has(arch)) s.raws.set(arch, r);
  const map = new Map<string, MachineModel>();
  s.all = map; // rawOf now answers from s.raws only
  try {
    for (const arch of raws.keys()) map.set(arch, modelOf(s, arch)!);
  } catch (e) {
    s.all = null;
    throw e;
  }
  return map;
}

/** The model of one core (parseArchName makes the name from what the user wrote). */
export function loadMachine(arch: ArchName): MachineModel {
  const m = modelOf(currentStore(), arch);
  if (!m)
    throw new UserError(
      `unknown architecture '${arch}' — known: ${listMachines()
        .map((x) => x.arch)
        .join(', ')}`,
    );
  return m;
}

/** Every machine model in list order (each record's `order`; oldest core first). */
export function listMachines(): MachineModel[] {
  return [...loadAll().values()].sort(byOrder);
}

function byOrder(a: MachineModel, b: MachineModel): number {
  return (a.order ?? Infinity) - (b.order ?? Infinity) || (a.arch < b.arch ? -1 : a.arch > b.arch ? 1 : 0);
}

/** An architecture's position in lists (the records' order); names without a record come last. */
export function archRank(arch: string): number {
  const list = listMachines();
  const i = list.findIndex((m) => m.arch === arch);
  return i === -1 ? list.length : i;
}

/** The chain of architectures whose data `arch` uses: itself, then what it inherits from. */
export function inheritanceChain(arch: ArchName): ArchName[] {
  const chain = [arch];
  const s = currentStore();
  for (let m = modelOf(s, arch); m?.inheritsDataFrom; m = modelOf(s, m.inheritsDataFrom)) {
    const next = m.inheritsDataFrom;
    if (chain.includes(next)) break;
    chain.push(next);
  }
  return chain;
}

/** The core gcc's -march or llvm-mca's -mcpu calls `name` (case-insensitive), from the records'
 *  identity.compilerNames; null when none does. */
function machineByCompilerName(name: string): MachineModel | null {
  const n = name.trim().toLowerCase();
  return listMachines().find((m) => m.identity?.compilerNames.includes(n)) ?? null;
}

/** What a name the user wrote for an architecture means. */
type ArchSpelling =
  /** a core: by uops.info's name (any case) or a compiler's (`via`, as typed) */
  | { kind: 'core'; arch: ArchName; via?: string }
  /** the host's core (`host`, or gcc's and llvm-mca's `native`) */
  | { kind: 'host' }
  /** an AMD core no record has (znver1, bdver2), a generic target, a name of the right shape no
   *  record has, or not a name */
  | { kind: 'amd' | 'generic' | 'unknown' | 'invalid' };

/** gcc's and LLVM's names of AMD cores (-march=znver3, btver2, …) and uops.info's (ZEN4). */
const AMD = /^(znver\d*|zen\d*\+?|bdver\d|btver\d|amdfam\w+|k8(-sse3)?|k10|athlon\w*|opteron\w*|barcelona|amd\w*)$/i;
/** Targets that name no core: gcc's x86-64 levels, `generic`, llvm-mca's default. */
const GENERIC = /^(x86-64(-v[1-4])?|generic|i[3-6]86|pentium\w*)$/i;

/**
 * The one parser of architecture names: uops.info's (SKL, adl-p), gcc's -march and llvm-mca's
 * -mcpu names the records list (skylake-avx512, icelake-server, sapphirerapids), `host` and
 * `native`. Everything is read from the records; nothing here knows a core by name.
 */
export function parseArchSpelling(typed: string): ArchSpelling {
  const t = typed.trim();
  if (/^(host|native)$/i.test(t)) return { kind: 'host' };
  const name = parseArchName(t);
  if (name && modelOf(currentStore(), name)) return { kind: 'core', arch: name };
  const byCompiler = machineByCompilerName(t);
  if (byCompiler) return { kind: 'core', arch: byCompiler.arch, via: t };
  if (AMD.test(t)) return { kind: 'amd' };
  if (GENERIC.test(t)) return { kind: 'generic' };
  return name || /^[a-z0-9][a-z0-9._+-]{0,31}$/i.test(t) ? { kind: 'unknown' } : { kind: 'invalid' };
}

/** 'NHM, WSM, …' and examples of compiler names, for messages. */
export function knownArchText(): string {
  const ms = listMachines();
  const names = ms.flatMap((m) => m.identity?.compilerNames.slice(0, 1) ?? []);
  return `${ms.map((m) => m.arch).join(', ')}${names.length ? `, or gcc/llvm-mca names such as ${names.slice(-3).join(', ')}` : ''}`;
}
