import type { Argv } from 'yargs';
import { listRegions, loadInput } from '../../disasm/index.js';
import { addInputOptions, inputFromArgv, type InputArgv } from '../regionOptions.js';

/** `uopscope regions FILE`: the marked regions, or the loop candidates when nothing is marked. */
export function regionsCommand(y: Argv): Argv {
  return y.command(
    'regions [file]',
    'list the marked regions (IACA, LLVM-MCA, OSACA) or, without markers, the loops found',
    (a) => addInputOptions(a).option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
    async (argv) => {
      const args = argv as unknown as InputArgv & { json: boolean };
      const input = await loadInput(inputFromArgv(args));
      const regions = listRegions(input);
      if (args.json) {
        process.stdout.write(`${JSON.stringify({ file: input.file, format: input.format, machine: input.machine, regions }, null, 2)}\n`);
        return;
      }
      const out = [`${input.file} (${input.format}, ${input.machine}): ${regions.length} region${regions.length === 1 ? '' : 's'}`];
      if (regions.length === 0) out.push('  none marked and no loop found; use --function SYMBOL or --range START:END');
      for (const r of regions) {
        out.push(`  ${String(r.index).padStart(2)}  ${r.kind.padEnd(8)}  0x${r.start.toString(16)}–0x${r.end.toString(16)}  ${r.end - r.start} bytes  ${r.name}${r.section ? `  [${r.section}]` : ''}`);
      }
      process.stdout.write(`${out.join('\n')}\n`);
    },
  );
}
