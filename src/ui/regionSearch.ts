// The region picker's state as plain data and what its keys do to it: the highlighted entry,
// the search text and the entries that hold it. No React, no Ink (hooks/useRegionPick.ts
// holds the state; components/RegionPicker.tsx draws it).
import type { KeyEvent } from './keys.js';

export interface RegionChoice {
  index: number;
  label: string;
}

/** What the picker shows: `index` into the matches while searching, else into the regions. */
export interface PickerView {
  index: number;
  /** the search text (null: not searching) */
  query: string | null;
  /** the entries (positions into the regions) whose label holds the text; null: every entry */
  matches: number[] | null;
}

/** What a key does in the picker. */
type PickerAction =
  | { type: 'cancel'; how: 'quit' | 'interrupt' }
  | { type: 'move'; by: number }
  | { type: 'pick' }
  | { type: 'search'; query: string | null };

/** Longest search text (a name or part of a label). */
const QUERY_MAX = 200;

export function firstView(count: number, initial = 0): PickerView {
  return { index: Math.max(0, Math.min(count - 1, initial)), query: null, matches: null };
}

/**
 * The entries of `regions` (positions into it) whose label holds `query`, in any case. `within`:
 * the matches of a shorter query this one extends, searched instead of every entry. One pass,
 * no copy of the labels: a large library's hundreds of thousands of entries take milliseconds.
 */
export function filterRegions(regions: RegionChoice[], query: string, within?: readonly number[]): number[] {
  const re = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  const out: number[] = [];
  if (within) {
    for (const i of within) if (re.test(regions[i]!.label)) out.push(i);
  } else for (let i = 0; i < regions.length; i++) if (re.test(regions[i]!.label)) out.push(i);
  return out;
}

/** The highlighted entry's position in the regions (undefined: no entry matches). */
export function highlighted(v: PickerView): number | undefined {
  return v.matches ? v.matches[v.index] : v.index;
}

/** `by` entries down (up when negative), within the entries shown. */
export function moved(v: PickerView, by: number, regionCount: number): PickerView {
  const count = v.matches?.length ?? regionCount;
  return { ...v, index: Math.max(0, Math.min(count - 1, v.index + by)) };
}

/** The search text set to `query` (null or empty: every entry); the highlighted entry stays
 *  highlighted when it still matches, else the first match is. */
export function searched(v: PickerView, regions: RegionChoice[], query: string | null): PickerView {
  const prev = v.query;
  const matches =
    query === null || query === ''
      ? null
      : filterRegions(regions, query, prev && query.startsWith(prev) && v.matches ? v.matches : undefined);
  const was = highlighted(v);
  const keep = was === undefined ? -1 : matches ? matches.indexOf(was) : was;
  return { query, matches, index: Math.max(0, keep) };
}

/** What a key does while the search text is `query`: Ctrl-C interrupts; Esc clears a search,
 *  else quits, as q does; while searching, letters (j, k, q) are text; null: nothing. */
export function pickerAction(query: string | null, { input, key: k }: KeyEvent): PickerAction | null {
  const searching = query !== null;
  if (k.ctrl && input === 'c') return { type: 'cancel', how: 'interrupt' };
  if (k.escape && searching) return { type: 'search', query: null };
  if ((input === 'q' && !searching) || k.escape) return { type: 'cancel', how: 'quit' };
  if (k.upArrow || (!searching && input === 'k')) return { type: 'move', by: -1 };
  if (k.downArrow || (!searching && input === 'j')) return { type: 'move', by: 1 };
  if (k.pageUp) return { type: 'move', by: -10 };
  if (k.pageDown) return { type: 'move', by: 10 };
  // the first and the last entry (moved() stops at either end)
  if (k.home) return { type: 'move', by: -Number.MAX_SAFE_INTEGER };
  if (k.end) return { type: 'move', by: Number.MAX_SAFE_INTEGER };
  if (k.return) return { type: 'pick' };
  if (k.backspace || k.delete) return searching ? { type: 'search', query: query.slice(0, -1) } : null;
  if (!searching) return input === '/' ? { type: 'search', query: '' } : null;
  if (input.length > 0 && !k.ctrl && !k.meta && !k.tab)
    return { type: 'search', query: (query + input.replace(/[\u0000-\u001F\u007F]/g, '')).slice(0, QUERY_MAX) };
  return null;
}
