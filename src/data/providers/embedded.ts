// Provider: the embedded XML (assets/uarch/embedded/*.xml, uops.info's schema): the SUACA
// thesis's printed facts (origin 'thesis') and figures read from uops.info's pages ('uops.info'),
// each form's origin from its `source` attribute. Also the `inherited` row of `data list`: a core
// that takes the forms of another one (from the imported file or from here).
import { join } from 'node:path';
import { readIndex } from '../cache.js';
import { embeddedDir, embeddedFiles, embeddedSummary, loadEmbeddedArch } from '../embedded.js';
import { combineChain, describeSource } from '../formKey.js';
import { formOrigin, formsLayer } from '../resolve.js';
import type { ArchForm, DataSource } from '../types.js';
import type { DataSourceRow, FigureProvider } from './registry.js';

const memo = new Map<string, { source: DataSource; forms: ArchForm[] } | null>();

export const embeddedProvider: FigureProvider = {
  id: 'embedded',
  rank: 300,
  origins: ['uops.info', 'thesis'],
  async load({ arch, chain, cacheDir }) {
    const key = `${cacheDir ?? ''}\0${arch}`;
    let hit = memo.get(key);
    if (hit === undefined) {
      const summary = embeddedSummary(cacheDir);
      // credited to the files that define this architecture (or the one it inherits from)
      const origin = chain.map((a) => summary.origins?.[a]).find((o) => o !== undefined);
      const base: Omit<DataSource, 'forms'> = {
        kind: 'embedded',
        path: origin
          ? origin.files.map((f) => join(embeddedDir(), f)).join(', ')
          : embeddedFiles().length
            ? embeddedFiles()[0]!.replace(/\/[^/]*$/, '')
            : '(none)',
      };
      const date = origin ? origin.date : summary.date;
      if (date) base.date = date;
      hit = combineChain(
        chain.map((a) => loadEmbeddedArch(a, cacheDir)),
        chain,
        base,
      );
      memo.set(key, hit);
    }
    if (!hit || hit.forms.length === 0) return null;
    return formsLayer('embedded', hit.forms, {
      source: hit.source,
      describe: describeSource(hit.source),
      label: `${hit.source.kind} ${hit.source.path}`,
    });
  },
  archs(cacheDir) {
    return Object.keys(embeddedSummary(cacheDir).archs);
  },
  rows({ arch, machine, cacheDir }) {
    const rows: DataSourceRow[] = [];
    const emb = embeddedSummary(cacheDir);
    if (emb.archs[arch] !== undefined) {
      const forms = loadEmbeddedArch(arch, cacheDir) ?? [];
      const files = emb.origins?.[arch];
      for (const origin of ['uops.info', 'thesis'] as const) {
        const n = forms.filter((f) => formOrigin(f) === origin).length;
        if (!n) continue;
        const r: DataSourceRow = {
          arch,
          kind: 'embedded',
          origin,
          path: files ? files.files.map((f) => join(embeddedDir(), f)).join(', ') : embeddedDir(),
          forms: n,
          active: true,
        };
        const date = files ? files.date : emb.date;
        if (date) r.date = date;
        rows.push(r);
      }
    }
    const parent = machine?.inheritsDataFrom;
    if (parent) {
      const index = readIndex(cacheDir);
      const imported = index?.archs[parent];
      if (imported !== undefined)
        rows.push({ arch, kind: 'inherited', origin: 'uops.info', path: parent, forms: imported, active: true });
      else if (emb.archs[parent] !== undefined) {
        // one row per origin of the parent's embedded forms (ADL-P's are uops.info's, SKL's the thesis's)
        const forms = loadEmbeddedArch(parent, cacheDir) ?? [];
        for (const origin of ['uops.info', 'thesis'] as const) {
          const n = forms.filter((f) => formOrigin(f) === origin).length;
          if (n) rows.push({ arch, kind: 'inherited', origin, path: parent, forms: n, active: true });
        }
      }
    }
    return rows;
  },
  reset() {
    memo.clear();
  },
};
