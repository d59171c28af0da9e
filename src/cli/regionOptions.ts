// The input and region options every analysing command shares.
import { COMMAND_NAMES } from './commandNames.js';
import type { Argv } from 'yargs';
import { UserError, printable } from '../errors.js';
import type { InputOptions, RegionSelection } from '../disasm/types.js';
import {
  DEFAULT_MAX_INSTRUCTIONS,
  MAX_INSTRUCTIONS_LIMIT,
  MAX_SIMULATED_INSTRUCTIONS,
  grouped,
} from '../disasm/limits.js';

export interface InputArgv {
  file?: string;
  hex?: string;
  raw?: string;
  region?: number | string;
  function?: string;
  range?: string;
  assembler?: 'as' | 'clang';
  syntax?: 'att' | 'intel';
  maxInstructions?: number | string;
}

/** Adds the positional FILE and --hex, --raw, --region, --function, --range, --assembler. */
export function addInputOptions<T>(y: Argv<T>): Argv<T & InputArgv> {
  return y
    .positional('file', { type: 'string', describe: 'binary (ELF, PE/COFF, Mach-O) or assembly source (.s, .S, .asm)' })
    .option('hex', { type: 'string', describe: 'raw machine code as hex, e.g. 4801d8' })
    .option('raw', { type: 'string', describe: 'file of raw machine code' })
    .option('region', { type: 'string', describe: 'marked region or loop N (see `uopscope regions FILE`)' })
    .option('function', { type: 'string', describe: 'analyse the function SYMBOL' })
    .option('range', { type: 'string', describe: 'analyse the addresses START:END (END exclusive)' })
    .option('assembler', {
      choices: ['as', 'clang'] as const,
      default: 'as' as const,
      describe: 'tool that assembles assembly input (clang: also a versioned clang-N)',
    })
    .option('syntax', {
      choices: ['att', 'intel'] as const,
      describe:
        'syntax of assembly input without .intel_syntax (default: recognised from its instructions; llvm-mca: -x86-asm-syntax)',
    })
    .option('max-instructions', {
      type: 'string',
      describe: `the most instructions a region, or an assembly file's code, may hold (default ${grouped(DEFAULT_MAX_INSTRUCTIONS)})`,
    }) as unknown as Argv<T & InputArgv>;
}

/** Named commands, as they appear first among yargs's positionals. */
const NAMED_COMMANDS: ReadonlySet<string> = new Set(COMMAND_NAMES);

/** The InputOptions & RegionSelection for the disasm stage from parsed arguments. */
export function inputFromArgv(
  argv: InputArgv & { _?: (string | number)[] },
  o: { simulates?: boolean } = {},
): InputOptions & RegionSelection {
  // an option given twice arrives as an array: refuse it rather than joining the values (--hex)
  for (const k of [
    'file',
    'hex',
    'raw',
    'region',
    'function',
    'range',
    'assembler',
    'syntax',
    'maxInstructions',
  ] as const) {
    if (Array.isArray(argv[k]))
      throw new UserError(`${k === 'file' ? 'FILE' : `--${k}`} is given more than once; give it once`);
  }
  // `uopscope regions -- -leading.s`: after `--` the file name arrives among the positionals
  // (the default command, the explorer, has no name among them; the others have theirs first)
  const rest = (argv._ ?? []).map(String);
  if (rest[0] !== undefined && NAMED_COMMANDS.has(rest[0])) rest.shift();
  if (rest.length > 0) {
    if (argv.file !== undefined || rest.length > 1)
      throw new UserError(
        `more than one input file (${printable([argv.file, ...rest].filter((x) => x !== undefined).join(', '), 120)}); pass one`,
      );
    argv = { ...argv, file: rest[0]! };
  }
  const opts: InputOptions & RegionSelection = {};
  if (argv.file !== undefined) opts.file = String(argv.file);
  if (argv.hex !== undefined) opts.hex = String(argv.hex);
  if (argv.raw !== undefined) opts.raw = String(argv.raw);
  if (argv.assembler !== undefined) opts.assembler = argv.assembler;
  if (argv.syntax !== undefined) opts.syntax = argv.syntax;
  if (argv.region !== undefined) {
    // the text as typed (a number option would turn 'abc' into NaN before we see it)
    const typed = String(argv.region);
    if (!/^\s*\d+\s*$/.test(typed))
      throw new UserError(`--region '${typed}': not a region number (1, 2, …); see 'uopscope regions FILE'`);
    opts.region = Number(typed);
  }
  if (argv.function !== undefined) opts.function = String(argv.function);
  if (argv.range !== undefined) opts.range = String(argv.range);
  if (argv.maxInstructions !== undefined) {
    const typed = String(argv.maxInstructions).trim().replace(/[_,]/g, '');
    const n = /^\d+$/.test(typed) ? Number(typed) : NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > MAX_INSTRUCTIONS_LIMIT)
      throw new UserError(
        `--max-instructions '${printable(String(argv.maxInstructions), 40)}': not a whole number from 1 to ${grouped(MAX_INSTRUCTIONS_LIMIT)}`,
      );
    if (o.simulates && n > MAX_SIMULATED_INSTRUCTIONS)
      throw new UserError(
        `--max-instructions ${grouped(n)}: the simulation takes at most ${grouped(MAX_SIMULATED_INSTRUCTIONS)} instructions (about 15 KB of memory each, 1.5 GB at the bound); pick a smaller region (--region, --function, --range), or look at a larger one with disasm or graph`,
      );
    opts.maxInstructions = n;
  }
  return opts;
}
