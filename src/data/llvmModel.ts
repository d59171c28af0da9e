// The LLVM-derived data layer (assets/uarch/llvm, made by tools/llvm-sched from LLVM 19's X86
// scheduling models): figures for every instruction form LLVM models, keyed exactly to the
// decoder — one record per iced-x86 Code (and register / memory / same-register / masked /
// broadcast instance). A model, not measurements: the resolver uses it only for forms that no
// uops.info file and no embedded thesis fact covers, and every line it resolves says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import type { DecodedInstruction } from '../disasm/types.js';
import { Code } from '../disasm/iced.js';
import { assetsDir } from './paths.js';
import { parsePorts } from './ports.js';
import type { PortGroup, PortHold } from './types.js';

/** One form's figures in one core's LLVM model. */
export interface LlvmRecord {
  /** the key it was found under: iced Code name plus `:m`, `:s`, `:k`, `:z` or `:b` */
  key: string;
  uops: number;
  latency: number;
  rthroughput: number;
  ports: PortGroup[];
  portString: string;
  /** µops that hold their pipe more than one cycle (a model named by pipe: tools/llvm-sched) */
  holds?: PortHold[];
  divCycles: number;
  /** per destination: `oN` (the instruction's explicit operand N) or an implicit register
   *  ('EFLAGS', 'RAX'), and its latency */
  defs: [string, number][];
  /** register sources read late (LLVM's ReadAdvance: e.g. the register operand of a load-op
   *  form, read after the load), by `oN` or implicit name */
  readAdvance: [string, number][];
  /** LLVM gives this form only a placeholder class (WriteMicrocoded / WriteSystem: nominal
   *  latency 100, no real resource usage) — not figures */
  placeholder: boolean;
  /** LLVM gives the form no µops: what the resolver gave it instead (src/data/resolve.ts
   *  `withWork`), as the provenance says it */
  zeroUops?: string;
  /** LLVM gives this load-op form no read advance: its register operands are read late by its
   *  latency less this register form's (src/data/resolve.ts `withLateReads`), as the provenance
   *  says it */
  lateReads?: string;
}

export interface LlvmArchModel {
  arch: string;
  /** LLVM's CPU name (-mcpu) whose model the figures come from */
  cpu: string;
  /** LLVM version, e.g. '19.1.7' */
  llvm: string;
  forms: number;
  placeholders: number;
  /** the record for this decoded instruction, or null when LLVM's model has none for it */
  lookup(d: LlvmKeyFields): LlvmRecord | null;
}

type RawRec = [number, number, number, string, number, string, string, string, string?];
type Meta = { llvm: string; archs: Record<string, { cpu: string; file: string; forms: number; placeholders: number }> };
interface Index extends Meta {
  keys: string[];
}

// index.json is read in two steps: its head (version, architectures) for every run, and the
// 13,000 keys only when a lookup needs them (most runs find every form in uops.info's data).
// generate.ts writes the keys last, one per line after `"keys": [`; a file laid out otherwise is
// parsed whole.
let metaText: { meta: Meta; text: string } | null = null;
let index: { meta: Meta; pos: KeyPositions } | null = null;
const models = new Map<string, LlvmArchModel | null>();

export function llvmDir(): string {
  return join(assetsDir(), 'llvm');
}

function parseJson<T>(path: string, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new UserError(`the LLVM-derived data ${path} cannot be read (${(e as Error).message}) — reinstall uopscope`);
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UserError(`the LLVM-derived data ${path} cannot be read (${(e as Error).message}) — reinstall uopscope`);
  }
}

function readJson<T>(path: string): T {
  return parseJson<T>(path, readText(path));
}

const KEYS_AT = '\n "keys": [';

function loadMeta(): { meta: Meta; text: string } {
  if (metaText) return metaText;
  const path = join(llvmDir(), 'index.json');
  const text = readText(path);
  const at = text.indexOf(KEYS_AT);
  const head = at > 0 && text[at - 1] === ',' ? text.slice(0, at - 1) + '}' : null;
  const meta = head !== null ? parseJson<Meta>(path, head) : parseJson<Index>(path, text);
  return (metaText = { meta, text });
}

/** A key's position in index.json's list (the position of its record in each core's `index`). */
interface KeyPositions {
  get(key: string): number | undefined;
  has(key: string): boolean;
}

function loadIndex(): { meta: Meta; pos: KeyPositions } {
  if (index) return index;
  const { meta, text } = loadMeta();
  const full = parseJson<Index>(join(llvmDir(), 'index.json'), text);
  metaText = { meta, text: '' }; // the keys live on in pos
  return (index = { meta, pos: keyPositions(full.keys) });
}

/**
 * Positions of the keys, found by binary search: generate.ts writes them in the order of
 * iced-x86's Code values (an instance's variants, `Code:m`, `Code:s`…, follow it), so a key's
 * Code value says where it is. Building a Map of the 13,000 keys at every start that looks one
 * up would cost more than the ~30 lookups of a loop. A list not in that order (a key whose name
 * is not a Code, or a smaller Code after a larger one, met on the search's way) is indexed in a
 * Map; test/data/llvmModel.test.ts checks every key of the committed list both ways.
 */
export function keyPositions(keys: readonly string[]): KeyPositions {
  const codeOf = (key: string): number | undefined => {
    const colon = key.indexOf(':');
    const v = (Code as unknown as Record<string, unknown>)[colon < 0 ? key : key.slice(0, colon)];
    return typeof v === 'number' ? v : undefined;
  };
  let map: Map<string, number> | null = null;
  const asMap = (): Map<string, number> => {
    if (!map) {
      map = new Map();
      keys.forEach((k, i) => {
        map!.set(k, i);
      });
    }
    return map;
  };
  const find = (key: string): number | undefined => {
    if (map) return map.get(key);
    const want = codeOf(key);
    if (want === undefined) return asMap().get(key);
    let lo = 0;
    let hi = keys.length;
    let loCode = -1;
    let hiCode = Infinity;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = codeOf(keys[mid]!);
      if (c === undefined || c < loCode || c > hiCode) return asMap().get(key);
      if (c < want) {
        lo = mid + 1;
        loCode = c;
      } else {
        hi = mid;
        hiCode = c;
      }
    }
    for (let i = lo; i < keys.length; i++) {
      const k = keys[i]!;
      if (k === key) return i;
      const c = codeOf(k);
      if (c === undefined || c < want) return asMap().get(key);
      if (c > want) return undefined;
    }
    return undefined;
  };
  return { get: find, has: (key) => find(key) !== undefined };
}

/** Architectures with an LLVM-derived file, with their CPU and form counts. */
export function llvmArchs(): Record<string, { cpu: string; forms: number; placeholders: number; llvm: string }> {
  const { meta } = loadMeta();
  return Object.fromEntries(
    Object.entries(meta.archs).map(([a, v]) => [
      a,
      { cpu: v.cpu, forms: v.forms, placeholders: v.placeholders, llvm: meta.llvm },
    ]),
  );
}

/** `p0123:4,p9A:2` → the port sets a µop holds more than one cycle, or null when malformed. */
function parseHolds(s: string): PortHold[] | null {
  const out: PortHold[] = [];
  for (const part of s.split(',')) {
    const [set, n] = part.split(':');
    const g = parsePorts(set ?? '');
    const cycles = Number(n);
    if (g?.length !== 1 || g[0]!.count !== 1 || !Number.isInteger(cycles) || cycles < 2) return null;
    out.push({ ports: g[0]!.ports, cycles });
  }
  return out;
}

const splitPairs = (s: string): [string, number][] =>
  s
    ? s.split(',').map((p) => {
        const i = p.lastIndexOf(':');
        return [p.slice(0, i), Number(p.slice(i + 1))] as [string, number];
      })
    : [];

/** What of a decoded instruction picks its LLVM record. */
type LlvmKeyFields = Pick<DecodedInstruction, 'code' | 'memory' | 'sameReg' | 'masking' | 'broadcast'>;

/** The keys to try for a decoded instruction, most specific first. `hasKey` tells whether a key
 *  exists at all: an instruction with a memory operand whose Code has no separate memory
 *  instance (string instructions: the memory operands are implicit) uses the plain key. */
function llvmKeys(d: LlvmKeyFields, hasKey: (k: string) => boolean): string[] {
  if (!d.code) return [];
  const base = d.memory && hasKey(`${d.code}:m`) ? `${d.code}:m` : d.code;
  const out: string[] = [];
  if (d.memory && d.broadcast) out.push(`${d.code}:b`);
  if (!d.memory && d.masking === 'merge') out.push(`${d.code}:k`);
  if (!d.memory && d.masking === 'zero') out.push(`${d.code}:z`, `${d.code}:k`);
  if (!d.memory && d.sameReg) out.push(`${d.code}:s`);
  out.push(base);
  return out;
}

/** The LLVM-derived model of one core, or null when there is none for it. */
export function loadLlvmModel(arch: string): LlvmArchModel | null {
  const hit = models.get(arch);
  if (hit !== undefined) return hit;
  const { meta } = loadMeta();
  const entry = meta.archs[arch];
  if (!entry) {
    models.set(arch, null);
    return null;
  }
  // the keys and this core's records are read at the first lookup
  let file: { cpu: string; records: RawRec[]; index: number[] } | null = null;
  let pos: KeyPositions | null = null;
  const decoded = new Map<number, LlvmRecord>();
  const record = (key: string): LlvmRecord | null => {
    pos ??= loadIndex().pos;
    file ??= readJson<{ cpu: string; records: RawRec[]; index: number[] }>(join(llvmDir(), entry.file));
    const p = pos.get(key);
    if (p === undefined) return null;
    const ri = file.index[p] ?? -1;
    if (ri < 0) return null;
    let r = decoded.get(ri);
    if (!r) {
      const raw = file.records[ri]!;
      const ports = parsePorts(raw[3]);
      if (!ports)
        throw new UserError(`the LLVM-derived data for ${arch} has a bad port string '${raw[3]}' — reinstall uopscope`);
      r = {
        key,
        uops: raw[0],
        latency: raw[1],
        rthroughput: raw[2],
        ports,
        portString: raw[3],
        divCycles: raw[4],
        defs: splitPairs(raw[5]),
        readAdvance: splitPairs(raw[6]),
        placeholder: raw[7] === 'P',
      };
      if (raw[8]) {
        const holds = parseHolds(raw[8]);
        if (!holds)
          throw new UserError(
            `the LLVM-derived data for ${arch} has a bad hold string '${raw[8]}' — reinstall uopscope`,
          );
        r.holds = holds;
      }
      decoded.set(ri, r);
    }
    return r.key === key ? r : { ...r, key };
  };
  const model: LlvmArchModel = {
    arch,
    cpu: entry.cpu,
    llvm: meta.llvm,
    forms: entry.forms,
    placeholders: entry.placeholders,
    lookup(d) {
      pos ??= loadIndex().pos;
      const known = pos;
      for (const k of llvmKeys(d, (key) => known.has(key))) {
        const r = record(k);
        if (r) return r;
      }
      return null;
    },
  };
  models.set(arch, model);
  return model;
}

/** Every record of a core's LLVM model whose key `match`es, with its µops and divider cycles
 *  (placeholders left out): e.g. the divisions, for the divider's gaps in `data list`. */
export function llvmRecordsMatching(arch: string, match: RegExp): { key: string; uops: number; divCycles: number }[] {
  const { meta, text } = loadMeta();
  const entry = meta.archs[arch];
  if (!entry) return [];
  const keys = parseJson<Index>(join(llvmDir(), 'index.json'), text || readText(join(llvmDir(), 'index.json'))).keys;
  const file = readJson<{ records: RawRec[]; index: number[] }>(join(llvmDir(), entry.file));
  const out: { key: string; uops: number; divCycles: number }[] = [];
  keys.forEach((key, p) => {
    if (!match.test(key)) return;
    const ri = file.index[p] ?? -1;
    const raw = ri >= 0 ? file.records[ri] : undefined;
    if (raw && raw[7] !== 'P') out.push({ key, uops: raw[0], divCycles: raw[4] });
  });
  return out;
}
