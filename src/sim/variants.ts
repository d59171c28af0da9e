// What-if variants (thesis §2.1) and their names.

import type { Variant } from './types.js';

/** All 8 combinations of perfect front end / infinite ports / no dependencies, baseline first. */
export function allVariants(): Variant[] {
  const out: Variant[] = [];
  for (let m = 0; m < 8; m++) {
    out.push({ perfectFrontEnd: (m & 1) !== 0, infinitePorts: (m & 2) !== 0, noDependencies: (m & 4) !== 0 });
  }
  return out;
}

/** The three single what-if variants the thesis prints under the block throughput. */
export function standardVariants(): { key: 'perfectFrontEnd' | 'infinitePorts' | 'noDependencies'; variant: Variant }[] {
  return [
    { key: 'perfectFrontEnd', variant: { perfectFrontEnd: true, infinitePorts: false, noDependencies: false } },
    { key: 'infinitePorts', variant: { perfectFrontEnd: false, infinitePorts: true, noDependencies: false } },
    { key: 'noDependencies', variant: { perfectFrontEnd: false, infinitePorts: false, noDependencies: true } },
  ];
}

/** A stable key for a variant: 'baseline', 'perfectFrontEnd', 'perfectFrontEnd+infinitePorts', … plus knobs. */
export function variantKey(v: Variant): string {
  const parts: string[] = [];
  if (v.perfectFrontEnd) parts.push('perfectFrontEnd');
  if (v.infinitePorts) parts.push('infinitePorts');
  if (v.noDependencies) parts.push('noDependencies');
  if (v.portCapacity !== undefined && !v.infinitePorts) parts.push(`portCapacity=${v.portCapacity}`);
  if (v.issueWidth !== undefined) parts.push(`issueWidth=${v.issueWidth}`);
  if (v.rsSize !== undefined) parts.push(`rsSize=${v.rsSize}`);
  return parts.length === 0 ? 'baseline' : parts.join('+');
}

/** Human label as the thesis prints it: "with perfect front-end", … */
export function variantLabel(v: Variant): string {
  const parts: string[] = [];
  if (v.perfectFrontEnd) parts.push('perfect front-end');
  if (v.infinitePorts) parts.push('infinitely usable ports');
  if (v.noDependencies) parts.push('no dependencies');
  if (v.portCapacity !== undefined && !v.infinitePorts) parts.push(`${v.portCapacity} µops per port`);
  if (v.issueWidth !== undefined) parts.push(`issue width ${v.issueWidth}`);
  if (v.rsSize !== undefined) parts.push(`RS ${v.rsSize}`);
  return parts.length === 0 ? 'baseline' : parts.join(', ');
}
