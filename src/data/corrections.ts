// Cited corrections to LLVM's scheduling figures (assets/uarch/corrections/*.json): where a public
// source (uops.info's measurements, Intel's manual, Agner Fog's tables) shows an LLVM 19 model
// wrong for a core, the file names the LLVM records (by their key, as tools/llvm-sched writes
// them), the figure that replaces the model's, and the source, per entry. The provider
// (src/data/providers/corrections.ts) applies them on top of the model's figures; this module
// reads and checks the files and answers which correction a record has on a core.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { expandSource } from './citations.js';
import { DIVIDER_LLVM_KEY } from './divider.js';
import { llvmArchs, llvmRecordsMatching } from './llvmModel.js';
import { assetsDir } from './paths.js';
import { parsePorts } from './ports.js';
import type { ArchName, Cited } from './types.js';

/** One entry: the LLVM records it corrects on which cores, and the figures that replace the
 *  model's, each with its source. */
interface Correction {
  cores: ArchName[];
  /** LLVM record keys (`Divsd_xmm_xmmm64`): a key without a variant suffix covers every variant
   *  of the form (register, memory, masked, …); one with a suffix (`Idiv_rm32:m`) only that one */
  llvm: string[];
  /** latency of every register the form writes (flags keep the model's) */
  latency?: Cited<number>;
  /** latency from the destination's old value (the form reads its destination) to its new one:
   *  the path a dependent chain of the form through its destination takes */
  selfLatency?: Cited<number>;
  /** cycles the form keeps the divider busy */
  divCycles?: Cited<number>;
  /** µops and ports, in uops.info's notation (`1*p0156+3*p1`) */
  ports?: Cited<string>;
  /** set when a figure is an estimate, not a source's figure for this core: why */
  estimated?: string;
}

/** An entry as read: its cores and records checked; its figures checked when a lookup first
 *  needs it (a run reads the entries of the records its lines use, not the hundreds of a file). */
interface Entry {
  cores: ArchName[];
  llvm: string[];
  raw: Record<string, unknown>;
  at: number;
  checked?: Correction;
}

interface CorrectionsFile {
  path: string;
  citations: Record<string, string>;
  corrections: Entry[];
}

const FIELDS = ['latency', 'selfLatency', 'divCycles', 'ports'] as const;
export type CorrectedField = (typeof FIELDS)[number];

function correctionsDir(): string {
  return join(assetsDir(), 'corrections');
}

function bad(path: string, what: string): never {
  throw new UserError(`the corrections file ${path} ${what} — reinstall uopscope`);
}

function readFile(path: string): CorrectionsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    bad(path, `cannot be read (${(e as Error).message})`);
  }
  const o = raw as { citations?: Record<string, string>; corrections?: unknown[] };
  if (!o || typeof o !== 'object' || !Array.isArray(o.corrections)) bad(path, 'has no "corrections" list');
  const corrections = o.corrections.map((c, i): Entry => {
    const e = c as Record<string, unknown>;
    const where = `entry ${i}`;
    if (!Array.isArray(e.cores) || e.cores.length === 0) bad(path, `${where} names no cores`);
    if (!Array.isArray(e.llvm) || e.llvm.length === 0) bad(path, `${where} names no LLVM records`);
    return {
      cores: (e.cores as string[]).map((a) => a.toUpperCase() as ArchName),
      llvm: e.llvm as string[],
      raw: e,
      at: i,
    };
  });
  return { path, citations: o.citations ?? {}, corrections };
}

/** An entry's figures, each checked and its source expanded (a bad one is the file's one line). */
function checked(file: CorrectionsFile, entry: Entry): Correction {
  if (entry.checked) return entry.checked;
  const { path, citations } = file;
  const e = entry.raw;
  const where = `entry ${entry.at}`;
  const out: Correction = { cores: entry.cores, llvm: entry.llvm };
  let any = false;
  for (const f of FIELDS) {
    const v = e[f] as { value?: unknown; source?: unknown } | undefined;
    if (v === undefined) continue;
    any = true;
    if (typeof v.source !== 'string') bad(path, `${where}: ${f} has no source`);
    let source: string;
    try {
      source = expandSource(v.source, citations);
    } catch (err) {
      bad(path, `${where}: ${f}: ${(err as Error).message}`);
    }
    if (f === 'ports') {
      if (typeof v.value !== 'string' || !parsePorts(v.value)) bad(path, `${where}: ports is not a port string`);
      out.ports = { value: v.value, source };
    } else {
      if (typeof v.value !== 'number' || !(v.value >= 0)) bad(path, `${where}: ${f} is not a number of cycles`);
      out[f] = { value: v.value, source };
    }
  }
  if (!any) bad(path, `${where} corrects nothing`);
  if (e.estimated !== undefined) {
    if (typeof e.estimated !== 'string') bad(path, `${where}: estimated is not a text`);
    out.estimated = e.estimated;
  }
  return (entry.checked = out);
}

let files: CorrectionsFile[] | null = null;

function loadFiles(): CorrectionsFile[] {
  if (files) return files;
  let names: string[] = [];
  try {
    names = readdirSync(correctionsDir()).filter((n) => n.endsWith('.json'));
  } catch {
    /* no corrections shipped */
  }
  files = names.sort().map((n) => readFile(join(correctionsDir(), n)));
  return files;
}

/** Every entry of every corrections file, checked (the tests check the shipped files whole). */
export function allCorrections(): Correction[] {
  return loadFiles().flatMap((f) => f.corrections.map((e) => checked(f, e)));
}

/** A core's corrections: by LLVM key, the first entry for the core itself, else for the cores it
 *  inherits figures from (`chain`, in order). */
export interface CoreCorrections {
  /** the entries that correct one LLVM record, most specific first (the key with its variant
   *  suffix, then without; each in the chain's order): a field is taken from the first that has it */
  of(key: string): { entry: Correction; core: ArchName; path: string }[];
  /** whether an entry gives the record divider cycles (for the divider's gaps) */
  covers(key: string): boolean;
  /** every entry that applies (its LLVM records), with the core it was written for and its file */
  entries: { llvm: readonly string[]; core: ArchName; path: string }[];
}

export function coreCorrections(chain: readonly ArchName[]): CoreCorrections | null {
  const entries: { entry: Entry; file: CorrectionsFile; llvm: readonly string[]; core: ArchName; path: string }[] = [];
  for (const core of chain)
    for (const f of loadFiles())
      for (const entry of f.corrections)
        if (entry.cores.includes(core)) entries.push({ entry, file: f, llvm: entry.llvm, core, path: f.path });
  if (entries.length === 0) return null;
  const byKey = new Map<string, (typeof entries)[number][]>();
  for (const e of entries)
    for (const k of e.llvm) {
      const l = byKey.get(k);
      if (l) l.push(e);
      else byKey.set(k, [e]);
    }
  const of = (key: string) => {
    const base = key.replace(/:.*$/, '');
    return [...(byKey.get(key) ?? []), ...(base !== key ? (byKey.get(base) ?? []) : [])].map((e) => ({
      entry: checked(e.file, e.entry),
      core: e.core,
      path: e.path,
    }));
  };
  return {
    of,
    covers: (key) => of(key).some((e) => e.entry.divCycles !== undefined),
    entries: entries.map(({ llvm, core, path }) => ({ llvm, core, path })),
  };
}

/** Forgets the files read (tests that change them). */
export function resetCorrections(): void {
  files = null;
}

/** The records of the LLVM model a core's figures come from (the first of `chain` that has one)
 *  that use the divider (divisions, square roots) and have no divider cycles, neither in the
 *  model nor from a correction: the divider's gaps (`data list` names them, the report notes each
 *  such line, the explorer's divider line says it while one executes). */
export function dividerGaps(chain: readonly ArchName[]): string[] {
  const from = chain.find((a) => llvmArchs()[a]);
  if (!from) return [];
  const cc = coreCorrections(chain);
  return llvmRecordsMatching(from, DIVIDER_LLVM_KEY)
    .filter((r) => r.uops > 0 && r.divCycles === 0 && !cc?.covers(r.key))
    .map((r) => r.key);
}
