import type { Argv } from 'yargs';
import { UserError, printable } from '../errors.js';
import { commands } from './commands/index.js';

/** Prints a UserError as its one line and exits non-zero; anything else is a bug. */
export function reportFailure(err: unknown): never {
  if (err instanceof UserError) {
    // a message may quote input (a file name, a tag, a flag): never let it drive the terminal
    process.stderr.write(`uopscope: ${printable(err.message, 2000)}\n`);
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

/**
 * Before it runs a command's handler, yargs renders that command's whole help text and keeps it,
 * to show should the command fail later. uopscope never shows help on a failure (see .fail()
 * above: one line), so the rendering (≈ 40 ms of string-width and wrap-ansi at every run,
 * measured with --cpu-prof) is skipped. --help itself renders the help as before. Uses yargs's
 * internal methods where they exist; without them, nothing changes.
 */
function skipHelpCache(cli: Argv): void {
  type Internals = { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } | undefined } };
  const usage = (cli as unknown as Internals).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

export async function runCli(y: Argv): Promise<void> {
  quietOnClosedPipe(process.stdout);
  // a closed stderr leaves no one to tell; never turn it into an uncaught exception
  process.stderr.on('error', () => {});
  let cli = y.scriptName('uopscope').strict().help().alias('h', 'help').version()
    .wrap(Math.min(100, process.stdout.columns || 80))
    .fail((msg, err) => {
      if (err) reportFailure(err);
      process.stderr.write(`uopscope: ${printable(String(msg).replace(/\s*\n\s*/g, ' '), 2000)} (see 'uopscope --help')\n`);
      process.exit(2);
    });
  for (const c of commands) cli = c(cli);
  skipHelpCache(cli);
  try {
    await cli.parseAsync();
  } catch (err) {
    reportFailure(err);
  }
}
