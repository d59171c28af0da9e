// What a report shows: plain data assembled from simulation results (see collect.ts), read by
// the renderers (text.ts, detail.ts, json.ts). No I/O here.

import { originList, type FigureOrigin } from '../data/origins.js';
import type { LineDetail, Stats, Variant } from '../sim/types.js';
import { simulatesNothing } from '../sim/stats.js';
import type { MechanismEffect, VariantFigures, WhatIf } from '../sim/whatIf.js';
import type { MechanismSet } from '../sim/mechanisms.js';

export type { MechanismEffect, VariantFigures } from '../sim/whatIf.js';

/** Which model ran and what each mechanism changed in the main analysis. */
export interface ModelRun {
  /** every mechanism's switch (all off: SUACA's model) */
  mechanisms: MechanismSet;
  /** per mechanism run flipped (each one that is on switched off; with --all-variants each one
   *  that is off switched on), in the order of MECHANISMS; null when not run (--fast) */
  effects: MechanismEffect[] | null;
  /** what the execution-side mechanisms did to the program (src/sim/refine.ts mechanismNotes):
   *  e.g. a dependency through memory without a forwarding figure; absent when nothing */
  notes?: string[];
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
  /** the main analysis of a loop with load-store pairs through data (src/sim/refine.ts
   *  `dataMemoryPairs`), unless --fast: the what-if where each such load reads the previous
   *  iteration's store (the worst case) */
  memoryThroughData?: { pairs: { store: number; load: number }[]; figures: VariantFigures };
}

/** A line whose figures a public source corrected (src/data/providers/corrections.ts). */
export interface CitedLine {
  line: number;
  /** the figures' provenance for people: the model's record, then each correction with its source */
  text: string;
  /** the provenance's fields (the model's record and `corrections[]`: field, llvm, value, source,
   *  core, estimated?), as `disasm --json` writes them under `cited` */
  detail: Record<string, unknown>;
}

/** An instruction without data (IACA's X) and what was done about it. */
export interface UnknownInstruction {
  line: number;
  asm: string;
  /** 'alu': counted as one µop on any ALU port with latency 1; 'skip': no µop and no port; an instruction that reads its result still waits the engine's minimum latency of 1 cycle */
  fallback: 'skip' | 'alu' | null;
  /** why there are no figures (no source knows the form, the core lacks its ISA extension, LLVM
   *  has only a placeholder) */
  why?: string;
}

export interface ReportModel {
  arch: string;
  /** long name of the architecture, e.g. 'Sandy Bridge' (optional, for the text header) */
  archName?: string;
  /** how the architecture the user named became this core (a compiler's name; `host`: which core
   *  and why) */
  archNote?: string;
  iterations: number;
  /** variant of the main analysis (--pf, --ip, --nd) */
  variant: Variant;
  /** the model's mechanisms and their effects */
  model: ModelRun;
  /** every execution port of the machine, in order: one table column each */
  ports: number[];
  /** port of the divider pipe: the DV column follows it when the divider is used */
  dividerPort: number;
  /** the ports' names, one per entry of `ports` (AMD's pipe names); absent: shown by number */
  portNames?: string[];
  /** where the region came from, for the header (optional) */
  /** `note`: how the region was chosen when the user did not name it exactly */
  source?: { file: string; region: string; note?: string };
  main: Section;
  unknown: UnknownInstruction[];
  /** where each line's figures come from, by line number (renderers show it per line and
   *  summarise it in the header) */
  origins: FigureOrigin[];
  /** each line's address, by line number (the JSON's lines) */
  addresses?: number[];
  /** the lines whose figures a public source corrected, with the citations (absent: none) */
  cited?: CitedLine[];
  /** what the prediction leaves out or simulates otherwise than the program runs (caveats.ts) */
  caveats?: string[];
  /** thesis §2.7: the two sides of the first conditional jump (--branch); null when asked but there is none */
  branch?: { branchLine: number; choice?: string; left: Section; right: Section } | null;
  /** thesis §2.6 for one line of the main analysis (--detail LINE) */
  detail?: LineDetail;
}
/** The header's summary of where the figures come from: '17 lines: 15 LLVM 19 model, 2 SUACA thesis'. */
export function originSummary(origins: readonly FigureOrigin[]): string {
  const parts = originList()
    .map((o) => [o, origins.filter((x) => x === o.id).length] as const)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${n} ${o.text}`);
  return `${origins.length} line${origins.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** No line has figures: nothing was simulated, and no throughput may be shown (the engine's
 *  rule, src/sim/stats.ts simulatesNothing, applied to the main analysis). */
export function nothingSimulated(model: Pick<ReportModel, 'main'>): boolean {
  return simulatesNothing(model.main.stats);
}
