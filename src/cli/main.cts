#!/usr/bin/env node
// uopscope's command line. This file only starts it, and keeps start-up short:
// - `uopscope --version` is answered here, before anything else is loaded;
// - everything else runs start.ts, from the start-up bundle when the build made one: all of
//   uopscope's report path and its CommonJS libraries in one script (dist/cli/uopscope.cjs, made
//   by tools/bundle.mjs), compiled from V8's code cache made at build time
//   (dist/cli/uopscope.cjs.cache), so that Node neither resolves, reads and links ~100 ES modules
//   nor parses iced-x86's 0.9 MB of JavaScript at every start;
// - without the bundle (tsx, development, UOPSCOPE_NO_BUNDLE=1) start.ts is imported as ES
//   modules: the same code, slower to start. test/cli/bundle.test.ts compares the two.
// A code cache V8 does not accept (another Node) is ignored: the script is compiled from source.
// This file is CommonJS (main.cts, built to dist/cli/main.cjs, the package's bin): Node starts a
// CommonJS entry without its ES-module loader, which costs ~4 ms at every start (docs/report.md).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// what yargs/helpers' hideBin gives under Node (the script's arguments)
const args = process.argv.slice(2);

/** The flag that makes V8 check WebAssembly memory bounds in code instead of reserving guard
 *  regions (about 10 GiB of address space per memory, the decoder's included). */
const NO_WASM_GUARDS = '--disable-wasm-trap-handler';
/** The address space a command needs without guard regions here, with room (measured: a report
 *  ran under 1.5 GB and aborted under 1 GB, glibc's per-thread malloc arenas included; worker
 *  threads start only where they fit, src/cli/addressSpace.ts). bin/uopscope.cjs, which also caps
 *  the arenas, needs less and says so before Node starts. */
const MIN_ADDRESS_SPACE_GB = 2;

type Start = (args: string[]) => Promise<void>;

if (args.length === 1 && args[0] === '--version') {
  // a reader that stops early is not an error (as stdio.ts's quietOnClosedPipe; not loaded here: --version loads nothing)
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(0);
    // the same line as stdio.ts's (not loaded here: --version loads nothing)
    const what = err.code === 'EBADF' ? ': it is closed' : '';
    process.stderr.write(
      `uopscope: cannot write to standard output${what} (${err.code ?? err.message}); give it a file, or /dev/null to discard what it prints\n`,
    );
    process.exit(74);
  });
  // the version yargs's .version() prints: package.json's, two levels above dist/cli (or src/cli)
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string };
  process.stdout.write(`${pkg.version ?? 'unknown'}\n`);
} else if (underAddressSpaceLimit()) {
  runWithoutWasmGuards();
} else {
  // a failure here is a bug (start() reports users' errors itself): Node prints it and exits 1
  void (async () => {
    const start = bundled() ?? (await import('./start.js')).start;
    await start(args);
    // Nothing is left to run (every write flushed, no timer, worker or child): exit now rather
    // than let V8 tear the heap down, which waits for its background sweeping (measured: 15–30 ms
    // of a 200 ms report on a loaded 2-core machine). A pending write or handle keeps the process
    // up as before. Checked from setImmediate, after the ticks already queued: a failed write
    // reports its error (exit 74) in one of them.
    setImmediate(() => {
      if (process.getActiveResourcesInfo().length === 0) process.exit();
    });
  })();
}

/** An address-space limit (`ulimit -v`, RLIMIT_AS) is set, and this process does not yet run
 *  without the guard regions: under any such limit V8 could not reserve them (8 GB failed every
 *  command; 32 GB the explorer, whose workers each reserve their own). Linux only. */
function underAddressSpaceLimit(): boolean {
  if (process.execArgv.includes(NO_WASM_GUARDS)) return false;
  try {
    const m = /^Max address space\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m !== null && m[1] !== 'unlimited';
  } catch {
    return false;
  }
}

/** Runs this command again in a Node without WebAssembly guard regions, passing on the signals
 *  that end it and its exit status. */
function runWithoutWasmGuards(): void {
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const child = spawn(process.execPath, [NO_WASM_GUARDS, ...process.execArgv, __filename, ...args], {
    stdio: 'inherit',
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const)
    process.on(sig, () => {
      child.kill(sig);
    });
  child.on('error', (err: NodeJS.ErrnoException) => {
    process.stderr.write(
      `uopscope: cannot start under this address-space limit (ulimit -v): ${err.code ?? err.message}; raise it (ulimit -v unlimited)\n`,
    );
    process.exit(2);
  });
  child.on('exit', (code, signal) => {
    // V8 aborts when it cannot reserve what it needs (its heap, a worker's): the limit, not the input
    if (signal === 'SIGABRT' || signal === 'SIGTRAP') {
      const limit = /^Max address space\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
      process.stderr.write(
        `uopscope: out of address space under the limit set by ulimit -v (${limit ? `${Math.round(Number(limit) / 2 ** 20)} MiB` : 'unknown'}); uopscope needs about ${MIN_ADDRESS_SPACE_GB} GB: raise it (ulimit -v ${MIN_ADDRESS_SPACE_GB * 1_000_000} or unlimited)\n`,
      );
      process.exit(2);
    }
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

/** start() from the bundle next to this file, or null when there is none (or it is not wanted). */
function bundled(): Start | null {
  if (process.env.UOPSCOPE_NO_BUNDLE === '1') return null;
  const file = join(__dirname, 'uopscope.cjs');
  if (!existsSync(file)) return null;
  // a bundle older than the files it was made from (tsc run again without tools/bundle.mjs) is stale
  const from = join(__dirname, 'start.js');
  if (existsSync(from) && statSync(from).mtimeMs > statSync(file).mtimeMs) return null;
  const cacheFile = `${file}.cache`;
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  // node:vm is needed only here (not by --version)
  const { Script } = require('node:vm') as typeof import('node:vm');
  // V8 accepts a code cache only under the flags it was made with, and the engine raises the
  // inlining budget when it loads (src/sim/inlining.ts, the same flag): set before compiling, the
  // flags are the same when the build makes the cache and when a run reads it (test/cli/bundle)
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--max-inlined-bytecode-size-cumulative=4000');
  // the bundle is pure ASCII (tools/bundle.mjs checks): Latin-1 reads it without UTF-8 decoding
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'latin1')}\n})`,
    { filename: file, cachedData },
  );
  if (process.env.UOPSCOPE_DEBUG_BUNDLE === '1') {
    process.stderr.write(
      `uopscope: bundle ${file}, code cache ${cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'absent'}\n`,
    );
  }
  // the build (tools/bundle.mjs) asks for the cache after a representative run: V8 then includes
  // every function that run compiled
  const cacheOut = process.env.UOPSCOPE_WRITE_CODE_CACHE;
  if (cacheOut)
    process.on('exit', () => {
      writeFileSync(cacheOut, script.createCachedData());
    });
  // import() inside the script: see esm.ts
  (globalThis as Record<symbol, unknown>)[Symbol.for('uopscope.importEsm')] = (url: string) => import(url);
  const bundle = { exports: {} as { start?: Start } };
  (script.runInThisContext() as (...a: unknown[]) => void)(
    bundle.exports,
    createRequire(file),
    bundle,
    file,
    __dirname,
  );
  return bundle.exports.start ?? null;
}
