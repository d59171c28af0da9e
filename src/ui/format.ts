// Small text helpers shared by the panes and the export: every state has a word or a symbol,
// so the screen stays readable without colour (NO_COLOR).
import type { EntryState, RsEntry, Snapshot, StateName } from '../sim/types.js';
import { fixed } from '../report/format.js';
import { stateName } from '../sim/index.js';
import { portLabel } from '../data/ports.js';

/** How a pane names a port: Intel's numbers (`p5`), or the pipe names of a core whose record
 *  has them (AMD's `ALU1`, `FP2`). */
export type PortName = (port: number) => string;

/** Ports by number, as the thesis and Intel's documents write them. */
export const numberedPort: PortName = (p) => `p${p}`;

/** The naming of a core's ports (its record's `ports` and `portNames`). */
export function portNamer(core: { ports: readonly number[]; portNames?: readonly string[] | undefined }): PortName {
  const names = core.portNames;
  return names ? (p) => portLabel(p, core.ports, names) : numberedPort;
}

export function inst(x: { line: number; iteration: number }): string {
  return `L${x.line}#${x.iteration}`;
}

/** Pads or cuts `s` to exactly `w` columns (cut text ends with '…'). */
export function fit(s: string, w: number): string {
  if (w <= 0) return '';
  if (s.length > w) return w === 1 ? '…' : `${s.slice(0, w - 1)}…`;
  return s.padEnd(w);
}

/** Right-aligns `s` in exactly `w` columns (cut text ends with '…', as `fit`'s). */
export function fitLeft(s: string, w: number): string {
  if (w <= 0) return '';
  if (s.length > w) return w === 1 ? '…' : `${s.slice(0, w - 1)}…`;
  return s.padStart(w);
}

/**
 * An instance's label (`L3#25`, with `+2` when two more µops share its place) in at most `w`
 * columns: whole when it fits, else its iteration gives way to '…' (`L3#…+2`, `L3…+24`), never
 * silently (`L3+2` would read as another label); the count of the others last (`L3+…`).
 */
export function instFit(x: { line: number; iteration: number }, more: number, w: number): string {
  const extra = more > 0 ? `+${more}` : '';
  // the count of the other µops goes last, and never silently: `…` stands for what was cut
  const forms =
    more > 0
      ? [`${inst(x)}${extra}`, `L${x.line}#…${extra}`, `L${x.line}…${extra}`, `L${x.line}+…`]
      : [inst(x), `L${x.line}#…`];
  return fit(firstFitting(w, forms), w).trimEnd();
}

/** A figure as the report rounds it (src/report/format.ts: C's printf rounding), '–' when not finite. */
export function num(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return '–';
  return fixed(x, digits);
}

/** A horizontal bar of `w` cells filled to `frac` (0..1), with '#' and '.' so it survives NO_COLOR. */
export function bar(frac: number, w: number): string {
  if (w <= 0) return '';
  const f = Math.max(0, Math.min(1, Number.isFinite(frac) ? frac : 0));
  const n = Math.round(f * w);
  return '█'.repeat(n) + '░'.repeat(w - n);
}

type StateWord = 'loading' | StateName;

/** The word for an RS entry's state: the one every pane shows (src/sim/snapshot.ts), with an entry
 *  still loading told apart from one waiting on a dependency (the station shows it with `+`). */
export function stateWord(s: EntryState): StateWord {
  return s.kind === 'loading' ? 'loading' : stateName(s);
}

export const STATE_SYMBOL: Record<StateWord, string> = {
  loading: '+',
  waiting: '◌',
  ready: '○',
  executing: '▶',
  done: '✓',
};

export const STATE_COLOR: Record<StateWord, string> = {
  loading: 'blue',
  waiting: 'yellow',
  ready: 'cyan',
  executing: 'green',
  done: 'gray',
};

/** Why an entry is where it is, in words (thesis §2.3–2.5); the Jcc of a macro-fused pair says
 *  it is its pair's µop. */
export function reason(e: RsEntry, name: PortName = numberedPort): string {
  const why = stateReason(e, name);
  return e.fusedWith ? `fused with ${inst(e.fusedWith)}: ${why}` : why;
}

function stateReason(e: RsEntry, name: PortName): string {
  const s = e.state;
  switch (s.kind) {
    case 'loading':
      return `loading ${e.loaded}/${e.uops} µops`;
    case 'waiting-dep':
      return `waits on ${s.on.map((d) => `${inst(d)} (${d.resource})`).join(', ')}`;
    case 'waiting-port': {
      const parts = s.ports.map((p) => {
        const who = p.heldBy ? ` by ${inst(p.heldBy)}` : '';
        return `${p.divider ? 'divider ' : ''}${name(p.port)} busy${who}`;
      });
      return parts.length ? parts.join(', ') : 'ready, waits for a port';
    }
    case 'executing':
      return s.cyclesLeft === 0
        ? 'executing, last cycle'
        : `executing, ${s.cyclesLeft} cycle${s.cyclesLeft === 1 ? '' : 's'} left`;
    case 'done':
      return 'done';
  }
}

/** Cuts `s` to at most `w` columns without padding (Ink's output cost grows with every cell written). */
export function clip(s: string, w: number): string {
  if (w <= 0) return '';
  return s.length > w ? (w === 1 ? '…' : `${s.slice(0, w - 1)}…`) : s;
}

/** Greedy word wrap into rows of `w` columns (a word longer than a row is split). */
export function wrapWords(s: string, w: number): string[] {
  const rows: string[] = [];
  let cur = '';
  for (let word of s.split(' ')) {
    while (word.length > w) {
      if (cur) {
        rows.push(cur);
        cur = '';
      }
      rows.push(word.slice(0, w));
      word = word.slice(w);
    }
    if (!cur) cur = word;
    else if (cur.length + 1 + word.length <= w) cur += ` ${word}`;
    else {
      rows.push(cur);
      cur = word;
    }
  }
  if (cur || rows.length === 0) rows.push(cur);
  return rows;
}

/**
 * A status message in at most `lines` rows of `w` columns (joined by newlines), its end (the
 * reason) kept: when it is too long, the middle of its longest path-like word is cut
 * ("/very/long/…/file.txt"), then the middle of the message. Newlines become spaces.
 */
export function fitMessage(msg: string, w: number, lines = 2): string {
  const s = msg.replace(/\s*\n\s*/g, ' ').trim();
  let rows = wrapWords(s, w);
  if (rows.length <= lines) return rows.join('\n');
  const words = s.split(' ');
  let longest = -1;
  words.forEach((x, i) => {
    if (x.includes('/') && (longest < 0 || x.length > words[longest]!.length)) longest = i;
  });
  for (let over = 1; ; over += 2) {
    let t = s;
    if (longest >= 0) {
      const word = words[longest]!;
      const keep = Math.max(9, word.length - over - 1);
      if (keep < word.length)
        t = [
          ...words.slice(0, longest),
          `${word.slice(0, Math.ceil(keep / 2))}…${word.slice(word.length - Math.floor(keep / 2))}`,
          ...words.slice(longest + 1),
        ].join(' ');
    }
    rows = wrapWords(t, w);
    if (rows.length <= lines) return rows.join('\n');
    if (longest < 0 || over > s.length) break;
  }
  // still too long: cut the middle of the message (at word boundaries where it can), keep its
  // start and its end (the reason)
  for (let room = w * lines - 2; room > 8; room -= 2) {
    const head = Math.floor(room / 3);
    const t = `${s.slice(0, head).replace(/\s+\S*$/, '')} … ${s.slice(s.length - (room - 3 - head)).replace(/^\S*\s+/, '')}`;
    rows = wrapWords(t, w);
    if (rows.length <= lines) return rows.join('\n');
  }
  return s.slice(s.length - w);
}

/** An abbreviation of a large magnitude: 12.3k, 205k, 1.2M (k = thousands, M = millions). */
function abbreviate(x: number, digits: number): string {
  const a = Math.abs(x);
  if (a >= 1e6) return `${(x / 1e6).toFixed(digits)}M`;
  return `${(x / 1e3).toFixed(digits)}k`;
}

/**
 * A count in at most `w` columns, never cut: as it is when it fits, else abbreviated (12.3k,
 * 205k, 1.2M); when even that does not fit, the shortest form (wider than `w`: the caller
 * must make room, a number is never cut).
 */
export function count(n: number, w = Infinity): string {
  const plain = String(n);
  if (plain.length <= w || Math.abs(n) < 1000) return plain;
  const forms = [abbreviate(n, 1), abbreviate(n, 0)];
  return forms.find((f) => f.length <= w) ?? forms[forms.length - 1]!;
}

/** A figure in at most `w` columns, never cut: fewer decimals first, then 1.2k; '–' when none. */
export function numFit(x: number, w: number): string {
  if (!Number.isFinite(x)) return '–';
  const forms = [x.toFixed(2), x.toFixed(1), x.toFixed(0)];
  if (Math.abs(x) >= 1000) forms.push(abbreviate(x, 1), abbreviate(x, 0));
  return forms.find((f) => f.length <= w) ?? forms[forms.length - 1]!;
}

/** The first of `forms` that fits in `w` columns, else the last (the shortest the caller has). */
export function firstFitting(w: number, forms: string[]): string {
  return forms.find((f) => f.length <= w) ?? forms[forms.length - 1]!;
}

/** `prefix` and as many whole items as fit in `w` columns, then "+N" for the rest (never half an item). */
export function fitList(prefix: string, items: string[], w: number, none = 'none'): string {
  if (items.length === 0) return `${prefix}${none}`;
  let out = prefix;
  for (let i = 0; i < items.length; i++) {
    const rest = items.length - i - 1;
    const more = rest > 0 ? ` +${rest}` : '';
    const next = `${out}${i ? ' ' : ''}${items[i]}`;
    if (next.length + more.length > w)
      return i === 0 ? `${prefix}${items.length} instances` : `${out} +${items.length - i}`;
    out = next;
  }
  return out;
}

/** An instance on a port this cycle: its label, with the ready symbol when another of its µops
 *  still has no port (it is ready, not executing). */
export function onPort(x: { line: number; iteration: number; waitsForPort?: true }, label = inst(x)): string {
  return x.waitsForPort ? `${STATE_SYMBOL.ready}${label}` : label;
}

/**
 * The divider's line, longest form first: busy (cycles left after this one, the owner), or, when
 * the program has divisions whose figures give it no cycles, that it is not modelled for them —
 * naming the instance of such a line that executes now, if any — and why; else free.
 */
export function dividerForms(s: Snapshot): string[] {
  const d = s.divider;
  if (d.busy) {
    const left = d.cyclesLeft === 0 ? 'last cycle' : `${d.cyclesLeft} cycle${d.cyclesLeft === 1 ? '' : 's'} left`;
    return [`divider: busy, ${left}${d.owner ? `, held by ${inst(d.owner)}` : ''}`, `divider: busy, ${left}`];
  }
  const none = d.notModelled ?? [];
  if (none.length === 0) return ['divider: free'];
  const now = s.rs.find((e) => e.state.kind === 'executing' && none.some((x) => x.line === e.line));
  const x = none.find((n) => n.line === now?.line) ?? none[0]!;
  const what = now ? `${inst(now)} (executing)` : `L${x.line}`;
  return [
    `divider: not modelled for ${what}: ${x.why}`,
    `divider: not modelled for ${what}: ${x.short}`,
    `divider: not modelled for ${what}`,
    `divider: none for L${x.line}`,
  ];
}
