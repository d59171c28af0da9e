// yargs without its help machinery at start-up. Why it exists: yargs's ES-module entry
// (yargs/index.mjs → lib/platform-shims/esm.mjs) imports cliui, string-width (with
// get-east-asian-width and emoji-regex), wrap-ansi and y18n at every run, although uopscope needs
// them only to print --help (cliui, string-width) or a yargs message (y18n), and loading them is
// most of a start's module loading. yargs has no public way to pass another platform shim, so this
// module builds yargs from its own factory
// (build/lib/yargs-factory.js, what index.mjs does) with a copy of esm.mjs's shim whose cliui,
// stringWidth and y18n are loaded on first use. Everything else is esm.mjs's shim as it is.
//
// cliui and string-width are ES modules that yargs calls synchronously: on first use they are
// loaded with require() (Node ≥ 20.19 loads ES modules that way); on a Node without that, they are
// imported before parsing, as yargs would. When yargs's files are not where this expects them
// (another yargs version), loadYargs() returns the stock yargs: nothing changes, uopscope is only
// slower to start. test/cli/libraryPatches.test.ts fails in that case and checks the help text
// is the stock one: then rewrite or drop this file.
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Argv } from 'yargs';
import { importEsm } from './esm.js';
import { stdoutColumns } from './stdio.js';
import { yargsParts } from './yargsParts.js';

/** What `import yargs from 'yargs'` gives: a function from arguments to a parser. */
export type YargsFn = (args?: readonly string[] | string, cwd?: string) => Argv;

/** The lazily loaded parts, for the test: which of them have been loaded so far. */
export const lazyLoaded = new Set<'cliui' | 'string-width' | 'y18n'>();

type Y18n = {
  __: (...a: unknown[]) => string;
  __n: (...a: unknown[]) => string;
  setLocale: (l: string) => void;
  getLocale: () => string;
  updateLocale: (o: Record<string, string>) => void;
};

let built: { fn: YargsFn; lazy: boolean } | null = null;

/** yargs, built with the lazy shim when possible (`lazy` says whether it was). */
export async function loadYargs(): Promise<{ fn: YargsFn; lazy: boolean }> {
  if (built) return built;
  try {
    built = { fn: await lazyYargs(), lazy: true };
  } catch {
    built = { fn: (await importEsm<{ default: unknown }>('yargs')).default as unknown as YargsFn, lazy: false };
  }
  return built;
}

/** yargs's directory, as Node finds a bare package name from here (node_modules/yargs in this
 *  directory or one above it, symbolic links resolved), without reading yargs's package exports
 *  as require.resolve() does: that loads Node's ES-module resolver, ≈ 2 ms per start. Anywhere
 *  else (NODE_PATH, a global folder) require.resolve() finds it. */
export function yargsDir(): string {
  const here = fileURLToPath(import.meta.url);
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'yargs');
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) break;
  }
  return dirname(createRequire(import.meta.url).resolve('yargs'));
}

async function lazyYargs(): Promise<YargsFn> {
  const req = createRequire(import.meta.url);
  const root = yargsDir();
  const entry = join(root, 'index.mjs'); // what `import 'yargs'` runs
  const fromYargs = createRequire(entry);
  const url = (p: string): string => pathToFileURL(p).href;
  const at = (specifier: string): string => url(fromYargs.resolve(specifier));
  const {
    YargsFactory,
    getProcessArgvBin,
    Parser,
    escalade,
    getCallerFile,
    y18n: y18nFactory,
  } = await yargsParts(root, (s) => fromYargs.resolve(s), fromYargs);
  if (typeof YargsFactory !== 'function' || typeof getProcessArgvBin !== 'function')
    throw new Error('yargs internals moved');

  const { cliui, stringWidth } = await helpFunctions(fromYargs, at);
  const lazyY18n = lazyY18nOf(root, y18nFactory as () => (o: unknown) => Y18n);

  // esm.mjs: mainFilename is the directory above yargs's node_modules
  const mainFilename = entry.substring(0, entry.lastIndexOf('node_modules'));
  const shim = {
    // yargs's invariant checks: node:assert (≈ 1.4 ms to load) only when one fails, for its error
    assert: {
      notStrictEqual: (a: unknown, b: unknown, m?: string) => {
        if (Object.is(a, b)) req('node:assert').notStrictEqual(a, b, m);
      },
      strictEqual: (a: unknown, b: unknown, m?: string) => {
        if (!Object.is(a, b)) req('node:assert').strictEqual(a, b, m);
      },
    },
    cliui,
    findUp: escalade,
    getEnv: (key: string) => process.env[key],
    inspect,
    getProcessArgvBin,
    mainFilename: mainFilename || process.cwd(),
    Parser,
    path: { basename, dirname, extname, relative, resolve, join },
    process: {
      argv: () => process.argv,
      cwd: process.cwd,
      emitWarning: (warning: string, type: string) => process.emitWarning(warning, type),
      execPath: () => process.execPath,
      exit: (code: number) => {
        process.exit(code);
      },
      nextTick: process.nextTick,
      stdColumns: stdoutColumns() ?? null,
    },
    readFileSync,
    readdirSync,
    require: fromYargs,
    getCallerFile: () => {
      const callerFile = getCallerFile(3);
      return callerFile.match(/^file:\/\//) ? fileURLToPath(callerFile) : callerFile;
    },
    stringWidth,
    y18n: lazyY18n,
  };
  return YargsFactory(shim);
}

type Cliui = (opts: unknown) => unknown;
type StringWidth = (s: string) => number;

/** cliui and string-width, ES modules yargs calls synchronously: require()d on first use, or
 *  imported now when this Node cannot require() an ES module. */
async function helpFunctions(
  fromYargs: NodeJS.Require,
  at: (specifier: string) => string,
): Promise<{ cliui: Cliui; stringWidth: StringWidth }> {
  let cliui: Cliui | null = null;
  let stringWidth: StringWidth | null = null;
  const syncEsm = (process.features as { require_module?: boolean }).require_module === true;
  const loadSync = <T>(name: 'cliui' | 'string-width'): T => {
    lazyLoaded.add(name);
    const m = fromYargs(name) as { default?: T } & T;
    return (m.default ?? m) as T;
  };
  if (!syncEsm) {
    cliui = (await importEsm<{ default: unknown }>(at('cliui'))).default as Cliui;
    stringWidth = (await importEsm<{ default: unknown }>(at('string-width'))).default as StringWidth;
    lazyLoaded.add('cliui');
    lazyLoaded.add('string-width');
  }
  return {
    cliui: (opts: unknown) => (cliui ??= loadSync<Cliui>('cliui'))(opts),
    stringWidth: (s: string) => (stringWidth ??= loadSync<StringWidth>('string-width'))(s),
  };
}

/** y18n (CommonJS), created when a message is first translated; the locale yargs sets before
 *  that (at every parse) is kept and handed over. */
function lazyY18nOf(root: string, y18nFactory: () => (o: unknown) => Y18n): Y18n {
  let y18n: Y18n | null = null;
  let locale: string | null = null;
  const updates: Record<string, string>[] = [];
  const y = (): Y18n => {
    if (!y18n) {
      lazyLoaded.add('y18n');
      const make = y18nFactory();
      y18n = make({ directory: join(root, 'locales'), updateFiles: false });
      if (locale !== null) y18n.setLocale(locale);
      for (const u of updates) y18n.updateLocale(u);
    }
    return y18n;
  };
  return {
    __: (...a) => y().__(...a),
    __n: (...a) => y().__n(...a),
    setLocale: (l) => {
      if (y18n) y18n.setLocale(l);
      else locale = l;
    },
    getLocale: () => (y18n ? y18n.getLocale() : (locale ?? 'en')),
    updateLocale: (o) => {
      if (y18n) y18n.updateLocale(o);
      else updates.push(o);
    },
  };
}
