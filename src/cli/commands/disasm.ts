import type { Argv } from 'yargs';
import { loadRegion } from '../../disasm/index.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../data/index.js';
import { baseColumns, dataColumns, dataFootnote, detailColumns, listingJson, renderListing, resolvedJson } from '../../report/listing.js';
import { addInputOptions, inputFromArgv, type InputArgv } from '../regionOptions.js';

/** `uopscope disasm FILE [region options] [--json] [--att]`: the decoded region. */
export function disasmCommand(y: Argv): Argv {
  return y.command(
    'disasm [file]',
    'list the instructions of a region: address, bytes, text, signature, registers and flags',
    (a) => addInputOptions(a)
      .option('json', { type: 'boolean', default: false, describe: 'print JSON' })
      .option('att', { type: 'boolean', default: false, describe: 'AT&T syntax in the text listing' })
      .option('arch', { type: 'string', describe: 'add µops, ports and latency from this architecture\'s data (SKL, ICL, …); X = no data' })
      .option('fallback', { choices: ['skip', 'alu'] as const, default: 'skip' as const, describe: 'with --arch: an instruction without data is skipped or counted as 1 µop on an ALU port' }),
    async (argv) => {
      const args = argv as unknown as InputArgv & { json: boolean; att: boolean; arch?: string; fallback: 'skip' | 'alu'; uopsXml?: string };
      if (args.arch !== undefined) loadMachine(args.arch); // an unknown arch fails before the input is read
      const region = await loadRegion(inputFromArgv(args));
      if (args.arch === undefined) {
        process.stdout.write(args.json ? `${JSON.stringify(listingJson(region), null, 2)}\n` : renderListing(region, undefined, { att: args.att }));
        return;
      }
      const data = await loadArchData(args.arch, args.uopsXml ? { uopsXml: args.uopsXml } : {});
      const resolved = resolveInstructions(region.instructions, data, { fallback: args.fallback });
      if (args.json) {
        process.stdout.write(`${JSON.stringify({ ...listingJson(region), data: resolvedJson(data, resolved) }, null, 2)}\n`);
        return;
      }
      const cols = [...baseColumns, ...dataColumns(resolved), ...detailColumns];
      process.stdout.write(renderListing(region, cols, { att: args.att }) + dataFootnote(data, resolved));
    },
  );
}
