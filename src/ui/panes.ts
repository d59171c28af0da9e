// Which panes the screen shows: the baseline alone, the baseline beside a what-if variant, or
// the two sides of the first conditional jump, as plain data; engines come from the session's
// factories (engineOf), held by the controller, never in the state.
import { BASELINE, type Engine, type Variant } from '../sim/types.js';
import { VARIANT_SWITCHES, variantLabel as labelOf, variantShortLabel } from '../sim/variants.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS, isSuaca, mechanismLabel, type MechanismSet } from '../sim/mechanisms.js';
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

export interface PaneRequest {
  variants: ReadonlySet<VariantKey>;
  branches: boolean;
  iterations: number;
  /** the model's mechanisms (absent: SUACA's model) */
  mechanisms?: MechanismSet;
  /** the split pane compares the current model with the other one (otherModel) */
  compareModel?: boolean;
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
  panes: PaneInfo[];
}

export function makeLayout(session: ExplorerSession, req: PaneRequest): PaneLayout {
  const mechanisms: MechanismSet = { ...(req.mechanisms ?? SUACA_MECHANISMS) };
  const branches = req.branches && session.branches !== null;
  const compareModel = req.compareModel ?? false;
  return {
    session,
    iterations: req.iterations,
    variants: req.variants,
    branches,
    mechanisms,
    compareModel,
    panes: panesOf(session, { ...req, branches, mechanisms, compareModel }),
  };
}

/** A fresh engine of one pane of `layout` (from the session's factories). */
export function engineOf(layout: PaneLayout, pane: PaneInfo): Engine {
  const { variant, branch, mechanisms } = pane.spec;
  const source = branch === null ? layout.session : layout.session.branches?.paths[branch];
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
  const base: PaneInfo = {
    id: 'baseline',
    title: 'baseline',
    lines: all,
    spec: { variant: BASELINE, branch: null, mechanisms },
  };
  if (req.variants.size === 0) return [base];
  return [
    base,
    { id: 'variant', title: variantLabel(req.variants), lines: all, spec: { variant, branch: null, mechanisms } },
  ];
}
