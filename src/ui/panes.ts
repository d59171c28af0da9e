// Which panes the screen shows: the baseline alone, the baseline beside a what-if variant, or
// the two sides of the first conditional jump. Engines come from the session's factories.
import { BASELINE, type Variant } from '../sim/types.js';
import { VARIANT_KEYS, type ExplorerSession, type PaneInfo, type VariantKey } from './types.js';

export function variantOf(active: ReadonlySet<VariantKey>): Variant {
  return {
    ...BASELINE,
    perfectFrontEnd: active.has('perfectFrontEnd'),
    infinitePorts: active.has('infinitePorts'),
    noDependencies: active.has('noDependencies'),
  };
}

export function variantLabel(active: ReadonlySet<VariantKey>): string {
  const names = VARIANT_KEYS.filter((v) => active.has(v.field)).map((v) => v.label);
  return names.length ? names.join(' + ') : 'baseline';
}

export function shortVariant(active: ReadonlySet<VariantKey>): string {
  const names = VARIANT_KEYS.filter((v) => active.has(v.field)).map((v) => v.short);
  return names.length ? names.join('+') : 'baseline';
}

export interface PaneRequest {
  variants: ReadonlySet<VariantKey>;
  branches: boolean;
  iterations: number;
}

export function buildPanes(session: ExplorerSession, req: PaneRequest): PaneInfo[] {
  const all = session.lines.map((l) => l.line);
  const variant = variantOf(req.variants);
  if (req.branches && session.branches) {
    const label = req.variants.size ? ` (${variantLabel(req.variants)})` : '';
    return session.branches.paths.map((p, i) => ({
      id: `branch-${i}`,
      title: `${p.label}${label}`,
      engine: p.makeEngine(variant, req.iterations),
      lines: p.lines,
      spec: { variant, branch: i as 0 | 1 },
    }));
  }
  const base: PaneInfo = { id: 'baseline', title: 'baseline', engine: session.makeEngine(BASELINE, req.iterations), lines: all, spec: { variant: BASELINE, branch: null } };
  if (req.variants.size === 0) return [base];
  return [base, { id: 'variant', title: variantLabel(req.variants), engine: session.makeEngine(variant, req.iterations), lines: all, spec: { variant, branch: null } }];
}
