// loadArchData: one core's figures from every registered data source (src/data/providers/), in
// resolution order: an explicit --uops-xml file or the imported cache, the embedded XML, the LLVM
// model — each with inheritance where it applies (MachineModel.inheritsDataFrom). `measured: false`
// (--no-measured) leaves out the figures uopscope measured on this machine, so that a prediction
// can be compared with and without them.
import { UserError } from '../errors.js';
import { listDataSources } from './sources.js';
import { inheritanceChain } from './machines.js';
import { providerList, type FigureLayer } from './providers/index.js';
import type { ArchData, ArchName } from './types.js';

interface LoadArchOptions {
  /** use this instructions.xml for this run instead of the cache / embedded data */
  uopsXml?: string;
  /** cache root (default: UOPSCOPE_CACHE_DIR, $XDG_CACHE_HOME/uopscope, ~/.cache/uopscope) */
  cacheDir?: string;
  /** false: leave out the figures measured by uopscope (the user's file and the shipped one) */
  measured?: boolean;
}

function knownChain(arch: ArchName): ArchName[] {
  try {
    return inheritanceChain(arch);
  } catch {
    return [arch];
  }
}

/** The layers of an architecture's figures (docs/data.md), one per source that has figures for
 *  it, in the providers' order. `source` and `forms` are the first layer of uops.info-schema forms
 *  (a file, the imported cache, else the embedded XML); `embeddedForms` the embedded XML's when
 *  that came second; `llvm` the LLVM model. */
export async function loadArchData(arch: ArchName, opts: LoadArchOptions = {}): Promise<ArchData> {
  const chain = knownChain(arch);
  const ctx = {
    arch,
    chain,
    ...(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {}),
    ...(opts.uopsXml ? { uopsXml: opts.uopsXml } : {}),
  };
  const layers: FigureLayer[] = [];
  for (const p of providerList()) {
    if (opts.measured === false && p.origins.includes('measured')) continue;
    const l = await p.load(ctx);
    if (l) layers.push(l);
  }
  if (layers.length === 0) {
    // every core some source has figures for (uops.info's, the embedded ones, LLVM's model),
    // as `uopscope data list` counts them, not only those with uops.info-schema files
    const have = [
      ...new Set(
        listDataSources(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {})
          .filter((r) => r.kind !== 'none' && r.forms > 0)
          .map((r) => r.arch),
      ),
    ];
    throw new UserError(
      `no figures for ${arch} (no uops.info data, no LLVM model); cores with figures: ${have.join(', ') || '(none)'}. Import uops.info's file for ${arch} with 'uopscope data import FILE' or pass --uops-xml FILE`,
    );
  }
  const xml = layers.filter((l) => l.forms);
  const first = xml[0]?.forms;
  const data: ArchData = {
    arch,
    source: first ? first.source : { kind: 'none', path: '', forms: 0 },
    forms: first ? first.list : [],
    layers,
  };
  const embedded = xml.find((l, i) => i > 0 && l.provider === 'embedded')?.forms;
  if (embedded?.list.length) data.embeddedForms = embedded.list;
  data.llvm = layers.find((l) => l.llvm)?.llvm ?? null;
  return data;
}

/** Forgets loaded data (tests that change the cache in between). */
export function resetArchDataMemo(): void {
  for (const p of providerList()) p.reset?.();
}
