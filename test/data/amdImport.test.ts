// uops.info's AMD figures: the file names an AMD core's FP pipes by name (`1*FP23`) and no other
// pipe (AMD has no per-pipe counter of its integer, address and branch pipes). The import reads
// the names against the core's record (its portNames); the analysis keeps the file's figures and FP
// pipes and takes the other pipes from LLVM's model of the core, and says so. The fixture is in
// the real schema; its figures are not uops.info's (it says so).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadRegion } from '../../src/disasm/index.js';
import { loadArchData, resolveInstructions } from '../../src/data/index.js';
import { loadMachine } from '../../src/data/machines.js';
import { formatPortsFor, parseNamedPorts } from '../../src/data/ports.js';
import { parseUopsXmlText } from '../../src/data/uopsXml.js';

const ZEN_XML = join(import.meta.dirname, '..', 'fixtures', 'data', 'zen-instructions.xml');
const cacheDir = mkdtempSync(join(tmpdir(), 'uopscope-amd-'));

test("AMD's pipe notation: a stem written once, the record's names, nothing else", () => {
  const zen4 = loadMachine('ZEN4');
  const parse = (s: string) => parseNamedPorts(s, zen4.ports, zen4.portNames!);
  const fp = (n: string) => zen4.ports[zen4.portNames!.indexOf(n)]!;
  assert.deepEqual(parse('1*FP23'), [{ count: 1, ports: [fp('FP2'), fp('FP3')] }]);
  assert.deepEqual(parse('2*FP0123+1*FP45'), [
    { count: 2, ports: [fp('FP0'), fp('FP1'), fp('FP2'), fp('FP3')] },
    { count: 1, ports: [fp('FP4'), fp('FP5')] },
  ]);
  // the inverse names every set as a reader of uops.info's pages would
  for (const s of ['1*FP23', '2*FP0123+1*FP45', '1*ALU0123', '1*AGU012+2*ST01', '1*BRU01'])
    assert.equal(formatPortsFor(parse(s)!, zen4), s);
  // a pipe the core does not have, or no pipe at all
  for (const bad of ['1*FP6', '1*XMM0', '1*', '0*FP0', '1*FP23+']) assert.equal(parse(bad), null, bad);
});

test('uops.info AMD measurements import: FP pipes by name, ZEN+ (no record) left out', () => {
  const parsed = parseUopsXmlText(
    `<root><extension name="SSE"><instruction asm="ADDPS" string="ADDPS (XMM, XMM)" iform="X"><operand idx="1" type="reg" r="1" w="1">XMM0</operand><architecture name="ZEN+"><measurement uops="1" ports="1*FP23"/></architecture><architecture name="ZEN3"><measurement uops="1" ports="1*FP23"/></architecture></instruction></extension>` +
      // an integer form: no `ports` on any AMD core, so only the core's other forms mark ZEN+ as one
      // without a record; it is left out whole, not kept with its integer forms alone
      `<extension name="BASE"><instruction asm="ADD" string="ADD (R64, R64)" iform="Y"><architecture name="ZEN+"><measurement uops="1"/></architecture><architecture name="ZEN3"><measurement uops="1"/></architecture></instruction></extension></root>`,
  );
  assert.deepEqual([...parsed.archs.keys()], ['ZEN3']);
  assert.equal(parsed.archs.get('ZEN3')!.length, 2);
  assert.ok(parsed.seen.has('ZEN+'));
  const zen3 = loadMachine('ZEN3');
  const fp23 = ['FP2', 'FP3'].map((n) => zen3.ports[zen3.portNames!.indexOf(n)]!);
  assert.deepEqual(parsed.archs.get('ZEN3')![0]!.m.ports, [{ count: 1, ports: fp23 }]);
  // a name the core's record does not have: one line naming the form, the core and its pipes
  assert.throws(
    () =>
      parseUopsXmlText(
        `<root><extension name="SSE"><instruction asm="ADDPS" string="ADDPS (XMM, XMM)" iform="X"><architecture name="ZEN4"><measurement uops="1" ports="1*FP7"/></architecture></instruction></extension></root>`,
        'bad.xml',
      ),
    /ports="1\*FP7" names a pipe the core's record does not have \(its pipes: ALU0, .*\).*ADDPS \(XMM, XMM\).*ZEN4/,
  );
});

test("an imported AMD form keeps its figures and FP pipes and takes LLVM's integer pipes, said so", async () => {
  // the imported file over LLVM's model, without the figures measured on this machine (asked between them)
  const data = await loadArchData('ZEN4', { uopsXml: ZEN_XML, cacheDir, measured: false });
  const region = await loadRegion({ hex: '4801c8' + '0f58c1' + '0f5807' + '480fafc1' }); // add rax, rcx; addps xmm0, xmm1; addps xmm0, [rdi]; imul rax, rcx
  const r = resolveInstructions(region.instructions, data);
  const zen4 = loadMachine('ZEN4');
  const show = (i: number) => formatPortsFor(r[i]!.ports, zen4);
  // add: the file's figures, no pipe named there: LLVM's ALU pipes
  assert.equal(r[0]!.origin, 'uops.info');
  assert.equal(show(0), '1*ALU0123');
  assert.match(
    r[0]!.provenance!.text,
    /the other pipes \(integer, address, branch, store, FP4\/FP5\) from LLVM 19\.\d+\.\d+'s znver4 model/,
  );
  // addps: the file's FP pipes, nothing from LLVM (it adds no other pipe)
  assert.equal(show(1), '1*FP23');
  assert.equal(r[1]!.maxLatency, 3);
  // addps xmm, m128: the file's FP pipe; the load as LLVM's znver4 gives it (on FP4/FP5: its
  // Zn4FPLd01), which uops.info's four FP-pipe counters do not cover
  assert.equal(show(2), '1*FP23+1*FP45');
  // imul is not in the file: LLVM's figures alone
  assert.equal(r[3]!.origin, 'llvm');
  assert.equal(show(3), '1*ALU1');
});
