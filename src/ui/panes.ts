// Which panes the screen shows: the baseline alone, the baseline beside a what-if variant, or
// the two sides of the first conditional jump, as plain data; engines come from the session's
// factories (engineOf), held by the controller, never in the state.
import { BASELINE, type Engine, type Variant } from '../sim/types.js';
import { VARIANT_SWITCHES, variantLabel as labelOf, variantShortLabel } from '../sim/variants.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS, isSuaca, mechanismLabel, type MechanismSet } from '../sim/mechanisms.js';
import { DATA_MEMORY_WHAT_IF } from '../sim/refine.js';
import type { ExplorerSession, PaneInfo, VariantKey } from './types.js';

/** The model the split pane compares the current one with: SUACA's, or the refined one when the
 *  current model is SUACA's. */
export function otherModel(m: MechanismSet): MechanismSet {
  return { ...(isSuaca(m) ? REFINED_MECHANISMS : SUACA_MECHANISMS) };
}

function variantOf(active: ReadonlySet<VariantKey>): Variant {
  const v: Variant = { ...BASELINE };
  for (const s of VARIANT_SWITCHES) v[s.field] = active.has(s.field);
  return v;
}

/** The switches turned on, as the report names them (src/sim/variants.ts). */
export function variantLabel(active: ReadonlySet<VariantKey>): string {
  return labelOf(variantOf(active));
}

export function shortVariant(active: ReadonlySet<VariantKey>): string {
  return variantShortLabel(variantOf(active));
}

/** A variant's pane title: its label, and on a core with several scheduler queues what it does
 *  on them (docs/engine.md, "Scheduler queues": the perfect front end loads up to the queues'
 *  total per cycle, each queue's room still bounding it; infinite ports free every queue's pipes). */
function variantTitle(session: ExplorerSession, active: ReadonlySet<VariantKey>): string {
  const label = variantLabel(active);
  const total = session.queueTotal;
  if (total === undefined) return label;
  const on = [
    ...(active.has('perfectFrontEnd') ? [`${total}/cycle into the queues`] : []),
    ...(active.has('infinitePorts') ? ["every queue's pipes"] : []),
  ];
  return on.length ? `${label}: ${on.join(', ')}` : label;
}

export interface PaneRequest {
  variants: ReadonlySet<VariantKey>;
  branches: boolean;
  iterations: number;
  /** the model's mechanisms (absent: SUACA's model) */
  mechanisms?: MechanismSet;
  /** the split pane compares the current model with the other one (otherModel) */
  compareModel?: boolean;
  /** another core's session of the same region: the split pane shows it beside this one */
  other?: ExplorerSession | null;
  /** the split pane shows the worst case of the loads through data (on a loop that has them) */
  memoryThroughData?: boolean;
}

/**
 * Which panes the screen shows and what each simulates: one value, made once per change (a
 * variant, the branches, the model, the iterations, the architecture). Its identity stands for
 * the panes: background work (run lengths, the divergence) belongs to the layout it started for.
 */
export interface PaneLayout {
  session: ExplorerSession;
  iterations: number;
  variants: ReadonlySet<VariantKey>;
  branches: boolean;
  /** the model's mechanisms (src/sim/mechanisms.ts) */
  mechanisms: MechanismSet;
  /** the split pane compares the current model with the other one */
  compareModel: boolean;
  /** the other core shown beside this one (the core split), or null */
  other: ExplorerSession | null;
  /** the worst case of the loads through data beside the current run (the session has such
   *  loads); the branch sides and the core and model splits take the panes over */
  memoryThroughData: boolean;
  panes: PaneInfo[];
}

/** The session (the core) a pane of `layout` runs: the other core's for the core split's right
 *  pane, else the layout's. */
export function paneSession(layout: PaneLayout, pane: PaneInfo): ExplorerSession {
  return pane.spec.core === 1 && layout.other ? layout.other : layout.session;
}

/** The two panes are two cores (the core split is on and the branch sides do not take it over). */
export const comparesCores = (l: PaneLayout): boolean => l.other !== null && l.panes.some((p) => p.spec.core === 1);

export function makeLayout(session: ExplorerSession, req: PaneRequest): PaneLayout {
  const mechanisms: MechanismSet = { ...(req.mechanisms ?? SUACA_MECHANISMS) };
  const branches = req.branches && session.branches !== null;
  const compareModel = req.compareModel ?? false;
  const other = req.other ?? null;
  const memoryThroughData = (req.memoryThroughData ?? false) && session.memoryThroughData !== undefined;
  return {
    session,
    iterations: req.iterations,
    variants: req.variants,
    branches,
    mechanisms,
    compareModel,
    other,
    memoryThroughData,
    panes: panesOf(session, { ...req, branches, mechanisms, compareModel, other, memoryThroughData }),
  };
}

/** A pane's name where the panes' figures stand side by side (the header's rate, the comparison
 *  line): the side, the core or the model; else the variant, or the worst case of the loads
 *  through data. */
export function paneName(layout: PaneLayout, i: number): string {
  const pane = layout.panes[i]!;
  if (layout.branches || layout.compareModel || layout.other) return pane.title.replace(/ \(.*\)$/, '');
  if (pane.spec.memoryThroughData) return DATA_MEMORY_WHAT_IF.short;
  if (pane.id === 'baseline') return 'baseline';
  return layout.variants.size ? shortVariant(layout.variants) : 'baseline';
}

/** A fresh engine of one pane of `layout` (from the session's factories). */
export function engineOf(layout: PaneLayout, pane: PaneInfo): Engine {
  const { variant, branch, mechanisms } = pane.spec;
  const core = paneSession(layout, pane);
  if (pane.spec.memoryThroughData) {
    const md = core.memoryThroughData;
    if (!md) throw new Error("no load of this region may read the previous iteration's store");
    return md.makeEngine(variant, layout.iterations, mechanisms);
  }
  const source = branch === null ? core : core.branches?.paths[branch];
  if (!source) throw new Error('this region has no conditional jump');
  return source.makeEngine(variant, layout.iterations, mechanisms);
}

function panesOf(session: ExplorerSession, req: PaneRequest & { mechanisms: MechanismSet }): PaneInfo[] {
  const all = session.lines.map((l) => l.line);
  const variant = variantOf(req.variants);
  const mechanisms = req.mechanisms;
  const label = req.variants.size ? ` (${variantLabel(req.variants)})` : '';
  if (req.branches && session.branches) {
    return session.branches.paths.map((p, i) => ({
      id: `branch-${i}`,
      title: `${p.label}${label}`,
      lines: p.lines,
      spec: { variant, branch: i as 0 | 1, mechanisms },
    }));
  }
  if (req.other) {
    // this core beside the other one, each with the model and the variant's switches
    return [session, req.other].map((s, i) => ({
      id: i === 0 ? 'core' : 'other-core',
      title: `${s.arch}${label}`,
      lines: all,
      spec: { variant, branch: null, mechanisms, ...(i === 1 ? { core: 1 as const } : {}) },
    }));
  }
  if (req.compareModel) {
    // the current model beside the other one, both with the variant's switches
    const other = otherModel(mechanisms);
    return [
      {
        id: 'model',
        title: `${mechanismLabel(mechanisms)}${label}`,
        lines: all,
        spec: { variant, branch: null, mechanisms },
      },
      {
        id: 'other-model',
        title: `${mechanismLabel(other)}${label}`,
        lines: all,
        spec: { variant, branch: null, mechanisms: other },
      },
    ];
  }
  if (req.memoryThroughData && session.memoryThroughData) {
    // the current run beside the same run with each load through data reading the previous
    // iteration's store: the best and the worst case of what the data may do
    return [
      {
        id: 'current',
        title: req.variants.size ? variantTitle(session, req.variants) : 'baseline',
        lines: all,
        spec: { variant, branch: null, mechanisms },
      },
      {
        id: 'memory',
        title: `${DATA_MEMORY_WHAT_IF.title}${label}`,
        lines: all,
        spec: { variant, branch: null, mechanisms, memoryThroughData: true },
      },
    ];
  }
  const base: PaneInfo = {
    id: 'baseline',
    title: 'baseline',
    lines: all,
    spec: { variant: BASELINE, branch: null, mechanisms },
  };
  if (req.variants.size === 0) return [base];
  return [
    base,
    {
      id: 'variant',
      title: variantTitle(session, req.variants),
      lines: all,
      spec: { variant, branch: null, mechanisms },
    },
  ];
}
