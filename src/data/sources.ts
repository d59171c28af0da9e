// What `uopscope data list` shows: every architecture with data, where its data comes from.
import { readIndex } from './cache.js';
import { embeddedDir, embeddedSummary } from './embedded.js';
import { ARCH_ORDER, listMachines } from './machines.js';

export interface DataSourceRow {
  arch: string;
  /** the core's name when uopscope has a machine model for it */
  name?: string;
  kind: 'imported' | 'embedded' | 'inherited' | 'none';
  /** file or directory the figures come from; for 'inherited', the architecture inherited from */
  path: string;
  date?: string;
  /** forms with a measurement for this architecture (for 'inherited': the parent's count) */
  forms: number;
  /** what loadArchData uses for this arch (the imported cache wins over the embedded data) */
  active: boolean;
}

export function listDataSources(opts: { cacheDir?: string } = {}): DataSourceRow[] {
  const rows: DataSourceRow[] = [];
  const machines = new Map(listMachines().map((m) => [m.arch, m]));
  const index = readIndex(opts.cacheDir);
  const emb = embeddedSummary(opts.cacheDir);
  const archs = new Set<string>([...machines.keys(), ...Object.keys(index?.archs ?? {}), ...Object.keys(emb.archs)]);
  const order = (a: string) => { const i = ARCH_ORDER.indexOf(a); return i === -1 ? ARCH_ORDER.length : i; };
  for (const arch of [...archs].sort((a, b) => order(a) - order(b) || a.localeCompare(b))) {
    const name = machines.get(arch)?.name;
    const own: DataSourceRow[] = [];
    const imp = index?.archs[arch];
    if (imp !== undefined) {
      const r: DataSourceRow = { arch, kind: 'imported', path: index!.source, forms: imp, active: true, date: index!.date ?? index!.importedAt };
      own.push(r);
    }
    const e = emb.archs[arch];
    if (e !== undefined) {
      const origin = emb.origins?.[arch];
      const r: DataSourceRow = { arch, kind: 'embedded', path: origin ? origin.files.join(', ') : embeddedDir(), forms: e, active: imp === undefined };
      const date = origin ? origin.date : emb.date;
      if (date) r.date = date;
      own.push(r);
    }
    const parent = machines.get(arch)?.inheritsDataFrom;
    if (parent) {
      const pf = index?.archs[parent] ?? emb.archs[parent];
      if (pf !== undefined) own.push({ arch, kind: 'inherited', path: parent, forms: pf, active: own.length === 0 });
    }
    if (own.length === 0) own.push({ arch, kind: 'none', path: '', forms: 0, active: false });
    for (const r of own) { if (name) r.name = name; rows.push(r); }
  }
  return rows;
}
