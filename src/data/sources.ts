// What `uopscope data list` shows: every architecture, and per architecture each source of
// figures in the order the resolver tries them (docs/data.md): the imported uops.info file, the
// embedded XML (uops.info pages and the SUACA thesis's facts, counted separately), forms inherited
// from another architecture's XML data, and the LLVM-derived model.
import { join } from 'node:path';
import { readIndex } from './cache.js';
import { embeddedDir, embeddedSummary, loadEmbeddedArch } from './embedded.js';
import { llvmArchs, llvmDir } from './llvmModel.js';
import { ARCH_ORDER, listMachines } from './machines.js';
import { formOrigin } from './resolve.js';
import type { FigureOrigin } from './types.js';

export interface DataSourceRow {
  arch: string;
  /** the core's name when uopscope has a machine model for it */
  name?: string;
  kind: 'imported' | 'embedded' | 'inherited' | 'llvm' | 'none';
  /** what the figures are: measured by uops.info, printed by the thesis, LLVM's model */
  origin: FigureOrigin;
  /** file or directory the figures come from; for 'inherited', the architecture inherited from;
   *  for 'llvm', LLVM's CPU name and version */
  path: string;
  date?: string;
  /** forms this source provides for the architecture (for 'inherited': the parent's count) */
  forms: number;
  /** for 'llvm': forms LLVM models only with a placeholder class (not used as figures) */
  placeholders?: number;
  /** whether the resolver uses this source for the architecture (an embedded or inherited
   *  source is used for the forms the ones before it lack) */
  active: boolean;
}

export function listDataSources(opts: { cacheDir?: string } = {}): DataSourceRow[] {
  const rows: DataSourceRow[] = [];
  const machines = new Map(listMachines().map((m): [string, typeof m] => [m.arch, m]));
  const index = readIndex(opts.cacheDir);
  const emb = embeddedSummary(opts.cacheDir);
  const llvm = llvmArchs();
  const archs = new Set<string>([...machines.keys(), ...Object.keys(index?.archs ?? {}), ...Object.keys(emb.archs)]);
  const order = (a: string) => { const i = ARCH_ORDER.indexOf(a); return i === -1 ? ARCH_ORDER.length : i; };
  for (const arch of [...archs].sort((a, b) => order(a) - order(b) || a.localeCompare(b))) {
    const machine = machines.get(arch);
    const own: DataSourceRow[] = [];
    const imp = index?.archs[arch];
    if (imp !== undefined) {
      own.push({ arch, kind: 'imported', origin: 'uops.info', path: index!.source, forms: imp, active: true, date: index!.date ?? index!.importedAt });
    }
    if (emb.archs[arch] !== undefined) {
      const forms = loadEmbeddedArch(arch, opts.cacheDir) ?? [];
      const files = emb.origins?.[arch];
      for (const origin of ['uops.info', 'thesis'] as const) {
        const n = forms.filter((f) => formOrigin(f) === origin).length;
        if (!n) continue;
        const r: DataSourceRow = { arch, kind: 'embedded', origin, path: files ? files.files.map((f) => join(embeddedDir(), f)).join(', ') : embeddedDir(), forms: n, active: true };
        const date = files ? files.date : emb.date;
        if (date) r.date = date;
        own.push(r);
      }
    }
    const parent = machine?.inheritsDataFrom;
    if (parent) {
      const pf = index?.archs[parent] ?? emb.archs[parent];
      if (pf !== undefined) own.push({ arch, kind: 'inherited', origin: index?.archs[parent] !== undefined ? 'uops.info' : 'thesis', path: parent, forms: pf, active: true });
    }
    const l = llvm[arch];
    if (l) own.push({ arch, kind: 'llvm', origin: 'llvm', path: `${llvmDir()} (LLVM ${l.llvm} ${l.cpu})`, forms: l.forms, placeholders: l.placeholders, active: true });
    if (own.length === 0) own.push({ arch, kind: 'none', origin: 'none', path: '', forms: 0, active: false });
    for (const r of own) {
      if (machine?.name) r.name = machine.name;
      rows.push(r);
    }
  }
  return rows;
}
