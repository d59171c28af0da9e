// The report as one JSON object (`uopscope report --json`): the same figures as the text,
// unrounded, with names that read without the thesis at hand.

import type { LineDetail, Variant } from '../sim/types.js';
import { nothingSimulated, originSummary, type ReportModel, type Section, type VariantFigures } from './model.js';
import type { FigureOrigin } from '../data/types.js';
import { mechanismInfo, mechanismLabel, type Mechanism, type MechanismSet } from '../sim/mechanisms.js';
import { portLabel } from '../data/ports.js';
import { withSchemaVersion } from './schemaVersion.js';

/** What one mechanism changed: the main analysis against the run with only it flipped. */
interface MechanismEffectJson {
  mechanism: Mechanism;
  /** its command-line switch (--no-FLAG / --FLAG) */
  flag: string;
  /** whether the model had it on */
  on: boolean;
  /** block throughput (cycles per iteration) with it switched off */
  throughputWithout: number;
  /** block throughput with it switched on */
  throughputWith: number;
  /** throughputWith - throughputWithout: what the mechanism costs (positive) or saves (negative) */
  delta: number;
}

interface ModelJson {
  /** 'suaca', 'refined', or e.g. 'refined −macro-fus' */
  name: string;
  /** every mechanism's switch */
  mechanisms: MechanismSet;
  /** per mechanism run flipped (each one on; with --all-variants each one off too); null with --fast */
  effects: MechanismEffectJson[] | null;
  /** what the execution-side mechanisms did to the program (e.g. "store forwarding: … no
   *  store-to-load forwarding figure …"); absent when nothing */
  notes?: string[];
}

/** A figure that was not computed is null: nothing simulated (no line has figures), or, for a
 *  rate, no iteration complete. */
interface FiguresJson {
  cycles: number | null;
  /** cycles per iteration */
  blockThroughput: number | null;
  /** µops that took a port, per cycle */
  uopsPerCycle: number | null;
}
interface CombinationJson extends FiguresJson {
  perfectFrontEnd: boolean;
  infinitePorts: boolean;
  noDependencies: boolean;
}

interface VariantsJson {
  perfectFrontEnd: FiguresJson;
  infinitePorts: FiguresJson;
  noDependencies: FiguresJson;
  /** all 8 combinations, only with --all-variants */
  combinations?: CombinationJson[];
}

interface LineJson {
  line: number;
  /** the instruction's address (in a relocatable object: its offset in the section) */
  address: number | null;
  asm: string;
  uops: number;
  /** cycles the line's instances spent in the station waiting (for an operand or a port), summed
   *  over the run and divided by the iterations: it grows with the iterations when instances queue */
  hadToWait: number | null;
  /** cycles others waited for this line (its result or its port), per iteration, as hadToWait */
  causedToWait: number | null;
  /** every port of the machine (by number, or by name where the core names its ports) → average
   *  µops per iteration on it */
  ports: Record<string, number | null>;
  /** divider cycles per iteration; present when the divider is used */
  divider?: number | null;
  unknown: boolean;
  /** a line whose figures a public source corrected: the figures' provenance as `disasm --json`
   *  gives it under `cited` (the model's record, and `corrections[]`: each corrected field with
   *  the model's value, the cited one, its source and the core it was written for) */
  cited?: Record<string, unknown>;
}

interface SectionJson extends FiguresJson {
  totalUops: number;
  /** null with --fast (what-if runs skipped) */
  variants: VariantsJson | null;
  lines: LineJson[];
  /** port → average µops per iteration, all lines together */
  portTotals: Record<string, number | null>;
  dividerUsed: boolean;
  /** a core with several scheduler queues only: per queue (then per non-scheduling queue) the ops
   *  steered into it and the cycles the front end stopped on it, per iteration, and its average
   *  entries per cycle */
  queues?: { name: string; steered: number; stallCycles: number; occupancy: number }[];
  /** branch sides only: the --detail line's detail when the side contains the line */
  detail?: DetailJson;
  /** a loop with load-store pairs through data (each store → load by line), unless --fast: the
   *  figures if each such load reads the previous iteration's store (the worst case) */
  memoryThroughData?: FiguresJson & { pairs: { store: number; load: number }[] };
}

interface DetailJson {
  line: number;
  asm: string;
  maxLatency: number;
  /** per line this one depends on or that depends on it */
  dependencies: {
    line: number;
    /** latency of the dependency this line → other (null: none) */
    latencyFromThis: number | null;
    /** latency of the dependency other → this line (null: none) */
    latencyToThis: number | null;
    /** average cycles per iteration the other line waited for this one */
    otherDelayedByThis: number;
    /** average cycles per iteration this line waited for the other */
    thisDelayedByOther: number;
  }[];
  ports: {
    port: number;
    /** the port's name, on a core whose record names its ports */
    name?: string;
    /** average cycles per iteration others waited because this line held the port */
    othersDelayedByThis: number;
    /** average cycles per iteration this line waited because the port was blocked */
    thisDelayedByPort: number;
  }[];
}

interface ReportJson extends SectionJson {
  arch: string;
  /** the ports' names in port order, on a core whose record names them (AMD's pipes) */
  portNames?: string[];
  archName?: string;
  /** how the architecture the user named became this core */
  archNote?: string;
  iterations: number;
  /** switches of the main analysis (--pf, --ip, --nd) */
  variant: Variant;
  /** the model that ran (--model and the mechanisms' switches) and what each mechanism changed */
  model: ModelJson;
  /** `note`: how the region was chosen when the user did not name it exactly */
  source?: { file: string; region: string; note?: string };
  /** false when a line has no figures from any source: the throughputs leave it out */
  complete: boolean;
  /** false when no line has figures: then the figures are 0 and mean nothing */
  simulated: boolean;
  /** where each line's figures come from, by line: 'uops.info' | 'thesis' | 'llvm' | 'none' */
  origins: FigureOrigin[];
  /** the header's summary, e.g. '17 lines: 15 LLVM 19 model, 2 SUACA thesis' */
  figures: string;
  /** the lines without figures, with the reason and the fallback applied */
  unknown: { line: number; asm: string; fallback: 'skip' | 'alu' | null; why?: string }[];
  /** with --branch; null when the region has no conditional jump */
  branch?: { branchLine: number; choice?: string; left: SectionJson; right: SectionJson } | null;
  /** with --detail LINE */
  detail?: DetailJson;
  /** what the prediction leaves out or simulates otherwise than the program runs (the text's
   *  "Note:" lines at the top): an if/else's two sides, an inner loop, a call */
  caveats: string[];
}

export function reportJson(model: ReportModel): { schemaVersion: number } & ReportJson {
  const none = nothingSimulated(model);
  const cited = new Map((model.cited ?? []).map((c) => [c.line, c.detail]));
  const section = (sec: Section) => sectionJson(sec, model.ports, none, model.addresses, model.portNames, cited);
  const out: ReportJson = {
    arch: model.arch,
    ...(model.archName !== undefined ? { archName: model.archName } : {}),
    ...(model.archNote !== undefined ? { archNote: model.archNote } : {}),
    iterations: model.iterations,
    variant: { ...model.variant },
    model: modelJson(model),
    ...(model.source ? { source: { ...model.source } } : {}),
    complete: model.unknown.length === 0,
    simulated: !none,
    origins: [...model.origins],
    figures: originSummary(model.origins),
    ...(model.portNames ? { portNames: [...model.portNames] } : {}),
    ...section(model.main),
    unknown: model.unknown.map((u) => ({ ...u })),
    caveats: [...(model.caveats ?? [])],
  };
  if (model.branch !== undefined) {
    out.branch =
      model.branch === null
        ? null
        : {
            branchLine: model.branch.branchLine,
            ...(model.branch.choice ? { choice: model.branch.choice } : {}),
            left: section(model.branch.left),
            right: section(model.branch.right),
          };
  }
  if (model.detail) out.detail = detailJson(model.detail, model);
  return withSchemaVersion(out);
}

function modelJson(model: Pick<ReportModel, 'model' | 'main'>): ModelJson {
  const main = model.main.stats.blockThroughput;
  return {
    name: mechanismLabel(model.model.mechanisms),
    mechanisms: { ...model.model.mechanisms },
    ...(model.model.notes ? { notes: [...model.model.notes] } : {}),
    effects:
      model.model.effects === null
        ? null
        : model.model.effects.map((e) => ({
            mechanism: e.mechanism,
            flag: mechanismInfo(e.mechanism).flag,
            on: e.on,
            throughputWithout: e.on ? e.flipped.blockThroughput : main,
            throughputWith: e.on ? main : e.flipped.blockThroughput,
            delta: e.delta,
          })),
  };
}

/** A section's figures; all null when nothing was simulated (`none`): the engine ran placeholders. */
function sectionJson(
  section: Section,
  ports: number[],
  none: boolean,
  addresses?: readonly number[],
  names?: readonly string[],
  cited?: ReadonlyMap<number, Record<string, unknown>>,
): SectionJson {
  const s = section.stats;
  const v = (x: number): number | null => (none || !Number.isFinite(x) ? null : x);
  let variants: VariantsJson | null = null;
  if (section.whatIf) {
    variants = {
      perfectFrontEnd: figures(section.whatIf.perfectFrontEnd),
      infinitePorts: figures(section.whatIf.infinitePorts),
      noDependencies: figures(section.whatIf.noDependencies),
    };
  }
  if (section.combinations) {
    variants ??= {} as VariantsJson;
    variants.combinations = section.combinations.map((c) => ({
      perfectFrontEnd: c.variant.perfectFrontEnd,
      infinitePorts: c.variant.infinitePorts,
      noDependencies: c.variant.noDependencies,
      ...figures(c),
    }));
  }
  return {
    cycles: v(s.cycles),
    blockThroughput: v(s.blockThroughput),
    uopsPerCycle: v(s.uopsPerCycle),
    totalUops: s.totalUops,
    variants: none ? null : variants,
    ...(section.memoryThroughData && !none
      ? {
          memoryThroughData: {
            pairs: section.memoryThroughData.pairs.map((p) => ({ ...p })),
            ...figures(section.memoryThroughData.figures),
          },
        }
      : {}),
    lines: s.lines.map((l) => ({
      line: l.line,
      address: addresses?.[l.line] ?? null,
      asm: l.asm,
      uops: l.uops,
      hadToWait: v(l.hadToWait),
      causedToWait: v(l.causedToWait),
      ports: allPorts(l.ports, ports, v, names),
      ...(s.dividerUsed || l.divider > 0 ? { divider: v(l.divider) } : {}),
      unknown: l.unknown,
      ...(cited?.has(l.line) ? { cited: structuredClone(cited.get(l.line)!) } : {}),
    })),
    portTotals: allPorts(s.portTotals, ports, v, names),
    dividerUsed: s.dividerUsed,
    ...(s.queues ? { queues: s.queues.map((q) => ({ ...q })) } : {}),
    ...(section.detail ? { detail: detailJson(section.detail, { ports, portNames: names }) } : {}),
  };
}

function detailJson(
  d: LineDetail,
  machine: { ports: readonly number[]; portNames?: readonly string[] | undefined },
): DetailJson {
  const lines = new Set<number>([...d.latencies.map((l) => l.line), ...d.dependencyDelays.map((l) => l.line)]);
  return {
    line: d.line,
    asm: d.asm,
    maxLatency: d.maxLatency,
    dependencies: [...lines]
      .sort((a, b) => a - b)
      .map((line) => {
        const lat = d.latencies.find((l) => l.line === line);
        const delay = d.dependencyDelays.find((l) => l.line === line);
        return {
          line,
          latencyFromThis: lat?.fromThis ?? null,
          latencyToThis: lat?.toThis ?? null,
          otherDelayedByThis: delay?.otherDelayedByThis ?? 0,
          thisDelayedByOther: delay?.thisDelayedByOther ?? 0,
        };
      }),
    ports: d.portDelays.map((p) => ({
      port: p.port,
      ...(machine.portNames ? { name: portLabel(p.port, machine.ports, machine.portNames) } : {}),
      othersDelayedByThis: p.othersDelayedByThis,
      thisDelayedByPort: p.thisDelayedByPort,
    })),
  };
}

function figures(f: VariantFigures): FiguresJson {
  return { cycles: f.cycles, blockThroughput: f.blockThroughput, uopsPerCycle: f.uopsPerCycle };
}

/** Every port's figure, keyed by the port's number, or by its name on a core whose record names
 *  its ports (AMD's pipes). */
function allPorts(
  used: Record<string, number>,
  ports: number[],
  v: (x: number) => number | null,
  names?: readonly string[],
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const p of ports) out[portLabel(p, ports, names)] = v(used[String(p)] ?? 0);
  // a port the machine model does not list (should not happen) is kept, not dropped
  for (const [k, x] of Object.entries(used)) if (!ports.includes(Number(k))) out[k] = v(x);
  return out;
}
