// The two patches of library internals (src/cli/yargsHelpCache.ts, src/ui/inkOutputCache.ts) still
// find what they patch and still do what they are for. When yargs or Ink changes, these fail with
// a message that names the file to drop or rewrite, instead of uopscope silently getting slower.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yargs from 'yargs';
import { skipHelpCache, usageInstance } from '../../src/cli/yargsHelpCache.js';
import { inkOutputClass, shareInkOutputCache } from '../../src/ui/inkOutputCache.js';

async function runCommand(patch: boolean): Promise<{ patched: boolean; cached: boolean; ran: boolean }> {
  let ran = false;
  const cli = yargs(['go']).command('go', 'a command', (y) => y, () => { ran = true; }).help();
  const patched = patch ? skipHelpCache(cli) : false;
  await cli.parseAsync();
  return { patched, cached: usageInstance(cli)?.hasCachedHelpMessage?.() ?? false, ran };
}

test('yargs: skipHelpCache still reaches the usage instance and stops the help rendering before a handler', async () => {
  const plain = await runCommand(false);
  assert.ok(plain.ran);
  assert.ok(plain.cached, 'yargs no longer renders the help before a handler: src/cli/yargsHelpCache.ts is not needed any more — drop it');
  const p = await runCommand(true);
  assert.ok(p.patched, 'yargs no longer has getInternalMethods().getUsageInstance().cacheHelpMessage: rewrite or drop src/cli/yargsHelpCache.ts');
  assert.ok(p.ran);
  assert.equal(p.cached, false, 'the patch no longer stops the help rendering: rewrite src/cli/yargsHelpCache.ts');
});

test('yargs: --help still prints the help with the patch', async () => {
  let out = '';
  const cli = yargs().command('go', 'a command that is listed').help().exitProcess(false);
  skipHelpCache(cli);
  await cli.parseAsync(['--help'], {}, (_err, _argv, output) => { out = output; });
  assert.match(out, /a command that is listed/);
});

test('Ink: its Output class is where inkOutputCache.ts looks, and after the patch every Output shares one cache', async () => {
  const Output = await inkOutputClass();
  assert.ok(Output, "Ink's build/output.js no longer exports an Output class with write(): rewrite or drop src/ui/inkOutputCache.ts");
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
  assert.ok(a.o.caches.styledChars instanceof Map && a.o.caches.widths instanceof Map && a.o.caches.blockWidths instanceof Map,
    "Ink's Output caches changed shape: rewrite or drop src/ui/inkOutputCache.ts");
  assert.equal(b.o.caches, a.o.caches, 'two frames no longer share their caches: rewrite src/ui/inkOutputCache.ts');
  assert.ok(a.o.caches.styledChars.has('hello') && a.o.caches.styledChars.has('world'), 'the shared cache holds both frames\' lines');
});
