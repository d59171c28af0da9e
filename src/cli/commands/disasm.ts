import type { Argv } from 'yargs';
import { addInputOptions } from '../regionOptions.js';
import { addMeasuredOption } from '../dataOptions.js';
import type { DisasmArgv } from './args.js';

/** `uopscope disasm FILE [region options] [--json] [--att]`: the decoded region (work in disasmRun.ts). */
export function disasmCommand(y: Argv): Argv {
  return y.command(
    'disasm [file]',
    'list the instructions of a region: address, bytes, text, signature, registers and flags',
    (a) =>
      addMeasuredOption(addInputOptions(a))
        .option('json', { type: 'boolean', default: false, describe: 'print JSON' })
        .option('att', { type: 'boolean', default: false, describe: 'AT&T syntax in the text listing' })
        .option('wide', {
          type: 'boolean',
          default: false,
          describe: 'full lines in a terminal too (else fitted to its width, text cut with …; a pipe gets full lines)',
        })
        .option('arch', {
          type: 'string',
          describe:
            "add the source, µops, ports and latency from this architecture's data (SKL, ICL, …); ? = no figures",
        })
        .option('fallback', {
          choices: ['skip', 'alu'] as const,
          default: 'skip' as const,
          describe: 'with --arch: an instruction without data is skipped or counted as 1 µop on an ALU port',
        }),
    async (argv) => {
      const { runDisasm } = await import('./disasmRun.js');
      await runDisasm(argv as unknown as DisasmArgv);
    },
  );
}
