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

if (args.length === 1 && args[0] === '--version') {
  // the version yargs's .version() prints: package.json's, two levels above dist/cli (or src/cli)
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  process.stdout.write(`${pkg.version ?? 'unknown'}\n`);
} else {
  // yargs without its help machinery until help is printed (yargsLoad.ts: why and how)
  const [{ fn: yargs }, { runCli }] = await Promise.all([import('./yargsLoad.js').then((m) => m.loadYargs()), import('./run.js')]);
  // `-` (standard input, as llvm-mca takes it) would reach yargs as an empty string: name it
  const STDIN_ARG = '<stdin>';
  await runCli(yargs(args.map((a) => (a === '-' ? STDIN_ARG : a))), args);
}
