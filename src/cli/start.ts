// What uopscope does with its command line, loaded by main.cts: from the start-up bundle
// (dist/cli/uopscope.cjs, tools/bundle.mjs) when there is one, else as ES modules (tsx,
// development, a build without the bundle).
//
// `uopscope --help` is answered from the text yargs printed last time (helpCache.ts); everything
// else loads yargs (its help machinery only when help is printed: yargsLoad.ts) and the command
// declarations with import(). test/cli/startup.test.ts checks which modules are loaded.

import { quietOnClosedPipe } from './stdio.js';

/** Runs uopscope on its arguments (process.argv without node and the script). */
export async function start(args: string[]): Promise<void> {
  if (isTopHelpLine(args)) {
    // `uopscope --help`: the text yargs printed last time, when nothing it depends on changed
    // (helpCache.ts); else yargs renders it and the text is kept for next time
    const { cachedHelp, helpKey, helpWidth, recordHelp } = await import('./helpCache.js');
    const width = helpWidth();
    let key: string | null = null;
    try {
      key = helpKey(width);
    } catch {
      /* no key: no cache */
    }
    const text = key === null ? null : cachedHelp(width, key);
    if (text !== null) {
      quietPipe();
      process.stdout.write(text);
    } else {
      if (key !== null) recordHelp(width, key);
      await runYargs(args);
    }
  } else {
    await runYargs(args);
  }
}

// the fast path above writes before run.ts's handlers exist: the same ones (a reader that stops
// early, `uopscope --help | head -1`, is not an error; stdio.ts)
function quietPipe(): void {
  quietOnClosedPipe(process.stdout);
  process.stderr.on('error', () => {});
}

function isTopHelpLine(args: string[]): boolean {
  return args.length === 1 && (args[0] === '--help' || args[0] === '-h');
}

async function runYargs(args: string[]): Promise<void> {
  // yargs without its help machinery until help is printed (yargsLoad.ts: why and how)
  const [{ fn: yargs }, { runCli, llvmMcaArgs, reportFailure, STDIN_ARG }] = await Promise.all([
    import('./yargsLoad.js').then((m) => m.loadYargs()),
    import('./run.js'),
  ]);
  // llvm-mca's single-dash spellings (-iterations=100, -mcpu=skylake) as uopscope's
  let given = args;
  try {
    given = llvmMcaArgs(args);
  } catch (err) {
    reportFailure(err);
  }
  // `-` (standard input, as llvm-mca takes it) would reach yargs as an empty string: name it
  await runCli(yargs(given.map((a) => (a === '-' ? STDIN_ARG : a))), given);
}
