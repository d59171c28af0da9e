// Issue 10, defects 2, 5 and 6: architecture names that would leave the cache, absurd figures
// and figures that would wrap around in 32 bits — each refused with one line naming the file and
// the form, exit 2, at `data import` and at `--uops-xml` load.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseUopsXmlText } from '../../src/data/uopsXml.js';
import { archFile } from '../../src/data/archName.js';
import { UserError } from '../../src/errors.js';
import { assertOneLine, cli, smallText, tempDir } from './helpers.js';

/** small-instructions.xml with its first occurrence of `from` replaced by `to` */
function variant(from: string, to: string): string {
  const t = smallText();
  assert.ok(t.includes(from), from);
  return t.replace(from, to);
}
function file(name: string, text: string): string {
  const p = join(tempDir('xml'), name);
  writeFileSync(p, text);
  return p;
}
const ADD_SKL =
  '<measurement TP_loop="0.25" TP_unrolled="0.25" macro_fusible="JB (Rel8);JNZ (Rel8);JZ (Rel8)" ports="1*p0156" uops="1" uops_MITE="1" uops_retire_slots="1">';
const ADD_LAT = '<latency cycles="1" start_op="1" target_op="1"/>';

test('defect 2: <architecture name="../../../ESCAPED"> writes nothing outside the cache, exit 2', () => {
  const top = tempDir('escape');
  const cache = join(top, 'a', 'b', 'cache');
  mkdirSync(cache, { recursive: true });
  const xml = file('escape.xml', variant('<architecture name="SNB">', '<architecture name="../../../ESCAPED">'));
  const r = cli(['data', 'import', xml], { cache });
  assertOneLine(r, /escape\.xml:\d+:\d+: <architecture name="\.\.\/\.\.\/\.\.\/ESCAPED"> is not an architecture name/);
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else found.push(p);
    }
  };
  walk(top);
  assert.deepEqual(found, [], 'no file written anywhere');
  assert.equal(existsSync(join(top, 'ESCAPED.json')), false);
});

test('defect 2: name="a/b" is refused as a name, not as "cannot write the cache … ENOENT"', () => {
  const xml = file('slash.xml', variant('<architecture name="SNB">', '<architecture name="a/b">'));
  const r = cli(['data', 'import', xml]);
  assertOneLine(r, /slash\.xml:\d+:\d+: <architecture name="a\/b"> is not an architecture name/);
  assert.doesNotMatch(r.err, /ENOENT|cannot write/);
});

test('defect 2: every path built from an architecture name checks it (cache files, embedded cache)', () => {
  for (const bad of ['../x', 'a/b', '.', '..', '', 'SKL\0', 'SKL.json', 'X'.repeat(17), 'skl']) {
    assert.throws(() => archFile('/tmp/c', bad), UserError, bad);
  }
  for (const good of ['SKL', 'ADL-P', 'ZEN+', 'ZEN4', 'ADL-E'])
    assert.equal(archFile('/tmp/c', good), `/tmp/c/${good}.json`);
  // real names keep working in the parser (ZEN2 is in the fixture; lower case is upper-cased)
  const t = variant('<architecture name="ZEN2">', '<architecture name="zen+">');
  assert.ok(parseUopsXmlText(t, 'x.xml').archs.has('ZEN+'));
});

const absurd: [string, string, string, RegExp][] = [
  [
    'ports="100000000000*p0"',
    ADD_SKL,
    ADD_SKL.replace('ports="1*p0156"', 'ports="100000000000*p0"'),
    /ports="100000000000\*p0" counts 100000000000 µops, above 10000/,
  ],
  [
    'ports="99999*p0" uops="99999"',
    ADD_SKL,
    ADD_SKL.replace('ports="1*p0156" uops="1"', 'ports="99999*p0" uops="99999"'),
    /uops="99999" is above 10000/,
  ],
  [
    'latency cycles="1e10"',
    ADD_LAT,
    '<latency cycles="1e10" start_op="1" target_op="1"/>',
    /cycles="1e10" is above 10000/,
  ],
  [
    'latency cycles="4294967296"',
    ADD_LAT,
    '<latency cycles="4294967296" start_op="1" target_op="1"/>',
    /cycles="4294967296" is above 10000/,
  ],
  ['uops="-5"', ADD_SKL, ADD_SKL.replace('uops="1"', 'uops="-5"'), /uops="-5" is negative/],
  ['TP_loop="-1"', ADD_SKL, ADD_SKL.replace('TP_loop="0.25"', 'TP_loop="-1"'), /TP_loop="-1" is negative/],
  ['uops="1.5"', ADD_SKL, ADD_SKL.replace('uops="1"', 'uops="1.5"'), /uops="1.5" is not a whole number/],
  [
    'div_cycles="1e9"',
    ADD_SKL,
    ADD_SKL.replace('uops="1"', 'uops="1" div_cycles="1e9"'),
    /div_cycles="1e9" is above 10000/,
  ],
  [
    'a port count of 2^53',
    ADD_SKL,
    ADD_SKL.replace('ports="1*p0156"', 'ports="9007199254740993*p0"'),
    /counts \d+ µops, above 10000/,
  ],
  ['start_op="-1"', ADD_LAT, '<latency cycles="1" start_op="-1" target_op="1"/>', /start_op="-1" is negative/],
];

for (const [what, from, to, re] of absurd) {
  test(`defects 5/6: ${what} is refused when parsed, naming the form and the file`, () => {
    assert.throws(
      () => parseUopsXmlText(variant(from, to), 'absurd.xml'),
      (e: unknown) => {
        assert.ok(e instanceof UserError);
        assert.match(e.message, /^absurd\.xml:\d+:\d+: /);
        assert.match(e.message, re);
        assert.match(e.message, /form "ADD_01 \(R64, R64\)", architecture SKL/);
        return true;
      },
    );
  });
}

test('defect 5 at data import: ports="100000000000*p0" is one line, exit 2, the cache untouched', () => {
  const cache = tempDir('cache');
  const xml = file('ports.xml', variant(ADD_SKL, ADD_SKL.replace('ports="1*p0156"', 'ports="100000000000*p0"')));
  const r = cli(['data', 'import', xml], { cache });
  assertOneLine(
    r,
    /ports\.xml:\d+:\d+: ports="100000000000\*p0" counts .* \(form "ADD_01 \(R64, R64\)", architecture SKL\)/,
  );
  assert.deepEqual(readdirSync(cache), []);
});

test('defect 6 at --uops-xml load: cycles="4294967296" no longer wraps to a 0.50-cycle result', () => {
  const xml = file('wrap.xml', variant(ADD_LAT, '<latency cycles="4294967296" start_op="1" target_op="1"/>'));
  const r = cli([
    'report',
    '--hex',
    '4801c04801c0',
    '--arch',
    'SKL',
    '--iterations',
    '10',
    '--fast',
    '--uops-xml',
    xml,
  ]);
  assertOneLine(r, /wrap\.xml:\d+:\d+: cycles="4294967296" is above 10000/);
});

test('defect 5 at --uops-xml load: latency cycles="1e10" is bad input, not an internal error', () => {
  const xml = file('lat.xml', variant(ADD_LAT, '<latency cycles="1e10" start_op="1" target_op="1"/>'));
  const r = cli(['report', '--hex', '4801c0', '--arch', 'SKL', '--iterations', '1', '--fast', '--uops-xml', xml]);
  assertOneLine(r, /lat\.xml:\d+:\d+: cycles="1e10" is above 10000/);
});

test('an import whose index cannot be written leaves no new import directory behind', async () => {
  const { importUopsXml } = await import('../../src/data/cache.js');
  const { CACHE_VERSION } = await import('../../src/data/paths.js');
  const cacheDir = tempDir('cache');
  const v = join(cacheDir, `v${CACHE_VERSION}`);
  mkdirSync(join(v, 'index.json'), { recursive: true }); // a directory where the index goes
  await assert.rejects(
    importUopsXml(join(import.meta.dirname, '..', 'fixtures', 'data', 'small-instructions.xml'), { cacheDir }),
    (e: unknown) => e instanceof UserError && /cannot write the cache index/.test(e.message),
  );
  assert.deepEqual(readdirSync(v), ['index.json']);
});
