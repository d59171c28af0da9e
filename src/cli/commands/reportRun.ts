// The work of `uopscope report` (see report.ts for the command's options): loaded only when
// the command runs, so that the CLI starts without the disasm, data, sim and report stages.

import {
  microcodeCaveats,
  missingIsaCaveat,
  placementCaveat,
  placementShifts,
  predictionCaveats,
} from '../../report/caveats.js';
import { listMachines } from '../../data/machines.js';
import { effectiveSettings, parseIterations, resolveArch } from '../config.js';
import { analyse, branchPrograms, loopFor, programAt, type Analysis } from '../pipeline.js';
import { collectReport, type ReportRequest } from '../../report/collect.js';
import {
  BASELINE,
  VARIANT_SWITCHES,
  engineOptionsOf,
  resolveMechanisms,
  jobKey,
  runKey,
  sharingIdenticalRuns,
  simulate,
  whatIfJobs,
  type EngineOptions,
  type MechanismSet,
  type Simulate,
  type WhatIfJob,
} from '../../sim/index.js';
import { CompiledProgram, stationNeed } from '../../sim/compiled.js';
import { mechanismsFromArgv } from '../modelOptions.js';
import { simulateAll } from '../simPool.js';
import { RunsProgress } from '../progress.js';
import { isTerminal } from '../stdio.js';
import { renderText } from '../../report/text.js';
import { fixed } from '../../report/format.js';
import { reportJson } from '../../report/json.js';
import { citedLines } from '../../report/listing.js';
import type { ReportModel } from '../../report/model.js';
import type { SimProgram, MachineParams, SimResult, Variant } from '../../sim/types.js';
import type { InputOptions, RegionSelection } from '../../disasm/types.js';
import { UserError, printable } from '../../errors.js';
import { MAX_RS_SIZE, MAX_WIDTH } from '../../data/limits.js';
import type { ReportArgs } from './args.js';

/** Flags → the variant of the main analysis. */
function variantFromArgs(a: ReportArgs): Variant {
  const v: Variant = { ...BASELINE };
  for (const s of VARIANT_SWITCHES) v[s.field] = !!a[s.flag];
  // upper bounds far above any core (RS ≤ a few hundred, width ≤ 8): the engine's memory grows
  // with the station's size times the µops of the largest instruction
  const positive = (name: string, n: number | string | undefined, max: number): number | undefined =>
    n === undefined ? undefined : wholeNumber(`--${name}`, n, 1, undefined, max);
  const pc = positive('port-capacity', a.portCapacity, MAX_WIDTH);
  const iw = positive('issue-width', a.issueWidth, MAX_WIDTH);
  const rs = positive('rs-size', a.rsSize, MAX_RS_SIZE);
  if (pc !== undefined) v.portCapacity = pc;
  if (iw !== undefined) v.issueWidth = iw;
  if (rs !== undefined) v.rsSize = rs;
  return v;
}

/** A whole number ≥ min from a flag's text, else a UserError naming the flag. */
export function wholeNumber(
  flag: string,
  value: number | string,
  min: number,
  hint?: string,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (Array.isArray(value)) throw new UserError(`${flag} is given more than once; give it once`);
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UserError(
      `${printable(`${flag} ${String(value)}`, 80)}: ${hint ?? `give a whole number from ${min} to ${max}`}`,
    );
  }
  return n;
}

/** What a report's flags ask for, read and checked once (a batch of regions reads them once for
 *  all): the core, the iterations, the request of runs, the data options. */
export interface ReportSettings {
  chosen: ReturnType<typeof resolveArch> | undefined;
  arch: ReturnType<typeof effectiveSettings>['arch']['value'];
  iterations: number;
  req: ReportRequest;
  fallback: 'skip' | 'alu' | undefined;
  uopsXml: string | undefined;
  /** false: leave out the figures measured by uopscope (--no-measured) */
  measured: boolean;
  strict: boolean;
  branch: boolean;
}

/** Reads and checks the report's flags (UserError on a bad one). */
export function reportSettings(a: ReportArgs): ReportSettings {
  const chosen = a.arch !== undefined ? resolveArch(a.arch, '--arch') : undefined;
  const eff = effectiveSettings({
    ...(chosen ? { arch: chosen.arch } : {}),
    ...(a.iterations !== undefined ? { iterations: parseIterations(a.iterations, '--iterations') } : {}),
  });
  const iterations = eff.iterations.value;
  const { mechanisms } = mechanismsFromArgv(a, eff.model.value);
  const detail =
    a.detail === undefined
      ? undefined
      : wholeNumber('--detail', a.detail, 0, 'give a line number (0 is the first instruction)');
  if (a.fallback !== undefined && a.fallback !== 'skip' && a.fallback !== 'alu') {
    throw new UserError(`--fallback ${a.fallback}: use skip (no µop, the default) or alu (one ALU µop of latency 1)`);
  }
  const req: ReportRequest = {
    iterations,
    variant: variantFromArgs(a),
    mechanisms,
    ...(a.fast ? { fast: true } : {}),
    ...(a.allVariants ? { allVariants: true, allMechanismEffects: true } : {}),
    ...(detail !== undefined ? { detail } : {}),
  };
  return {
    chosen,
    arch: eff.arch.value,
    iterations,
    req,
    fallback: a.fallback as 'skip' | 'alu' | undefined,
    uopsXml: a.uopsXml,
    measured: a.measured !== false,
    strict: !!a.strict,
    branch: !!a.branch,
  };
}

/** Builds the report model: the pipeline, then every simulation the flags ask for (through `sim`
 *  when given — tests see what each run was asked — else through the worker pool, each run's
 *  progress shown by `progress`). */
export async function buildReport(
  input: InputOptions & RegionSelection,
  a: ReportArgs,
  sim?: Simulate,
  progress?: RunsProgress,
): Promise<{ model: ReportModel; analysis: Analysis }> {
  const s = reportSettings(a);
  const analysis = await analyse({
    ...input,
    arch: s.arch,
    loop: loopFor(s.iterations),
    ...(s.uopsXml !== undefined ? { uopsXml: s.uopsXml } : {}),
    ...(s.measured ? {} : { measured: false }),
    ...(s.fallback !== undefined ? { fallback: s.fallback } : {}),
    ...(progress ? { onDecoded: (lines: number) => progress.stage('looking up figures', lines) } : {}),
  });
  return { model: await reportOfAnalysis(analysis, s, sim, progress), analysis };
}

/** The report model of an analysed region under `s`: every simulation it asks for (through `sim`
 *  when given, else the worker pool for a large report) and the collected figures. */
export async function reportOfAnalysis(
  analysis: Analysis,
  s: ReportSettings,
  sim?: Simulate,
  progress?: RunsProgress,
): Promise<ReportModel> {
  const { req, chosen } = s;
  if (s.strict) refuseIncomplete(analysis);
  if (req.variant.rsSize !== undefined) {
    // a station too small for a line's µops that enter together would never take it
    const need = stationNeed(new CompiledProgram(analysis.program, analysis.params, req.mechanisms));
    if (need.entries > req.variant.rsSize) {
      const asm = analysis.region.instructions[need.line]?.intel ?? `line ${need.line}`;
      throw new UserError(
        `--rs-size ${req.variant.rsSize}: line ${need.line} (${asm}) puts ${need.entries} µops into the reservation station at once (a micro-fused µop); give --rs-size ${need.entries} or more`,
      );
    }
  }
  const lines = analysis.region.instructions.length;
  progress?.stage('simulating', lines);
  const branch = s.branch ? branchPrograms(analysis) : undefined;
  const run = sim ?? (await parallelRuns(analysis.program, analysis.params, req, progress));
  const placed = placementOf(analysis, req, run, progress);
  const missing = analysis.resolved.flatMap((r) =>
    r.missingIsa?.length ? [{ line: r.line, features: r.missingIsa }] : [],
  );
  const elsewhere = missing.length ? missingIsaCaveat(analysis.machine.arch, missing, listMachines()) : null;
  progress?.stage('collecting the report', lines);
  return collectReport(
    {
      program: analysis.program,
      params: analysis.params,
      archName: analysis.machine.name,
      ...(chosen?.note ? { archNote: chosen.note } : {}),
      unknown: analysis.unknown,
      origins: analysis.resolved.map((r) => r.origin),
      addresses: analysis.region.instructions.map((i) => i.address),
      cited: citedLines(analysis.resolved),
      caveats: [
        ...predictionCaveats(analysis.region.instructions, branch !== undefined),
        ...microcodeCaveats(analysis.machine, analysis.region.instructions, analysis.resolved),
        ...(placed ? [placed] : []),
        ...(elsewhere ? [elsewhere] : []),
      ],
      source: {
        file: analysis.region.file,
        region: analysis.region.region.name,
        ...(analysis.region.region.note ? { note: analysis.region.region.note } : {}),
      },
      ...(branch !== undefined ? { branch } : {}),
    },
    req,
    run,
  );
}

/** A relocatable object's loop simulated at the other placements the linker may give it, when the
 *  front end (which reads 32- and 64-byte blocks) is modelled: the caveat when the result differs.
 *  A placement whose engine inputs (runKey: the compiled program, with the front end's plan, and
 *  the run's settings) are those of one run already has its block throughput: the core reads
 *  nothing of a program but its compiled form, and the throughput is its cycles over the
 *  iterations (test/sim/runKey.test.ts). Most placements deliver the loop as the object's offset
 *  does (+32 always: the same 32-byte windows), so most are not simulated again. */
function placementOf(analysis: Analysis, req: ReportRequest, run: Simulate, progress?: RunsProgress): string | null {
  const p = analysis.region.placement;
  const shifts = p ? placementShifts(p.align) : [];
  if (!p || shifts.length === 0 || !req.mechanisms?.frontEnd) return null;
  progress?.stage('simulating the other placements', analysis.region.instructions.length);
  const cfg = { iterations: req.iterations, variant: { ...req.variant } };
  const opts = engineOptionsOf(req.mechanisms);
  const byKey = new Map<string, number>();
  const at = (program: SimProgram): number => {
    const k = runKey(program, analysis.params, cfg, opts);
    let tp = byKey.get(k);
    if (tp === undefined) {
      tp = run(program, analysis.params, cfg, opts).stats.blockThroughput;
      byKey.set(k, tp);
    }
    return tp;
  };
  return placementCaveat(
    p,
    at(analysis.program),
    shifts.map((shift) => ({ shift, blockThroughput: at(programAt(analysis, shift)) })),
  );
}

/** Below this many simulated instances (iterations × instructions) per run, the runs of a report
 *  go one after the other: a worker thread costs more to start than the run. */
export const PARALLEL_MIN_INSTANCES = 200_000;

/** A large report's runs go one after the other here until they have taken this long (ms); only
 *  what is left then goes to worker threads. A worker thread costs tens of milliseconds to start
 *  (and as much CPU time, on a machine whose cores may be busy), and most runs of a periodic loop
 *  take a few (the steady state, src/sim/steady.ts): the first run's time, which includes the
 *  engine's warm-up, predicts the rest badly, so the budget is a time, not a count of runs.
 *  200 ms: above what a cold first run takes on a busy machine, and a long report loses at most
 *  half of it to running here alone. UOPSCOPE_PARALLEL_MIN_MS overrides it (0: everything after the first run in
 *  worker threads, for the tests). */
export const PARALLEL_MIN_MS = 200;

function parallelMinMs(): number {
  const v = Number(process.env.UOPSCOPE_PARALLEL_MIN_MS);
  return process.env.UOPSCOPE_PARALLEL_MIN_MS !== undefined && Number.isFinite(v) && v >= 0 ? v : PARALLEL_MIN_MS;
}

/** Milliseconds of a monotonic clock (process.hrtime: node:perf_hooks's performance.now() would
 *  load Node's ten performance modules, ≈ 0.5 ms of every report's start-up). */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Runs `items` one after the other with `run` (the first always) until they have taken `ms`
 *  milliseconds by `clock`; returns those not run. */
export function runHereFor<T>(
  items: readonly T[],
  run: (item: T) => void,
  ms: number,
  clock: () => number = monotonicMs,
): T[] {
  const t0 = clock();
  let x = 0;
  for (; x < items.length && (x === 0 || clock() - t0 < ms); x++) run(items[x]!);
  return items.slice(x);
}

/**
 * The main analysis and its what-if runs (and combinations, and the runs with each mechanism
 * flipped) of a large report: each distinct run once (a run whose engine inputs are another's,
 * runKey, is that run: sharingIdenticalRuns), here one after the other until they have taken
 * PARALLEL_MIN_MS, the rest then at once in worker threads (simPool.ts); as the Simulate that
 * collectReport then reads them from. For a small report, or when only one run is asked,
 * simulate() shared likewise.
 */
async function parallelRuns(
  program: SimProgram,
  params: MachineParams,
  req: ReportRequest,
  progress?: RunsProgress,
): Promise<Simulate> {
  const sim: Simulate = progress ? progress.tracked(simulate) : simulate;
  const jobs = whatIfJobs(req);
  if (jobs.length < 2 || req.iterations * program.instructions.length < PARALLEL_MIN_INSTANCES)
    return sharingIdenticalRuns(sim);
  const configOf = (j: WhatIfJob) => ({ iterations: req.iterations, variant: j.variant });
  const distinct = new Map<string, WhatIfJob>();
  const keyed: [string, WhatIfJob][] = [];
  for (const j of jobs) {
    const k = runKey(program, params, configOf(j), engineOptionsOf(j.mechanisms));
    if (!distinct.has(k)) distinct.set(k, j);
    keyed.push([k, j]);
  }
  const done = new Map<string, SimResult>();
  const rest = runHereFor(
    [...distinct],
    ([k, j]) => done.set(k, sim(program, params, configOf(j), engineOptionsOf(j.mechanisms))),
    parallelMinMs(),
  );
  if (rest.length > 0) {
    const results = await simulateAll(
      program,
      params,
      rest.map(([, j]) => configOf(j)),
      { engineOptions: rest.map(([, j]) => engineOptionsOf(j.mechanisms)), ...(progress ? { progress } : {}) },
    );
    rest.forEach(([k], y) => {
      done.set(k, results[y]!);
    });
  }
  // each job's result by its job key (cheap to compute per run asked); any other run: simulated
  const byJob = new Map<string, SimResult>();
  for (const [k, j] of keyed) byJob.set(jobKey(j), done.get(k)!);
  const other = sharingIdenticalRuns(sim);
  const mechanismsOfOpts = (o: EngineOptions | undefined): MechanismSet => resolveMechanisms(o?.model?.mechanisms);
  return (p, m, config, opts) =>
    (p === program &&
      m === params &&
      config.iterations === req.iterations &&
      config.trace === undefined &&
      opts?.fullSimulation === undefined &&
      opts?.model?.units === undefined &&
      byJob.get(jobKey({ variant: config.variant, mechanisms: mechanismsOfOpts(opts) }))) ||
    other(p, m, config, opts);
}

/** How the region was chosen, on stderr, when the output (which says it too) is not a terminal. */
export function noteRegion(note: string | undefined, out: { isTTY?: boolean } = { isTTY: isTerminal(1) }): void {
  if (note && !out.isTTY) process.stderr.write(`uopscope: note: ${note}\n`);
}

/** What `uopscope report` prints. */
export async function runReport(input: InputOptions & RegionSelection, a: ReportArgs): Promise<string> {
  if (a.compareArch !== undefined) return compareReports(input, a, a.compareArch);
  // the simulations' progress on stderr when it is a terminal (a long run is otherwise silent);
  // asked without creating process.stderr, which would load Node's net module for a pipe
  const progress = isTerminal(2) ? new RunsProgress() : undefined;
  let built: Awaited<ReturnType<typeof buildReport>>;
  try {
    built = await buildReport(input, a, undefined, progress);
  } catch (e) {
    progress?.done(false);
    throw e;
  }
  progress?.done();
  const { model, analysis } = built;
  // how the region was chosen, when the user did not name it exactly: the report says it; on
  // stderr too when the report goes to a file or a pipe (in a terminal it would be said twice)
  noteRegion(analysis.region.region.note);
  return a.json ? JSON.stringify(reportJson(model), null, 2) + '\n' : renderText(model);
}

/**
 * --compare-arch B: the region's report on --arch A, then on B with the same settings, then the
 * two compared — what a user weighing the loop on two cores asks first: each core's throughput,
 * the ratio, and the lines one core has no figures for (their figures are left out on that side).
 * JSON: `{ reports: [A's, B's], comparison }`.
 */
async function compareReports(input: InputOptions & RegionSelection, a: ReportArgs, other: string): Promise<string> {
  const second = resolveArch(other, '--compare-arch').arch;
  const { compareArch: _drop, ...one } = a;
  const models: ReportModel[] = [];
  for (const args of [one, { ...one, arch: second }]) {
    const built = await buildReport(input, args);
    if (models.length === 0) noteRegion(built.analysis.region.region.note);
    models.push(built.model);
  }
  const [x, y] = models as [ReportModel, ReportModel];
  const tp = (m: ReportModel) => m.main.stats.blockThroughput;
  const missing = (m: ReportModel) =>
    m.unknown.length ? m.unknown.map((u) => `line ${u.line} (${u.asm})`).join(', ') : 'none';
  const inc = (m: ReportModel) => (m.unknown.length ? ' (incomplete)' : '');
  const comparison = {
    archs: [x.arch, y.arch],
    blockThroughput: [tp(x), tp(y)],
    /** B's cycles per iteration over A's */
    ratio: tp(y) / tp(x),
    linesWithoutFigures: [x.unknown.map((u) => u.line), y.unknown.map((u) => u.line)],
  };
  if (a.json) return `${JSON.stringify({ reports: [reportJson(x), reportJson(y)], comparison }, null, 2)}\n`;
  const lines = [
    `Comparison: ${x.arch} and ${y.arch} (the same region and settings)`,
    `Block throughput: ${x.arch} ${fixed(tp(x), 2)}${inc(x)}, ${y.arch} ${fixed(tp(y), 2)}${inc(y)} cycles/iteration (${y.arch} takes ${fixed(comparison.ratio, 2)}× ${x.arch}'s cycles)`,
    `Lines without figures (placeholders on that core, marked ?): ${x.arch}: ${missing(x)}; ${y.arch}: ${missing(y)}`,
  ];
  return `== ${x.arch}\n${renderText(x)}\n== ${y.arch}\n${renderText(y)}\n== ${x.arch} and ${y.arch}\n${lines.join('\n')}\n`;
}

/** --strict: a region with a line that no source has figures for is an error, not a report. */
function refuseIncomplete(analysis: Pick<Analysis, 'unknown' | 'machine'>): void {
  if (!analysis.unknown.length) return;
  const first = analysis.unknown[0]!;
  const more =
    analysis.unknown.length > 1
      ? ` and ${analysis.unknown.length - 1} more line${analysis.unknown.length > 2 ? 's' : ''}`
      : '';
  throw new UserError(
    `--strict: line ${first.line} (${first.asm}) has no figures on ${analysis.machine.arch}: ${first.why ?? 'no source has figures for it'}${more} — import uops.info's file ('uopscope data import FILE'), pick another --arch, or drop --strict`,
  );
}
