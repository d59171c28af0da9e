// Issue 10, defects 3 and 4: the XML reader stays linear whatever the file's layout (a minified
// instructions.xml on one line), and what fast-xml-parser refuses (nesting beyond its limit, an
// external entity) is bad input — one line, exit 2 — with the external entity never read.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { MAX_CONSTRUCT, Position, parseUopsXmlFile, parseUopsXmlText } from '../../src/data/uopsXml.js';
import { UserError } from '../../src/errors.js';
import { assertOneLine, cli, tempDir } from './helpers.js';

const INSTR =
  '<instruction string="ADD (R64, R64)" asm="ADD"><operand idx="1" type="reg" r="1" w="1">RAX</operand><architecture name="SKL"><measurement uops="1" ports="1*p0156"><latency start_op="1" target_op="1" cycles="1"/></measurement></architecture></instruction>';
const flat = (n: number): string => `<root>${'<a/>'.repeat(n)}${INSTR}</root>`;
const nested = (n: number): string => `<root>${'<a>'.repeat(n)}${INSTR}${'</a>'.repeat(n)}</root>`;

test('defect 3: the position tracking looks at each character once, also on one long line', () => {
  for (const text of [flat(50_000), nested(50_000), flat(10).replace(/></g, '>\n<')]) {
    const r = parseUopsXmlText(text, 'one-line.xml');
    assert.equal(r.forms, 1);
    assert.ok(r.positionWork !== undefined && r.positionWork <= text.length, `${r.positionWork} > ${text.length}`);
  }
});

test('defect 3: Position gives the same line and column as counting from the start', () => {
  const text = 'ab\ncd\n\nefg<h>\n<i/>x';
  const steps = [0, 1, 3, 4, 7, 8, 11, 12, 14, 18, text.length];
  const p = new Position();
  for (let k = 1; k < steps.length; k++) {
    p.advance(text, steps[k - 1]!, steps[k]!);
    const before = text.slice(0, steps[k]);
    const line = before.split('\n').length;
    const col = steps[k]! - before.lastIndexOf('\n');
    assert.deepEqual([p.line, p.col], [line, col], `at ${steps[k]}`);
  }
  assert.equal(p.scanned, text.length);
});

test('defect 3: parse time grows linearly with a one-line file (4× the elements, well under 16× the time)', () => {
  const time = (text: string): number => {
    let best = Infinity;
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      parseUopsXmlText(text, 'x.xml');
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };
  for (const gen of [flat, nested]) {
    // linear: ≈ 4×; the old quadratic tracking was ≈ 16× (80k elements: tens of seconds). A busy
    // machine can disturb one comparison, not three in a row
    const seen: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const small = time(gen(20_000));
      const large = time(gen(80_000));
      seen.push(`${small.toFixed(1)} ms → ${large.toFixed(1)} ms`);
      if (large < 10 * small + 50) break;
    }
    const last = seen
      .at(-1)!
      .split(' → ')
      .map((x) => parseFloat(x));
    assert.ok(seen.length < 3 || last[1]! < 10 * last[0]! + 50, `${gen.name}: ${seen.join('; ')}`);
  }
});

test('defect 3: an unclosed comment spanning many chunks is refused at the size limit, not rescanned per chunk', async () => {
  const p = join(tempDir('long'), 'long-comment.xml');
  writeFileSync(p, `<root><!-- ${'x'.repeat(MAX_CONSTRUCT + (2 << 20))}`);
  const t0 = performance.now();
  await assert.rejects(
    parseUopsXmlFile(p),
    (e: unknown) => e instanceof UserError && /longer than 16 MiB/.test(e.message),
  );
  assert.ok(performance.now() - t0 < 20_000);
});

test("defect 4: nesting beyond fast-xml-parser's limit is one line, exit 2", () => {
  const p = join(tempDir('deep'), 'deep.xml');
  writeFileSync(
    p,
    `<root><instruction string="X (R64)"><!-- c -->${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</instruction></root>`,
  );
  assertOneLine(
    cli(['data', 'import', p]),
    /deep\.xml:1:7: the <instruction> element here cannot be read: Maximum nested tags exceeded/,
  );
});

test('defect 4: an external entity is refused in one line and never read', () => {
  const dir = tempDir('ent');
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, 'SECRET-MARKER-7f3a\n');
  const inside = join(dir, 'inside.xml');
  writeFileSync(
    inside,
    `<root><instruction string="X (R64)"><!DOCTYPE x [<!ENTITY e SYSTEM "${secret}">]><operand idx="1" type="reg">&e;</operand></instruction></root>`,
  );
  const r = cli(['data', 'import', inside]);
  assertOneLine(
    r,
    /inside\.xml:1:7: the <instruction> element here cannot be read: External entities are not supported/,
  );
  assert.doesNotMatch(r.out + r.err, /SECRET-MARKER/);
  // a DOCTYPE before the root, the entity used in an instruction: still never read
  const outside = join(dir, 'outside.xml');
  writeFileSync(
    outside,
    `<!DOCTYPE root [<!ENTITY e SYSTEM "${secret}">]>\n<root><instruction string="X (R64)"><operand idx="1" type="reg">&e;</operand><architecture name="SKL"><measurement uops="1" ports="1*p0"/></architecture></instruction></root>`,
  );
  const o = cli(['data', 'import', outside]);
  assert.ok(o.code === 0 || o.code === 2, `${o.code} ${o.err}`);
  assert.doesNotMatch(o.out + o.err, /SECRET-MARKER/);
  if (o.code === 2) assertOneLine(o, /outside\.xml:/);
});

test("defect 4 in-process: fast-xml-parser's errors arrive as UserErrors with file:line:column", () => {
  const text = `<root>\n<instruction string="X (R64)"><!DOCTYPE x [<!ENTITY e SYSTEM "/etc/passwd">]><operand idx="1">&e;</operand></instruction></root>`;
  assert.throws(
    () => parseUopsXmlText(text, 'e.xml'),
    (e: unknown) => e instanceof UserError && /^e\.xml:2:1: /.test(e.message),
  );
});

test('names from the file that listings show (string, iform, asm, the date) carry no control characters', () => {
  const text = `<root date="2024\x1b[2J"><instruction string="ADD\x1b]0;pwned\x07 (R64, R64)" asm="A\x1bDD" iform="X\x00"><architecture name="SKL"><measurement uops="1" ports="1*p0"/></architecture></instruction></root>`;
  const r = parseUopsXmlText(text, 'ctl.xml');
  const f = r.archs.get('SKL')![0]!;
  for (const s of [f.string, f.asm, f.iform, r.date ?? ''])
    assert.doesNotMatch(s, /[\x00-\x1f\x7f]/, JSON.stringify(s));
  assert.equal(f.string, 'ADD\\x1b]0;pwned\\x07 (R64, R64)');
});
