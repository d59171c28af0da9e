import type { Argv } from 'yargs';
import { addInputOptions } from '../regionOptions.js';
import type { RegionsArgv } from './args.js';

/** `uopscope regions FILE`: the marked regions, or the loop candidates when nothing is marked (work in regionsRun.ts). */
export function regionsCommand(y: Argv): Argv {
  return y.command(
    'regions [file]',
    'list the marked regions (IACA, LLVM-MCA, OSACA) or, without markers, the loops found',
    (a) => addInputOptions(a).option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
    async (argv) => {
      const { runRegions } = await import('./regionsRun.js');
      await runRegions(argv as unknown as RegionsArgv);
    },
  );
}
