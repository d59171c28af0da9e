// A patch of yargs's internals, kept here alone. Why it exists: before it runs a command's
// handler, yargs (18.x, lib/command.js) renders that command's whole help text and keeps it, to
// show should the command fail later. uopscope never shows help on a failure (run.ts's .fail():
// one line), so that rendering (string-width and wrap-ansi at every run, a large share of a
// start) is wasted. yargs has no public option to skip it (the call is unconditional), so
// the usage instance's cacheHelpMessage is replaced by a no-op; --help itself renders the help
// as before. test/cli/libraryPatches.test.ts fails when yargs no longer has these internals or
// the patch stops preventing the rendering: then drop or rewrite this file.
import type { Argv } from 'yargs';

type Usage = { cacheHelpMessage?: unknown; hasCachedHelpMessage?: () => boolean };
type Internals = { getInternalMethods?: () => { getUsageInstance?: () => Usage | undefined } };

/** yargs's usage instance of `cli`, or undefined when yargs no longer offers it. */
export function usageInstance(cli: Argv): Usage | undefined {
  return (cli as unknown as Internals).getInternalMethods?.().getUsageInstance?.();
}

/** Stops yargs from rendering each command's help before its handler; false when it could not
 *  (another yargs: nothing changes then, uopscope is only slower to start). */
export function skipHelpCache(cli: Argv): boolean {
  const usage = usageInstance(cli);
  if (!usage || typeof usage.cacheHelpMessage !== 'function') return false;
  usage.cacheHelpMessage = () => {};
  return true;
}
