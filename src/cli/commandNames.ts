// The names of uopscope's commands, in one place: the first word of a command line that names
// one (the default command, the explorer, takes a FILE instead). Read by the typo hints
// (run.ts) and by the input options, which must not take a command's name for a file
// (regionOptions.ts). Every command module in commands/index.ts is listed here
// (test/cli/mistypes.test.ts checks it).

/** The commands a first word can name. */
export const COMMAND_NAMES: readonly string[] = ['report', 'disasm', 'regions', 'graph', 'data', 'config', 'measure'];

/** The subcommands of `uopscope data`. */
export const DATA_COMMANDS: readonly string[] = ['import', 'list', 'fetch', 'measure', 'remove'];
