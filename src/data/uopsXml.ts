// Streaming reader of uops.info's instructions.xml. The file is 100–200 MB, so it is never held
// as one object: it is read in chunks, cut at `</instruction>` boundaries, and each
// `<instruction>` element is read on its own: by the strict fast reader (fastElement.ts) when it
// has the file's plain shape, else validated (XMLValidator, for line and column) and parsed
// (XMLParser) by fast-xml-parser. The text between instructions (`<root>`, `<extension>`,
// comments) is checked for balanced tags by a small scanner. Any error is a UserError naming
// file:line:column.
import { createReadStream, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Fxp from 'fast-xml-parser';
import { UserError, printable } from '../errors.js';
import { fastElement } from './fastElement.js';
import { ElementError, REPEATED, instructionForm, type XmlNode } from './instructionElement.js';
import type { ArchForm, InstructionForm } from './types.js';

interface ParseOptions {
  /** keep only these architectures (upper-case names as in the file) */
  archs?: Set<string>;
  /** called now and then with bytes read so far and the total */
  onProgress?: (done: number, total: number) => void;
  /** called for every instruction element instead of collecting per architecture */
  onForm?: (form: InstructionForm) => void;
  /** skip the fast element reader and use fast-xml-parser for every element (tests compare both) */
  libraryOnly?: boolean;
  /** characters per chunk when streaming a file (default 1 MiB; tests use tiny ones) */
  chunkSize?: number;
}

export interface ParsedUops {
  /** `date` attribute of `<root>`, when present */
  date?: string;
  /** architecture → forms that have a measurement on it, in file order */
  archs: Map<string, ArchForm[]>;
  /** number of `<instruction>` elements */
  forms: number;
  /** every architecture named in the file (also those left out by `archs`) */
  seen: Set<string>;
  /** characters the line/column tracking looked at (the input's length: tests check it) */
  positionWork?: number;
}

/**
 * fast-xml-parser, loaded on first use: most files never need it (the fast element reader takes
 * every element of the plain shape), and loading it costs ≈ 50 ms at every start of uopscope.
 * Its CommonJS build (the same code) is loaded with require() so that this stays synchronous.
 */
let fxp: { parser: Fxp.XMLParser; validator: typeof Fxp.XMLValidator } | null = null;
function xmlParser(): NonNullable<typeof fxp> {
  if (fxp) return fxp;
  const { XMLParser, XMLValidator } = createRequire(import.meta.url)('fast-xml-parser') as typeof Fxp;
  fxp = {
    parser: new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      attributesGroupName: '$',
      parseAttributeValue: false,
      parseTagValue: false,
      trimValues: true,
      isArray: (name) => REPEATED.has(name),
    }),
    validator: XMLValidator,
  };
  return fxp;
}

const OPEN = '<instruction';
/** Longest single element, comment or tag the streaming reader accepts (chars). */
export const MAX_CONSTRUCT = 16 << 20;
const CLOSE = '</instruction>';

/**
 * Where in the file: the reader keeps the line and column of the current offset. It moves
 * forward only and remembers where the next newline is, so each character of a buffer is
 * searched once (`scanned` counts them) — time linear in the input whatever its layout, a whole
 * file on one line included (searching back to the last newline for every element was
 * quadratic there). Call start() for each new buffer.
 */
export class Position {
  line = 1;
  col = 1;
  /** characters searched for newlines so far (tests check that this stays the input's length) */
  scanned = 0;
  private started = false;
  /** offset reached in the current buffer, and the next newline at or after it (or the end) */
  private at = 0;
  private nl = 0;

  start(): void {
    this.started = false;
  }

  private find(text: string, i: number): number {
    const j = text.indexOf('\n', i);
    this.scanned += j === -1 ? text.length - i : j + 1 - i;
    return j === -1 ? text.length : j;
  }

  advance(text: string, from: number, to: number): void {
    if (!this.started || from < this.at || this.nl < from) {
      this.started = true;
      this.nl = this.find(text, from);
    }
    let last = -1;
    while (this.nl < to) {
      this.line++;
      last = this.nl;
      this.nl = this.find(text, this.nl + 1);
    }
    this.at = to;
    if (last === -1) this.col += to - from;
    else this.col = to - last;
  }
}

class Parse {
  private pos = new Position();
  private stack: { name: string; line: number; col: number }[] = [];
  private sawRoot = false;
  readonly result: ParsedUops = { archs: new Map(), forms: 0, seen: new Set() };
  /** cores left out for want of a record with pipe names (instructionForm's noPipes) */
  private readonly noPipes = new Set<string>();

  constructor(
    private readonly file: string,
    private readonly opts: ParseOptions,
  ) {}

  fail(line: number, col: number, what: string): never {
    throw new UserError(
      `${printable(this.file, 200)}:${line}:${col}: ${printable(what, 300)} — fix or re-download the file (uops.info's instructions.xml)`,
    );
  }

  /**
   * How much of the unfinished construct carried over from the last chunk (it starts at 0 of the
   * next `buf`) was already searched for its end. The search resumes there, so a long element
   * spread over many chunks is scanned once, not once per chunk.
   */
  private searched = 0;

  /** Where to look for `term` of the construct at `p`, which cannot end before `min`. */
  private resume(p: number, min: number, term: string): number {
    const from = p === 0 && this.searched > 0 ? Math.max(min, this.searched - term.length + 1) : min;
    this.searched = 0;
    return from;
  }

  private carry(buf: string, p: number): string {
    this.searched = buf.length - p;
    // the real file's elements are a few kB; one that spans many chunks would make each chunk
    // copy it again (time ~ size²/chunk), so a single construct has a size limit
    if (this.searched > MAX_CONSTRUCT) {
      this.fail(
        this.pos.line,
        this.pos.col,
        `an element or comment longer than ${MAX_CONSTRUCT >> 20} MiB (unclosed?)`,
      );
    }
    return buf.slice(p);
  }

  /** Consumes as much of `buf` as forms complete elements; returns the unconsumed rest. */
  feed(buf: string, final: boolean): string {
    this.pos.start();
    let p = 0;
    for (;;) {
      const lt = buf.indexOf('<', p);
      if (lt === -1) {
        this.skeleton(buf, p, buf.length);
        this.searched = 0;
        return '';
      }
      if (lt > p) this.skeleton(buf, p, lt);
      p = lt;
      if (buf.startsWith('<!--', p)) {
        const end = buf.indexOf('-->', this.resume(p, p + 4, '-->'));
        if (end === -1) {
          if (final) this.fail(this.pos.line, this.pos.col, 'unclosed comment');
          return this.carry(buf, p);
        }
        this.pos.advance(buf, p, end + 3);
        p = end + 3;
        continue;
      }
      if (buf.startsWith(OPEN, p) && /[\s>/]/.test(buf[p + OPEN.length] ?? 'x')) {
        const end = buf.indexOf(CLOSE, this.resume(p, p, CLOSE));
        if (end === -1) {
          if (final) this.fail(this.pos.line, this.pos.col, '<instruction> is not closed');
          return this.carry(buf, p);
        }
        this.instruction(buf.slice(p, end + CLOSE.length));
        this.pos.advance(buf, p, end + CLOSE.length);
        p = end + CLOSE.length;
        continue;
      }
      // another tag between instructions
      const gt = buf.indexOf('>', this.resume(p, p, '>'));
      if (gt === -1) {
        if (final) this.fail(this.pos.line, this.pos.col, 'unterminated tag');
        return this.carry(buf, p);
      }
      this.tag(buf.slice(p, gt + 1));
      this.pos.advance(buf, p, gt + 1);
      p = gt + 1;
    }
  }

  private skeleton(buf: string, from: number, to: number): void {
    const text = buf.slice(from, to);
    if (text.trim() !== '') {
      const off = text.search(/\S/);
      this.pos.advance(buf, from, from + off);
      this.fail(this.pos.line, this.pos.col, `unexpected text "${text.trim().slice(0, 20)}" outside an instruction`);
    }
    this.pos.advance(buf, from, to);
  }

  private tag(t: string): void {
    const { line, col } = this.pos;
    if (t.startsWith('<?') || t.startsWith('<!')) return;
    const m = /^<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>$/.exec(t);
    if (!m) this.fail(line, col, `malformed tag ${t.slice(0, 40)}`);
    const [, close, name, attrs, selfClose] = m;
    if (close) {
      const top = this.stack.pop();
      if (!top) this.fail(line, col, `closing tag </${name}> without an opening tag`);
      if (top.name !== name)
        this.fail(line, col, `closing tag </${name}> does not match <${top.name}> opened at line ${top.line}`);
      return;
    }
    if (this.stack.length === 0) {
      if (this.sawRoot) this.fail(line, col, `a second top-level element <${name}>`);
      this.sawRoot = true;
      const d = /\sdate\s*=\s*"([^"]*)"/.exec(attrs ?? '');
      if (d?.[1]) this.result.date = printable(d[1], 40); // shown in listings and reports
    }
    if (!selfClose) this.stack.push({ name: name!, line, col });
  }

  private instruction(xml: string): void {
    const { line, col } = this.pos;
    if (this.stack.length === 0) this.fail(line, col, '<instruction> outside the root element');
    const fast = this.opts.libraryOnly ? null : fastElement(xml, REPEATED);
    const v = fast ? true : this.library(line, col, () => xmlParser().validator.validate(xml));
    if (v !== true) {
      const l = line + v.err.line - 1;
      const c = v.err.line === 1 ? col + v.err.col - 1 : v.err.col;
      const abs = (ln: number, cl: number) => (ln === 1 ? { ln: line, cl: col + cl - 1 } : { ln: line + ln - 1, cl });
      const msg = v.err.msg.replace(/\.$/, '').replace(/line (\d+), col (\d+)/g, (_s, ln: string, cl: string) => {
        const a = abs(Number(ln), Number(cl));
        return `line ${a.ln}, col ${a.cl}`;
      });
      this.fail(l, c, msg);
    }
    let form: InstructionForm;
    try {
      const node = fast
        ? fast.node
        : this.library(
            line,
            col,
            () => (xmlParser().parser.parse(xml) as { instruction?: XmlNode[] }).instruction?.[0],
          );
      if (!node) this.fail(line, col, 'an <instruction> element the XML reader cannot read');
      form = instructionForm(node, this.opts.archs, this.result.seen, this.noPipes);
    } catch (e) {
      if (e instanceof ElementError) this.fail(line, col, e.message);
      throw e;
    }
    this.result.forms++;
    if (this.opts.onForm) {
      this.opts.onForm(form);
      return;
    }
    for (const [arch, m] of Object.entries(form.arch)) {
      let list = this.result.archs.get(arch);
      if (!list) this.result.archs.set(arch, (list = []));
      list.push({
        string: form.string,
        iform: form.iform,
        asm: form.asm,
        operands: form.operands,
        attributes: form.attributes,
        m,
      });
    }
  }

  /**
   * Runs fast-xml-parser on one element. What it throws (its nesting limit, `External entities
   * are not supported`, …) is a property of the input, so it becomes the usual one line with
   * file:line:column; the library never reads an external entity (it refuses them).
   */
  private library<T>(line: number, col: number, f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof UserError) throw e;
      this.fail(
        line,
        col,
        `the <instruction> element here cannot be read: ${printable(e instanceof Error ? e.message : String(e), 120)}`,
      );
    }
  }

  finish(): ParsedUops {
    const top = this.stack.pop();
    if (top) this.fail(top.line, top.col, `<${top.name}> is never closed (the file is truncated?)`);
    if (!this.sawRoot) this.fail(1, 1, 'no root element: not an instructions.xml file');
    // a core whose FP forms could not be read is left out whole: its integer forms (no `ports`)
    // alone would make a core with part of its data
    for (const a of this.noPipes) this.result.archs.delete(a);
    this.result.positionWork = this.pos.scanned;
    return this.result;
  }
}

/** Parses XML text already in memory (small files, tests). */
export function parseUopsXmlText(text: string, file = '<xml>', opts: ParseOptions = {}): ParsedUops {
  const p = new Parse(file, opts);
  p.feed(text.replace(/^\uFEFF/, ''), true);
  return p.finish();
}

/** Streams a file from disk; memory stays proportional to the largest instruction element plus
 *  the collected forms. */
export async function parseUopsXmlFile(file: string, opts: ParseOptions = {}): Promise<ParsedUops> {
  let total: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new UserError(`${file} is not a file — give the path of uops.info's instructions.xml`);
    total = st.size;
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)} — check the path`);
  }
  const p = new Parse(file, opts);
  let carry = '';
  let done = 0;
  let first = true;
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: opts.chunkSize ?? 1 << 20 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      done += Buffer.byteLength(chunk, 'utf8');
      let buf = carry + chunk;
      if (first) {
        buf = buf.replace(/^\uFEFF/, '');
        first = false;
      }
      carry = p.feed(buf, false);
      opts.onProgress?.(Math.min(done, total), total);
    }
  } catch (e) {
    stream.destroy();
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code) throw new UserError(`cannot read ${file}: ${code} — check the path and permissions`);
    throw e;
  }
  p.feed(carry, true);
  return p.finish();
}
