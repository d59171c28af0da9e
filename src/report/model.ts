// What a report shows: plain data assembled from simulation results (see collect.ts), read by
// the renderers (text.ts, detail.ts, json.ts). No I/O here.

import type { LineDetail, Stats, Variant } from '../sim/types.js';

/** One simulation's headline figures. */
export interface VariantFigures {
  variant: Variant;
  cycles: number;
  blockThroughput: number;
  uopsPerCycle: number;
}

/**
 * The three what-if runs of thesis §2.1, each the main analysis's variant with one more switch
 * turned on (so with --pf the "perfect front-end" figure equals the main one).
 */
export interface WhatIf {
  perfectFrontEnd: VariantFigures;
  infinitePorts: VariantFigures;
  noDependencies: VariantFigures;
}

/** One analysed program: the whole region, or one side of a branch (thesis §2.7). */
export interface Section {
  stats: Stats;
  /** null when the what-if runs were skipped (--fast) */
  whatIf: WhatIf | null;
  /** all 8 combinations of the three switches, in the order of allVariants() (--all-variants) */
  combinations: VariantFigures[] | null;
  /** a branch side's detail of the --detail line, when the side contains it (the main
   *  analysis's detail is ReportModel.detail) */
  detail?: LineDetail;
}

/** An instruction without data (IACA's X) and what was done about it. */
export interface UnknownInstruction {
  line: number;
  asm: string;
  /** 'alu': counted as one µop on any ALU port with latency 1; 'skip': no µop and no port; an instruction that reads its result still waits the engine's minimum latency of 1 cycle */
  fallback: 'skip' | 'alu' | null;
}

export interface ReportModel {
  arch: string;
  /** long name of the architecture, e.g. 'Sandy Bridge' (optional, for the text header) */
  archName?: string;
  iterations: number;
  /** variant of the main analysis (--pf, --ip, --nd) */
  variant: Variant;
  /** every execution port of the machine, in order: one table column each */
  ports: number[];
  /** port of the divider pipe: the DV column follows it when the divider is used */
  dividerPort: number;
  /** where the region came from, for the header (optional) */
  /** `note`: how the region was chosen when the user did not name it exactly */
  source?: { file: string; region: string; note?: string };
  main: Section;
  unknown: UnknownInstruction[];
  /** thesis §2.7: the two sides of the first conditional jump (--branch); null when asked but there is none */
  branch?: { branchLine: number; left: Section; right: Section } | null;
  /** thesis §2.6 for one line of the main analysis (--detail LINE) */
  detail?: LineDetail;
}

export function variantName(v: Variant): string {
  const parts: string[] = [];
  if (v.perfectFrontEnd) parts.push('perfect front-end');
  if (v.infinitePorts) parts.push('infinitely usable ports');
  else if (v.portCapacity !== undefined && v.portCapacity !== 1) parts.push(`${v.portCapacity} µops per port per cycle`);
  if (v.noDependencies) parts.push('no dependencies');
  if (v.issueWidth !== undefined) parts.push(`front end ${v.issueWidth} µops/cycle`);
  if (v.rsSize !== undefined) parts.push(`reservation station ${v.rsSize} µops`);
  return parts.length ? parts.join(', ') : 'baseline';
}
