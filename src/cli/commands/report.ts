// `uopscope report FILE [region options] --arch A --iterations N …`: the thesis's report
// (block throughput, the what-if throughputs, µops per cycle, the per-line table) as text or JSON.

// This module only declares the command (cheap to load); the work is in reportRun.ts, imported
// when the command runs.

import type { Argv } from 'yargs';
import { addInputOptions, inputFromArgv } from '../regionOptions.js';
import { addModelOptions } from '../modelOptions.js';
import { addMeasuredOption } from '../dataOptions.js';
import { BUILTIN_DEFAULTS } from '../config.js';
import type { ReportArgs } from './args.js';
import { VARIANT_SWITCHES } from '../../sim/variants.js';
import { writeStdout } from '../stdio.js';

/** --pf, --ip, --nd: one boolean option per what-if switch, from the switches' table. */
function addVariantOptions<T>(c: Argv<T>): Argv<T> {
  for (const s of VARIANT_SWITCHES) c = c.option(s.flag, { type: 'boolean', describe: s.help });
  return c;
}

/** The input files of a batch (several FILEs, or --all-regions), else null: one report (then
 *  `argv.file` is made the one file, as the other commands take it). */
function batchFiles(argv: {
  file?: string | string[];
  allRegions?: boolean;
  _?: (string | number)[];
}): string[] | null {
  const given = argv.file === undefined ? [] : Array.isArray(argv.file) ? argv.file.map(String) : [String(argv.file)];
  // after `--` the files arrive among the positionals, after the command's name
  const rest = (argv._ ?? []).map(String);
  if (rest[0] === 'report') rest.shift();
  const files = [...given, ...rest];
  if (argv.allRegions || files.length > 1) return files;
  if (given.length === 1) argv.file = given[0];
  else if (given.length === 0) delete argv.file;
  return null;
}

export function reportCommand(y: Argv): Argv {
  return y.command(
    'report [file..]',
    "simulate the region and print the thesis's report: block throughput, what-if throughputs, per-line table",
    (c) =>
      addVariantOptions(
        addMeasuredOption(addModelOptions(addInputOptions(c)))
          .option('arch', {
            alias: 'a',
            type: 'string',
            describe: `microarchitecture (default ${BUILTIN_DEFAULTS.arch}; change with 'uopscope config set arch X')`,
          })
          .option('compare-arch', { type: 'string', describe: 'a second core: its report too, then both compared' })
          .option('iterations', {
            alias: 'i',
            type: 'string',
            describe: `loop iterations to simulate; 1 = latency analysis (default ${BUILTIN_DEFAULTS.iterations}; 'uopscope config set iterations N')`,
          }),
      )
        .option('port-capacity', {
          type: 'string',
          describe: 'µops each port takes per cycle (instead of 1; thesis future work)',
        })
        .option('issue-width', { type: 'string', describe: 'override the µops the front end loads per cycle' })
        .option('rs-size', { type: 'string', describe: 'override the reservation-station capacity (µops)' })
        .option('fast', {
          alias: 'p',
          type: 'boolean',
          describe: "skip the three what-if runs and the mechanisms' runs (SUACA's performance mode)",
        })
        .option('all-variants', {
          type: 'boolean',
          describe: 'also run all 8 combinations of --pf, --ip, --nd, and each mechanism that is off switched on',
        })
        .option('branch', {
          alias: 'b',
          type: 'boolean',
          describe: 'also analyse both sides of the first conditional jump',
        })
        .option('detail', {
          type: 'string',
          describe: 'detail analysis of this line (delays per dependency and per port)',
        })
        .option('json', {
          type: 'boolean',
          describe: 'print the figures as one JSON object (several regions: one JSON object per line)',
        })
        .option('all-regions', {
          type: 'boolean',
          describe: "report every region 'uopscope regions' lists, one result per region (several FILEs may be given)",
        })
        .option('fallback', {
          type: 'string',
          describe: 'instructions without data: skip them, or count one ALU µop of latency 1 (default skip)',
        })
        .option('strict', {
          type: 'boolean',
          describe: 'fail (exit 2) when a line of the region has no figures from any source',
        })
        .option('uops-xml', {
          type: 'string',
          describe: 'use this uops.info instructions.xml instead of the imported or embedded data',
        })
        .example('$0 report examples/bin/branch --arch SNB --branch', '')
        .example('$0 report examples/bin/adc-chain -i 1 --detail 0', '')
        .example('$0 report --hex 4801d8 --iterations 1 --json', '')
        .example('$0 report examples/bin/branch --model refined --no-macro-fusion', '')
        .example('$0 report examples/bin/two-regions --all-regions --json', '')
        .example('$0 report examples/bin/stencil --arch ZEN4 --no-measured', ''),
    async (argv) => {
      const files = batchFiles(argv as never);
      if (files) return (await import('./reportBatch.js')).runReportBatch(files, argv as never);
      const { runReport } = await import('./reportRun.js');
      const out = await runReport(inputFromArgv(argv as never, { simulates: true }), argv as ReportArgs);
      writeStdout(out);
    },
  );
}
