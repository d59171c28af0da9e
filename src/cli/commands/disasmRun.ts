// The work of `uopscope disasm` (see disasm.ts for its options), loaded only when it runs.
import { withSchemaVersion } from '../../report/schemaVersion.js';
import { loadRegion } from '../../disasm/index.js';
import { refuseListedRegionOverLimit } from '../addressSpace.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../data/index.js';
import {
  baseColumns,
  dataColumns,
  dataFootnote,
  detailColumns,
  listingJson,
  renderListing,
  resolvedJson,
} from '../../report/listing.js';
import { inputFromArgv } from '../regionOptions.js';
import { fitWidth, wrapText } from '../../report/fit.js';
import { parseArch } from '../config.js';
import type { DisasmArgv } from './args.js';
import { measuredOf } from '../dataOptions.js';

export async function runDisasm(args: DisasmArgv): Promise<void> {
  const arch = args.arch === undefined ? undefined : parseArch(args.arch, '--arch');
  // an unknown architecture fails before the input is read
  const machine = arch === undefined ? undefined : loadMachine(arch);
  // a listing shows the whole function (a simulation takes its innermost loop)
  const region = await loadRegion({ ...inputFromArgv(args), wholeFunction: true, admit: refuseListedRegionOverLimit });
  // a terminal gets lines that fit it (fit.ts); a pipe, a file or --wide the full lines
  const width = fitWidth(args.wide);
  if (arch === undefined || machine === undefined) {
    process.stdout.write(
      args.json
        ? `${JSON.stringify(withSchemaVersion(listingJson(region)), null, 2)}\n`
        : renderListing(region, undefined, { att: args.att, width }),
    );
    return;
  }
  const data = await loadArchData(arch, { ...(args.uopsXml ? { uopsXml: args.uopsXml } : {}), ...measuredOf(args) });
  const resolved = resolveInstructions(region.instructions, data, { fallback: args.fallback, machine });
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify(withSchemaVersion({ ...listingJson(region), data: resolvedJson(data, resolved, machine) }), null, 2)}\n`,
    );
    return;
  }
  const cols = [...baseColumns, ...dataColumns(resolved, machine), ...detailColumns];
  process.stdout.write(
    renderListing(region, cols, { att: args.att, width }) + wrapText(dataFootnote(data, resolved), width),
  );
}
