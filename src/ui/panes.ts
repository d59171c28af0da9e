// Which panes the screen shows: the baseline alone, the baseline beside a what-if variant, or
// the two sides of the first conditional jump. Engines come from the session's factories.
import { BASELINE, type Variant } from '../sim/types.js';
import { VARIANT_SWITCHES, variantLabel as labelOf, variantShortLabel } from '../sim/variants.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS, isSuaca, mechanismLabel, type MechanismSet } from '../sim/mechanisms.js';
import type { ExplorerSession, PaneInfo, VariantKey } from './types.js';

/** The model the split pane compares the current one with: SUACA's, or the refined one when the
 *  current model is SUACA's. */
export function otherModel(m: MechanismSet): MechanismSet {
  return { ...(isSuaca(m) ? REFINED_MECHANISMS : SUACA_MECHANISMS) };
}

export function variantOf(active: ReadonlySet<VariantKey>): Variant {
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

export function buildPanes(session: ExplorerSession, req: PaneRequest): PaneInfo[] {
  const all = session.lines.map((l) => l.line);
  const variant = variantOf(req.variants);
  const mechanisms: MechanismSet = { ...(req.mechanisms ?? SUACA_MECHANISMS) };
  if (req.branches && session.branches) {
    const label = req.variants.size ? ` (${variantLabel(req.variants)})` : '';
    return session.branches.paths.map((p, i) => ({
      id: `branch-${i}`,
      title: `${p.label}${label}`,
      engine: p.makeEngine(variant, req.iterations, mechanisms),
      lines: p.lines,
      spec: { variant, branch: i as 0 | 1, mechanisms },
    }));
  }
  if (req.compareModel) {
    // the current model beside the other one, both with the variant's switches
    const other = otherModel(mechanisms);
    const label = req.variants.size ? ` (${variantLabel(req.variants)})` : '';
    return [
      { id: 'model', title: `${mechanismLabel(mechanisms)}${label}`, engine: session.makeEngine(variant, req.iterations, mechanisms), lines: all, spec: { variant, branch: null, mechanisms } },
      { id: 'other-model', title: `${mechanismLabel(other)}${label}`, engine: session.makeEngine(variant, req.iterations, other), lines: all, spec: { variant, branch: null, mechanisms: other } },
    ];
  }
  const base: PaneInfo = { id: 'baseline', title: 'baseline', engine: session.makeEngine(BASELINE, req.iterations, mechanisms), lines: all, spec: { variant: BASELINE, branch: null, mechanisms } };
  if (req.variants.size === 0) return [base];
  return [base, { id: 'variant', title: variantLabel(req.variants), engine: session.makeEngine(variant, req.iterations, mechanisms), lines: all, spec: { variant, branch: null, mechanisms } }];
}
