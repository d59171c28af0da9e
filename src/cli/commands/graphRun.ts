// The work of `uopscope graph` (see graph.ts for its options), loaded only when it runs.
import { buildCfg, buildDependencyGraph, loadRegion } from '../../disasm/index.js';
import { cfgToDot, dgToDot } from '../../report/dot.js';
import { checkOutputs, writeOutputFile } from '../outputFile.js';
import { inputFromArgv } from '../regionOptions.js';
import { refuseListedRegionOverLimit } from '../addressSpace.js';
import type { GraphArgv } from './args.js';

export async function runGraph(args: GraphArgv): Promise<void> {
  const opts = inputFromArgv(args);
  // under an address-space limit, refused as soon as it is counted when the limit leaves too little
  const region = await loadRegion({ ...opts, admit: refuseListedRegionOverLimit });
  const cfg = cfgToDot(region.instructions, buildCfg(region.instructions, { loop: args.loop }), 'cfg');
  const dg = dgToDot(region.instructions, buildDependencyGraph(region.instructions, { loop: args.loop }), 'dg');
  if (!args.cfg && !args.dg) {
    process.stdout.write(cfg + dg);
    return;
  }
  const inputs = [opts.file, opts.raw];
  checkOutputs(
    [
      { path: args.cfg, what: 'control-flow graph' },
      { path: args.dg, what: 'dependency graph' },
    ],
    inputs,
  );
  if (args.cfg) writeOutputFile(args.cfg, cfg, 'control-flow graph', inputs);
  if (args.dg) writeOutputFile(args.dg, dg, 'dependency graph', inputs);
}
