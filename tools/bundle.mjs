// The start-up bundle, run by `npm run build` after tsc:
//   dist/cli/uopscope.cjs        dist/cli/start.js and everything it loads, with the CommonJS
//                                libraries (iced-x86, fast-xml-parser), in one CommonJS script
//   dist/cli/uopscope.cjs.cache  V8's code cache of that script after a representative run
// dist/cli/main.cjs runs the bundle when it is there (main.cts says how and why). What stays out:
// ES modules loaded at run time by URL (esm.ts: the explorer's Ink interface, yargs's files) and
// the worker threads' entry files; they load from dist/ as before.
//
// Each bundled file of dist/ keeps its own import.meta.url (its path relative to the bundle,
// resolved when the bundle runs), so the paths it builds (assets, workers, package.json) are the
// ones it builds unbundled, wherever the package is installed. `createRequire(import.meta.url)(x)`
// with a literal x becomes require(x) so that esbuild bundles x; iced-x86 finds its WebAssembly
// file where the package is installed.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'cli');
const outFile = join(outDir, 'uopscope.cjs');
const cacheFile = `${outFile}.cache`;
const entry = join(outDir, 'start.js');
if (!existsSync(entry)) throw new Error(`${entry} is missing: run tsc first (npm run build)`);
rmSync(outFile, { force: true });
rmSync(cacheFile, { force: true });

const posix = (p) => p.split(sep).join('/');

const rewrite = {
  name: 'uopscope-paths',
  setup(b) {
    // yargs's files (src/cli/yargsParts.ts), imported statically from where they are now (first:
    // esbuild takes the first onLoad that answers)
    b.onLoad({ filter: /[\\/]dist[\\/]cli[\\/]yargsParts\.js$/ }, () => {
      const req = createRequire(join(root, 'package.json'));
      const entry = req.resolve('yargs');
      const fromYargs = createRequire(entry);
      const lib = join(dirname(entry), 'build', 'lib');
      const q = (p) => JSON.stringify(posix(p));
      return {
        loader: 'js',
        resolveDir: root,
        contents: `import { YargsFactory } from ${q(join(lib, 'yargs-factory.js'))};
import { getProcessArgvBin } from ${q(join(lib, 'utils', 'process-argv.js'))};
import Parser from ${q(fromYargs.resolve('yargs-parser'))};
import escalade from ${q(fromYargs.resolve('escalade/sync'))};
import getCallerFile from ${q(fromYargs.resolve('get-caller-file'))};
import y18n from ${q(fromYargs.resolve('y18n'))};
export async function yargsParts() { return { YargsFactory, getProcessArgvBin, Parser, escalade, getCallerFile, y18n: () => y18n }; }
`,
      };
    });
    // iced-x86 reads iced_x86_bg.wasm next to its own file
    b.onLoad({ filter: /[\\/]iced-x86[\\/]iced_x86\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const needle = "require('path').join(__dirname, 'iced_x86_bg.wasm')";
      if (!text.includes(needle))
        throw new Error(`iced-x86 no longer loads its WebAssembly as expected (${args.path}): update tools/bundle.mjs`);
      return {
        contents: text.replace(
          needle,
          "require('path').join(require('path').dirname(require.resolve('iced-x86')), 'iced_x86_bg.wasm')",
        ),
        loader: 'js',
      };
    });
    // every other file: its own import.meta.url; in uopscope's files,
    // createRequire(import.meta.url)('literal') becomes require('literal') (bundled). A library's
    // import.meta.url (yargs-parser's, for a createRequire it uses to read yargs config files,
    // which uopscope does not) points where the library was at build time.
    b.onLoad({ filter: /\.m?js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      const ours = !posix(relative(root, args.path)).startsWith('node_modules/');
      if (!ours && !text.includes('import.meta.url')) return undefined;
      if (ours) text = text.replace(/createRequire\(import\.meta\.url\)\((['"])([^'"]+)\1\)/g, 'require($1$2$1)');
      const rel = posix(relative(outDir, args.path));
      text = text.replaceAll('import.meta.url', `__uopscopeUrl(${JSON.stringify(rel)})`);
      return { contents: text, loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: outFile,
  // the Ink interface and React are ES modules with top-level await: imported at run time
  external: ['ink', 'react', 'ink-select-input', 'react-devtools-core'],
  banner: {
    js: "const __uopscopeUrl = (rel) => require('node:url').pathToFileURL(require('node:path').join(__dirname, rel)).href;",
  },
  plugins: [rewrite],
  logLevel: 'warning',
  // iced-x86's require.resolve (above) runs when the bundle runs, on purpose
  // and yargs's import.meta.resolve serves only config files' "extends", which uopscope does not use
  logOverride: { 'require-resolve-not-external': 'silent', 'empty-import-meta': 'silent' },
  metafile: true,
  // pure ASCII (non-ASCII characters in strings escaped): main.cts reads it as Latin-1, which
  // makes V8's one-byte string without decoding UTF-8 (≈ 2 ms less per start for 1.7 MB)
  charset: 'ascii',
  // no comments or indentation (a third smaller: less to read and hash at every start); names are
  // kept, and UOPSCOPE_NO_BUNDLE=1 runs the readable dist/ files
  minifyWhitespace: true,
});

// nothing of the interface may have been pulled in statically (it would run on every start)
const inputs = Object.keys(result.metafile.inputs);
const ui = inputs.filter((p) => /node_modules\/(ink|react|ink-select-input|yoga-layout)\//.test(p));
if (ui.length) throw new Error(`the bundle would load the interface at start-up: ${ui.join(', ')}`);
const bundled = readFileSync(outFile, 'utf8');
if (/[^\x00-\x7f]/.test(bundled))
  throw new Error('the bundle is not pure ASCII, which main.cts relies on (it reads it as Latin-1)');
for (const name of ['ink', 'react', 'ink-select-input']) {
  if (bundled.includes(`require("${name}")`))
    throw new Error(
      `the bundle requires ${name} (an ES module with top-level await): import it through src/cli/esm.ts`,
    );
}

// the code cache: V8's compiled code after a representative run (a full report of an example,
// which compiles the disassembler, the data, the engine and the report), written by main.cts
const tmp = `${cacheFile}.tmp`;
const example = join(root, 'examples', 'bin', 'stencil');
// in a cache directory of its own (removed after), so that the build leaves nothing in the user's
// cache; the first run fills it, the second (the one kept) reads it as users' runs do
const warmCache = mkdtempSync(join(tmpdir(), 'uopscope-bundle-'));
const warm = (env) =>
  spawnSync(process.execPath, [join(outDir, 'main.cjs'), 'report', example, '--iterations', '100'], {
    env: { ...process.env, UOPSCOPE_CACHE_DIR: warmCache, UOPSCOPE_NO_BUNDLE: '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
warm({});
const run = warm({ UOPSCOPE_WRITE_CODE_CACHE: tmp });
rmSync(warmCache, { recursive: true, force: true });
if (run.status !== 0 || !existsSync(tmp)) {
  rmSync(tmp, { force: true });
  // the bundle works without its cache (only slower to start): say so, do not fail the build
  process.stderr.write(
    `tools/bundle.mjs: no code cache (the warm-up run failed: ${(run.stderr || run.error?.message || '').trim().split('\n')[0]})\n`,
  );
} else {
  renameSync(tmp, cacheFile);
}
const kb = (f) => (existsSync(f) ? `${Math.round(readFileSync(f).length / 1024)} KB` : 'none');
process.stdout.write(
  `bundle: ${posix(relative(root, outFile))} (${kb(outFile)}, ${inputs.length} files), code cache ${kb(cacheFile)}\n`,
);
