import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseUopsXmlFile, parseUopsXmlText } from '../../src/data/uopsXml.js';
import { formatPorts, parsePorts } from '../../src/data/ports.js';
import { UserError } from '../../src/errors.js';
import { SMALL, smallText, tempDir } from './helpers.js';

const byString = (arch: string, s: string) => {
  const f = parseUopsXmlText(smallText(), SMALL)
    .archs.get(arch)!
    .find((x) => x.string === s);
  assert.ok(f, `${s} on ${arch}`);
  return f;
};

test('port strings become multisets of port sets', () => {
  assert.deepEqual(parsePorts('1*p0156+1*p23'), [
    { count: 1, ports: [0, 1, 5, 6] },
    { count: 1, ports: [2, 3] },
  ]);
  assert.deepEqual(parsePorts('1*p015+1*p23+1*p4'), [
    { count: 1, ports: [0, 1, 5] },
    { count: 1, ports: [2, 3] },
    { count: 1, ports: [4] },
  ]);
  assert.deepEqual(parsePorts('2*p05'), [{ count: 2, ports: [0, 5] }]);
  assert.deepEqual(parsePorts(undefined), []);
  assert.deepEqual(parsePorts(''), []);
  assert.deepEqual(parsePorts('1*p0156A+1*p23B'), [
    { count: 1, ports: [0, 1, 5, 6, 10] },
    { count: 1, ports: [2, 3, 11] },
  ]);
  assert.equal(parsePorts('1*q01'), null);
  assert.equal(parsePorts('1*p01+'), null);
  assert.equal(formatPorts(parsePorts('1*p0156A+2*p23')!), '1*p0156A+2*p23');
});

test('the hand-made file parses to its exact figures', () => {
  const r = parseUopsXmlText(smallText(), SMALL);
  assert.equal(r.date, '2023-07-31');
  assert.equal(r.forms, 13);
  assert.deepEqual([...r.archs.keys()].sort(), ['SKL', 'SNB', 'ZEN2']);
  assert.equal(r.archs.get('SKL')!.length, 13);

  const add = byString('SKL', 'ADD_01 (R64, R64)');
  assert.equal(add.iform, 'ADD_GPRv_GPRv_01');
  assert.equal(add.asm, 'ADD');
  assert.deepEqual(add.m.ports, [{ count: 1, ports: [0, 1, 5, 6] }]);
  assert.equal(add.m.uops, 1);
  assert.equal(add.m.tpUnrolled, 0.25);
  assert.equal(add.m.tpLoop, 0.25);
  assert.deepEqual(add.m.macroFusible, ['JB (Rel8)', 'JNZ (Rel8)', 'JZ (Rel8)']);
  assert.equal(add.m.latencies.length, 4);
  assert.deepEqual(add.m.latencies[0], { startOp: 1, targetOp: 1, cycles: 1 });
  assert.deepEqual(add.operands[2], {
    idx: 3,
    type: 'flags',
    read: false,
    write: true,
    suppressed: true,
    flags: { AF: 'w', CF: 'w', OF: 'w', PF: 'w', SF: 'w', ZF: 'w' },
  });
  assert.equal(add.operands[0]!.registers!.length, 16);
  assert.equal(byString('SNB', 'ADD_01 (R64, R64)').m.ports[0]!.ports.join(''), '015');
  // AMD: a measurement without ports
  assert.deepEqual(byString('ZEN2', 'ADD_01 (R64, R64)').m.ports, []);

  const load = byString('SKL', 'ADD (R64, M64)');
  assert.deepEqual(load.m.latencies[1], {
    startOp: 2,
    targetOp: 1,
    cyclesAddr: 6,
    cyclesAddrIndex: 6,
    cyclesMem: 1,
    upperBound: true,
  });
  assert.deepEqual(load.m.indexed, {
    uops: 2,
    ports: [
      { count: 1, ports: [0, 1, 5, 6] },
      { count: 1, ports: [2, 3] },
    ],
  });

  const xor = byString('SKL', 'XOR_31 (R32, R32)');
  assert.deepEqual(xor.m.sameReg, { uops: 0, ports: [], tpUnrolled: 0.25 });
  assert.equal(xor.m.latencies[0]!.cyclesSameReg, 0);
  assert.equal(xor.operands[2]!.flags!.AF, 'undef');

  const divsd = byString('SKL', 'DIVSD (XMM, XMM)');
  assert.equal(divsd.m.divCycles, 4);
  assert.deepEqual(divsd.m.latencies[0], { startOp: 1, targetOp: 1, minCycles: 13, maxCycles: 14 });
  assert.deepEqual(divsd.operands[2]!.registers, ['MXCSR']);

  const store = byString('SKL', 'MOV (M64, R64)');
  assert.deepEqual(store.m.ports, [
    { count: 1, ports: [2, 3, 7] },
    { count: 1, ports: [4] },
  ]);
  assert.deepEqual(store.m.indexed!.ports, [
    { count: 1, ports: [2, 3] },
    { count: 1, ports: [4] },
  ]);
  assert.deepEqual(store.m.latencies, []);

  const cmp = byString('SKL', 'CMP_39 (R64, R64)');
  // uops_same_reg without ports_same_reg: the ports stay those of the plain form
  assert.deepEqual(cmp.m.sameReg, { uops: 1, ports: [{ count: 1, ports: [0, 1, 5, 6] }] });
});

test('the fast element reader and fast-xml-parser give the same forms', () => {
  const fast = parseUopsXmlText(smallText(), SMALL);
  const lib = parseUopsXmlText(smallText(), SMALL, { libraryOnly: true });
  assert.deepEqual([...fast.archs], [...lib.archs]);
});

test('elements the fast reader does not handle (comments, entities, single quotes) go through fast-xml-parser', () => {
  const text = smallText()
    .replace('string="IMUL (R64, R64)"', "string='IMUL (R64, R64)'")
    .replace(
      '<operand idx="2" name="REG1" r="1" type="reg" width="64">RAX',
      '<!-- c --><operand idx="2" name="REG1" r="1" type="reg" width="64">RAX',
    )
    .replace('summary="Signed Multiply"', 'summary="Signed &amp; Multiply &#x41;"');
  const a = parseUopsXmlText(text, SMALL);
  const b = parseUopsXmlText(smallText(), SMALL);
  assert.deepEqual([...a.archs], [...b.archs]);
});

test('a streamed file gives the same result as the text', async () => {
  const a = await parseUopsXmlFile(SMALL);
  const b = parseUopsXmlText(smallText(), SMALL);
  assert.deepEqual([...a.archs], [...b.archs]);
  assert.equal(a.date, b.date);
  const only = await parseUopsXmlFile(SMALL, { archs: new Set(['SNB']) });
  assert.deepEqual([...only.archs.keys()], ['SNB']);
});

/** Where a substring starts: 1-based line and column. */
function lineCol(text: string, needle: string, offset = 0): { line: number; col: number } {
  const i = text.indexOf(needle) + offset;
  assert.ok(i >= offset, `fixture contains ${needle}`);
  const before = text.slice(0, i);
  return { line: before.split('\n').length, col: i - before.lastIndexOf('\n') };
}

function failsAt(text: string, re: RegExp): UserError {
  try {
    parseUopsXmlText(text, 'bad.xml');
  } catch (e) {
    assert.ok(e instanceof UserError, `UserError, got ${String(e)}`);
    assert.match(e.message, re);
    assert.ok(!e.message.includes('\n'), 'one line');
    return e;
  }
  assert.fail('no error');
}

test('malformed XML fails with the line and column of the fault', () => {
  const text = smallText();
  // an element left open inside an instruction: reported where the wrong closing tag is
  const open = text.replace(
    '<latency cycles="3" start_op="2" target_op="1"/>',
    '<latency cycles="3" start_op="2" target_op="1">',
  );
  const lat = lineCol(open, '<latency cycles="3" start_op="2" target_op="1">');
  const e1 = failsAt(open, /^bad\.xml:\d+:\d+: .*latency/);
  const m = /^bad\.xml:(\d+):(\d+)/.exec(e1.message)!;
  assert.ok(Number(m[1]) > lat.line && Number(m[1]) <= lat.line + 3, `line ${m[1]} just after ${lat.line}`);
  assert.ok(e1.message.includes(`line ${lat.line}`), 'names the line where the open element starts');

  // a broken attribute on line N, column C
  const badAttr = text.replace(
    '<operand idx="2" name="IMM0" r="1" type="imm" width="32">1</operand>',
    '<operand idx="2" name="IMM0 r="1" type="imm" width="32">1</operand>',
  );
  const where = lineCol(badAttr, 'name="IMM0 r=');
  const e2 = failsAt(badAttr, /^bad\.xml:\d+:\d+: /);
  assert.equal(Number(/^bad\.xml:(\d+):/.exec(e2.message)![1]), where.line);

  // a mismatched tag between instructions
  const skel = text.replace('</extension>\n  <extension name="SSE2">', '</extensio>\n  <extension name="SSE2">');
  const w3 = lineCol(skel, '</extensio>');
  failsAt(skel, new RegExp(`^bad\\.xml:${w3.line}:${w3.col}: .*extensio`));

  // truncated file
  failsAt(text.slice(0, text.indexOf('<instruction asm="MOV"') + 40), /^bad\.xml:\d+:\d+: <instruction> is not closed/);
  failsAt(text.replace('</root>', ''), /^bad\.xml:7:1: <root> is never closed/);

  // a value that is not what the schema says
  const ports = text.replace('ports="1*p1" uops="1"', 'ports="1*q1" uops="1"');
  const w5 = lineCol(ports, '<instruction asm="IMUL"', 0);
  failsAt(ports, new RegExp(`^bad\\.xml:${w5.line}:${w5.col}: ports="1\\*q1" is not a port string.*SKL`));
  failsAt(text.replace('cycles="4" start_op="2"', 'cycles="four" start_op="2"'), /cycles="four" is not a number/);
  failsAt('just text', /^bad\.xml:1:1: unexpected text/);
  failsAt('<?xml version="1.0"?>\n', /no root element/);
});

test('a file that cannot be read is a UserError naming it', async () => {
  const dir = tempDir();
  await assert.rejects(
    parseUopsXmlFile(join(dir, 'missing.xml')),
    (e: unknown) => e instanceof UserError && /missing\.xml: ENOENT/.test(e.message),
  );
  await assert.rejects(
    parseUopsXmlFile(dir),
    (e: unknown) => e instanceof UserError && /is not a file/.test(e.message),
  );
  const big = join(dir, 'split.xml');
  // chunk boundaries fall anywhere: a 3 MB file built from the fixture's instructions
  const t = smallText();
  const body = t.slice(t.indexOf('<instruction '), t.lastIndexOf('</instruction>') + '</instruction>'.length);
  const copies = Math.ceil(3e6 / body.length);
  writeFileSync(
    big,
    `<root date="x">\n<extension name="BASE">\n${Array(copies).fill(body).join('\n')}\n</extension>\n</root>\n`,
  );
  const r = await parseUopsXmlFile(big);
  assert.equal(r.forms, copies * 13);
});

test('CRLF line ends and a byte-order mark are read like the plain file', async () => {
  const crlf = '\uFEFF' + smallText().replace(/\n/g, '\r\n');
  const a = parseUopsXmlText(crlf, SMALL);
  const b = parseUopsXmlText(smallText(), SMALL);
  assert.deepEqual([...a.archs], [...b.archs]);
  const f = join(tempDir(), 'crlf.xml');
  writeFileSync(f, crlf);
  assert.deepEqual([...(await parseUopsXmlFile(f)).archs], [...b.archs]);
  // line numbers still count lines
  try {
    parseUopsXmlText(
      crlf.replace('</extension>\r\n  <extension name="SSE2">', '</extensio>\r\n  <extension name="SSE2">'),
      'bad.xml',
    );
    assert.fail('no error');
  } catch (e) {
    const line = smallText()
      .split('\n')
      .findIndex((l) => l.includes('<extension name="SSE2">'));
    assert.match((e as Error).message, new RegExp(`^bad\\.xml:${line}:3: `));
  }
});

test('a bare & (not well-formed) goes to fast-xml-parser, which tolerates it like an unknown attribute', () => {
  const text = smallText().replace('summary="Signed Multiply"', 'summary="Signed & Multiply"');
  assert.deepEqual([...parseUopsXmlText(text, 'amp.xml').archs], [...parseUopsXmlText(smallText(), SMALL).archs]);
});
