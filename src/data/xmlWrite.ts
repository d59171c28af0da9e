// Writes instruction forms back in uops.info's instructions.xml schema (the synthetic benchmark
// file and tests use it; what it writes, the parser reads back to the same figures).
import { formatPorts } from './ports.js';
import type { DataOperand, InstructionForm, LatencyEntry, Measurement } from './types.js';

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');
}

function operandXml(o: DataOperand): string {
  const a: Record<string, string | number | undefined> = {
    idx: o.idx,
    name: `OP${o.idx}`,
    type: o.type,
    width: o.width,
  };
  if (o.read) a.r = 1;
  if (o.write) a.w = 1;
  if (o.suppressed) a.suppressed = 1;
  for (const [f, v] of Object.entries(o.flags ?? {})) a[`flag_${f}`] = v;
  const text = o.registers?.join(',');
  return text ? `<operand${attrs(a)}>${xmlEscape(text)}</operand>` : `<operand${attrs(a)}/>`;
}

function latencyXml(e: LatencyEntry): string {
  const a: Record<string, string | number | undefined> = {
    start_op: e.startOp,
    target_op: e.targetOp,
    cycles: e.cycles,
    cycles_same_reg: e.cyclesSameReg,
    cycles_addr: e.cyclesAddr,
    cycles_addr_index: e.cyclesAddrIndex,
    cycles_mem: e.cyclesMem,
    min_cycles: e.minCycles,
    max_cycles: e.maxCycles,
  };
  if (e.upperBound) {
    const first =
      ['cycles', 'min_cycles', 'max_cycles', 'cycles_addr', 'cycles_addr_index', 'cycles_mem'].find(
        (k) => a[k] !== undefined,
      ) ?? 'cycles';
    a[`${first}_is_upper_bound`] = 1;
  }
  return `<latency${attrs(a)}/>`;
}

function measurementXml(m: Measurement, indent = ''): string {
  const a: Record<string, string | number | undefined> = {
    TP_loop: m.tpLoop,
    TP_unrolled: m.tpUnrolled,
    div_cycles: m.divCycles,
    macro_fusible: m.macroFusible?.join(';'),
    ports: m.ports.length ? formatPorts(m.ports) : undefined,
    uops: m.uops,
    uops_MITE: m.uopsMite,
    uops_MS: m.uopsMs,
    uops_retire_slots: m.retireSlots,
  };
  if (m.sameReg) {
    a.uops_same_reg = m.sameReg.uops;
    if (m.sameReg.ports.length) a.ports_same_reg = formatPorts(m.sameReg.ports);
    a.TP_unrolled_same_reg = m.sameReg.tpUnrolled;
  }
  if (m.indexed) {
    a.uops_indexed = m.indexed.uops;
    if (m.indexed.ports.length) a.ports_indexed = formatPorts(m.indexed.ports);
    a.TP_unrolled_indexed = m.indexed.tpUnrolled;
  }
  if (m.latencies.length === 0) return `<measurement${attrs(a)}/>`;
  return `<measurement${attrs(a)}>\n${m.latencies.map((e) => `${indent}  ${latencyXml(e)}\n`).join('')}${indent}</measurement>`;
}

export function instructionXml(f: InstructionForm, extraArchXml = ''): string {
  const a: Record<string, string | number | undefined> = {
    asm: f.asm,
    category: f.category,
    extension: f.extension,
    iform: f.iform || undefined,
    'isa-set': f.isaSet,
    string: f.string,
    ...f.attributes,
  };
  const lines = [`  <instruction${attrs(a)}>`];
  for (const o of f.operands) lines.push(`    ${operandXml(o)}`);
  for (const [arch, m] of Object.entries(f.arch)) {
    lines.push(`    <architecture name="${xmlEscape(arch)}">`);
    lines.push(`      ${measurementXml(m, '      ')}`);
    lines.push('    </architecture>');
  }
  if (extraArchXml) lines.push(extraArchXml);
  lines.push('  </instruction>');
  return lines.join('\n') + '\n';
}
