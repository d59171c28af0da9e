#!/usr/bin/env node
// uopscope's command line: one module per command under src/cli/commands, wired here.
//
// Start-up (issue 14, item 3): `uopscope --version` is answered here, before yargs (≈ 70 modules
// with its help machinery) is loaded; everything else loads yargs (its help machinery only when
// help is printed: yargsLoad.ts) and the command declarations with import().
// test/cli/startup.test.ts checks which modules are loaded.
import { readFileSync } from 'node:fs';

// what yargs/helpers' hideBin gives under Node (the script's arguments); importing that helper
// would load yargs's whole platform shim (cliui, string-width, y18n) first
const args = process.argv.slice(2);

// the fast paths below write before run.ts's handlers exist: a reader that stops early
// (`uopscope --help | head -1`) is not an error, as there (quietOnClosedPipe)
const quietPipe = (): void => {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED' ? 0 : 74));
  process.stderr.on('error', () => {});
};

if (args.length === 1 && args[0] === '--version') {
  quietPipe();
  // the version yargs's .version() prints: package.json's, two levels above dist/cli (or src/cli)
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  process.stdout.write(`${pkg.version ?? 'unknown'}\n`);
} else if (isTopHelpLine()) {
  // `uopscope --help`: the text yargs printed last time, when nothing it depends on changed
  // (helpCache.ts); else yargs renders it and the text is kept for next time
  const { cachedHelp, helpKey, helpWidth, recordHelp } = await import('./helpCache.js');
  const width = helpWidth();
  let key: string | null = null;
  try { key = helpKey(width); } catch { /* no key: no cache */ }
  const text = key === null ? null : cachedHelp(width, key);
  if (text !== null) { quietPipe(); process.stdout.write(text); } else {
    if (key !== null) recordHelp(width, key);
    await runYargs();
  }
} else {
  await runYargs();
}

function isTopHelpLine(): boolean {
  return args.length === 1 && (args[0] === '--help' || args[0] === '-h');
}

async function runYargs(): Promise<void> {
  // yargs without its help machinery until help is printed (yargsLoad.ts: why and how)
  const [{ fn: yargs }, { runCli }] = await Promise.all([import('./yargsLoad.js').then((m) => m.loadYargs()), import('./run.js')]);
  // `-` (standard input, as llvm-mca takes it) would reach yargs as an empty string: name it
  const STDIN_ARG = '<stdin>';
  await runCli(yargs(args.map((a) => (a === '-' ? STDIN_ARG : a))), args);
}
