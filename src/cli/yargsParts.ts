// The five files of yargs that yargsLoad.ts builds yargs from, imported by URL from where yargs is
// installed (yargs's package exports do not name them), and y18n, which it loads when yargs first
// translates a message. The start-up bundle (tools/bundle.mjs) replaces this module with one that
// imports the same files statically, so that they are part of the bundle: the two must export the
// same names.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importEsm } from './esm.js';
import type { YargsFn } from './yargsLoad.js';

interface YargsParts {
  YargsFactory: (shim: unknown) => YargsFn;
  getProcessArgvBin: () => string;
  Parser: unknown;
  escalade: unknown;
  getCallerFile: (n: number) => string;
  /** y18n's factory, loaded on first call */
  y18n: () => unknown;
}

/** The parts, from yargs's directory `root`; `resolve` resolves a package as yargs would and
 *  `fromYargs` requires one as yargs would. */
export async function yargsParts(
  root: string,
  resolve: (specifier: string) => string,
  fromYargs: (specifier: string) => unknown,
): Promise<YargsParts> {
  const url = (p: string): string => pathToFileURL(p).href;
  const [
    { YargsFactory },
    { getProcessArgvBin },
    { default: Parser },
    { default: escalade },
    { default: getCallerFile },
  ] = await Promise.all([
    importEsm<{ YargsFactory: YargsParts['YargsFactory'] }>(url(join(root, 'build', 'lib', 'yargs-factory.js'))),
    importEsm<{ getProcessArgvBin: YargsParts['getProcessArgvBin'] }>(
      url(join(root, 'build', 'lib', 'utils', 'process-argv.js')),
    ),
    importEsm<{ default: unknown }>(url(resolve('yargs-parser'))),
    importEsm<{ default: unknown }>(url(resolve('escalade/sync'))),
    importEsm<{ default: YargsParts['getCallerFile'] }>(url(resolve('get-caller-file'))),
  ]);
  return { YargsFactory, getProcessArgvBin, Parser, escalade, getCallerFile, y18n: () => fromYargs('y18n') };
}
