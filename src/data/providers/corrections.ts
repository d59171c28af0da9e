// Provider: cited corrections to LLVM's model (src/data/corrections.ts, assets/uarch/corrections):
// a line whose LLVM record a public source shows wrong on the core gets the model's figures with
// the cited ones in their place, origin 'cited' (letter C). Asked after the measurements (an
// imported uops.info file, uopscope's own, the embedded facts) and before the plain model; a core
// takes the corrections of the cores it inherits figures from too (MachineModel.inheritsDataFrom).
import type { DecodedInstruction } from '../../disasm/types.js';
import { coreCorrections, resetCorrections, type CoreCorrections, type CorrectedField } from '../corrections.js';
import { inheritanceChain } from '../machines.js';
import { formatPorts, parsePorts } from '../ports.js';
import { llvmLayer } from '../resolve.js';
import type { ArchName, ResolvedInstruction } from '../types.js';
import { llvmModelOfChain } from './llvm.js';
import type { DataSourceRow, FigureProvider } from './registry.js';

const FLAG = /^(CF|PF|AF|ZF|SF|OF|DF)$/;

/** One figure a correction changed: the field, the model's value, the cited one, the source. */
interface Change {
  field: CorrectedField;
  llvm: number | string;
  value: number | string;
  source: string;
  /** the figures were written for this core (the line's core, or one it inherits from) */
  core: ArchName;
  estimated?: string;
}

function describe(c: Change): string {
  const what =
    c.field === 'selfLatency'
      ? `latency from the destination to itself ${c.llvm} → ${c.value}`
      : c.field === 'divCycles'
        ? `divider cycles ${c.llvm} → ${c.value}`
        : c.field === 'ports'
          ? `µops and ports ${c.llvm} → ${c.value}`
          : `latency ${c.llvm} → ${c.value}`;
  return `${what} (${c.estimated ? `estimated: ${c.estimated}; ` : ''}${c.source})`;
}

/** The model's figures for `d` with the corrections of its record applied (null: none apply). */
function corrected(d: DecodedInstruction, r: ResolvedInstruction, cc: CoreCorrections): ResolvedInstruction | null {
  const key = r.provenance?.key;
  if (!key) return null;
  const entries = cc.of(key);
  if (entries.length === 0) return null;
  const out: ResolvedInstruction = {
    ...r,
    ports: r.ports.map((g) => ({ count: g.count, ports: [...g.ports] })),
    latencyByResource: { ...r.latencyByResource },
    ...(r.readAdvance ? { readAdvance: { ...r.readAdvance } } : {}),
  };
  const changes: Change[] = [];
  const done = new Set<CorrectedField>();
  for (const { entry, core } of entries) {
    const note = (field: CorrectedField, llvm: number | string, value: number | string, source: string) => {
      changes.push({ field, llvm, value, source, core, ...(entry.estimated ? { estimated: entry.estimated } : {}) });
      done.add(field);
    };
    if (entry.ports && !done.has('ports')) {
      const groups = parsePorts(entry.ports.value)!;
      const held = (r.portHold ?? []).map(
        (h) => `, ${formatPorts([{ count: 1, ports: h.ports }]).slice(2)} held ${h.cycles} cycles`,
      );
      note('ports', `${r.uops}×${formatPorts(r.ports) || '-'}${held.join('')}`, entry.ports.value, entry.ports.source);
      out.ports = groups;
      out.uops = groups.reduce((n, g) => n + g.count, 0);
      // the cited figures are µops, each one cycle on its port: the model's holds go with its ports
      delete out.portHold;
    }
    if (entry.latency && !done.has('latency')) {
      const lat = out.latencyByResource as Record<string, number>;
      const regs = Object.keys(lat).filter((x) => !FLAG.test(x));
      if (regs.length) {
        note('latency', Math.max(...regs.map((x) => lat[x]!)), entry.latency.value, entry.latency.source);
        for (const x of regs) lat[x] = entry.latency.value;
      }
    }
    if (entry.divCycles && !done.has('divCycles')) {
      note('divCycles', r.divCycles, entry.divCycles.value, entry.divCycles.source);
      out.divCycles = entry.divCycles.value;
      delete out.divCyclesFrom;
    }
    if (entry.selfLatency && !done.has('selfLatency')) {
      // the destination is read late by (its latency − the cited one): a chain through it takes
      // the cited latency under the refined model's operand latencies (docs/engine.md)
      const dest = d.operands[0];
      const reg = dest?.read && dest.register ? dest.register : null;
      const lat = reg ? out.latencyByResource[reg] : undefined;
      if (reg && lat !== undefined) {
        const own = lat - (r.readAdvance?.[reg] ?? 0);
        note('selfLatency', own, entry.selfLatency.value, entry.selfLatency.source);
        const adv = Math.max(0, lat - entry.selfLatency.value);
        out.readAdvance = { ...(out.readAdvance ?? {}), [reg]: adv };
        if (adv === 0) delete out.readAdvance[reg];
      }
    }
  }
  if (changes.length === 0) return null;
  out.maxLatency = Math.max(0, ...Object.values(out.latencyByResource));
  const llvmText = r.provenance!.text;
  out.origin = 'cited';
  out.provenance = {
    key,
    text: `${llvmText}, corrected: ${changes.map(describe).join('; ')}`,
    detail: {
      ...(r.provenance!.detail ?? {}),
      corrections: changes.map((c) => ({
        field: c.field,
        llvm: c.llvm,
        value: c.value,
        source: c.source,
        core: c.core,
        ...(c.estimated ? { estimated: c.estimated } : {}),
      })),
    },
  };
  return out;
}

function knownChain(arch: ArchName): ArchName[] {
  try {
    return inheritanceChain(arch);
  } catch {
    return [arch];
  }
}

export const correctionsProvider: FigureProvider = {
  id: 'corrections',
  rank: 350,
  origins: ['cited'],
  async load({ chain }) {
    const cc = coreCorrections(chain);
    const model = cc && llvmModelOfChain(chain);
    if (!cc || !model) return null;
    const base = llvmLayer('llvm', model);
    const files = [...new Set(cc.entries.map((e) => e.path))];
    return {
      provider: 'corrections',
      describe: `cited corrections to LLVM ${model.llvm}'s ${model.cpu} model (${files.join(', ')})`,
      label: `cited corrections ${files.join(', ')}`,
      lookup(d) {
        const hit = base.lookup(d);
        return hit && 'line' in hit ? corrected(d, hit, cc) : null;
      },
    };
  },
  archs() {
    return [];
  },
  rows({ arch }): DataSourceRow[] {
    const chain = knownChain(arch);
    const cc = coreCorrections(chain);
    if (!cc) return [];
    const own = cc.entries.filter((e) => e.core === arch);
    const inherited = cc.entries.filter((e) => e.core !== arch);
    const count = (l: typeof own) => l.reduce((n, e) => n + e.llvm.length, 0);
    const rows: DataSourceRow[] = [];
    if (own.length)
      rows.push({
        arch,
        kind: 'corrections',
        origin: 'cited',
        path: [...new Set(own.map((e) => e.path))].join(', '),
        forms: count(own),
        active: true,
      });
    if (inherited.length)
      rows.push({
        arch,
        kind: 'inherited',
        origin: 'cited',
        path: [...new Set(inherited.map((e) => e.core))].join(', '),
        forms: count(inherited),
        active: true,
      });
    return rows;
  },
  reset() {
    resetCorrections();
  },
};
