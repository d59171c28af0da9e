// uops.info port strings: `1*p0156+1*p23` → a multiset of port sets (PortGroup[]).
import type { PortGroup } from './types.js';

/** Port characters after `p`: one character per port, 0–9 then A = 10, B = 11 (ports 10 and 11 of
 *  Golden Cove, as uops.info writes them) and on to T = 29 for the cores whose records number more
 *  ports (the engine's limit is 30). A port string never names a port with two characters; a record
 *  with `portNames` shows its ports by those names instead (formatNamedPorts). */
const PORT_CHARS = '0123456789ABCDEFGHIJKLMNOPQRST';

/** The most ports a record may have (the engine's limit: src/sim/compiled.ts). */
export const MAX_PORTS = PORT_CHARS.length;

function portChar(port: number): string {
  const c = PORT_CHARS[port];
  if (c === undefined) throw new Error(`port ${port} has no one-character name`);
  return c;
}

/** The port a character after `p` names (either case), or -1. */
function portOfChar(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const u = c >= 97 && c <= 122 ? c - 32 : c;
  return u >= 65 && u < 65 + MAX_PORTS - 10 ? u - 55 : -1;
}

/**
 * Parses `ports="2*p015+1*p23"` into groups. Tolerates spaces, a missing count (`p23` = `1*p23`),
 * lower-case letters and an empty or missing string (no port used). Returns null when the text is
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
      const port = portOfChar(s.charCodeAt(i));
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
    for (let p = 0; p < MAX_PORTS; p++) if (mask & (1 << p)) ports.push(p);
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

/** One port's name as the reports show it: the record's `portNames` entry (AMD's pipe names,
 *  ALU0, FP2), else its number. */
export function portLabel(port: number, ports: readonly number[], names: readonly string[] | undefined): string {
  if (!names) return String(port);
  const i = ports.indexOf(port);
  return i >= 0 && names[i] !== undefined ? names[i]! : String(port);
}

/** A name's stem and its one-character tail when names of the stem differ in that character only
 *  (FP2 → FP, 2), for writing a set of pipes as uops.info writes AMD's (FP23 = FP2 or FP3). */
function stemOf(name: string): [string, string] {
  return /^[A-Z]+\d$/.test(name) ? [name.slice(0, -1), name.slice(-1)] : [name, ''];
}

/**
 * Port groups with the record's port names, in uops.info's notation for AMD's pipes: a count, `*`,
 * and the set's names with a shared stem written once (`1*FP23` = one µop on FP2 or FP3,
 * `1*ALU0123`); names of different stems in one set are joined with `/` (`1*ALU0/BRU1`).
 */
function formatNamedPorts(groups: PortGroup[], ports: readonly number[], names: readonly string[]): string {
  return groups
    .map((g) => {
      const parts: string[] = [];
      let stem: string | null = null;
      for (const p of g.ports) {
        const [s, tail] = stemOf(portLabel(p, ports, names));
        if (tail !== '' && s === stem) parts[parts.length - 1] += tail;
        else parts.push(s + tail);
        stem = tail === '' ? null : s;
      }
      return `${g.count}*${parts.join('/')}`;
    })
    .join('+');
}

/** Port groups shown as the record names its ports: formatNamedPorts with `portNames`, else
 *  uops.info's `p` notation (formatPorts). */
export function formatPortsFor(
  groups: PortGroup[],
  machine: { ports: readonly number[]; portNames?: readonly string[] | undefined },
): string {
  return machine.portNames ? formatNamedPorts(groups, machine.ports, machine.portNames) : formatPorts(groups);
}

/**
 * Parses a port string in the named notation of formatNamedPorts (uops.info's AMD strings such as
 * `1*FP23`, `2*FP0123+1*FP45`) against a record's port names. Returns null when a name is not one
 * of the record's.
 */
export function parseNamedPorts(text: string, ports: readonly number[], names: readonly string[]): PortGroup[] | null {
  const s = text.replace(/\s+/g, '');
  if (s === '') return [];
  const byName = new Map(names.map((n, i) => [n.toUpperCase(), ports[i]!]));
  const stems = new Set(names.map((n) => stemOf(n.toUpperCase())[0]));
  const groups: PortGroup[] = [];
  for (const part of s.split('+')) {
    const m = /^(?:(\d+)\*)?([A-Za-z][A-Za-z0-9/]*)$/.exec(part);
    if (!m) return null;
    const count = m[1] === undefined ? 1 : Number(m[1]);
    const set = new Set<number>();
    for (const piece of m[2]!.toUpperCase().split('/')) {
      const whole = byName.get(piece);
      if (whole !== undefined) {
        set.add(whole);
        continue;
      }
      // a stem and several one-character tails: FP23 → FP2, FP3
      const stem = /^([A-Z]+)([0-9A-Z]+)$/.exec(piece);
      let found = false;
      for (let k = piece.length - 1; k > 0 && !found; k--) {
        const st = piece.slice(0, k);
        if (!stems.has(st)) continue;
        const ids = [...piece.slice(k)].map((t) => byName.get(st + t));
        if (ids.every((x) => x !== undefined)) {
          for (const x of ids) set.add(x!);
          found = true;
        }
      }
      if (!found || !stem) return null;
    }
    if (count <= 0 || set.size === 0) return null;
    const sorted = [...set].sort((a, b) => a - b);
    const same = groups.find((g) => g.ports.length === sorted.length && g.ports.every((p, i) => p === sorted[i]));
    if (same) same.count += count;
    else groups.push({ count, ports: sorted });
  }
  return groups;
}
