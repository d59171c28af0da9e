// What `uopscope data list` shows: every architecture, and per architecture each source of
// figures in the order the resolver tries them (docs/data.md): each registered provider's rows
// (src/data/providers/), or one 'none' row when no source has figures for it.
import { archRank, listMachines } from './machines.js';
import { parseArchName } from './archName.js';
import { providerList, type DataSourceRow } from './providers/index.js';

export function listDataSources(opts: { cacheDir?: string } = {}): DataSourceRow[] {
  const rows: DataSourceRow[] = [];
  const machines = new Map(listMachines().map((m): [string, typeof m] => [m.arch, m]));
  const providers = providerList();
  const archs = new Set<string>([...machines.keys(), ...providers.flatMap((p) => p.archs(opts.cacheDir))]);
  for (const arch of [...archs].sort((a, b) => archRank(a) - archRank(b) || a.localeCompare(b))) {
    const machine = machines.get(arch);
    const name = parseArchName(arch);
    const own = name
      ? providers.flatMap((p) =>
          p.rows({
            arch: name,
            ...(machine ? { machine } : {}),
            ...(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {}),
          }),
        )
      : [];
    if (own.length === 0) own.push({ arch, kind: 'none', origin: 'none', path: '', forms: 0, active: false });
    for (const r of own) {
      if (machine?.name) r.name = machine.name;
      rows.push(r);
    }
  }
  return rows;
}
