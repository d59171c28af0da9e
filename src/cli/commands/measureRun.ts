// The work of `uopscope measure` (see measure.ts): the prediction (the report's main analysis,
// --fast), the region's body run in the native harness (src/measure), and both side by side.

import { withSchemaVersion } from '../../report/schemaVersion.js';
import { buildReport, noteRegion, wholeNumber } from './reportRun.js';
import { modelArgsOf } from '../modelOptions.js';
import { measuredOf } from '../dataOptions.js';
import { mechanismLabel } from '../../sim/mechanisms.js';
import { parseArch } from '../config.js';
import { UserError } from '../../errors.js';
import { nothingSimulated, originSummary, type ReportModel } from '../../report/model.js';
import { cpuidText, gatherDataSamplingState, hostCore, type HostCore } from '../../measure/host.js';
import { measuredGatherNotes } from '../../report/caveats.js';
import { lineAtOffset, prepareRegion, prepareSide, type PreparedRegion } from '../../measure/prepare.js';
import {
  cyclesOf,
  notMeasurable,
  runHarness,
  DEFAULT_REPETITIONS,
  type HarnessResult,
  type HarnessVariant,
} from '../../measure/harness.js';
import { branchPaths } from '../../disasm/index.js';
import type { DecodedInstruction, InputOptions, RegionSelection } from '../../disasm/types.js';
import { constants as osConstants } from 'node:os';
import { readFileSync } from 'node:fs';
import type { MeasureArgv } from './args.js';
import {
  describeLayout,
  fillText,
  harnessMemory,
  lengthsText,
  WORKING_SETS,
  type Fill,
  type Layout,
  type WorkingSet,
  vectorStartText,
} from '../../measure/layout.js';

/** The layout as JSON (bigints as decimal strings) and its text lines. */
interface LayoutJson {
  streams: {
    register: string;
    lines: number[];
    loaded: boolean;
    stored: boolean;
    bytesPerIteration: number | null;
    bytes: number;
    fill: string;
    role: string | null;
  }[];
  indexRegisters: string[];
  workingSet: WorkingSet;
  bytes: number;
  targetBytes: number;
  loopIterations: number[];
  unrolledCopies: [number, number];
  fill: string;
  unplacedLines: number[];
  bounded: string | null;
  /** vector registers read before written, each with its start (`start`, as the text says it) */
  vectorInputs: { register: string; line: number; start: string }[];
  text: string[];
}

function layoutJson(l: Layout): LayoutJson {
  return {
    streams: l.streams.map((s) => ({
      register: s.register,
      lines: s.lines,
      loaded: s.loaded,
      stored: s.stored,
      bytesPerIteration: s.advance,
      bytes: s.size,
      fill: fillText(s),
      role: s.role,
    })),
    indexRegisters: l.indices,
    workingSet: l.workingSet,
    bytes: l.bytes,
    targetBytes: l.target.bytes,
    loopIterations: l.loop,
    unrolledCopies: l.unrolled,
    fill: l.fill.kind === 'ordinary' ? 'ordinary' : String(l.fill.value),
    unplacedLines: l.unplaced,
    bounded: l.bounded,
    vectorInputs: l.vectorInputs.map((v) => ({ register: v.register, line: v.line, start: vectorStartText(v) })),
    text: describeLayout(l),
  };
}

/** --working-set and --fill, checked. */
function memoryOptions(a: MeasureArgv): { workingSet: WorkingSet; fill: Fill } {
  const ws = (a.workingSet ?? 'l1').toLowerCase();
  if (!(WORKING_SETS as readonly string[]).includes(ws))
    throw new UserError(`--working-set ${a.workingSet}: give one of ${WORKING_SETS.join(', ')}`);
  const f = (a.fill ?? 'ordinary').trim();
  let fill: Fill = { kind: 'ordinary' };
  if (f.toLowerCase() !== 'ordinary') {
    if (!/^-?(?:0x[0-9a-f]+|\d+)$/i.test(f))
      throw new UserError(`--fill ${a.fill}: give ordinary or an integer (decimal or 0x hex) for every element`);
    fill = { kind: 'constant', value: f.startsWith('-') ? -BigInt(f.slice(1)) : BigInt(f) };
  }
  return { workingSet: ws as WorkingSet, fill };
}

interface MeasuredVariant {
  /** core cycles per iteration, from the 10th percentile of the repetitions */
  cyclesPerIteration: number;
  /** the same from the median: the gap to cyclesPerIteration is the spread */
  median: number;
  /** (median - low) / low */
  spread: number;
  /** the sizes timed: the unrolled variant's two copy counts, the loop variant's lengths
   *  (iterations), whose Theil–Sen slope the figure is */
  sizes: number[];
  /** the loop variant: the body entered `count` ways (count / 2 numbers of instructions before
   *  it, each with and without a front-end restart before them), each timed
   *  briefly (cycles per iteration, the lowest and highest median); the figure is the fastest
   *  entry's, timed again with all the repetitions. A loop
   *  whose macro-ops fill whole dispatch groups keeps the phase it was entered at, which the
   *  program's code before the loop sets and the harness does not have. */
  entries?: { count: number; lowest: number; highest: number };
}

export interface Measurement {
  /** when the measurement may show the harness rather than the loop (a load that reads what a
   *  store wrote, all on the harness's one page), and the measured loop is slower than predicted */
  caveat?: string;
  method: 'perf' | 'tsc';
  methodText: string;
  repetitions: number;
  pagesMapped: number;
  /** TSC ticks per core cycle (before and after), tsc only */
  ticksPerCycle: [number, number] | null;
  unrolled: MeasuredVariant;
  loop: MeasuredVariant;
  /** the variant to read beside the prediction */
  comparable: 'loop' | 'unrolled';
  closingBranchRemoved: number | null;
  counterRegister: string;
  /** the loop variant closed by the region's own compare and branch, its bound register started
   *  for the run's lengths (null: closed by the harness's dec/jnz on counterRegister) */
  ownLoop: { line: number; instruction: string; boundRegister: string } | null;
  /** the region's lines the harness ran, in order */
  lines: number[];
  /** registers started at another value than the harness's pattern (a division's dividend), hex */
  startValues: { register: string; value: string; why: string }[];
  /** the memory the region ran on: its address streams, the working set, the fill */
  layout: LayoutJson;
  /** a load and a store whose addresses may coincide (the same stream, or memory outside the streams) */
  mayCoincide: Layout['mayCoincide'];
  /** µops per port: measured only where perf_event_open gives the core's per-port events */
  portCounters: { available: false; reason: string };
}

/** One side of the branch comparison (the first conditional jump), run as straight-line code. */
interface MeasuredSide {
  side: 'fall-through' | 'taken';
  /** the side's lines in execution order, as the branch comparison simulates them */
  lines: number[];
  /** lines of the side the harness does not run: the internal branch, a jump over the other side */
  removedBranches: number[];
  /** of those, the side's later conditional branches, run not taken as the branch comparison's
   *  side follows them */
  notTaken: number[];
  /** the model's block throughput for this side (the report's --branch section) */
  predicted: number | null;
  measurable: boolean;
  reason?: string;
  measurement?: Measurement;
}

export interface MeasureResult {
  /** false: nothing of the region could be run; `reason` says why in one line */
  measurable: boolean;
  reason?: string;
  source: { file: string; region: string; note?: string };
  host: (Omit<HostCore, 'arch'> & { cpuid: string; arch: string | null }) | null;
  /** notes on the architecture of the prediction (host unknown, --arch not the host's) */
  archNotes: string[];
  /** `model`: the model of the prediction ('suaca', 'refined', 'refined −macro-fus', …) */
  prediction: {
    arch: string;
    model: string;
    iterations: number;
    blockThroughput: number | null;
    figures: string;
    linesWithoutFigures: number;
  };
  /** the whole region; absent when it has a branch inside (see branch) or is not measurable */
  measurement?: Measurement;
  /** a region with a branch inside: each side of its first conditional jump */
  branch?: { branchLine: number; sides: MeasuredSide[] };
}

function variantOf(r: Extract<HarnessResult, { ok: true }>, v: HarnessVariant): MeasuredVariant {
  const low = cyclesOf(r, v.p10);
  const median = cyclesOf(r, v.p50);
  return {
    cyclesPerIteration: low,
    median,
    spread: low > 0 ? (median - low) / low : 0,
    sizes: v.lengths ?? [v.n1, v.n2],
  };
}

function entriesOf(r: Extract<HarnessResult, { ok: true }>): Pick<MeasuredVariant, 'entries'> {
  if (!r.entry) return {};
  const c = r.entry.p50.map((t) => cyclesOf(r, t));
  return { entries: { count: c.length, lowest: Math.min(...c), highest: Math.max(...c) } };
}

/** Why the per-port µop counts are not beside the data's (never a made-up figure). */
function portCountersReason(perfError: number): string {
  if (perfError > 0) {
    const name = Object.entries(osConstants.errno).find(([, n]) => n === perfError)?.[0] ?? `errno ${perfError}`;
    return `per-port counters unavailable: perf_event_open gives no hardware counter on this machine (${name}${name === 'ENOENT' ? ': no PMU exposed, as in most virtual machines' : name === 'EACCES' || name === 'EPERM' ? `: kernel.perf_event_paranoid is ${paranoid()}` : ''})`;
  }
  if (perfError < 0)
    return "per-port counters unavailable: the kernel gives a cycle counter that does not count (a virtual machine's PMU)";
  return 'per-port counters unavailable: uopscope reads the core-cycle counter only; per-port dispatch events are not implemented';
}

function paranoid(): string {
  try {
    return readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8').trim();
  } catch {
    return 'unknown';
  }
}

/** Runs one prepared body in the harness: its figures, or the one-line reason it cannot run. */
function run(
  instrs: readonly DecodedInstruction[],
  region: PreparedRegion,
  repetitions: number,
  memory: { workingSet: WorkingSet; fill: Fill },
): { ok: true; m: Measurement } | { ok: false; reason: string } {
  const body = region.lines.map((line) => instrs.find((i) => i.line === line)!);
  const closing = instrs.find((i) => i.line === region.closingBranch);
  const { layout, startValues, args, code, ownLoop } = harnessMemory(body, region, memory, closing);
  const r = runHarness(code, {
    counter: region.counter.number,
    stash: region.stash,
    repetitions,
    startValues,
    layout: args,
  });
  if (!r.ok) {
    const line = lineAtOffset(region, r.offset);
    const ins = line === null ? undefined : instrs.find((i) => i.line === line);
    // a divisor loaded from a stream reads the fill (never 0 unless --fill 0) or what the region
    // stored there
    const hint =
      r.reason === 'arithmetic' && ins?.memory && (ins.mnemonic === 'DIV' || ins.mnemonic === 'IDIV')
        ? `; its divisor is loaded from memory, filled with ${layout.fill.kind === 'ordinary' ? 'non-zero values (1 + k mod 13), so the region computed or stored it' : `${layout.fill.value} (--fill)`}`
        : '';
    return { ok: false, reason: notMeasurable(r, ins ? ` at line ${ins.line} (${ins.intel})` : '') + hint };
  }
  return {
    ok: true,
    m: {
      method: r.method,
      methodText:
        r.method === 'perf'
          ? 'core cycles counted by perf_event_open (user space)'
          : 'time-stamp counter, converted to core cycles by a dependency chain of add (latency 1) timed in the same process',
      repetitions: r.repetitions,
      pagesMapped: r.pages,
      ticksPerCycle: r.method === 'tsc' ? r.calibration : null,
      unrolled: variantOf(r, r.unrolled),
      loop: { ...variantOf(r, r.loop), ...entriesOf(r) },
      comparable: region.closingBranch !== null ? 'loop' : 'unrolled',
      closingBranchRemoved: region.closingBranch,
      counterRegister: region.counter.name,
      ownLoop: ownLoop ? { line: ownLoop.line, instruction: ownLoop.intel, boundRegister: ownLoop.bound } : null,
      lines: region.lines,
      startValues: region.startValues.map((s) => ({
        register: s.register,
        value: `0x${s.value.toString(16)}`,
        why: s.why,
      })),
      layout: layoutJson(layout),
      mayCoincide: layout.mayCoincide,
      portCounters: { available: false, reason: portCountersReason(r.perfError) },
    },
  };
}

export async function measure(input: InputOptions & RegionSelection, a: MeasureArgv): Promise<MeasureResult> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new UserError(
      `uopscope measure runs on Linux x86-64 only (this is ${process.platform} ${process.arch}); use 'uopscope report' for the prediction alone`,
    );
  }
  const repetitions =
    a.repetitions === undefined ? DEFAULT_REPETITIONS : wholeNumber('--repetitions', a.repetitions, 10);
  if (repetitions > 10_000) throw new UserError(`--repetitions ${repetitions}: give at most 10000`);
  const memory = memoryOptions(a);
  const host = hostCore();
  const flagArch = a.arch !== undefined ? parseArch(a.arch, '--arch') : undefined;
  const archNotes = hostArchNotes(host, flagArch);
  const arch = flagArch ?? host?.arch ?? undefined;

  // --branch: the branch comparison's two sides, simulated when the region has a branch inside
  const { model, analysis } = await buildReport(input, {
    fast: true,
    ...modelArgsOf(a),
    ...measuredOf(a),
    branch: true,
    ...(arch !== undefined ? { arch } : {}),
    ...(a.iterations !== undefined ? { iterations: a.iterations } : {}),
  });
  noteRegion(analysis.region.region.note);
  const instrs = analysis.region.instructions;
  archNotes.push(...measuredGatherNotes(analysis.machine, instrs, analysis.resolved, gatherDataSamplingState()));
  const bitness = analysis.region.format === 'elf32' ? 32 : 64;
  const base = {
    source: {
      file: analysis.region.file,
      region: analysis.region.region.name,
      ...(analysis.region.region.note ? { note: analysis.region.region.note } : {}),
    },
    host: host ? { ...host, cpuid: cpuidText(host) } : null,
    archNotes,
    prediction: {
      arch: model.arch,
      model: mechanismLabel(model.model.mechanisms),
      iterations: model.iterations,
      blockThroughput: nothingSimulated(model) ? null : model.main.stats.blockThroughput,
      figures: originSummary(model.origins),
      linesWithoutFigures: model.unknown.length,
    },
  };
  const prep = prepareRegion(instrs, bitness);
  if (prep.ok) {
    const r = run(instrs, prep.region, repetitions, memory);
    return r.ok
      ? { measurable: true, ...base, measurement: withSharedPageCaveat(r.m, instrs, base.prediction.blockThroughput) }
      : { measurable: false, reason: r.reason, ...base };
  }
  const paths = prep.internalBranch !== undefined ? branchPaths(instrs) : null;
  if (!paths || !model.branch) return { measurable: false, reason: `not measurable: ${prep.why}`, ...base };
  const measured = measureSides(instrs, paths, model, model.branch, bitness, repetitions, memory);
  const branch = { branchLine: paths.branchLine, sides: measured };
  if (measured.some((s) => s.measurable)) return { measurable: true, ...base, branch };
  return {
    measurable: false,
    reason: `not measurable on either side of the branch at line ${paths.branchLine}: ${measured.map((s) => `${s.side}: ${s.reason!.replace(/^not measurable: /, '')}`).join('; ')}`,
    ...base,
    branch,
  };
}

/** What the report says of the host's core beside the prediction's (unknown, virtual, another --arch). */
function hostArchNotes(host: HostCore | null, flagArch: string | undefined): string[] {
  const archNotes: string[] = [];
  if (host && !host.arch)
    archNotes.push(
      `uopscope has no model for this host's core (${cpuidText(host)}, ${host.modelName})${flagArch ? '' : ': the prediction uses the configured architecture'}`,
    );
  if (!host) archNotes.push("cannot read /proc/cpuinfo: the host's core is unknown");
  if (host?.note) archNotes.push(`host core: ${host.note}`);
  if (host?.virtual)
    archNotes.push(
      'this is a virtual machine: its CPUID may name another core than the physical one, and other guests share the core',
    );
  if (flagArch && host?.arch && flagArch !== host.arch)
    archNotes.push(
      `--arch ${flagArch} is not this host's core (${host.arch}): the prediction is for ${flagArch}, the measurement for this machine`,
    );
  return archNotes;
}

/** A branch inside: each side of the first conditional jump as straight-line code, beside the
 *  branch comparison's prediction for that side. */
function measureSides(
  instrs: DecodedInstruction[],
  paths: NonNullable<ReturnType<typeof branchPaths>>,
  model: ReportModel,
  branch: NonNullable<ReportModel['branch']>,
  bitness: 32 | 64,
  repetitions: number,
  memory: { workingSet: WorkingSet; fill: Fill },
): MeasuredSide[] {
  return (
    [
      ['fall-through', paths.left, branch.left],
      ['taken', paths.right, branch.right],
    ] as const
  ).map(([side, lines, section]) => {
    const p = prepareSide(instrs, lines, paths.branchLine, bitness);
    const head = {
      side,
      lines: [...lines],
      removedBranches: p.ok ? p.region.removedBranches : [],
      notTaken: p.ok ? p.region.notTaken : [],
      predicted: nothingSimulated(model) ? null : section.stats.blockThroughput,
    };
    if (!p.ok) return { ...head, measurable: false, reason: `not measurable: ${p.why}` };
    const r = run(instrs, p.region, repetitions, memory);
    return r.ok
      ? { ...head, measurable: true, measurement: withSharedPageCaveat(r.m, instrs, head.predicted) }
      : { ...head, measurable: false, reason: r.reason };
  });
}

const f2 = (n: number): string => n.toFixed(2);

/** Measured this much slower than predicted, a body that loads and stores gets the caveat. */
const SHARED_PAGE_SLOWER = 1.25;

/**
 * Each address stream has its own memory, so a load reads what a store wrote only where the
 * region's own addresses may coincide: a load and a store on the same stream (the same base
 * register: a histogram's counters, an in-place update), or memory outside the streams (mapped
 * on demand, where different registers may meet). There, when the measurement is well above the
 * prediction, it says so beside the figure: whether they coincide depends on the data (the fill),
 * which is the harness's, not the program's.
 */
export function withSharedPageCaveat(
  m: Measurement,
  instrs: readonly DecodedInstruction[],
  predicted: number | null,
): Measurement {
  const c = m.mayCoincide;
  const measured = m[m.comparable].cyclesPerIteration;
  if (!c || predicted === null || !(measured > predicted * SHARED_PAGE_SLOWER)) return m;
  const st = instrs.find((i) => i.line === c.store)!;
  const where =
    c.stream !== null
      ? `both address ${c.stream}'s stream, so they coincide where the data (the harness's fill, ${m.layout.fill}) makes them`
      : "both address memory outside the streams, which the harness maps on demand, where different registers' addresses may meet";
  return {
    ...m,
    caveat: `measured ${f2(measured)} against ${f2(predicted)} predicted may be the harness's, not the loop's: a load (line ${c.load}) and a store (line ${st.line}, ${st.intel}) ${where} — a store-forwarding chain the program's data need not have and the prediction does not assume`,
  };
}

export function renderMeasure(m: MeasureResult): string {
  const out: string[] = [];
  out.push(`Region: ${m.source.region} in ${m.source.file}`);
  if (m.source.note) out.push(`(${m.source.note})`);
  out.push(
    m.host ? `Host: ${m.host.modelName} (${m.host.cpuid}) → ${m.host.arch ?? 'no uopscope model'}` : 'Host: unknown',
  );
  if (m.host && m.host.cpuidArch !== m.host.arch) out.push(`Host core: ${m.host.why}`);
  for (const n of m.archNotes) out.push(`Note: ${n}`);
  out.push(`Figures: ${m.prediction.figures}`);
  if (m.prediction.linesWithoutFigures)
    out.push(
      `INCOMPLETE: ${m.prediction.linesWithoutFigures} line(s) have no figures on ${m.prediction.arch}; the prediction leaves them out, the measurement runs them`,
    );
  out.push(`Model: ${m.prediction.model}`);
  out.push('');
  if (m.measurement) {
    out.push(
      m.prediction.blockThroughput === null
        ? `Predicted on ${m.prediction.arch}: nothing simulated (no line has figures)`
        : `Predicted on ${m.prediction.arch}: ${f2(m.prediction.blockThroughput)} cycles/iteration (block throughput, ${m.prediction.iterations} iterations simulated)`,
    );
    renderMeasurement(out, m.measurement, '');
    return out.join('\n') + '\n';
  }
  const b = m.branch!;
  out.push(
    `The region branches inside (line ${b.branchLine}): each side of that branch measured as straight-line code, beside the branch comparison's prediction for the side (${m.prediction.iterations} iterations simulated on ${m.prediction.arch})`,
  );
  for (const s of b.sides) {
    out.push('');
    const removed = s.removedBranches.length
      ? `; without line${s.removedBranches.length > 1 ? 's' : ''} ${s.removedBranches.join(', ')}`
      : '';
    out.push(`${s.side === 'taken' ? 'Taken' : 'Fall-through'} side (lines ${s.lines.join(', ')}${removed}):`);
    if (s.notTaken.length)
      out.push(
        `  line${s.notTaken.length > 1 ? 's' : ''} ${s.notTaken.join(', ')} not taken on this side, as the branch comparison simulates it (its other direction is not measured)`,
      );
    out.push(
      s.predicted === null
        ? '  Predicted: nothing simulated (no line has figures)'
        : `  Predicted on ${m.prediction.arch}: ${f2(s.predicted)} cycles/iteration (block throughput of the side, its branches included)`,
    );
    if (s.measurement) renderMeasurement(out, s.measurement, '  ');
    else out.push(`  ${s.reason}`);
  }
  return out.join('\n') + '\n';
}

function renderMeasurement(out: string[], me: Measurement, ind: string): void {
  out.push(
    `${ind}Measured on this machine: ${me.methodText}; ${me.repetitions} repetitions, 10th percentile (median, spread)`,
  );
  const line = (name: 'loop' | 'unrolled', what: string): string => {
    const v = me[name];
    // a figure the harness may have made is not one to read beside the prediction: no arrow
    // points at it, the line says why instead
    const mark =
      me.comparable === name
        ? me.caveat
          ? '  ← not comparable with the prediction: likely the harness, see the caveat below'
          : '  ← compare with the prediction'
        : '';
    return `${ind}  ${name.padEnd(8)} ${f2(v.cyclesPerIteration).padStart(7)} cycles/iteration (median ${f2(v.median)}, spread ${(v.spread * 100).toFixed(1)}%)  ${what}${mark}`;
  };
  out.push(
    line(
      'loop',
      me.ownLoop
        ? `the body closed by its own line ${me.ownLoop.line} (${me.ownLoop.instruction}), ${me.ownLoop.boundRegister} set for ${lengthsText(me.layout.loopIterations)}`
        : `the body closed by dec ${me.counterRegister}; jnz`,
    ),
  );
  const en = me.loop.entries;
  // the entry matters when it moves the figure by more than the timing's own noise
  if (en && en.highest > en.lowest * 1.02)
    out.push(
      `${ind}           entered ${en.count} ways (${en.count / 2} numbers of instructions before it, each with and without a front-end restart): ${f2(en.lowest)}–${f2(en.highest)} cycles/iteration; the fastest entry's figure above (the program's code before the loop decides which)`,
    );
  out.push(line('unrolled', `the body ×${me.unrolled.sizes[0]} and ×${me.unrolled.sizes[1]}, straight-line`));
  if (me.caveat) out.push(`${ind}Caveat: ${me.caveat}`);
  out.push(
    ind +
      (me.ownLoop
        ? `("loop" runs the region as a loop with its own closing branch, as the simulation does; "unrolled" without it)`
        : me.closingBranchRemoved !== null
          ? `(the region's closing branch, line ${me.closingBranchRemoved}, is replaced by the harness's; "loop" runs it as a loop, as the simulation does)`
          : '(the region has no closing branch: "unrolled" runs it as the simulation does, back to back; "loop" adds the harness\'s dec/jnz)'),
  );
  for (const s of me.startValues)
    out.push(`${ind}Start value: ${s.register} = ${s.value} (${s.why}), instead of the harness's pattern`);
  if (me.ticksPerCycle)
    out.push(
      `${ind}TSC ticks per core cycle: ${me.ticksPerCycle[0].toFixed(3)} before, ${me.ticksPerCycle[1].toFixed(3)} after`,
    );
  for (const l of me.layout.text) out.push(`${ind}${l}`);
  out.push(`${ind}Pages mapped on demand: ${me.pagesMapped} (outside the streams, a page each)`);
  out.push(`${ind}µops per port: ${me.portCounters.reason}`);
}

/** What `uopscope measure` prints, and its exit status: 2 when nothing could be measured (the
 *  text path says why in one line on stderr, --json in the object's `reason`). */
export async function runMeasure(
  input: InputOptions & RegionSelection,
  a: MeasureArgv,
): Promise<{ output: string; exitCode: number }> {
  const m = await measure(input, a);
  if (!m.measurable && !a.json) throw new UserError(`${m.source.region}: ${m.reason}`);
  return {
    output: a.json ? JSON.stringify(withSchemaVersion(m), null, 2) + '\n' : renderMeasure(m),
    exitCode: m.measurable ? 0 : 2,
  };
}
