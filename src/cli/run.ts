import type { Argv } from 'yargs';
import { UserError } from '../errors.js';
import { commands } from './commands/index.js';
import { skipHelpCache } from './yargsHelpCache.js';

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

/**
 * Output read by a program that stops early (`uopscope report … | head`): the write fails with
 * EPIPE. That is not an error of uopscope; stop quietly with status 0, as when all was read.
 */
export function quietOnClosedPipe(stream: NodeJS.WriteStream = process.stdout, exit: (code: number) => void = (c) => process.exit(c)): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') { exit(0); return; }
    reportFailure(err);
  });
}

export async function runCli(y: Argv): Promise<void> {
  quietOnClosedPipe(process.stdout);
  // a closed stderr leaves no one to tell; never turn it into an uncaught exception
  process.stderr.on('error', () => {});
  let cli = y.scriptName('uopscope').strict().help().alias('h', 'help').version()
    .wrap(Math.min(100, process.stdout.columns || 80))
    .fail((msg, err) => {
      if (err) reportFailure(err);
      process.stderr.write(`uopscope: ${String(msg).replace(/\s*\n\s*/g, ' ')} (see 'uopscope --help')\n`);
      process.exit(2);
    });
  for (const c of commands) cli = c(cli);
  skipHelpCache(cli);   // see yargsHelpCache.ts: why, and the test that guards it
  try {
    await cli.parseAsync();
  } catch (err) {
    reportFailure(err);
  }
}
