// The data sources as one list of providers. Each provider loads its figures for a core (a
// layer), looks a decoded instruction up in them, and describes itself in `data list`; the
// resolver (src/data/resolve.ts) asks the layers in the providers' order, the first that has
// figures wins. The built-in providers are listed in ./index.ts; a new source is one file that
// registers its origin (src/data/origins.ts) and its provider here.
import type { DecodedInstruction } from '../../disasm/types.js';
import type { ArchForm, ArchName, DataSource, MachineModel, ResolvedInstruction } from '../types.js';
import type { LlvmArchModel } from '../llvmModel.js';
import type { FigureOrigin } from '../origins.js';

/** What a layer answers for one decoded instruction: figures; a reason it has the form but no
 *  figures for it (the resolver goes on, and gives the reason if no later layer has figures); or
 *  null when it does not have the form. */
type LayerHit = ResolvedInstruction | { why: string } | null;

/** One source's figures for one core. */
export interface FigureLayer {
  /** the provider's id */
  provider: string;
  /** the figures for this instruction (as the core executes it), or why there are none */
  lookup(d: DecodedInstruction): LayerHit;
  /** the same, from the figures this layer has that were measured on this machine, under its
   *  microcode (absent: none were): asked before every layer for a form whose figures depend on
   *  the microcode (src/data/microcode.ts) */
  hostLookup?(d: DecodedInstruction): LayerHit;
  /** how the listing's footnote names this layer ('imported data (FILE, DATE, 14,000 forms)'),
   *  or null when it is not named there */
  describe: string | null;
  /** the same, short, for the explorer's header ('imported FILE'), or null */
  label: string | null;
  /** for a layer of uops.info-schema forms: the forms and where they are from (ArchData's
   *  `source` and `forms` are the first such layer's) */
  forms?: { source: DataSource; list: ArchForm[] };
  /** for the LLVM model's layer (ArchData.llvm) */
  llvm?: LlvmArchModel;
}

interface ProviderContext {
  arch: ArchName;
  /** the core and the ones it inherits figures from (MachineModel.inheritsDataFrom), in order */
  chain: ArchName[];
  cacheDir?: string;
  /** an instructions.xml given for this run (--uops-xml) */
  uopsXml?: string;
}

/** One row of `uopscope data list`: a source of one architecture's figures. */
export interface DataSourceRow {
  arch: string;
  /** the core's name when uopscope has a machine model for it */
  name?: string;
  /** which source: 'imported', 'measured', 'embedded', 'inherited', 'llvm', or 'none' */
  kind: string;
  /** what the figures are (an origin of src/data/origins.ts) */
  origin: FigureOrigin;
  /** file or directory the figures come from; for 'inherited', the architecture inherited from;
   *  for 'llvm', LLVM's CPU name and version */
  path: string;
  date?: string;
  /** forms this source provides for the architecture (for 'inherited': the parent's count) */
  forms: number;
  /** for 'llvm': forms LLVM models only with a placeholder class (not used as figures) */
  placeholders?: number;
  /** forms the source has but does not give figures for (for 'measured': failed checks) */
  unused?: number;
  /** whether the resolver uses this source for the architecture (an embedded or inherited
   *  source is used for the forms the ones before it lack) */
  active: boolean;
  /** for 'llvm': the model's records of forms that use the divider and have no divider occupancy
   *  from any source (its key names): on a line of one the divider is not modelled */
  dividerGaps?: string[];
  /** what was measured on (for 'measured': the CPU, microcode, kernel, uopscope version, command) */
  provenance?: Record<string, unknown>;
}

interface ListContext {
  arch: ArchName;
  machine?: MachineModel;
  cacheDir?: string;
}

export interface FigureProvider {
  id: string;
  /** position in the list: lower is asked first */
  rank: number;
  /** the origins of its figures */
  origins: readonly FigureOrigin[];
  /** the layer of one core, or null when the source has nothing for it; a bad source is a
   *  UserError */
  load(ctx: ProviderContext): Promise<FigureLayer | null>;
  /** the architectures the source has figures for (besides those with a machine model) */
  archs(cacheDir?: string): string[];
  /** its `data list` rows for one architecture (none when it has nothing for it) */
  rows(ctx: ListContext): DataSourceRow[];
  /** forgets what it loaded (tests that change files in between) */
  reset?(): void;
}

const providers: FigureProvider[] = [];

/** Adds a provider to the list, at its rank. */
export function registerProvider(p: FigureProvider): void {
  if (providers.some((x) => x.id === p.id)) throw new Error(`data provider '${p.id}' is registered already`);
  providers.push(p);
  providers.sort((a, b) => a.rank - b.rank);
}

/** Removes a provider (tests that register one). */
export function unregisterProvider(id: string): void {
  const i = providers.findIndex((x) => x.id === id);
  if (i >= 0) providers.splice(i, 1);
}

/** The providers in resolution order. */
export function providerList(): readonly FigureProvider[] {
  return providers;
}
