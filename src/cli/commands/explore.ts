// `uopscope FILE [region options] [--arch A] [--iterations N]`: the interactive explorer on a
// terminal; the text report when stdout is not one (a pipe, CI).
// This module only declares the command; the work is in exploreRun.ts, imported when it runs.
import type { Argv } from 'yargs';
import { BUILTIN_DEFAULTS } from '../config.js';
import { addInputOptions } from '../regionOptions.js';
import { addModelOptions } from '../modelOptions.js';
import { addMeasuredOption } from '../dataOptions.js';
import type { ExploreArgv } from './args.js';
import { importEsm } from '../esm.js';

/** The explorer's keys the help names (test/ui/state.test.ts checks them against src/ui/keys.ts,
 *  which this module does not import: it loads before every command). */
export const HELP_KEYS = { modelMenu: 's', archMenu: 'a' } as const;

export function exploreCommand(y: Argv): Argv {
  return y.command(
    '$0 [file]',
    'explore how the scheduler runs the loop, cycle by cycle (the report when not on a terminal)',
    (a) =>
      addMeasuredOption(
        addModelOptions(
          addInputOptions(a),
          `default ${BUILTIN_DEFAULTS.model}; 'uopscope config set model M'; switch mechanisms on the fly with ${HELP_KEYS.modelMenu}`,
        ),
      )
        .option('arch', {
          alias: 'a',
          type: 'string',
          describe: `microarchitecture (default ${BUILTIN_DEFAULTS.arch}; 'uopscope config set arch X'); switch on the fly with ${HELP_KEYS.archMenu}`,
        })
        .option('compare-arch', {
          type: 'string',
          describe:
            'another microarchitecture shown beside --arch from the start, in lockstep (the core split; c opens and closes it)',
        })
        .option('iterations', {
          alias: 'i',
          type: 'string',
          describe: `loop iterations to simulate; 1 = latency analysis (default ${BUILTIN_DEFAULTS.iterations}; 'uopscope config set iterations N')`,
        })
        .option('uops-xml', {
          type: 'string',
          describe: 'use this uops.info instructions.xml instead of the imported or embedded data',
        })
        .option('fallback', {
          choices: ['skip', 'alu'] as const,
          describe: "instructions without data: skip them (IACA's X), or count one ALU µop of latency 1 (default skip)",
        })
        .option('export-dir', {
          type: 'string',
          describe:
            "directory the explorer's export (x) proposes (default: 'uopscope config set export-dir DIR', else the current directory)",
        })
        .example('$0 examples/bin/branch', "explore the thesis's branch example")
        .example('$0 examples/bin/branch | less', 'not a terminal: the report'),
    async (argv) => {
      // On a terminal the explorer (Ink, React, the session, the worker) runs from dist/'s ES
      // modules as a whole, also when this declaration runs from the start-up bundle: one copy of
      // every module, none shared half with the bundle (esm.ts). Not on a terminal it prints the
      // report, from wherever this runs.
      const tty = Boolean(process.stdout.isTTY && process.stdin.isTTY);
      const { runExplore } = tty
        ? await importEsm<typeof import('./exploreRun.js')>(new URL('./exploreRun.js', import.meta.url).href)
        : await import('./exploreRun.js');
      await runExplore(argv as unknown as ExploreArgv);
    },
  );
}
