// The work of `uopscope measure` (see measure.ts): the prediction (the report's main analysis,
// --fast), the region's body run in the native harness (src/measure), and both side by side.

import { buildReport, wholeNumber } from './reportRun.js';
import { modelArgsOf } from '../modelOptions.js';
import { mechanismLabel } from '../../sim/mechanisms.js';
import { parseArch } from '../config.js';
import { UserError } from '../../errors.js';
import { nothingSimulated, originSummary } from '../../report/model.js';
import { cpuidText, hostCore, type HostCore } from '../../measure/host.js';
import { prepareRegion, type PreparedRegion } from '../../measure/prepare.js';
import { cyclesOf, notMeasurable, runHarness, DEFAULT_REPETITIONS, type HarnessResult, type HarnessVariant } from '../../measure/harness.js';
import type { InputOptions, RegionSelection } from '../../disasm/types.js';
import type { MeasureArgv } from './args.js';

export interface MeasuredVariant {
  /** core cycles per iteration, from the 10th percentile of the repetitions */
  cyclesPerIteration: number;
  /** the same from the median: the gap to cyclesPerIteration is the spread */
  median: number;
  /** (median - low) / low */
  spread: number;
  /** the two sizes timed (copies of the body, or loop iterations) */
  sizes: [number, number];
}

export interface MeasureResult {
  source: { file: string; region: string; note?: string };
  host: (Omit<HostCore, 'arch'> & { cpuid: string; arch: string | null }) | null;
  /** notes on the architecture of the prediction (host unknown, --arch not the host's) */
  archNotes: string[];
  /** `model`: the model of the prediction ('suaca', 'refined', 'refined −macro-fus', …) */
  prediction: { arch: string; model: string; iterations: number; blockThroughput: number | null; figures: string; linesWithoutFigures: number };
  measurement: {
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
  };
}

function variantOf(r: Extract<HarnessResult, { ok: true }>, v: HarnessVariant): MeasuredVariant {
  const low = cyclesOf(r, v.p10);
  const median = cyclesOf(r, v.p50);
  return { cyclesPerIteration: low, median, spread: low > 0 ? (median - low) / low : 0, sizes: [v.n1, v.n2] };
}

export async function measure(input: InputOptions & RegionSelection, a: MeasureArgv): Promise<MeasureResult> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new UserError(`uopscope measure runs on Linux x86-64 only (this is ${process.platform} ${process.arch}); use 'uopscope report' for the prediction alone`);
  }
  const repetitions = a.repetitions === undefined ? DEFAULT_REPETITIONS : wholeNumber('--repetitions', a.repetitions, 10);
  if (repetitions > 10_000) throw new UserError(`--repetitions ${repetitions}: give at most 10000`);
  const host = hostCore();
  const archNotes: string[] = [];
  const flagArch = a.arch !== undefined ? parseArch(a.arch, '--arch') : undefined;
  if (host && !host.arch) archNotes.push(`uopscope has no model for this host's core (${cpuidText(host)}, ${host.modelName})${flagArch ? '' : ': the prediction uses the configured architecture'}`);
  if (!host) archNotes.push('cannot read /proc/cpuinfo: the host\'s core is unknown');
  if (host?.note) archNotes.push(`host core: ${host.note}`);
  if (host?.virtual) archNotes.push('this is a virtual machine: its CPUID may name another core than the physical one, and other guests share the core');
  if (flagArch && host?.arch && flagArch !== host.arch) archNotes.push(`--arch ${flagArch} is not this host's core (${host.arch}): the prediction is for ${flagArch}, the measurement for this machine`);
  const arch = flagArch ?? host?.arch ?? undefined;

  const { model, analysis } = await buildReport(input, {
    fast: true,
    ...modelArgsOf(a),
    ...(arch !== undefined ? { arch } : {}),
    ...(a.iterations !== undefined ? { iterations: a.iterations } : {}),
  });
  if (analysis.region.region.note) process.stderr.write(`uopscope: note: ${analysis.region.region.note}\n`);
  const prep = prepareRegion(analysis.region.instructions, analysis.region.format === 'elf32' ? 32 : 64);
  if (!prep.ok) throw new UserError(`${analysis.region.region.name}: not measurable: ${prep.why}`);
  const region: PreparedRegion = prep.region;
  const r = runHarness(region.body, { counter: region.counter.number, repetitions });
  if (!r.ok) throw new UserError(`${analysis.region.region.name}: ${notMeasurable(r)}`);
  const closing = region.closingBranch === null ? null : analysis.region.instructions.find((i) => i.line === region.closingBranch)!;
  return {
    source: { file: analysis.region.file, region: analysis.region.region.name, ...(analysis.region.region.note ? { note: analysis.region.region.note } : {}) },
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
    measurement: {
      method: r.method,
      methodText: r.method === 'perf'
        ? 'core cycles counted by perf_event_open (user space)'
        : 'time-stamp counter, converted to core cycles by a dependency chain of add (latency 1) timed in the same process',
      repetitions: r.repetitions,
      pagesMapped: r.pages,
      ticksPerCycle: r.method === 'tsc' ? r.calibration : null,
      unrolled: variantOf(r, r.unrolled),
      loop: variantOf(r, r.loop),
      comparable: closing ? 'loop' : 'unrolled',
      closingBranchRemoved: region.closingBranch,
      counterRegister: region.counter.name,
    },
  };
}

const f2 = (n: number): string => n.toFixed(2);

export function renderMeasure(m: MeasureResult): string {
  const out: string[] = [];
  out.push(`Region: ${m.source.region} in ${m.source.file}`);
  if (m.source.note) out.push(`(${m.source.note})`);
  out.push(m.host ? `Host: ${m.host.modelName} (${m.host.cpuid}) → ${m.host.arch ?? 'no uopscope model'}` : 'Host: unknown');
  for (const n of m.archNotes) out.push(`Note: ${n}`);
  out.push(`Figures: ${m.prediction.figures}`);
  if (m.prediction.linesWithoutFigures) out.push(`INCOMPLETE: ${m.prediction.linesWithoutFigures} line(s) have no figures on ${m.prediction.arch}; the prediction leaves them out, the measurement runs them`);
  out.push(`Model: ${m.prediction.model}`);
  out.push('');
  out.push(m.prediction.blockThroughput === null
    ? `Predicted on ${m.prediction.arch}: nothing simulated (no line has figures)`
    : `Predicted on ${m.prediction.arch}: ${f2(m.prediction.blockThroughput)} cycles/iteration (block throughput, ${m.prediction.iterations} iterations simulated)`);
  const me = m.measurement;
  out.push(`Measured on this machine: ${me.methodText}; ${me.repetitions} repetitions, 10th percentile (median, spread)`);
  const line = (name: 'loop' | 'unrolled', what: string): string => {
    const v = me[name];
    const mark = me.comparable === name ? '  ← compare with the prediction' : '';
    return `  ${name.padEnd(8)} ${f2(v.cyclesPerIteration).padStart(7)} cycles/iteration (median ${f2(v.median)}, spread ${(v.spread * 100).toFixed(1)}%)  ${what}${mark}`;
  };
  out.push(line('loop', `the body closed by dec ${me.counterRegister}; jnz`));
  out.push(line('unrolled', `the body ×${me.unrolled.sizes[0]} and ×${me.unrolled.sizes[1]}, straight-line`));
  out.push(me.closingBranchRemoved !== null
    ? `(the region's closing branch, line ${me.closingBranchRemoved}, is replaced by the harness's; "loop" runs it as a loop, as the simulation does)`
    : '(the region has no closing branch: "unrolled" runs it as the simulation does, back to back; "loop" adds the harness\'s dec/jnz)');
  if (me.ticksPerCycle) out.push(`TSC ticks per core cycle: ${me.ticksPerCycle[0].toFixed(3)} before, ${me.ticksPerCycle[1].toFixed(3)} after`);
  out.push(`Pages mapped on demand: ${me.pagesMapped} (all onto one physical page)`);
  return out.join('\n') + '\n';
}

export async function runMeasure(input: InputOptions & RegionSelection, a: MeasureArgv): Promise<string> {
  const m = await measure(input, a);
  return a.json ? JSON.stringify(m, null, 2) + '\n' : renderMeasure(m);
}
