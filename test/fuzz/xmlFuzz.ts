// Structure-aware fuzzing of the uops.info XML reader, for `data import` and `--uops-xml`: files in
// the real schema (instructions, operands, architectures, measurements, latencies) whose values
// are drawn from hostile pools (negative, fractional, huge, 2^32, exponent forms, absurd port
// strings, architecture names with '/', '..', control characters), and malformed files (cut,
// one line, deep nesting, DOCTYPE with an external entity, unclosed comments, CDATA, stray
// bytes). Every case must end in a result or a one-line UserError, with the position tracking
// linear in the input; every accepted figure must be inside src/data/limits.ts; an external
// entity's file is never read; and a failed import leaves the previous cache byte-identical.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importUopsXml } from '../../src/data/cache.js';
import { loadArchData, resetArchDataMemo } from '../../src/data/archData.js';
import { isArchName } from '../../src/data/archName.js';
import { MAX_CYCLES, MAX_OPERAND_FIELD, MAX_THROUGHPUT, MAX_UOPS } from '../../src/data/limits.js';
import { parseUopsXmlFile, parseUopsXmlText, type ParsedUops } from '../../src/data/uopsXml.js';
import type { Measurement } from '../../src/data/types.js';
import { UserError } from '../../src/errors.js';
import { caseSeed, chance, pick, rng, type Rng } from './rng.js';

const SECRET = 'FUZZ-SECRET-9d41c';
let hostility = 0.1;
const bad = (next: Rng): boolean => chance(next, hostility);

const NUMBERS = [
  '-1',
  '-5',
  '1.5',
  '1e10',
  '4294967296',
  '2147483648',
  '99999',
  '10000',
  '10001',
  'NaN',
  'Infinity',
  '',
  'abc',
  '0x10',
  '1e-400',
  '9'.repeat(400),
  '-0',
  ' 1',
  '1 ',
];
const PORTS = [
  '100000000000*p0',
  '99999*p0',
  '10001*p0',
  'p',
  '*p0',
  '1*pZ',
  '1*p0+',
  '+',
  '0*p0',
  '1*p0123456789AB',
  '9007199254740993*p0',
  ' 1 * p 0 ',
];
const ARCHS = ['SKL', 'SKL', 'SNB', 'HSW', 'ADL-P', 'ZEN+', 'ZEN4', 'skl'];
const EVIL_ARCHS = [
  '../../../ESCAPED',
  'a/b',
  '..',
  '.',
  '',
  'SKL.json',
  'X'.repeat(40),
  'SKL\u0007',
  'C:\\x',
  '~',
  'SKL/../..',
];

const num = (next: Rng, good: string): string => (bad(next) ? pick(next, NUMBERS) : good);
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function measurement(next: Rng): string {
  const uops = String(1 + (next() % 4));
  const a: string[] = [
    `uops="${num(next, uops)}"`,
    `ports="${esc(bad(next) ? pick(next, PORTS) : `${uops}*p${pick(next, ['0156', '23', '015', '5', '06'])}`)}"`,
  ];
  if (chance(next, 0.7)) a.push(`TP_loop="${num(next, '0.25')}"`, `TP_unrolled="${num(next, '0.5')}"`);
  if (chance(next, 0.2)) a.push(`div_cycles="${num(next, '6')}"`);
  if (chance(next, 0.2))
    a.push(`uops_same_reg="${num(next, '0')}"`, `ports_same_reg="${esc(bad(next) ? pick(next, PORTS) : '')}"`);
  if (chance(next, 0.2))
    a.push(
      `uops_indexed="${num(next, '2')}"`,
      `ports_indexed="${esc(bad(next) ? pick(next, PORTS) : '1*p0156+1*p23')}"`,
    );
  if (chance(next, 0.1)) a.push('macro_fusible="JNZ (Rel8);JZ (Rel8)"');
  const lats = Array.from({ length: next() % 4 }, () => {
    const kind = pick(next, [
      'cycles',
      'cycles_mem',
      'cycles_addr',
      'min_cycles',
      'max_cycles',
      'cycles_same_reg',
      'max_cycles_addr_index',
    ]);
    return `<latency start_op="${num(next, '1')}" target_op="${num(next, String(1 + (next() % 3)))}" ${kind}="${num(next, String(next() % 30))}"${chance(next, 0.1) ? ` ${kind}_is_upper_bound="1"` : ''}/>`;
  });
  return `<measurement ${a.join(' ')}>${lats.join('')}</measurement>`;
}

function instruction(next: Rng, i: number): string {
  const ops = Array.from({ length: 1 + (next() % 3) }, (_, k) => {
    const type = pick(next, ['reg', 'reg', 'mem', 'imm', 'flags']);
    const text = type === 'reg' ? 'RAX,RCX,RDX' : type === 'imm' ? '1' : '';
    const flags = type === 'flags' ? ' flag_CF="w" flag_ZF="w"' : '';
    return `<operand idx="${num(next, String(k + 1))}" type="${type}" r="1"${k === 0 ? ' w="1"' : ''} width="${num(next, '64')}"${flags}>${text}</operand>`;
  });
  const archs = Array.from({ length: 1 + (next() % 3) }, () => {
    const name = bad(next) ? pick(next, EVIL_ARCHS) : pick(next, ARCHS);
    const body = chance(next, 0.9) ? measurement(next) : '<IACA TP="1" ports="1*p0" uops="1"/>';
    return `<architecture name="${esc(name)}">${body}</architecture>`;
  });
  const mn = pick(next, ['ADD', 'IMUL', 'MOV', 'DIVSD', 'XOR']);
  return `<instruction asm="${mn}" category="BINARY" iform="${mn}_${i}" string="${mn}_${i} (R64, R64)"${chance(next, 0.1) ? ' locked="1"' : ''}>\n  ${ops.join('\n  ')}\n  ${archs.join('\n  ')}\n</instruction>`;
}

/** A file in the schema, then (sometimes) one malformation. */
export function genXmlCase(seed: number, secretPath: string): string {
  const next = rng(seed);
  hostility = pick(next, [0, 0.01, 0.05, 0.2]);
  const n = pick(next, [1, 2, 5, 20, 60]);
  const text = `<?xml version="1.0"?>\n<root date="2024-0${1 + (next() % 9)}-01">\n<extension name="BASE">\n${Array.from({ length: n }, (_, i) => instruction(next, i)).join('\n')}\n</extension>\n</root>\n`;
  if (!chance(next, 0.4)) return text;
  const at = () => next() % Math.max(1, text.length);
  switch (next() % 14) {
    case 0:
      return text.slice(0, at());
    case 1:
      return text.replace(/\n\s*/g, ''); // one line (a minified file)
    case 2: {
      const p = at();
      return text.slice(0, p) + text.slice(p + 1 + (next() % 8));
    }
    case 3: {
      const p = at();
      return text.slice(0, p) + String.fromCharCode(next() % 32) + text.slice(p);
    }
    case 4: {
      const d = 1 + (next() % 3000);
      return text.replace('<operand', `<!-- x -->${'<a>'.repeat(d)}${'</a>'.repeat(d)}<operand`);
    }
    case 5:
      return text
        .replace('<operand', `<!DOCTYPE x [<!ENTITY e SYSTEM "${secretPath}">]><operand`)
        .replace('RAX,RCX,RDX', '&e;');
    case 6:
      return `<!DOCTYPE root [<!ENTITY e SYSTEM "${secretPath}">]>\n${text.replace('<?xml version="1.0"?>\n', '').replace('RAX,RCX,RDX', '&e;')}`;
    case 7:
      return text.replace('<extension', '<!-- unclosed <extension');
    case 8:
      return text.replace('RAX,RCX,RDX', '<![CDATA[RAX]]>');
    case 9:
      return `\uFEFF${text.replace(/\n/g, '\r\n')}`;
    case 10:
      return text.replace('</instruction>', '</instructio>');
    case 11:
      return text.replace('<instruction ', '<instruction string="dup" ');
    case 12:
      return text.replace('RAX,RCX,RDX', '&amp;&lt;&#x41;&#65;&bogus;&#xFFFFFFFF;');
    default: {
      const p = at();
      return text.slice(0, p) + '<instruction string="X">' + text.slice(p);
    }
  }
}

/** every figure of an accepted measurement is inside the bounds the engine relies on */
function checkFigures(m: Measurement, where: string): void {
  const whole = (v: number, max: number, what: string) => {
    if (!(Number.isInteger(v) && v >= 0 && v <= max)) throw new Error(`${where}: accepted ${what} = ${v}`);
  };
  const real = (v: number | undefined, max: number, what: string) => {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= max))
      throw new Error(`${where}: accepted ${what} = ${v}`);
  };
  for (const v of [m, m.sameReg, m.indexed]) {
    if (!v) continue;
    whole(v.uops, MAX_UOPS, 'uops');
    const total = v.ports.reduce((n, g) => n + g.count, 0);
    whole(total, MAX_UOPS, 'port µops');
    for (const g of v.ports) for (const p of g.ports) whole(p, 11, 'port');
    real(v.tpUnrolled, MAX_THROUGHPUT, 'TP_unrolled');
  }
  real(m.tpLoop, MAX_THROUGHPUT, 'TP_loop');
  real(m.divCycles, MAX_CYCLES, 'div_cycles');
  for (const l of m.latencies) {
    whole(l.startOp, MAX_OPERAND_FIELD, 'start_op');
    whole(l.targetOp, MAX_OPERAND_FIELD, 'target_op');
    for (const k of [
      'cycles',
      'cyclesSameReg',
      'cyclesAddr',
      'cyclesAddrIndex',
      'cyclesMem',
      'minCycles',
      'maxCycles',
    ] as const)
      real(l[k], MAX_CYCLES, k);
  }
}

function checkParsed(p: ParsedUops, text: string, where: string): void {
  if (p.positionWork !== undefined && p.positionWork > text.length)
    throw new Error(`${where}: position tracking looked at ${p.positionWork} characters of ${text.length}`);
  for (const [arch, forms] of p.archs) {
    if (!isArchName(arch)) throw new Error(`${where}: accepted architecture name ${JSON.stringify(arch)}`);
    for (const f of forms) {
      if (JSON.stringify(f).includes(SECRET)) throw new Error(`${where}: the external entity's file was read`);
      if (/[\x00-\x1f\x7f]/.test(f.string + f.iform + f.asm + (p.date ?? '')))
        throw new Error(`${where}: a control character in a name shown in listings: ${JSON.stringify(f.string)}`);
      checkFigures(f.m, `${where} ${f.string} ${arch}`);
    }
  }
}

function checkUserError(e: unknown, where: string): void {
  if (!(e instanceof UserError)) throw e;
  if (e.exitCode !== 2) throw new Error(`${where}: exit status ${e.exitCode} for bad input`);
  if (e.message.includes('\n') || !e.message) throw new Error(`${where}: not one line: ${JSON.stringify(e.message)}`);
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(e.message))
    throw new Error(`${where}: control characters in ${JSON.stringify(e.message)}`);
  if (e.message.includes(SECRET)) throw new Error(`${where}: the external entity's file was read`);
}

/** where a message says the problem is (file:line:col), or the whole message */
const where_ = (e: Error): string => /^(.*?:\d+:\d+):/.exec(e.message)?.[1] ?? e.message;

/** what a parse gave, to compare two ways of reading the same text */
function summary(p: ParsedUops): string {
  return JSON.stringify({
    date: p.date,
    forms: p.forms,
    seen: [...p.seen].sort(),
    archs: [...p.archs].map(([a, f]) => [a, f.length, createHash('sha1').update(JSON.stringify(f)).digest('hex')]),
  });
}

/** path → sha1 of every file under `dir` */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
      else out.set(`${rel}${e.name}`, createHash('sha1').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir, '');
  return out;
}
const same = (a: Map<string, string>, b: Map<string, string>): boolean =>
  a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

export interface XmlFuzzStats {
  seed: number;
  cases: number;
  accepted: number;
  refused: number;
  imports: number;
  importsRefused: number;
  loads: number;
  maxMsPerKb: number;
}

/**
 * Runs cases seeded from `seed` for `seconds` (or `maxCases`). Each case is parsed in memory;
 * every 4th is also imported into a cache that holds an earlier import (and must be unchanged,
 * byte for byte, when the import fails) and loaded as --uops-xml. Time bound per case:
 * 10 s + 10 ms per KiB (generous, for a loaded machine; the quadratic cases it guards against took minutes).
 */
export async function runXmlFuzz(
  seed: number,
  seconds: number,
  maxCases = Infinity,
  log?: (s: string) => void,
): Promise<XmlFuzzStats> {
  const work = mkdtempSync(join(tmpdir(), 'uopscope-xmlfuzz-'));
  const secret = join(work, 'secret.txt');
  writeFileSync(secret, `${SECRET}\n`);
  const cacheDir = join(work, 'cache');
  const file = join(work, 'case.xml');
  const stats: XmlFuzzStats = {
    seed,
    cases: 0,
    accepted: 0,
    refused: 0,
    imports: 0,
    importsRefused: 0,
    loads: 0,
    maxMsPerKb: 0,
  };
  try {
    // a first, good import: what a failed one must leave alone
    await importUopsXml(join(import.meta.dirname, '..', 'fixtures', 'data', 'small-instructions.xml'), { cacheDir });
    let before = snapshot(cacheDir);
    const end = performance.now() + seconds * 1000;
    let lastLog = performance.now();
    for (let i = 0; i < maxCases && performance.now() < end; i++) {
      const cs = caseSeed(seed, i);
      const text = genXmlCase(cs, secret);
      const where = `xml fuzz seed ${seed} case ${i} (case seed ${cs}, ${text.length} chars)`;
      const t0 = performance.now();
      let inMemory: string;
      try {
        const p = parseUopsXmlText(text, file);
        checkParsed(p, text, where);
        inMemory = summary(p);
        stats.accepted++;
      } catch (e) {
        checkUserError(e, where);
        inMemory = where_(e as Error);
        stats.refused++;
      }
      if (i % 4 === 0) {
        writeFileSync(file, text);
        // streamed in small chunks: elements, comments and tags cut anywhere give the same
        // result, or a message at the same line and column (the quoted excerpt may be shorter)
        const chunkSize = 1 + (cs % 97);
        let streamed: string;
        try {
          streamed = summary(await parseUopsXmlFile(file, { chunkSize }));
        } catch (e) {
          checkUserError(e, `${where} (streamed)`);
          streamed = where_(e as Error);
        }
        if (streamed !== inMemory) {
          throw new Error(
            `${where}: streamed in chunks of ${chunkSize} gives ${streamed.slice(0, 300)} but in memory ${inMemory.slice(0, 300)}`,
          );
        }
        stats.imports++;
        try {
          await importUopsXml(file, { cacheDir });
          before = snapshot(cacheDir);
        } catch (e) {
          checkUserError(e, `${where} (import)`);
          stats.importsRefused++;
          if (!same(before, snapshot(cacheDir))) throw new Error(`${where}: a failed import changed the cache`);
        }
        resetArchDataMemo();
        stats.loads++;
        try {
          const d = await loadArchData('SKL', { uopsXml: file });
          for (const f of d.forms) checkFigures(f.m, `${where} (--uops-xml) ${f.string}`);
        } catch (e) {
          checkUserError(e, `${where} (--uops-xml)`);
        }
      }
      const ms = performance.now() - t0;
      const kb = Math.max(1, text.length / 1024);
      stats.maxMsPerKb = Math.max(stats.maxMsPerKb, ms / kb);
      if (ms > 10_000 + 10 * kb) throw new Error(`${where}: took ${ms.toFixed(0)} ms`);
      stats.cases++;
      if (log && performance.now() - lastLog > 30_000) {
        lastLog = performance.now();
        log(JSON.stringify(stats));
      }
    }
    if (statSync(secret).size === 0) throw new Error('secret file emptied');
    return stats;
  } finally {
    resetArchDataMemo();
    rmSync(work, { recursive: true, force: true });
  }
}
