// A strict, fast reader for the plain shape every element of instructions.xml has: start tags
// with double-quoted attributes, end tags, self-closing tags and text, nothing else. It returns
// the same node shape as fast-xml-parser (attributes under `$`, text under `#text`) or null for
// anything outside that shape (comments, CDATA, unknown entities, mismatched tags, …); the
// caller then hands the element to fast-xml-parser, whose validator reports errors with line
// and column. On the full-size file this path is ~5× faster than validating and parsing every
// element with fast-xml-parser, which matters for the 20 s import target (docs/data.md).
import type { XmlNode } from './instructionElement.js';

const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"<]*")*)\s*(\/?)>/y;
const ATTR = /([A-Za-z_][\w.:-]*)="([^"<]*)"/g;
const ENT: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const BARE_AMP = /&(?!(?:#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);)/;

function decode(s: string): string | null {
  if (s.indexOf('&') === -1) return s;
  if (BARE_AMP.test(s)) return null; // not well-formed: fast-xml-parser's validator says where
  let bad = false;
  const out = s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);?/g, (m, e: string) => {
    if (!m.endsWith(';')) {
      bad = true;
      return m;
    }
    if (e[0] === '#') {
      const cp = e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      // a reference to no character (beyond U+10FFFF, a surrogate, NUL) is not well-formed XML
      if (!Number.isInteger(cp) || cp < 1 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        bad = true;
        return m;
      }
      return String.fromCodePoint(cp);
    }
    const v = ENT[e];
    if (v === undefined) bad = true;
    return v ?? m;
  });
  return bad ? null : out;
}

/** Parses one element (and its children) or returns null when it is not in the plain shape. */
export function fastElement(xml: string, repeated: Set<string>): { name: string; node: XmlNode } | null {
  const stack: { name: string; node: XmlNode }[] = [];
  let root: { name: string; node: XmlNode } | null = null;
  let p = 0;
  const n = xml.length;
  while (p < n) {
    const lt = xml.indexOf('<', p);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd > p) {
      let ws = true;
      for (let i = p; i < textEnd; i++) {
        const c = xml.charCodeAt(i);
        if (c !== 32 && c !== 10 && c !== 13 && c !== 9) {
          ws = false;
          break;
        }
      }
      if (!ws) {
        const raw = xml.slice(p, textEnd);
        const top = stack[stack.length - 1];
        if (!top) return null;
        const t = decode(raw.trim());
        if (t === null || raw.indexOf('>') !== -1) return null;
        top.node['#text'] = (top.node['#text'] ?? '') + t;
      }
      p = textEnd;
      if (p >= n) break;
    }
    TAG.lastIndex = p;
    const m = TAG.exec(xml);
    if (!m) return null;
    p = TAG.lastIndex;
    const [, close, name, attrText, selfClose] = m;
    if (close) {
      if (attrText || selfClose) return null;
      const top = stack.pop();
      if (!top || top.name !== name) return null;
      continue;
    }
    if (root && stack.length === 0) return null; // a second top-level element
    const node: XmlNode = {};
    if (attrText) {
      const attrs: Record<string, string> = {};
      ATTR.lastIndex = 0;
      let a: RegExpExecArray | null;
      while ((a = ATTR.exec(attrText)) !== null) {
        if (attrs[a[1]!] !== undefined) return null; // duplicate attribute: let the validator say so
        const v = decode(a[2]!);
        if (v === null) return null;
        attrs[a[1]!] = v;
      }
      node.$ = attrs;
    }
    const parent = stack[stack.length - 1];
    if (parent) {
      const prev = parent.node[name!];
      if (repeated.has(name!)) {
        if (prev === undefined) parent.node[name!] = [node];
        else (prev as XmlNode[]).push(node);
      } else if (prev === undefined) parent.node[name!] = node;
      else if (Array.isArray(prev))
        prev.push(node); // (copying it each time would cost siblings²)
      else parent.node[name!] = [prev, node];
    } else {
      root = { name: name!, node };
    }
    if (!selfClose) stack.push({ name: name!, node });
  }
  return stack.length === 0 ? root : null;
}
