// `uopscope measure FILE [region options] [--arch A] [--json]`: runs the region on this machine
// (Linux x86-64) in the native harness and prints the measured cycles per iteration beside the
// simulation's block throughput. Declaration only; the work is in measureRun.ts.

import type { Argv } from 'yargs';
import { addInputOptions, inputFromArgv } from '../regionOptions.js';
import { addModelOptions } from '../modelOptions.js';
import { addMeasuredOption } from '../dataOptions.js';
import type { MeasureArgv } from './args.js';

export function measureCommand(y: Argv): Argv {
  return y.command(
    'measure [file]',
    'run the region on this machine (Linux x86-64) and print the measured cycles per iteration beside the prediction',
    (c) =>
      addMeasuredOption(addModelOptions(addInputOptions(c), "the prediction's model; default: the configured one"))
        .option('arch', {
          alias: 'a',
          type: 'string',
          describe: "microarchitecture of the prediction (default: this host's core when uopscope models it)",
        })
        .option('iterations', {
          alias: 'i',
          type: 'string',
          describe: 'loop iterations to simulate (default: the configured number)',
        })
        .option('repetitions', {
          type: 'string',
          describe: 'timed repetitions of each measurement, 10 to 10000 (default 200)',
        })
        .option('working-set', {
          type: 'string',
          describe: "the data's size: l1 (default), l2, l3 or memory (3/4 of the host's cache, or 4 × L3)",
        })
        .option('fill', {
          type: 'string',
          describe:
            'the data: ordinary (default: 1 + k mod 127, indices and pointers as used) or a number for every element',
        })
        .option('json', { type: 'boolean', describe: 'print the figures as one JSON object' })
        .example('$0 measure examples/bin/adc-chain', '')
        .example('$0 measure --hex 480fafc3 --json', ''),
    async (argv) => {
      const { runMeasure } = await import('./measureRun.js');
      const { output, exitCode } = await runMeasure(inputFromArgv(argv as never), argv as unknown as MeasureArgv);
      process.stdout.write(output);
      if (exitCode) process.exitCode = exitCode;
    },
  );
}
