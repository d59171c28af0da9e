// Provider: figures measured by uopscope (`uopscope data measure`, src/data/measuredFormat.ts) —
// on this machine, in the user's cache (<cache root>/measured/<ARCH>.json), and those shipped
// with uopscope for the cores it was run on (assets/uarch/measured/<ARCH>.json). The user's own
// file is asked first, the shipped one for the forms it lacks. Origin 'measured': asked after an
// imported uops.info file and before the thesis's facts and the LLVM model; for a form whose
// figures depend on the microcode (src/data/microcode.ts), the user's file before every source.
//
// A measured form becomes a form of uops.info's schema (its latency pairs, ports, µops and
// variants in the fields the resolver and the refined rules read), so it is matched and resolved
// exactly as uops.info's forms are. A form whose consistency check failed is left out.
import { statSync } from 'node:fs';
import type { DecodedInstruction } from '../../disasm/types.js';
import { splitSignature } from '../signature.js';
import { formsLayer } from '../resolve.js';
import {
  listMeasuredArchs,
  listShippedMeasuredArchs,
  measuredFormKey,
  readMeasured,
  shippedMeasuredPath,
  splitMeasuredKey,
  userMeasuredPath,
  measuredPortGroups,
  measuredUsed,
  type MeasuredFigures,
  type MeasuredFile,
  type MeasuredForm,
} from '../measuredFormat.js';
import type { ArchForm, ArchName, DataOperand, LatencyEntry, Measurement, Provenance } from '../types.js';
import type { DataSourceRow, FigureLayer, FigureProvider } from './registry.js';

/** The register an operand kind of a signature names, for the resolver's operand classes. */
function kindOperand(kind: string, idx: number): DataOperand {
  const k = kind.toUpperCase();
  const reg = (r: string): DataOperand => ({
    idx,
    type: 'reg',
    read: false,
    write: false,
    suppressed: false,
    registers: [r],
  });
  if (/^[XYZ]MM$/.test(k)) return reg(`${k}0`);
  if (k === 'K') return reg('K1');
  if (k === 'MM') return reg('MM0');
  if (/^ST/.test(k)) return reg('ST0');
  if (/^R(8|16|32|64)$/.test(k)) return reg(k === 'R8' ? 'AL' : k === 'R16' ? 'AX' : k === 'R32' ? 'EAX' : 'RAX');
  if (/^(AL|AX|EAX|RAX|CL|DX)$/.test(k)) return reg(k);
  // a gather's memory operand as uops.info names it by its vector index (VSIB_XMM)
  if (/^M/.test(k) || /^VSIB_/.test(k)) return { idx, type: 'mem', read: false, write: false, suppressed: false };
  if (/^REL/.test(k)) return { idx, type: 'relbr', read: true, write: false, suppressed: false };
  if (k === 'AGEN') return { idx, type: 'agen', read: true, write: false, suppressed: false };
  return { idx, type: 'imm', read: true, write: false, suppressed: false };
}

const FLAGS_IDX = 90;
const FLAG_NAMES = new Set(['CF', 'PF', 'AF', 'ZF', 'SF', 'OF', 'DF']);

/** The operands of a form and the latency entries of its figures, in uops.info's shape. */
class Operands {
  readonly list: DataOperand[];
  private implicit = new Map<string, DataOperand>();
  private flags: DataOperand | null = null;

  constructor(signature: string) {
    this.list = splitSignature(signature).operands.map((k, i) => kindOperand(k, i));
  }

  /** The operand a reference names, and which latency field a pair from it fills. */
  ref(
    ref: string,
    asTarget: boolean,
  ): { op: DataOperand; field: 'cycles' | 'cyclesMem' | 'cyclesAddr' | 'cyclesAddrIndex' } | null {
    const m = /^o(\d+)(?:\.(base|index))?$/.exec(ref);
    if (m) {
      const op = this.list[Number(m[1])];
      if (!op) return null;
      if (m[2])
        return op.type === 'mem' && !asTarget
          ? { op, field: m[2] === 'base' ? 'cyclesAddr' : 'cyclesAddrIndex' }
          : null;
      if (asTarget) op.write = true;
      else op.read = true;
      return { op, field: op.type === 'mem' && !asTarget ? 'cyclesMem' : 'cycles' };
    }
    if (ref === 'flags' || FLAG_NAMES.has(ref)) {
      this.flags ??= { idx: FLAGS_IDX, type: 'flags', read: false, write: false, suppressed: true, flags: {} };
      const f = this.flags.flags!;
      for (const name of ref === 'flags' ? [] : [ref.toLowerCase()])
        f[name] = asTarget ? (f[name] === 'r' ? 'rw' : 'w') : f[name] === 'w' ? 'rw' : (f[name] ?? 'r');
      if (asTarget) this.flags.write = true;
      else this.flags.read = true;
      return { op: this.flags, field: 'cycles' };
    }
    let op = this.implicit.get(ref);
    if (!op) {
      op = {
        idx: FLAGS_IDX + 1 + this.implicit.size,
        type: 'reg',
        read: false,
        write: false,
        suppressed: true,
        registers: [ref],
      };
      this.implicit.set(ref, op);
    }
    if (asTarget) op.write = true;
    else op.read = true;
    return { op, field: 'cycles' };
  }

  latencies(fig: MeasuredFigures): LatencyEntry[] {
    const byPair = new Map<string, LatencyEntry>();
    for (const l of fig.latencies) {
      const from = this.ref(l.from, false);
      const to = this.ref(l.to, true);
      if (!from || !to) continue;
      const key = `${from.op.idx}>${to.op.idx}`;
      let e = byPair.get(key);
      if (!e) {
        e = { startOp: from.op.idx, targetOp: to.op.idx };
        byPair.set(key, e);
      }
      e[from.field] = Math.max(e[from.field] ?? 0, l.cycles);
      if (l.upperBound) e.upperBound = true;
    }
    return [...byPair.values()];
  }

  all(): DataOperand[] {
    return [...this.list, ...(this.flags ? [this.flags] : []), ...this.implicit.values()];
  }
}

const usable = measuredUsed;

/** One measured form as a form of uops.info's schema (null when its check failed). */
function measuredArchForm(key: string, f: MeasuredForm): ArchForm | null {
  if (!usable(f)) return null;
  const { signature, attributes } = splitMeasuredKey(key);
  const ops = new Operands(signature);
  const tp = (x: MeasuredFigures) => x.throughput?.dependencyBroken ?? x.throughput?.plain;
  const m: Measurement = { uops: f.uops.unfused, ports: measuredPortGroups(f.ports), latencies: ops.latencies(f) };
  const t = tp(f);
  if (t !== undefined) m.tpUnrolled = t;
  if (f.divCycles !== undefined) m.divCycles = f.divCycles;
  if (f.uops.fused !== undefined) m.retireSlots = f.uops.fused;
  if (usable(f.sameReg)) {
    const s = f.sameReg;
    m.sameReg = { uops: s.uops.unfused, ports: measuredPortGroups(s.ports), latencies: ops.latencies(s) };
    const st = tp(s);
    if (st !== undefined) m.sameReg.tpUnrolled = st;
  }
  const sp = splitSignature(signature);
  return { string: signature, iform: '', asm: sp.mnemonic, operands: ops.all(), attributes, m };
}

interface Loaded {
  file: MeasuredFile;
  path: string;
  forms: ArchForm[];
  failed: number;
}

const memo = new Map<string, { mtime: number; size: number; loaded: Loaded | null }>();

/** A measured file, read and converted (once per change of the file); null when there is none. */
function load(path: string, own = false): Loaded | null {
  let st: { mtimeMs: number; size: number } | null = null;
  try {
    st = statSync(path);
  } catch {
    /* none */
  }
  if (!st) {
    memo.delete(path);
    return null;
  }
  const hit = memo.get(path);
  if (hit && hit.mtime === st.mtimeMs && hit.size === st.size) return hit.loaded;
  const file = readMeasured(
    path,
    `measure again with 'uopscope data measure', or remove it with 'uopscope data remove measured'`,
    { private: own },
  );
  let loaded: Loaded | null = null;
  if (file) {
    const forms: ArchForm[] = [];
    let failed = 0;
    for (const [key, f] of Object.entries(file.forms)) {
      const form = measuredArchForm(key, f);
      if (form) forms.push(form);
      else failed++;
    }
    loaded = { file, path, forms, failed };
  }
  memo.set(path, { mtime: st.mtimeMs, size: st.size, loaded });
  return loaded;
}

/** 'Intel(R) Xeon(R) …, microcode 0x2b000590, 2026-11-27, uopscope 0.1.0' */
function onWhat(f: MeasuredFile): string {
  const p = f.provenance;
  return `${p.cpu}, microcode ${p.microcode}, ${p.date.slice(0, 10)}, uopscope ${p.uopscope}`;
}

function provenanceOf(l: Loaded, shipped: boolean): (f: ArchForm) => Provenance {
  const p = l.file.provenance;
  return (f) => {
    const key = measuredFormKey(f.string, f.attributes);
    return {
      key,
      text: `measured by uopscope on ${onWhat(l.file)} (${key})`,
      detail: {
        form: key,
        file: l.path,
        shipped,
        cpu: p.cpu,
        microcode: p.microcode,
        date: p.date,
        uopscope: p.uopscope,
      },
    };
  };
}

function layerOf(l: Loaded, shipped: boolean): FigureLayer {
  return formsLayer('measured', l.forms, {
    origin: () => 'measured',
    provenance: provenanceOf(l, shipped),
    describe: `figures measured by uopscope${shipped ? ' (shipped)' : ''} (${l.path}: ${onWhat(l.file)}, ${l.forms.length} forms)`,
    label: `measured ${l.path}`,
  });
}

/** Where a core's measured files are: the user's, then the one shipped with uopscope. */
interface Paths {
  user?: string;
  shipped?: string;
}

function pathsOf(arch: ArchName, cacheDir?: string): Paths {
  return { user: userMeasuredPath(arch, cacheDir), shipped: shippedMeasuredPath(arch) };
}

function files(paths: Paths): { loaded: Loaded; shipped: boolean }[] {
  const out: { loaded: Loaded; shipped: boolean }[] = [];
  const user = paths.user ? load(paths.user, true) : null;
  if (user) out.push({ loaded: user, shipped: false });
  const shipped = paths.shipped ? load(paths.shipped) : null;
  if (shipped) out.push({ loaded: shipped, shipped: true });
  return out;
}

/** The layer of a core's measured files (either may be absent; null when both are): the user's
 *  forms first, the shipped file's for the forms it lacks. */
export function measuredLayer(paths: Paths): FigureLayer | null {
  const found = files(paths);
  const layers = found.map((f) => layerOf(f.loaded, f.shipped));
  if (layers.length === 0) return null;
  // the user's file is the one `data measure` wrote on this machine: its figures are this
  // microcode's; the shipped file was measured on the machine its provenance names
  const own = found[0]!.shipped ? undefined : layers[0]!;
  const host = own ? { hostLookup: (d: DecodedInstruction) => own.lookup(d) } : {};
  if (layers.length === 1) return { ...layers[0]!, ...host };
  const [user, shipped] = layers as [FigureLayer, FigureLayer];
  return {
    provider: 'measured',
    describe: `${user.describe}, then ${shipped.describe}`,
    label: `${user.label}, then ${shipped.label}`,
    lookup: (d) => user.lookup(d) ?? shipped.lookup(d),
    ...host,
  };
}

export const measuredProvider: FigureProvider = {
  id: 'measured',
  rank: 200,
  origins: ['measured'],
  async load({ arch, cacheDir }) {
    return measuredLayer(pathsOf(arch, cacheDir));
  },
  archs(cacheDir) {
    return [...new Set([...listMeasuredArchs(cacheDir), ...listShippedMeasuredArchs()])];
  },
  rows({ arch, cacheDir }) {
    return files(pathsOf(arch, cacheDir)).map(({ loaded: l, shipped }): DataSourceRow => {
      const p = l.file.provenance;
      return {
        arch,
        kind: shipped ? 'measured (shipped)' : 'measured',
        origin: 'measured',
        path: l.path,
        date: p.date,
        forms: l.forms.length,
        ...(l.failed ? { unused: l.failed } : {}),
        active: true,
        provenance: {
          cpu: p.cpu,
          cpuid: p.cpuid,
          microcode: p.microcode,
          kernel: p.kernel,
          virtualMachine: p.virtualMachine,
          uopscope: p.uopscope,
          command: p.command,
          core: p.core,
        },
      };
    });
  },
  reset() {
    memo.clear();
  },
};
