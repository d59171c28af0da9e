import type { Argv } from 'yargs';
import { loadRegion } from '../../disasm/index.js';
import { listingJson, renderListing } from '../../report/listing.js';
import { addInputOptions, inputFromArgv, type InputArgv } from '../regionOptions.js';

/** `uopscope disasm FILE [region options] [--json] [--att]`: the decoded region. */
export function disasmCommand(y: Argv): Argv {
  return y.command(
    'disasm [file]',
    'list the instructions of a region: address, bytes, text, signature, registers and flags',
    (a) => addInputOptions(a)
      .option('json', { type: 'boolean', default: false, describe: 'print JSON' })
      .option('att', { type: 'boolean', default: false, describe: 'AT&T syntax in the text listing' }),
    async (argv) => {
      const args = argv as unknown as InputArgv & { json: boolean; att: boolean };
      const region = await loadRegion(inputFromArgv(args));
      process.stdout.write(args.json ? `${JSON.stringify(listingJson(region), null, 2)}\n` : renderListing(region, undefined, { att: args.att }));
    },
  );
}
