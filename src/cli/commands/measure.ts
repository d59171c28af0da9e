// `uopscope measure FILE [region options] [--arch A] [--json]`: runs the region on this machine
// (Linux x86-64) in the native harness and prints the measured cycles per iteration beside the
// simulation's block throughput. Declaration only; the work is in measureRun.ts.

import type { Argv } from 'yargs';
import { addInputOptions, inputFromArgv } from '../regionOptions.js';
import { addModelOptions } from '../modelOptions.js';
import type { MeasureArgv } from './args.js';

export function measureCommand(y: Argv): Argv {
  return y.command(
    'measure [file]',
    'run the region on this machine (Linux x86-64) and print the measured cycles per iteration beside the prediction',
    (c) =>
      addModelOptions(addInputOptions(c), "the prediction's model; default: the configured one")
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
