// Compact JSON encoding of one architecture's forms for the cache: arrays instead of keyed
// objects, register lists interned in a table, port strings in uops.info's own notation.
// A 15,000-form architecture is a few MB and decodes in well under 100 ms; decode(encode(x))
// deep-equals x (test/data/cache.test.ts).
import { formatPorts, parsePortsShared } from './ports.js';
import type { ArchForm, DataOperand, LatencyEntry, Measurement, PortGroup } from './types.js';

type EncOperand = [
  idx: number,
  type: string,
  rws: number,
  width: number,
  regs: number,
  flags: Record<string, string> | 0,
];
type EncLatency = number[]; // start, target, then optional fields (-1 = absent), ub flag
type EncVariant = [uops: number, ports: number, tp: number];
interface EncExtra {
  tu?: number;
  tl?: number;
  d?: number;
  sr?: EncVariant;
  srl?: EncLatency[];
  ix?: EncVariant;
  mf?: string[];
  rs?: number;
  mi?: number;
  ms?: number;
}
/** The measurement, JSON-encoded inside the form's array: loading an architecture then creates one
 *  string per form instead of a dozen small arrays (less work for the garbage collector). */
type EncMeasurement = [uops: number, ports: number, lats: EncLatency[], extra: EncExtra | 0];
type EncForm = [
  string: string,
  iform: string,
  asm: string | 0,
  ops: number,
  attrs: Record<string, string> | 0,
  measurement: string,
];

export interface EncodedArch {
  version: number;
  arch: string;
  regs: string[];
  /** distinct port strings; forms refer to them by index */
  ports: string[];
  /** distinct operand lists (forms share them) */
  ops: EncOperand[][];
  forms: EncForm[];
}

const LAT_KEYS = [
  'cycles',
  'cyclesSameReg',
  'cyclesAddr',
  'cyclesAddrIndex',
  'cyclesMem',
  'minCycles',
  'maxCycles',
] as const;

function encLat(e: LatencyEntry): EncLatency {
  const out = [e.startOp, e.targetOp, ...LAT_KEYS.map((k) => e[k] ?? -1), e.upperBound ? 1 : 0];
  while (out.length > 2 && out[out.length - 1] === (out.length === 10 ? 0 : -1)) out.pop();
  return out;
}

function decLat(a: EncLatency): LatencyEntry {
  const e: LatencyEntry = { startOp: a[0]!, targetOp: a[1]! };
  for (let i = 0; i < LAT_KEYS.length; i++) {
    const v = a[i + 2];
    if (v !== undefined && v !== -1) e[LAT_KEYS[i]!] = v;
  }
  if (a[9] === 1) e.upperBound = true;
  return e;
}

/** The mnemonic part of a form string: 'ADD (R64, R64)' → 'ADD'. */
function defaultAsm(s: string): string {
  const i = s.indexOf(' (');
  return i === -1 ? s : s.slice(0, i);
}

// an instruction's operand list is one array shared by all its architectures: key it once
const opKeys = new WeakMap<DataOperand[], string>();

/**
 * Encodes one architecture's forms one at a time, keeping each encoded form as a JSON string:
 * during an import this holds ~300,000 small strings instead of as many object graphs, which
 * keeps the garbage collector's work (and the peak memory) down.
 */
export class ArchEncoder {
  private regs: string[] = [];
  private regIdx = new Map<string, number>();
  private portTab: string[] = [];
  private portIdx = new Map<string, number>();
  private opLists: EncOperand[][] = [];
  private opIdx = new Map<string, number>();
  private forms: string[] = [];
  private keys = new Set<string>();

  constructor(readonly arch: string) {}

  get size(): number {
    return this.forms.length;
  }

  private encOps(ops: DataOperand[]): EncOperand[] {
    return ops.map((o) => {
      let r = -1;
      if (o.registers) {
        const key = o.registers.join(',');
        r = this.regIdx.get(key) ?? -1;
        if (r === -1) {
          r = this.regs.length;
          this.regs.push(key);
          this.regIdx.set(key, r);
        }
      }
      return [
        o.idx,
        o.type,
        (o.read ? 1 : 0) | (o.write ? 2 : 0) | (o.suppressed ? 4 : 0),
        o.width ?? -1,
        r,
        o.flags ?? 0,
      ];
    });
  }

  private port(g: PortGroup[]): number {
    const k = formatPorts(g);
    let i = this.portIdx.get(k);
    if (i === undefined) {
      i = this.portTab.length;
      this.portTab.push(k);
      this.portIdx.set(k, i);
    }
    return i;
  }

  private internOps(ops: DataOperand[]): number {
    let key = opKeys.get(ops);
    if (key === undefined) {
      key = JSON.stringify(ops);
      opKeys.set(ops, key);
    }
    let i = this.opIdx.get(key);
    if (i === undefined) {
      i = this.opLists.length;
      this.opLists.push(this.encOps(ops));
      this.opIdx.set(key, i);
    }
    return i;
  }

  /** Adds a form; a form with the same key as an earlier one (string + attributes) is dropped. */
  add(f: ArchForm, key?: string): boolean {
    if (key !== undefined) {
      if (this.keys.has(key)) return false;
      this.keys.add(key);
    }
    const m = f.m;
    const x: EncExtra = {};
    if (m.tpUnrolled !== undefined) x.tu = m.tpUnrolled;
    if (m.tpLoop !== undefined) x.tl = m.tpLoop;
    if (m.divCycles !== undefined) x.d = m.divCycles;
    if (m.sameReg) {
      x.sr = [m.sameReg.uops, this.port(m.sameReg.ports), m.sameReg.tpUnrolled ?? -1];
      if (m.sameReg.latencies) x.srl = m.sameReg.latencies.map(encLat);
    }
    if (m.indexed) x.ix = [m.indexed.uops, this.port(m.indexed.ports), m.indexed.tpUnrolled ?? -1];
    if (m.macroFusible) x.mf = m.macroFusible;
    if (m.retireSlots !== undefined) x.rs = m.retireSlots;
    if (m.uopsMite !== undefined) x.mi = m.uopsMite;
    if (m.uopsMs !== undefined) x.ms = m.uopsMs;
    const mEnc: EncMeasurement = [m.uops, this.port(m.ports), m.latencies.map(encLat), Object.keys(x).length ? x : 0];
    const enc: EncForm = [
      f.string,
      f.iform,
      f.asm === defaultAsm(f.string) ? 0 : f.asm,
      this.internOps(f.operands),
      Object.keys(f.attributes).length ? f.attributes : 0,
      JSON.stringify(mEnc),
    ];
    this.forms.push(JSON.stringify(enc));
    return true;
  }

  /** The file's text: an EncodedArch in JSON. */
  toJSON(version: number): string {
    const head = JSON.stringify({ version, arch: this.arch, regs: this.regs, ports: this.portTab, ops: this.opLists });
    return `${head.slice(0, -1)},"forms":[${this.forms.join(',')}]}`;
  }
}

export function encodeArch(version: number, arch: string, forms: ArchForm[]): EncodedArch {
  const e = new ArchEncoder(arch);
  for (const f of forms) e.add(f);
  return JSON.parse(e.toJSON(version)) as EncodedArch;
}

export function decodeArch(e: EncodedArch): ArchForm[] {
  const regs = e.regs.map((r) => r.split(','));
  // port groups are shared between forms too (read-only)
  const portTab: (PortGroup[] | undefined)[] = new Array(e.ports.length);
  const ports = (i: number): PortGroup[] => (portTab[i] ??= parsePortsShared(e.ports[i]!) ?? []);
  // operand lists are shared between the forms that have the same ones: treat them as read-only
  const opLists = e.ops.map((list) =>
    list.map(([idx, type, rws, width, r, flags]) => {
      const o: DataOperand = { idx, type, read: (rws & 1) !== 0, write: (rws & 2) !== 0, suppressed: (rws & 4) !== 0 };
      if (width !== -1) o.width = width;
      if (r !== -1) o.registers = regs[r]!;
      if (flags) o.flags = flags;
      return o;
    }),
  );
  return e.forms.map((f) => new CachedForm(f, f[2] === 0 ? defaultAsm(f[0]) : f[2], opLists[f[3]]!, f[4] || {}, ports));
}

function decodeMeasurement(f: EncForm, ports: (i: number) => PortGroup[]): Measurement {
  const [uops, p, lats, x] = JSON.parse(f[5]) as EncMeasurement;
  const m: Measurement = { uops, ports: ports(p), latencies: lats.map(decLat) };
  if (x) {
    if (x.tu !== undefined) m.tpUnrolled = x.tu;
    if (x.tl !== undefined) m.tpLoop = x.tl;
    if (x.d !== undefined) m.divCycles = x.d;
    if (x.sr) {
      m.sameReg = { uops: x.sr[0], ports: ports(x.sr[1]) };
      if (x.sr[2] !== -1) m.sameReg.tpUnrolled = x.sr[2];
      if (x.srl) m.sameReg.latencies = x.srl.map(decLat);
    }
    if (x.ix) {
      m.indexed = { uops: x.ix[0], ports: ports(x.ix[1]) };
      if (x.ix[2] !== -1) m.indexed.tpUnrolled = x.ix[2];
    }
    if (x.mf) m.macroFusible = x.mf;
    if (x.rs !== undefined) m.retireSlots = x.rs;
    if (x.mi !== undefined) m.uopsMite = x.mi;
    if (x.ms !== undefined) m.uopsMs = x.ms;
  }
  return m;
}

/**
 * A form read from the cache. Its measurement is decoded on first access: loading an
 * architecture builds only what matching needs (string, iform, operands), which keeps the load
 * of a 15,000-form architecture under 100 ms; the few forms a loop resolves to decode their
 * figures when read. `toJSON` gives the plain ArchForm.
 */
class CachedForm implements ArchForm {
  readonly string: string;
  readonly iform: string;
  readonly asm: string;
  readonly operands: DataOperand[];
  readonly attributes: Record<string, string>;
  #raw: EncForm | null;
  #m: Measurement | null = null;
  #ports: (i: number) => PortGroup[];

  constructor(
    raw: EncForm,
    asm: string,
    operands: DataOperand[],
    attributes: Record<string, string>,
    ports: (i: number) => PortGroup[],
  ) {
    this.string = raw[0];
    this.iform = raw[1];
    this.asm = asm;
    this.operands = operands;
    this.attributes = attributes;
    this.#raw = raw;
    this.#ports = ports;
  }

  get m(): Measurement {
    if (!this.#m) {
      this.#m = decodeMeasurement(this.#raw!, this.#ports);
      this.#raw = null;
    }
    return this.#m;
  }

  toJSON(): ArchForm {
    return {
      string: this.string,
      iform: this.iform,
      asm: this.asm,
      operands: this.operands,
      attributes: this.attributes,
      m: this.m,
    };
  }
}

/** A plain-object copy of any ArchForm (for comparisons and serialization). */
export function plainForm(f: ArchForm): ArchForm {
  return JSON.parse(JSON.stringify(f)) as ArchForm;
}
