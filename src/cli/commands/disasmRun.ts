// The work of `uopscope disasm` (see disasm.ts for its options), loaded only when it runs.
import { loadRegion } from '../../disasm/index.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../data/index.js';
import { baseColumns, dataColumns, dataFootnote, detailColumns, listingJson, renderListing, resolvedJson } from '../../report/listing.js';
import { inputFromArgv } from '../regionOptions.js';
import type { DisasmArgv } from './disasm.js';

export async function runDisasm(args: DisasmArgv): Promise<void> {
  if (args.arch !== undefined) loadMachine(args.arch); // an unknown arch fails before the input is read
  // a listing shows the whole function (a simulation takes its innermost loop)
  const region = await loadRegion({ ...inputFromArgv(args), wholeFunction: true });
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
}
