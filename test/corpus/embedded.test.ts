// The embedded measurement files (assets/uarch/embedded/*.xml): well-formed, in uops.info's
// schema, every figure traceable to a page named in the file's comment; MISSING.md up to date.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { EMBEDDED_ARCHS, missingText } from '../../examples/corpus/missing.js';

const dir = join(import.meta.dirname, '../../assets/uarch/embedded');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.xml'))
  .sort();
const KNOWN_ARCHS = new Set<string>([...EMBEDDED_ARCHS, 'KBL', 'CFL']);
const arrays = new Set(['extension', 'instruction', 'architecture', 'operand', 'measurement', 'latency']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (n) => arrays.has(n),
  commentPropName: '#comment',
});

interface Lat {
  start_op: string;
  target_op: string;
  [k: string]: string;
}
interface Meas {
  uops: string;
  ports?: string;
  latency?: Lat[];
  [k: string]: unknown;
}
interface Ins {
  string: string;
  iform: string;
  asm: string;
  url?: string;
  source?: string;
  operand?: { idx: string; type: string }[];
  architecture?: { name: string; measurement?: Meas[] }[];
}

test('there is at least one embedded file', () => {
  assert.ok(files.length > 0);
});

for (const f of files) {
  test(`${f}: well-formed uops.info schema with sourced figures`, () => {
    const text = readFileSync(join(dir, f), 'utf8');
    assert.equal(XMLValidator.validate(text), true);
    const comment = /<!--([\s\S]*?)-->/.exec(text)?.[1] ?? '';
    assert.ok(text.indexOf('<!--') < text.indexOf('<root'), 'the source comment comes first');
    const doc = parser.parse(text) as { root: { extension: { instruction?: Ins[] }[] } };
    const seen = new Set<string>();
    for (const ext of doc.root.extension) {
      for (const ins of ext.instruction ?? []) {
        assert.match(ins.string, /^[A-Z0-9_]+( \(.*\))?$/, 'form string');
        assert.ok(ins.iform && ins.asm, `${ins.string}: iform and asm`);
        assert.ok(!seen.has(ins.string), `${ins.string} listed twice`);
        seen.add(ins.string);
        const idx = (ins.operand ?? []).map((o) => Number(o.idx));
        assert.deepEqual(
          idx,
          idx.map((_, i) => i + 1),
          `${ins.string}: operands numbered 1..n`,
        );
        // a uops.info page (url) named in the comment, or a passage of a publication the comment cites (source)
        assert.ok(
          (ins.url && comment.includes(ins.url)) ||
            (!!ins.source && ins.source.split(/,\s*/).every((s) => comment.includes(s))),
          `${ins.string}: its source ${ins.url ?? ins.source} is named in the file comment`,
        );
        for (const a of ins.architecture ?? []) {
          assert.ok(KNOWN_ARCHS.has(a.name), `${ins.string}: unknown architecture ${a.name}`);
          assert.ok(a.name !== 'KBL' && a.name !== 'CFL', `${ins.string}: KBL/CFL inherit SKL, do not duplicate`);
          for (const m of a.measurement ?? []) {
            assert.match(m.uops, /^\d+$/, `${ins.string}/${a.name}: uops`);
            if (m.ports !== undefined)
              assert.match(m.ports, /^\d+\*p[0-9A-Z]+(\+\d+\*p[0-9A-Z]+)*$/, `${ins.string}/${a.name}: ports`);
            else assert.equal(m.uops, '0', `${ins.string}/${a.name}: ports missing although µops are used`);
            for (const l of m.latency ?? []) {
              assert.ok(
                idx.includes(Number(l.start_op)) && idx.includes(Number(l.target_op)),
                `${ins.string}/${a.name}: latency refers to operands`,
              );
              assert.ok(
                Object.keys(l).some((k) => k.startsWith('cycles') || k.endsWith('cycles')),
                `${ins.string}/${a.name}: latency has a figure`,
              );
            }
          }
        }
      }
    }
  });
}

test('MISSING.md is up to date with the builds, the machine models and the embedded files', async () => {
  assert.equal(
    readFileSync(join(import.meta.dirname, '../../examples/corpus/MISSING.md'), 'utf8'),
    await missingText(),
    'run node --import tsx examples/corpus/missing.ts',
  );
});
