// The patches of library internals (src/cli/yargsHelpCache.ts, src/cli/yargsLoad.ts, src/ui/inkOutputCache.ts) still
// find what they patch and still do what they are for. When yargs or Ink changes, these fail with
// a message that names the file to drop or rewrite, instead of uopscope silently getting slower.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yargs, { type Argv } from 'yargs';
import { commands } from '../../src/cli/commands/index.js';
import { lazyLoaded, loadYargs, yargsDir } from '../../src/cli/yargsLoad.js';
import { createRequire } from 'node:module';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { skipHelpCache, usageInstance } from '../../src/cli/yargsHelpCache.js';
import { inkOutputClass, shareInkOutputCache } from '../../src/ui/inkOutputCache.js';

async function runCommand(patch: boolean): Promise<{ patched: boolean; cached: boolean; ran: boolean }> {
  let ran = false;
  const cli = yargs(['go'])
    .command(
      'go',
      'a command',
      (y) => y,
      () => {
        ran = true;
      },
    )
    .help();
  const patched = patch ? skipHelpCache(cli) : false;
  await cli.parseAsync();
  return { patched, cached: usageInstance(cli)?.hasCachedHelpMessage?.() ?? false, ran };
}

test('yargs: skipHelpCache still reaches the usage instance and stops the help rendering before a handler', async () => {
  const plain = await runCommand(false);
  assert.ok(plain.ran);
  assert.ok(
    plain.cached,
    'yargs no longer renders the help before a handler: src/cli/yargsHelpCache.ts is not needed any more — drop it',
  );
  const p = await runCommand(true);
  assert.ok(
    p.patched,
    'yargs no longer has getInternalMethods().getUsageInstance().cacheHelpMessage: rewrite or drop src/cli/yargsHelpCache.ts',
  );
  assert.ok(p.ran);
  assert.equal(p.cached, false, 'the patch no longer stops the help rendering: rewrite src/cli/yargsHelpCache.ts');
});

test('yargs: --help still prints the help with the patch', async () => {
  let out = '';
  const cli = yargs().command('go', 'a command that is listed').help().exitProcess(false);
  skipHelpCache(cli);
  await cli.parseAsync(['--help'], {}, (_err, _argv, output) => {
    out = output;
  });
  assert.match(out, /a command that is listed/);
});

test('Ink: its Output class is where inkOutputCache.ts looks, and after the patch every Output shares one cache', async () => {
  const Output = await inkOutputClass();
  assert.ok(
    Output,
    "Ink's build/output.js no longer exports an Output class with write(): rewrite or drop src/ui/inkOutputCache.ts",
  );
  assert.equal(await shareInkOutputCache(), true);
  const frame = (text: string) => {
    const o = new Output({ width: 20, height: 1 });
    o.write(0, 0, text, { transformers: [] });
    return { o, text: o.get().output };
  };
  const a = frame('hello');
  const b = frame('world');
  assert.equal(a.text.trimEnd(), 'hello');
  assert.equal(b.text.trimEnd(), 'world');
  assert.ok(
    a.o.caches.styledChars instanceof Map && a.o.caches.widths instanceof Map && a.o.caches.blockWidths instanceof Map,
    "Ink's Output caches changed shape: rewrite or drop src/ui/inkOutputCache.ts",
  );
  assert.equal(b.o.caches, a.o.caches, 'two frames no longer share their caches: rewrite src/ui/inkOutputCache.ts');
  assert.ok(
    a.o.caches.styledChars.has('hello') && a.o.caches.styledChars.has('world'),
    "the shared cache holds both frames' lines",
  );
});

// src/cli/yargsLoad.ts: yargs built from its factory with a shim whose help machinery loads late
async function helpOf(fn: (args?: string[]) => Argv, args: string[]): Promise<string> {
  let cli = fn().scriptName('uopscope').strict().help().alias('h', 'help').version().wrap(100).exitProcess(false);
  for (const c of commands) cli = c(cli);
  let out = '';
  await cli.parseAsync(args, {}, (_err, _argv, output) => {
    out = output;
  });
  return out;
}

test('yargs: loadYargs builds yargs from its internals, and the help it prints is the stock help, loading cliui and string-width only then', async () => {
  const { fn, lazy } = await loadYargs();
  assert.ok(
    lazy,
    "yargs's build/lib/yargs-factory.js (or its shim's modules) moved: rewrite or drop src/cli/yargsLoad.ts",
  );
  // a command line that prints nothing: the help machinery stays unloaded
  let ran = false;
  const cli = fn(['go', '--n', '3'])
    .strict()
    .command(
      'go',
      'a command',
      (y) => y.option('n', { type: 'number' }),
      () => {
        ran = true;
      },
    );
  skipHelpCache(cli);
  await cli.parseAsync();
  assert.ok(ran);
  assert.ok(
    !lazyLoaded.has('cliui') && !lazyLoaded.has('string-width'),
    `loaded before any help: ${[...lazyLoaded].join(', ')}`,
  );
  for (const args of [['--help'], ['report', '--help'], ['data', '--help'], ['config', '--help']]) {
    const ours = await helpOf(fn as never, args);
    assert.match(ours, /uopscope/);
    assert.equal(ours, await helpOf(yargs as never, args), `help of ${args.join(' ')}`);
  }
  assert.ok(lazyLoaded.has('cliui') && lazyLoaded.has('string-width'));
});

test('yargs: messages through the lazy y18n are the stock ones (an unknown argument, a missing value)', async () => {
  const { fn } = await loadYargs();
  const fail = async (f: (a?: string[]) => Argv, args: string[]) => {
    let msg = '';
    await f(args)
      .strict()
      .option('n', { type: 'number', requiresArg: true })
      .fail((m) => {
        msg = m;
      })
      .exitProcess(false)
      .parseAsync();
    return msg;
  };
  for (const args of [['--bogus'], ['--n'], ['--a', '--b']]) {
    const ours = await fail(fn as never, args);
    assert.ok(ours.length > 0, `no message for ${args.join(' ')}`);
    assert.equal(ours, await fail(yargs as never, args));
  }
});

test('yargs: yargsDir() finds the yargs that require.resolve() finds', () => {
  const req = createRequire(import.meta.url);
  assert.equal(yargsDir(), realpathSync(dirname(req.resolve('yargs'))));
});
