// loadArchData: the forms of one architecture from, in this order, an explicit --uops-xml file,
// the imported cache, or the embedded default — with inheritance (MachineModel.inheritsDataFrom):
// forms the architecture lacks are taken from the one it inherits from.
import { join, resolve } from 'node:path';
import { statSync } from 'node:fs';
import { UserError } from '../errors.js';
import { loadImportedArch, readIndex } from './cache.js';
import { embeddedDir, embeddedFiles, embeddedSummary, loadEmbeddedArch } from './embedded.js';
import { mergeInherited } from './formKey.js';
import { inheritanceChain } from './machines.js';
import { loadLlvmModel } from './llvmModel.js';
import { parseUopsXmlFile } from './uopsXml.js';
import type { ArchData, ArchForm, ArchName, DataSource } from './types.js';

export interface LoadArchOptions {
  /** use this instructions.xml for this run instead of the cache / embedded data */
  uopsXml?: string;
  /** cache root (default: UOPSCOPE_CACHE_DIR, $XDG_CACHE_HOME/uopscope, ~/.cache/uopscope) */
  cacheDir?: string;
}

const memo = new Map<string, ArchData>();

function knownChain(arch: ArchName): ArchName[] {
  try { return inheritanceChain(arch); } catch { return [arch]; }
}

/** Combines the chain's lists: own forms first, then each ancestor's missing ones. */
function combine(arch: ArchName, lists: (ArchForm[] | null)[], chain: ArchName[], base: Omit<DataSource, 'forms'>): ArchData | null {
  let forms: ArchForm[] | null = null;
  let inheritedFrom: string | undefined;
  let inherited = 0;
  lists.forEach((list, i) => {
    if (!list) return;
    if (!forms) { forms = list; if (i > 0) { inheritedFrom = chain[i]; inherited = list.length; } return; }
    const r = mergeInherited(forms, list);
    if (r.inherited) { forms = r.forms; inheritedFrom ??= chain[i]; inherited += r.inherited; }
  });
  if (!forms) return null;
  const source: DataSource = { ...base, forms: (forms as ArchForm[]).length };
  if (inheritedFrom) { source.inheritedFrom = inheritedFrom; source.inheritedForms = inherited; }
  return { arch, source, forms };
}

/** The embedded XML forms of `arch` (with inheritance), or null when it has none. */
function embeddedData(arch: ArchName, chain: ArchName[], opts: LoadArchOptions): ArchData | null {
  const key = `embedded\0${opts.cacheDir ?? ''}\0${arch}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const summary = embeddedSummary(opts.cacheDir);
  // credited to the files that define this architecture (or the one it inherits from)
  const origin = chain.map((a) => summary.origins?.[a]).find((o) => o !== undefined);
  const base: Omit<DataSource, 'forms'> = { kind: 'embedded', path: origin ? origin.files.map((f) => join(embeddedDir(), f)).join(', ') : embeddedFiles().length ? embeddedFiles()[0]!.replace(/\/[^/]*$/, '') : '(none)' };
  const date = origin ? origin.date : summary.date;
  if (date) base.date = date;
  const data = combine(arch, chain.map((a) => loadEmbeddedArch(a, opts.cacheDir)), chain, base);
  if (data) { data.llvm = loadLlvmModel(arch); memo.set(key, data); }
  return data;
}

/** The layers of an architecture's figures (docs/data.md): the forms of an explicit --uops-xml
 *  file or of the imported cache, else of the embedded XML; then the embedded XML forms (when
 *  the first layer was a file or the cache); then the LLVM-derived model. */
export async function loadArchData(arch: ArchName, opts: LoadArchOptions = {}): Promise<ArchData> {
  const chain = knownChain(arch);
  const withLower = (data: ArchData): ArchData => {
    const emb = embeddedData(arch, chain, opts);
    if (emb?.forms.length) data.embeddedForms = emb.forms;
    data.llvm = loadLlvmModel(arch);
    return data;
  };
  if (opts.uopsXml) {
    const path = resolve(opts.uopsXml);
    let mtime = 0;
    try { mtime = statSync(path).mtimeMs; } catch { /* parseUopsXmlFile reports it */ }
    const key = `file\0${path}\0${mtime}\0${arch}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const parsed = await parseUopsXmlFile(path, { archs: new Set(chain) });
    const base: Omit<DataSource, 'forms'> = { kind: 'file', path };
    if (parsed.date) base.date = parsed.date;
    const data = combine(arch, chain.map((a) => parsed.archs.get(a) ?? null), chain, base);
    if (!data) {
      throw new UserError(`${opts.uopsXml} has no measurements for ${arch} — pick one of ${[...parsed.seen].join(', ') || '(none)'}`);
    }
    withLower(data);
    memo.set(key, data);
    return data;
  }
  const index = readIndex(opts.cacheDir);
  if (index) {
    const key = `imported\0${opts.cacheDir ?? ''}\0${index.dir}\0${arch}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const lists = chain.map((a) => loadImportedArch(a, opts.cacheDir)?.forms ?? null);
    const base: Omit<DataSource, 'forms'> = { kind: 'imported', path: index.source, date: index.date ?? index.importedAt };
    const data = combine(arch, lists, chain, base);
    if (data) { withLower(data); memo.set(key, data); return data; }
  }
  const emb = embeddedData(arch, chain, opts);
  if (emb) return emb;
  const key = `llvm\0${arch}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const llvm = loadLlvmModel(arch);
  if (!llvm) {
    const summary = embeddedSummary(opts.cacheDir);
    const have = new Set([...Object.keys(summary.archs), ...Object.keys(index?.archs ?? {})]);
    throw new UserError(`no figures for ${arch}: no uops.info data and no LLVM model — available: ${[...have].join(', ') || '(none)'}; import uops.info's file with 'uopscope data import FILE' or pass --uops-xml FILE`);
  }
  const data: ArchData = { arch, source: { kind: 'none', path: '', forms: 0 }, forms: [], llvm };
  memo.set(key, data);
  return data;
}

/** Forgets loaded data (tests that change the cache in between). */
export function resetArchDataMemo(): void {
  memo.clear();
}
