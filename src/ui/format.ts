// Small text helpers shared by the panes and the export: every state has a word or a symbol,
// so the screen stays readable without colour (NO_COLOR).
import type { EntryState, RsEntry } from '../sim/types.js';
import { fixed } from '../report/format.js';

export function inst(x: { line: number; iteration: number }): string {
  return `L${x.line}#${x.iteration}`;
}

/** Pads or cuts `s` to exactly `w` columns (cut text ends with '…'). */
export function fit(s: string, w: number): string {
  if (w <= 0) return '';
  if (s.length > w) return w === 1 ? '…' : `${s.slice(0, w - 1)}…`;
  return s.padEnd(w);
}

export function fitLeft(s: string, w: number): string {
  if (w <= 0) return '';
  if (s.length > w) return s.slice(0, w);
  return s.padStart(w);
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

export type StateWord = 'loading' | 'waiting' | 'ready' | 'executing' | 'done';

/** The word for an RS entry's state: waiting on a dependency, ready (waits for a port), … */
export function stateWord(s: EntryState): StateWord {
  switch (s.kind) {
    case 'loading': return 'loading';
    case 'waiting-dep': return 'waiting';
    case 'waiting-port': return 'ready';
    case 'executing': return 'executing';
    case 'done': return 'done';
  }
}

export const STATE_SYMBOL: Record<StateWord, string> = {
  loading: '+', waiting: '…', ready: '○', executing: '▶', done: '✓',
};

export const STATE_COLOR: Record<StateWord, string> = {
  loading: 'blue', waiting: 'yellow', ready: 'cyan', executing: 'green', done: 'gray',
};

/** Why an entry is where it is, in words (thesis §2.3–2.5). */
export function reason(e: RsEntry): string {
  const s = e.state;
  switch (s.kind) {
    case 'loading':
      return `loading ${e.loaded}/${e.uops} µops`;
    case 'waiting-dep':
      return `waits on ${s.on.map((d) => `${inst(d)} (${d.resource})`).join(', ')}`;
    case 'waiting-port': {
      const parts = s.ports.map((p) => {
        const who = p.heldBy ? ` by ${inst(p.heldBy)}` : '';
        return `${p.divider ? 'divider ' : ''}p${p.port} busy${who}`;
      });
      return parts.length ? parts.join(', ') : 'ready, waits for a port';
    }
    case 'executing':
      return `executing, ${s.cyclesLeft} cycle${s.cyclesLeft === 1 ? '' : 's'} left`;
    case 'done':
      return 'done';
  }
}

/** Cuts `s` to at most `w` columns without padding (Ink's output cost grows with every cell written). */
export function clip(s: string, w: number): string {
  if (w <= 0) return '';
  return s.length > w ? (w === 1 ? '…' : `${s.slice(0, w - 1)}…`) : s;
}
