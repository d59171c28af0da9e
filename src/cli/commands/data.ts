// `uopscope data import FILE | list | fetch | measure | remove`: the measurement data. This module only
// declares the commands; the work is in dataRun.ts, imported when one runs.
import type { Argv } from 'yargs';
import type { CommandModule } from './args.js';
import { addInputOptions, inputFromArgv, type InputArgv } from '../regionOptions.js';

const UOPS_INFO_URL = 'https://uops.info/instructions.xml';

const work = () => import('./dataRun.js');

export const dataCommand: CommandModule = (y: Argv) =>
  y
    .option('uops-xml', {
      type: 'string',
      global: true,
      describe: 'use this uops.info instructions.xml for this run (instead of the imported cache or the embedded data)',
    })
    .command('data', 'manage measurement data (import, list, fetch, measure, remove)', (yy) =>
      DATA_COMMANDS.reduce<Argv>(
        (c, add) => add(c),
        yy.option('cache-dir', {
          type: 'string',
          describe: 'cache directory (default: $UOPSCOPE_CACHE_DIR, $XDG_CACHE_HOME/uopscope, ~/.cache/uopscope)',
        }),
      ).demandCommand(1, 'name a data command: import, list, fetch, measure or remove'),
    );

/** `data import FILE` */
const importCommand: CommandModule = (y) =>
  y.command(
    'import <file>',
    "convert uops.info's instructions.xml into the per-architecture cache",
    (c) =>
      c.positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'instructions.xml downloaded from uops.info',
      }),
    async (argv) => (await work()).runImport(String(argv.file), argv['cache-dir'] as string | undefined),
  );

/** `data list` */
const listCommand: CommandModule = (y) =>
  y.command(
    'list',
    'show every architecture with data and where it comes from',
    (c) =>
      c.option('json', { type: 'boolean', default: false, describe: 'print JSON' }).option('wide', {
        type: 'boolean',
        default: false,
        describe: 'full lines in a terminal too (else cut to its width with …; a pipe gets full lines)',
      }),
    async (argv) =>
      (await work()).runList(argv['cache-dir'] as string | undefined, Boolean(argv.json), Boolean(argv.wide)),
  );

/** `data fetch` */
const fetchCommand: CommandModule = (y) =>
  y.command(
    'fetch',
    `download ${UOPS_INFO_URL} and import it (progress, timeouts, resume: docs/data.md)`,
    (c) =>
      c
        .option('url', {
          type: 'string',
          default: UOPS_INFO_URL,
          describe: 'where to download from (http:// or https://)',
        })
        // for tests and slow links; documented in docs/data.md, not in --help
        .option('connect-timeout', {
          type: 'number',
          hidden: true,
          describe: 'seconds to wait for a connection (default 5, or $UOPSCOPE_FETCH_CONNECT_TIMEOUT)',
        })
        .option('stall-timeout', {
          type: 'number',
          hidden: true,
          describe:
            'seconds without data before a transfer counts as broken (default 30, or $UOPSCOPE_FETCH_STALL_TIMEOUT)',
        })
        .option('total-timeout', {
          type: 'number',
          hidden: true,
          describe: 'seconds for the whole download (default 7200, or $UOPSCOPE_FETCH_TOTAL_TIMEOUT)',
        }),
    async (argv) =>
      (await work()).runFetch(String(argv.url), {
        cacheDir: argv['cache-dir'] as string | undefined,
        connectTimeout: argv['connect-timeout'] as number | undefined,
        stallTimeout: argv['stall-timeout'] as number | undefined,
        totalTimeout: argv['total-timeout'] as number | undefined,
      }),
  );

/** `data measure [FILE]` */
const measureCommand: CommandModule = (y) =>
  y.command(
    'measure [file]',
    "characterize this machine's core: the forms of a region, or every form with --all (docs/characterize.md)",
    (c) =>
      addInputOptions(c)
        .option('all', {
          type: 'boolean',
          default: false,
          describe: 'every form the host runs in user mode (resumable; Ctrl-C keeps what is done)',
        })
        .option('core', {
          type: 'string',
          describe: "the core the figures are for (default: the host's, from CPUID), e.g. SPR, ZEN4",
        })
        .option('output', {
          alias: 'o',
          type: 'string',
          describe: 'the measured-figures file (default: <cache>/measured/<CORE>.json)',
        })
        .option('repetitions', {
          type: 'number',
          describe: 'timed repetitions per harness run, 10 to 10000 (default 30)',
        })
        .option('runs', {
          type: 'number',
          describe: 'quiet harness runs wanted per benchmark and pass (the canary gates them), 1 to 100 (default 3)',
        }),
    async (argv) => {
      const { runDataMeasure } = await import('./dataMeasureRun.js');
      const a = argv as unknown as InputArgv & {
        all: boolean;
        core?: string;
        output?: string;
        repetitions?: number;
        runs?: number;
      };
      const given = a.file !== undefined || a.hex !== undefined || a.raw !== undefined;
      await runDataMeasure(given ? inputFromArgv({ ...a, _: [] }) : null, {
        all: Boolean(a.all),
        argv: process.argv.slice(2),
        ...(a.core !== undefined ? { core: String(a.core) } : {}),
        ...(a.output !== undefined ? { output: String(a.output) } : {}),
        ...(a.repetitions !== undefined ? { repetitions: Number(a.repetitions) } : {}),
        ...(a.runs !== undefined ? { runs: Number(a.runs) } : {}),
        ...(argv['cache-dir'] !== undefined ? { cacheDir: String(argv['cache-dir']) } : {}),
      });
    },
  );

/** `data remove imported|measured [ARCH…]` */
const removeCommand: CommandModule = (y) =>
  y.command(
    'remove <what> [archs..]',
    'remove imported uops.info data, or figures uopscope measured on this machine',
    (c) =>
      c
        .positional('what', {
          type: 'string',
          choices: ['imported', 'measured'],
          demandOption: true,
          describe:
            "'imported': the imported uops.info file; 'measured': the measured figures of the architectures named (all when none is)",
        })
        .positional('archs', {
          type: 'string',
          array: true,
          describe: 'architectures whose measured figures to remove (with measured)',
        }),
    async (argv) =>
      (await work()).runRemove(
        String(argv.what),
        (argv.archs as string[] | undefined) ?? [],
        argv['cache-dir'] as string | undefined,
      ),
  );

const DATA_COMMANDS: CommandModule[] = [importCommand, listCommand, fetchCommand, measureCommand, removeCommand];
