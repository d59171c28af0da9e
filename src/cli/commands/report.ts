// `uopscope report FILE [region options] --arch A --iterations N …`: the thesis's report
// (block throughput, the what-if throughputs, µops per cycle, the per-line table) as text or JSON.

import type { Argv } from 'yargs';
import { addInputOptions, inputFromArgv } from '../regionOptions.js';
import { BUILTIN_DEFAULTS, effectiveSettings, parseArch, parseIterations } from '../config.js';
import { analyse, branchPrograms, loopFor, type Analysis } from '../pipeline.js';
import { collectReport, type ReportRequest } from '../../report/collect.js';
import { renderText } from '../../report/text.js';
import { reportJson } from '../../report/json.js';
import type { ReportModel } from '../../report/model.js';
import type { Variant } from '../../sim/types.js';
import type { InputOptions, RegionSelection } from '../../disasm/types.js';
import { UserError } from '../../errors.js';

export interface ReportArgs {
  arch?: string;
  iterations?: number | string;
  pf?: boolean;
  ip?: boolean;
  nd?: boolean;
  portCapacity?: number | string;
  issueWidth?: number | string;
  rsSize?: number | string;
  fast?: boolean;
  allVariants?: boolean;
  branch?: boolean;
  detail?: number | string;
  json?: boolean;
  fallback?: string;
  uopsXml?: string;
}

export function reportCommand(y: Argv): Argv {
  return y.command(
    'report [file]',
    'simulate the region and print the thesis\'s report: block throughput, what-if throughputs, per-line table',
    (c) => addInputOptions(c)
      .option('arch', { alias: 'a', type: 'string', describe: `microarchitecture (default ${BUILTIN_DEFAULTS.arch}; change with 'uopscope config set arch X')` })
      .option('iterations', { alias: 'i', type: 'string', describe: `loop iterations to simulate; 1 = latency analysis (default ${BUILTIN_DEFAULTS.iterations}; 'uopscope config set iterations N')` })
      .option('pf', { type: 'boolean', describe: 'main analysis with a perfect front end (µops loaded per cycle = reservation-station capacity)' })
      .option('ip', { type: 'boolean', describe: 'main analysis with infinitely usable ports' })
      .option('nd', { type: 'boolean', describe: 'main analysis without dependencies' })
      .option('port-capacity', { type: 'string', describe: 'µops each port takes per cycle (instead of 1; thesis future work)' })
      .option('issue-width', { type: 'string', describe: 'override the µops the front end loads per cycle' })
      .option('rs-size', { type: 'string', describe: 'override the reservation-station capacity (µops)' })
      .option('fast', { alias: 'p', type: 'boolean', describe: 'skip the three what-if runs (SUACA\'s performance mode)' })
      .option('all-variants', { type: 'boolean', describe: 'also run all 8 combinations of --pf, --ip, --nd' })
      .option('branch', { alias: 'b', type: 'boolean', describe: 'also analyse both sides of the first conditional jump' })
      .option('detail', { type: 'string', describe: 'detail analysis of this line (delays per dependency and per port)' })
      .option('json', { type: 'boolean', describe: 'print the figures as one JSON object' })
      .option('fallback', { type: 'string', describe: 'instructions without data: skip them, or count one ALU µop of latency 1 (default skip)' })
      .option('uops-xml', { type: 'string', describe: 'use this uops.info instructions.xml instead of the imported or embedded data' })
      .example('$0 report examples/bin/stencil --arch IVB --iterations 3000', '')
      .example('$0 report --hex 4801d8 --iterations 1 --json', ''),
    async (argv) => {
      const out = await runReport(inputFromArgv(argv as never), argv as ReportArgs);
      process.stdout.write(out);
    },
  );
}

/** Flags → the variant of the main analysis. */
export function variantFromArgs(a: ReportArgs): Variant {
  const v: Variant = { perfectFrontEnd: !!a.pf, infinitePorts: !!a.ip, noDependencies: !!a.nd };
  const positive = (name: string, n: number | string | undefined): number | undefined =>
    (n === undefined ? undefined : wholeNumber(`--${name}`, n, 1));
  const pc = positive('port-capacity', a.portCapacity);
  const iw = positive('issue-width', a.issueWidth);
  const rs = positive('rs-size', a.rsSize);
  if (pc !== undefined) v.portCapacity = pc;
  if (iw !== undefined) v.issueWidth = iw;
  if (rs !== undefined) v.rsSize = rs;
  return v;
}

/** A whole number ≥ min from a flag's text, else a UserError naming the flag. */
export function wholeNumber(flag: string, value: number | string, min: number, hint?: string): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min) {
    throw new UserError(`${flag} ${String(value)}: ${hint ?? `give a whole number of at least ${min}`}`);
  }
  return n;
}

/** Builds the report model: the pipeline, then every simulation the flags ask for. */
export async function buildReport(input: InputOptions & RegionSelection, a: ReportArgs): Promise<{ model: ReportModel; analysis: Analysis }> {
  const eff = effectiveSettings({
    ...(a.arch !== undefined ? { arch: parseArch(a.arch, '--arch') } : {}),
    ...(a.iterations !== undefined ? { iterations: parseIterations(a.iterations, '--iterations') } : {}),
  });
  const iterations = eff.iterations.value;
  const detail = a.detail === undefined ? undefined : wholeNumber('--detail', a.detail, 0, 'give a line number (0 is the first instruction)');
  if (a.fallback !== undefined && a.fallback !== 'skip' && a.fallback !== 'alu') {
    throw new UserError(`--fallback ${a.fallback}: use skip (no µop, the default) or alu (one ALU µop of latency 1)`);
  }
  const fallback = a.fallback as 'skip' | 'alu' | undefined;
  const analysis = await analyse({
    ...input,
    arch: eff.arch.value,
    loop: loopFor(iterations),
    ...(a.uopsXml !== undefined ? { uopsXml: a.uopsXml } : {}),
    ...(fallback !== undefined ? { fallback } : {}),
  });
  const req: ReportRequest = {
    iterations,
    variant: variantFromArgs(a),
    ...(a.fast ? { fast: true } : {}),
    ...(a.allVariants ? { allVariants: true } : {}),
    ...(detail !== undefined ? { detail } : {}),
  };
  const branch = a.branch ? branchPrograms(analysis) : undefined;
  const model = collectReport({
    program: analysis.program,
    params: analysis.params,
    archName: analysis.machine.name,
    unknown: analysis.unknown,
    source: { file: analysis.region.file, region: analysis.region.region.name },
    ...(branch !== undefined ? { branch: branch && { branchLine: branch.branchLine, left: branch.left, right: branch.right } } : {}),
  }, req);
  return { model, analysis };
}

/** What `uopscope report` prints. */
export async function runReport(input: InputOptions & RegionSelection, a: ReportArgs): Promise<string> {
  const { model } = await buildReport(input, a);
  return a.json ? JSON.stringify(reportJson(model), null, 2) + '\n' : renderText(model);
}
