// One `<instruction>` element of uops.info's instructions.xml (as fast-xml-parser returns it)
// → an InstructionForm. Unknown attributes and elements are ignored.
import { printable } from '../errors.js';
import { isArchName } from './archName.js';
import { MAX_CYCLES, MAX_OPERAND_FIELD, MAX_THROUGHPUT, MAX_UOPS } from './limits.js';
import { listMachines } from './machines.js';
import { parseNamedPorts, parsePorts } from './ports.js';
import type { DataOperand, InstructionForm, LatencyEntry, Measurement, PortGroup } from './types.js';

/** fast-xml-parser node: attributes under `$`, children by name (arrays for the repeatable ones). */
export interface XmlNode {
  $?: Record<string, string>;
  '#text'?: string;
  [child: string]: unknown;
}

/** Elements that repeat inside an instruction and so are always arrays. */
export const REPEATED = new Set([
  'operand',
  'architecture',
  'measurement',
  'latency',
  'IACA',
  'instruction',
  'extension',
]);

/** Instruction attributes that distinguish otherwise equal forms (kept on the form). */
const DISTINGUISHING = [
  'agen',
  'bcast',
  'eosz',
  'high8',
  'immzero',
  'mask',
  'rep',
  'rm',
  'sae',
  'zeroing',
  'locked',
  // not in uops.info's file: uopscope's embedded files name each form's source with it
  // ('thesis §2.1', 'uops.info page DIV_R64'), and the resolver reports thesis forms as such
  'source',
];

/** A problem with one value: the caller adds where it is. */
export class ElementError extends Error {}

interface Bound {
  max: number;
  integer?: boolean;
}

/** A figure of the file: a finite number in 0..max (a whole number when `integer`), else an
 *  ElementError naming it. No figure is narrowed later without being inside these bounds. */
function num(v: string | undefined, what: string, bound: Bound): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new ElementError(`${what}="${printable(v, 30)}" is not a number`);
  if (n < 0) throw new ElementError(`${what}="${printable(v, 30)}" is negative`);
  if (bound.integer && !Number.isInteger(n))
    throw new ElementError(`${what}="${printable(v, 30)}" is not a whole number`);
  if (n > bound.max)
    throw new ElementError(`${what}="${printable(v, 30)}" is above ${bound.max}, more than any core needs`);
  return n;
}

const UOPS: Bound = { max: MAX_UOPS, integer: true };
const CYCLES: Bound = { max: MAX_CYCLES };
const TP: Bound = { max: MAX_THROUGHPUT };
const OPERAND: Bound = { max: MAX_OPERAND_FIELD, integer: true };

function children(node: XmlNode, name: string): XmlNode[] {
  const c = node[name];
  if (c === undefined) return [];
  return (Array.isArray(c) ? c : [c]) as XmlNode[];
}

// Port numbers need no bound here: the syntax allows p0–p9 and pA–pT only, and a port the machine
// model does not have is refused, naming form and port, when an analysis uses the form
// (src/cli/pipeline.ts) — not at import, where one odd form would refuse the whole file.
// uops.info writes an AMD core's FP pipes by name (`1*FP23`: FP2 or FP3): those are read with the
// core's record (its portNames); a core without such a record has no use for them (NoPipeNames).
function ports(v: string | undefined, what: string, pipes: PipeNames | null): PortGroup[] {
  let p = parsePorts(v);
  if (p === null && v !== undefined && /^\s*(\d+\s*\*\s*)?[A-Za-z]{2}/.test(v)) {
    if (!pipes) throw new NoPipeNames();
    p = parseNamedPorts(v, pipes.ports, pipes.names);
    if (p === null)
      throw new ElementError(
        `${what}="${printable(v, 30)}" names a pipe the core's record does not have (its pipes: ${pipes.names.join(', ')})`,
      );
  }
  if (p === null) throw new ElementError(`${what}="${printable(v ?? '', 30)}" is not a port string like 1*p0156+1*p23`);
  let total = 0;
  for (const g of p) {
    total += g.count;
  }
  if (total > MAX_UOPS)
    throw new ElementError(
      `${what}="${printable(v ?? '', 30)}" counts ${total} µops, above ${MAX_UOPS}, more than any core needs`,
    );
  return p;
}

// latency attribute name → field. `min_`/`max_` forms of the addr/mem figures fold into the
// field (largest wins), since the engine uses the largest latency anyway (docs/data.md).
const LAT_RE = /^(min_|max_)?cycles(_addr_index|_addr|_mem)?(_same_reg)?$/;

type LatField = 'cycles' | 'cyclesSameReg' | 'cyclesAddr' | 'cyclesAddrIndex' | 'cyclesMem' | 'minCycles' | 'maxCycles';
const FIELD: Record<string, LatField | undefined> = {
  cycles: 'cycles',
  cycles_same_reg: 'cyclesSameReg',
  cycles_addr: 'cyclesAddr',
  cycles_addr_index: 'cyclesAddrIndex',
  cycles_mem: 'cyclesMem',
  min_cycles: 'minCycles',
  max_cycles: 'maxCycles',
};

function latency(node: XmlNode): LatencyEntry {
  const a = node.$ ?? {};
  const startOp = num(a.start_op, 'start_op', OPERAND);
  const targetOp = num(a.target_op, 'target_op', OPERAND);
  if (startOp === undefined || targetOp === undefined) throw new ElementError('<latency> without start_op/target_op');
  const e: LatencyEntry = { startOp, targetOp };
  const put = (k: LatField, v: number) => {
    const old = e[k];
    e[k] = old === undefined ? v : Math.max(old, v);
  };
  for (const name in a) {
    const value = a[name]!;
    if (name === 'start_op' || name === 'target_op') continue;
    const field = FIELD[name];
    if (field) {
      const v = num(value, name, CYCLES);
      if (v !== undefined) put(field, v);
      continue;
    }
    if (name.endsWith('_is_upper_bound')) {
      if (value === '1' || value === 'true') e.upperBound = true;
      continue;
    }
    const m = LAT_RE.exec(name);
    if (!m) continue;
    const v = num(value, name, CYCLES);
    if (v === undefined) continue;
    const [, minmax, kind, same] = m;
    if (same) {
      put('cyclesSameReg', v);
      continue;
    }
    if (!kind) {
      if (minmax === 'min_') put('minCycles', v);
      else if (minmax === 'max_') put('maxCycles', v);
      else put('cycles', v);
      continue;
    }
    put(kind === '_addr' ? 'cyclesAddr' : kind === '_addr_index' ? 'cyclesAddrIndex' : 'cyclesMem', v);
  }
  return e;
}

/** A core's pipe names (its record's ports and portNames), for uops.info's AMD port strings. */
interface PipeNames {
  ports: readonly number[];
  names: readonly string[];
}

/** An AMD port string for a core uopscope has no record with pipe names for (ZEN+): that core's
 *  measurement is left out, as it could not be analysed anyway (and, by the parser, the core's
 *  other measurements: its integer forms have no \`ports\`, so nothing else marks them AMD's). */
class NoPipeNames extends Error {}

const pipeNamesMemo = new Map<string, PipeNames | null>();
function pipeNamesOf(arch: string): PipeNames | null {
  let p = pipeNamesMemo.get(arch);
  if (p === undefined) {
    const m = listMachines().find((x) => x.arch === arch);
    p = m?.portNames ? { ports: m.ports, names: m.portNames } : null;
    pipeNamesMemo.set(arch, p);
  }
  return p;
}

function measurement(node: XmlNode, pipes: PipeNames | null): Measurement {
  const a = node.$ ?? {};
  const m: Measurement = {
    uops: num(a.uops, 'uops', UOPS) ?? 0,
    ports: ports(a.ports, 'ports', pipes),
    latencies: children(node, 'latency').map(latency),
  };
  const tpU = num(a.TP_unrolled, 'TP_unrolled', TP);
  if (tpU !== undefined) m.tpUnrolled = tpU;
  const tpL = num(a.TP_loop, 'TP_loop', TP);
  if (tpL !== undefined) m.tpLoop = tpL;
  const div = num(a.div_cycles, 'div_cycles', CYCLES);
  if (div !== undefined) m.divCycles = div;
  if (a.uops_same_reg !== undefined || a.ports_same_reg !== undefined) {
    m.sameReg = {
      uops: num(a.uops_same_reg, 'uops_same_reg', UOPS) ?? m.uops,
      ports:
        a.ports_same_reg !== undefined || a.uops_same_reg === '0'
          ? ports(a.ports_same_reg, 'ports_same_reg', pipes)
          : m.ports,
    };
    const t = num(a.TP_unrolled_same_reg, 'TP_unrolled_same_reg', TP);
    if (t !== undefined) m.sameReg.tpUnrolled = t;
  }
  if (a.uops_indexed !== undefined || a.ports_indexed !== undefined) {
    m.indexed = {
      uops: num(a.uops_indexed, 'uops_indexed', UOPS) ?? m.uops,
      ports:
        a.ports_indexed !== undefined || a.uops_indexed === '0'
          ? ports(a.ports_indexed, 'ports_indexed', pipes)
          : m.ports,
    };
    const t = num(a.TP_unrolled_indexed, 'TP_unrolled_indexed', TP);
    if (t !== undefined) m.indexed.tpUnrolled = t;
  }
  const rs = num(a.uops_retire_slots, 'uops_retire_slots', UOPS);
  if (rs !== undefined) m.retireSlots = rs;
  const mite = num(a.uops_MITE, 'uops_MITE', UOPS);
  if (mite !== undefined) m.uopsMite = mite;
  const ms = num(a.uops_MS, 'uops_MS', UOPS);
  if (ms !== undefined) m.uopsMs = ms;
  if (a.macro_fusible !== undefined && a.macro_fusible !== '') {
    m.macroFusible = a.macro_fusible
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  return m;
}

function operand(node: XmlNode): DataOperand {
  const a = node.$ ?? {};
  const idx = num(a.idx, 'operand idx', OPERAND);
  if (idx === undefined) throw new ElementError('<operand> without idx');
  const op: DataOperand = {
    idx,
    type: a.type ?? 'reg',
    read: a.r === '1',
    write: a.w === '1',
    suppressed: a.suppressed === '1',
  };
  const width = num(a.width, 'width', OPERAND);
  if (width !== undefined) op.width = width;
  const text = node['#text'];
  if (op.type === 'reg' && typeof text === 'string' && text.trim() !== '') {
    op.registers = text
      .split(',')
      .map((r) => r.trim().toUpperCase())
      .filter(Boolean);
  }
  if (op.type === 'flags') {
    const flags: Record<string, string> = {};
    for (const [k, v] of Object.entries(a)) if (k.startsWith('flag_')) flags[k.slice(5)] = v;
    op.flags = flags;
  }
  return op;
}

/** Converts one instruction element. `wanted` limits which architectures are kept. */
/** `noPipes` collects the cores whose AMD port strings could not be read (no record with pipe
 *  names: ZEN+): the caller leaves the whole core out, its forms without \`ports\` too. */
export function instructionForm(
  node: XmlNode,
  wanted?: Set<string>,
  seen?: Set<string>,
  noPipes?: Set<string>,
): InstructionForm {
  const a = node.$ ?? {};
  if (!a.string) throw new ElementError('<instruction> without a string attribute');
  const attributes: Record<string, string> = {};
  for (const k of DISTINGUISHING) if (a[k] !== undefined) attributes[k] = a[k]!;
  // names from the file are printed in listings and reports: no control character gets through
  const text = (v: string): string => printable(v, Infinity);
  const form: InstructionForm = {
    string: text(a.string),
    iform: text(a.iform ?? ''),
    asm: text(a.asm ?? a.string.split(/[ _(]/)[0]!),
    operands: children(node, 'operand').map(operand),
    attributes,
    arch: {},
  };
  if (a.extension !== undefined) form.extension = text(a.extension);
  if (a['isa-set'] !== undefined) form.isaSet = text(a['isa-set']);
  if (a.category !== undefined) form.category = text(a.category);
  for (const arch of children(node, 'architecture')) {
    const name = arch.$?.name?.toUpperCase();
    if (name !== undefined && !isArchName(name)) {
      throw new ElementError(
        `<architecture name="${printable(arch.$!.name!, 40)}"> is not an architecture name (letters, digits, + - _; at most 16 characters)`,
      );
    }
    if (name && seen) seen.add(name);
    if (!name || (wanted && !wanted.has(name))) continue;
    const ms = children(arch, 'measurement');
    if (ms.length === 0) continue; // only IACA's view or a doc entry: no measurement
    try {
      form.arch[name] = measurement(ms[0]!, pipeNamesOf(name));
    } catch (e) {
      if (e instanceof NoPipeNames) {
        noPipes?.add(name);
        continue;
      }
      if (e instanceof ElementError)
        throw new ElementError(`${e.message} (form "${printable(form.string, 60)}", architecture ${name})`);
      throw e;
    }
  }
  return form;
}
