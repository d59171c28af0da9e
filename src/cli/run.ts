import type { Argv } from 'yargs';
import { UserError } from '../errors.js';
import { commands } from './commands/index.js';

/** Prints a UserError as its one line and exits non-zero; anything else is a bug. */
export function reportFailure(err: unknown): never {
  if (err instanceof UserError) {
    process.stderr.write(`uopscope: ${err.message}\n`);
    process.exit(err.exitCode);
  }
  const msg = err instanceof Error ? err.message : String(err);
  process.stderr.write(`uopscope: internal error: ${msg} (please report this with the input that caused it)\n`);
  if (process.env.UOPSCOPE_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  process.exit(70);
}

export async function runCli(y: Argv): Promise<void> {
  let cli = y.scriptName('uopscope').strict().help().alias('h', 'help').version()
    .wrap(Math.min(100, process.stdout.columns || 80))
    .fail((msg, err) => {
      if (err) reportFailure(err);
      process.stderr.write(`uopscope: ${msg} (see 'uopscope --help')\n`);
      process.exit(2);
    });
  for (const c of commands) cli = c(cli);
  try {
    await cli.parseAsync();
  } catch (err) {
    reportFailure(err);
  }
}
