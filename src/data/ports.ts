// uops.info port strings: `1*p0156+1*p23` → a multiset of port sets (PortGroup[]).
import type { PortGroup } from './types.js';

/** Port characters after `p`: one character per port, 0–9 then A = 10, B = 11 (ports 10 and 11 of
 *  Golden Cove). A port string never names a port with two characters. */
const PORT_CHARS = '0123456789AB';

export function portChar(port: number): string {
  const c = PORT_CHARS[port];
  if (c === undefined) throw new Error(`port ${port} has no one-character name`);
  return c;
}

/**
 * Parses `ports="2*p015+1*p23"` into groups. Tolerates spaces, a missing count (`p23` = `1*p23`),
 * lower-case a/b and an empty or missing string (no port used). Returns null when the text is
 * not a port string at all (the caller reports where).
 */
export function parsePorts(text: string | undefined | null): PortGroup[] | null {
  if (text === undefined || text === null) return [];
  const s = text.replace(/\s+/g, '');
  if (s === '') return [];
  const groups: PortGroup[] = [];
  for (const part of s.split('+')) {
    const m = /^(?:(\d+)\*)?p([0-9AaBb]+)$/.exec(part);
    if (!m) return null;
    const count = m[1] === undefined ? 1 : Number(m[1]);
    const ports = new Set<number>();
    for (const ch of m[2]!) ports.add(PORT_CHARS.indexOf(ch.toUpperCase()));
    const sorted = [...ports].sort((a, b) => a - b);
    const same = groups.find((g) => g.ports.length === sorted.length && g.ports.every((p, i) => p === sorted[i]));
    if (same) same.count += count;
    else groups.push({ count, ports: sorted });
  }
  return groups;
}

/** The inverse of parsePorts: `1*p0156+1*p23`. */
export function formatPorts(groups: PortGroup[]): string {
  return groups.map((g) => `${g.count}*p${g.ports.map(portChar).join('')}`).join('+');
}

/** Total µops that use a port (the sum of the counts). */
export function portUops(groups: PortGroup[]): number {
  return groups.reduce((n, g) => n + g.count, 0);
}
