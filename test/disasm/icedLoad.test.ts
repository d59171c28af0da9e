// iced.ts loads iced-x86 with two V8 settings changed (a larger WebAssembly tiering budget, lazy
// validation) and puts V8's own back: V8 refuses a code cache made under other settings (Node
// then compiles each of its own modules loaded later from source). v8.cachedDataVersionTag() is
// the tag V8 compares, derived from its version and settings. Each case runs in a fresh process:
// the settings are process-wide.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ICED = pathToFileURL(join(ROOT, 'src', 'disasm', 'iced.ts')).href;

/** V8's code-cache tag before and after iced.ts loads iced-x86 (and decodes and formats one
 *  instruction); `after` runs before the second reading (the control changes a setting). */
function tagsAroundLoad(after = '', env: NodeJS.ProcessEnv = {}): { before: number; after: number; decoded: string } {
  const code = `
    import { cachedDataVersionTag, setFlagsFromString } from 'node:v8';
    const before = cachedDataVersionTag();
    const { Decoder, DecoderOptions, Formatter, FormatterSyntax } = await import(${JSON.stringify(ICED)});
    const ins = new Decoder(64, new Uint8Array([0x48, 0x01, 0xd8]), DecoderOptions.None).decode();
    const decoded = new Formatter(FormatterSyntax.Intel).format(ins);
    ${after}
    console.log(JSON.stringify({ before, after: cachedDataVersionTag(), decoded }));
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { before: number; after: number; decoded: string };
}

test("after iced-x86 is loaded, V8's code-cache tag is the one before (its settings are back)", () => {
  const r = tagsAroundLoad();
  assert.equal(r.decoded, 'add rax,rbx');
  assert.equal(r.after, r.before);
});

test('control: a setting left changed changes the tag (the check above can fail)', () => {
  for (const flag of ['--wasm-tiering-budget=100000000', '--wasm-lazy-validation']) {
    const r = tagsAroundLoad(`setFlagsFromString('${flag}');`);
    assert.notEqual(r.after, r.before, flag);
  }
});

test("UOPSCOPE_V8_DEFAULTS=1 loads iced-x86 with V8's settings untouched", () => {
  const r = tagsAroundLoad('', { UOPSCOPE_V8_DEFAULTS: '1' });
  assert.equal(r.decoded, 'add rax,rbx');
  assert.equal(r.after, r.before);
});
