import type { Argv } from 'yargs';
import { addInputOptions } from '../regionOptions.js';
import type { GraphArgv } from './args.js';

/** `uopscope graph FILE --cfg cfg.dot --dg dg.dot`: Graphviz DOT of the CFG and the dependency graph (work in graphRun.ts). */
export function graphCommand(y: Argv): Argv {
  return y.command(
    'graph [file]',
    'write the control-flow graph and the dependency graph as Graphviz DOT',
    (a) =>
      addInputOptions(a)
        .option('cfg', { type: 'string', describe: 'write the control-flow graph to this file' })
        .option('dg', { type: 'string', describe: 'write the dependency graph to this file' })
        .option('loop', {
          type: 'boolean',
          default: true,
          describe: 'include loop-carried dependencies and the back edge (--no-loop: one iteration)',
        }),
    async (argv) => {
      const { runGraph } = await import('./graphRun.js');
      await runGraph(argv as unknown as GraphArgv);
    },
  );
}
