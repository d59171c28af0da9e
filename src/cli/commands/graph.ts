import type { Argv } from 'yargs';
import { buildCfg, buildDependencyGraph, loadRegion } from '../../disasm/index.js';
import { cfgToDot, dgToDot } from '../../report/dot.js';
import { writeFileAtomic } from '../atomicWrite.js';
import { addInputOptions, inputFromArgv, type InputArgv } from '../regionOptions.js';

/** `uopscope graph FILE --cfg cfg.dot --dg dg.dot`: Graphviz DOT of the CFG and the dependency graph. */
export function graphCommand(y: Argv): Argv {
  return y.command(
    'graph [file]',
    'write the control-flow graph and the dependency graph as Graphviz DOT',
    (a) => addInputOptions(a)
      .option('cfg', { type: 'string', describe: 'write the control-flow graph to this file' })
      .option('dg', { type: 'string', describe: 'write the dependency graph to this file' })
      .option('loop', { type: 'boolean', default: true, describe: 'include loop-carried dependencies and the back edge (--no-loop: one iteration)' }),
    async (argv) => {
      const args = argv as unknown as InputArgv & { cfg?: string; dg?: string; loop: boolean };
      const region = await loadRegion(inputFromArgv(args));
      const cfg = cfgToDot(region.instructions, buildCfg(region.instructions, { loop: args.loop }), 'cfg');
      const dg = dgToDot(region.instructions, buildDependencyGraph(region.instructions, { loop: args.loop }), 'dg');
      if (!args.cfg && !args.dg) {
        process.stdout.write(cfg + dg);
        return;
      }
      if (args.cfg) writeFileAtomic(args.cfg, cfg, 'control-flow graph');
      if (args.dg) writeFileAtomic(args.dg, dg, 'dependency graph');
    },
  );
}
