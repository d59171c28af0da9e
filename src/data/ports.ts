// uops.info port strings: `1*p0156+1*p23` → a multiset of port sets (PortGroup[]).
import type { PortGroup } from './types.js';

/** Port characters after `p`: one character per port, 0–9 then A = 10, B = 11 (ports 10 and 11 of
 *  Golden Cove). A port string never names a port with two characters. */
const PORT_CHARS = '0123456789AB';

function portChar(port: number): string {
  const c = PORT_CHARS[port];
  if (c === undefined) throw new Error(`port ${port} has no one-character name`);
  return c;
}

/**
 * Parses `ports="2*p015+1*p23"` into groups. Tolerates spaces, a missing count (`p23` = `1*p23`),
 * lower-case a/b and an empty or missing string (no port used). Returns null when the text is
 * not a port string at all (the caller reports where).
 */
const memo = new Map<string, PortGroup[] | null>();

export function parsePorts(text: string | undefined | null): PortGroup[] | null {
  if (text === undefined || text === null) return [];
  const hit = memo.get(text);
  if (hit !== undefined) return hit === null ? null : hit.map(copy);
  const r = parsePortsUncached(text);
  if (memo.size < 100000) memo.set(text, r);
  return r === null ? null : r.map(copy);
}

const copy = (g: PortGroup): PortGroup => ({ count: g.count, ports: g.ports });

/** Like parsePorts, but the groups are shared with other callers: read-only. */
export function parsePortsShared(text: string): PortGroup[] | null {
  let r = memo.get(text);
  if (r === undefined) {
    r = parsePortsUncached(text);
    if (memo.size < 100000) memo.set(text, r);
  }
  return r;
}

function parsePortsUncached(text: string): PortGroup[] | null {
  const s =
    text.indexOf(' ') === -1 && text.indexOf('\t') === -1 && text.indexOf('\n') === -1
      ? text
      : text.replace(/\s+/g, '');
  if (s === '') return [];
  const groups: PortGroup[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    let count = 0;
    let digits = 0;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
      count = count * 10 + s.charCodeAt(i) - 48;
      i++;
      digits++;
    }
    if (digits > 0) {
      if (s[i] !== '*') return null;
      i++;
    } else count = 1;
    if (s[i] !== 'p') return null;
    i++;
    let mask = 0;
    let any = false;
    while (i < n && s[i] !== '+') {
      const c = s.charCodeAt(i);
      const port = c >= 48 && c <= 57 ? c - 48 : c === 65 || c === 97 ? 10 : c === 66 || c === 98 ? 11 : -1;
      if (port < 0) return null;
      mask |= 1 << port;
      any = true;
      i++;
    }
    if (!any) return null;
    if (i < n) {
      i++;
      if (i === n) return null;
    }
    const ports: number[] = [];
    for (let p = 0; p < 12; p++) if (mask & (1 << p)) ports.push(p);
    const same = groups.find((g) => g.ports.length === ports.length && g.ports.every((p, k) => p === ports[k]));
    if (same) same.count += count;
    else groups.push({ count, ports });
  }
  return groups;
}

/** The inverse of parsePorts: `1*p0156+1*p23`. */
export function formatPorts(groups: PortGroup[]): string {
  return groups.map((g) => `${g.count}*p${g.ports.map(portChar).join('')}`).join('+');
}
