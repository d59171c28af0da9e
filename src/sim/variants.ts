// The what-if variants (thesis §2.1): the one definition of their switches, flags, keys and
// labels. The report, the CLI and the explorer all name and compare variants through this file.

import type { Variant } from './types.js';

/** The three what-if switches of a Variant. */
export type VariantSwitch = 'perfectFrontEnd' | 'infinitePorts' | 'noDependencies';

/** The report's command-line flag of a switch (--pf, --ip, --nd). */
export type VariantFlag = 'pf' | 'ip' | 'nd';

interface SwitchInfo {
  field: VariantSwitch;
  /** the report's command-line flag, declared from this table (src/cli/commands/report.ts) */
  flag: VariantFlag;
  /** the flag's line in `uopscope report --help` */
  help: string;
  /** as the thesis prints it ("Analysis with: perfect front-end") */
  label: string;
  /** for narrow places (the explorer's comparison line) */
  short: string;
}

/** The switches in the thesis's order (the order of every label and key). */
export const VARIANT_SWITCHES: readonly SwitchInfo[] = [
  {
    field: 'perfectFrontEnd',
    flag: 'pf',
    label: 'perfect front-end',
    short: 'perfect FE',
    help: 'main analysis with a perfect front end (µops loaded per cycle = reservation-station capacity)',
  },
  {
    field: 'infinitePorts',
    flag: 'ip',
    label: 'infinitely usable ports',
    short: 'inf. ports',
    help: 'main analysis with infinitely usable ports',
  },
  {
    field: 'noDependencies',
    flag: 'nd',
    label: 'no dependencies',
    short: 'no deps',
    help: 'main analysis without dependencies',
  },
];

/** All 8 combinations of perfect front end / infinite ports / no dependencies, baseline first. */
export function allVariants(): Variant[] {
  const out: Variant[] = [];
  for (let m = 0; m < 8; m++) {
    out.push({ perfectFrontEnd: (m & 1) !== 0, infinitePorts: (m & 2) !== 0, noDependencies: (m & 4) !== 0 });
  }
  return out;
}

/**
 * `v` and every variant with some of the limits `v` removes put back (some of its switches turned
 * off again, the knobs kept): `v` first. A variant's run is the fastest of these (engine.ts,
 * `runVariantOf`), so that removing a limit never makes a run slower.
 */
export function withLimitsBack(v: Variant): Variant[] {
  const on = VARIANT_SWITCHES.filter((s) => v[s.field]).map((s) => s.field);
  const out: Variant[] = [];
  // m: which of v's switches stay on, all of them first
  for (let m = (1 << on.length) - 1; m >= 0; m--) {
    const w: Variant = { ...v };
    on.forEach((f, k) => {
      w[f] = (m & (1 << k)) !== 0;
    });
    out.push(m === (1 << on.length) - 1 ? v : w);
  }
  return out;
}

/** `v` with the three switches set from `sw` (the knobs — port capacity, issue width, RS size — kept). */
export function withSwitches(v: Variant, sw: Partial<Pick<Variant, VariantSwitch>>): Variant {
  return { ...v, ...sw };
}

/** The port capacity a variant runs with (1 unless set; ignored with infinitely usable ports). */
function portCapacityOf(v: Variant): number | undefined {
  return v.infinitePorts || v.portCapacity === undefined || v.portCapacity === 1 ? undefined : v.portCapacity;
}

/**
 * A stable key for a variant: 'baseline', 'perfectFrontEnd', 'perfectFrontEnd+infinitePorts', …
 * plus the knobs ('portCapacity=2', 'issueWidth=6', 'rsSize=20'). Two variants have the same key
 * exactly when the engine runs them alike (a port capacity of 1, or one beside infinitely usable
 * ports, is no knob).
 */
export function variantKey(v: Variant): string {
  const parts: string[] = VARIANT_SWITCHES.filter((s) => v[s.field]).map((s) => s.field);
  const pc = portCapacityOf(v);
  if (pc !== undefined) parts.push(`portCapacity=${pc}`);
  if (v.issueWidth !== undefined) parts.push(`issueWidth=${v.issueWidth}`);
  if (v.rsSize !== undefined) parts.push(`rsSize=${v.rsSize}`);
  return parts.length === 0 ? 'baseline' : parts.join('+');
}

/** The label as the report prints it: "perfect front-end, no dependencies", … or 'baseline'. */
export function variantLabel(v: Variant): string {
  const parts: string[] = [];
  if (v.perfectFrontEnd) parts.push(VARIANT_SWITCHES[0]!.label);
  if (v.infinitePorts) parts.push(VARIANT_SWITCHES[1]!.label);
  else if (portCapacityOf(v) !== undefined) parts.push(`${v.portCapacity} µops per port per cycle`);
  if (v.noDependencies) parts.push(VARIANT_SWITCHES[2]!.label);
  if (v.issueWidth !== undefined) parts.push(`front end ${v.issueWidth} µops/cycle`);
  if (v.rsSize !== undefined) parts.push(`reservation station ${v.rsSize} µops`);
  return parts.length ? parts.join(', ') : 'baseline';
}

/** A short label of the switches: 'perfect FE+no deps', or 'baseline'. */
export function variantShortLabel(v: Variant): string {
  const names = VARIANT_SWITCHES.filter((s) => v[s.field]).map((s) => s.short);
  return names.length ? names.join('+') : 'baseline';
}

/** Is this the baseline (no switch and no knob)? */
export function isBaseline(v: Variant): boolean {
  return variantKey(v) === 'baseline';
}
