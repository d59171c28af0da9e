// Provider: uops.info's instructions.xml — a file given for one run (--uops-xml), else the one
// imported into the cache (`uopscope data import` / `data fetch`). Measurements, origin 'uops.info'.
// A core without forms of its own takes those of the cores it inherits from.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../../errors.js';
import { loadImportedArch, readIndex } from '../cache.js';
import { combineChain, describeSource } from '../formKey.js';
import { formsLayer } from '../resolve.js';
import { parseUopsXmlFile } from '../uopsXml.js';
import type { ArchForm, DataSource } from '../types.js';
import type { FigureLayer, FigureProvider } from './registry.js';

const memo = new Map<string, { source: DataSource; forms: ArchForm[] } | null>();

function layer(c: { source: DataSource; forms: ArchForm[] }): FigureLayer {
  return formsLayer('uops.info', c.forms, {
    source: c.source,
    describe: describeSource(c.source),
    label: `${c.source.kind} ${c.source.path}`,
  });
}

export const uopsInfoFileProvider: FigureProvider = {
  id: 'uops.info',
  rank: 100,
  origins: ['uops.info'],
  async load({ arch, chain, cacheDir, uopsXml }) {
    if (uopsXml) {
      const path = resolve(uopsXml);
      let mtime = 0;
      try {
        mtime = statSync(path).mtimeMs;
      } catch {
        /* parseUopsXmlFile reports it */
      }
      const key = `file\0${path}\0${mtime}\0${arch}`;
      let hit = memo.get(key);
      if (!hit) {
        const parsed = await parseUopsXmlFile(path, { archs: new Set(chain) });
        const base: Omit<DataSource, 'forms'> = { kind: 'file', path };
        if (parsed.date) base.date = parsed.date;
        hit = combineChain(
          chain.map((a) => parsed.archs.get(a) ?? null),
          chain,
          base,
        );
        if (!hit)
          throw new UserError(
            `${uopsXml} has no measurements for ${arch} — pick one of ${[...parsed.seen].join(', ') || '(none)'}`,
          );
        memo.set(key, hit);
      }
      return layer(hit);
    }
    const index = readIndex(cacheDir);
    if (!index) return null;
    const key = `imported\0${cacheDir ?? ''}\0${index.dir}\0${arch}`;
    let hit = memo.get(key);
    if (hit === undefined) {
      const lists = chain.map((a) => loadImportedArch(a, cacheDir)?.forms ?? null);
      hit = combineChain(lists, chain, { kind: 'imported', path: index.source, date: index.date ?? index.importedAt });
      memo.set(key, hit);
    }
    return hit && layer(hit);
  },
  archs(cacheDir) {
    return Object.keys(readIndex(cacheDir)?.archs ?? {});
  },
  rows({ arch, cacheDir }) {
    const index = readIndex(cacheDir);
    const n = index?.archs[arch];
    if (!index || n === undefined) return [];
    return [
      {
        arch,
        kind: 'imported',
        origin: 'uops.info',
        path: index.source,
        forms: n,
        active: true,
        date: index.date ?? index.importedAt,
      },
    ];
  },
  reset() {
    memo.clear();
  },
};
