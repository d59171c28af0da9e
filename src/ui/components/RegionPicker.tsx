import { useRef, useState } from 'react';
import { useInput, useStdout } from 'ink';
import { ChoiceList } from './ChoiceList.js';
import { splitKeys } from '../keys.js';
import { firstFitting } from '../format.js';
import { colorEnabled } from '../theme.js';
import { ThemeContext } from './ThemeContext.js';

export interface RegionChoice {
  index: number;
  label: string;
}

interface RegionPickerProps {
  file: string;
  regions: RegionChoice[];
  /** the entry highlighted first (the region analysed without a choice); default the first */
  initial?: number;
  onPick(index: number): void;
  /** q or esc: 'quit'; Ctrl-C: 'interrupt' */
  onCancel(how: 'quit' | 'interrupt'): void;
}

/** Longest search text (a name or part of a label). */
const QUERY_MAX = 200;

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

/** The picker's heading in `w` columns: the longest form that fits, never cut. */
export function pickerTitle(
  file: string,
  n: number,
  w: number,
  search: { query: string; matches: number } | null,
): string {
  if (search) {
    const hits = `${search.matches} of ${n} match`;
    return firstFitting(w, [
      `/${search.query}▏ ${hits} (↑/↓, enter picks; ⌫ edits; esc clears)`,
      `/${search.query}▏ ${hits} (enter picks, esc clears)`,
      `/${search.query}▏ ${hits}`,
      `/…${search.query.slice(-Math.max(1, w - 20))}▏ ${search.matches}/${n}`,
    ]);
  }
  const base = file.split('/').pop() ?? file;
  const keys = '(↑/↓, enter; / searches; q quits)';
  return firstFitting(w, [
    `${file} holds ${n} regions: pick one ${keys}`,
    `${base} holds ${n} regions: pick one ${keys}`,
    `${n} regions: pick one ${keys}`,
    `${n} regions: pick one (↑/↓ enter, / q)`,
  ]);
}

/**
 * When a file holds several marked regions or candidate loops (or a function several loops):
 * choose one (↑/↓, enter; q quits), or search (`/`, then type: the list keeps the entries whose
 * label holds the text). The highlighted entry is kept in a ref as well as in state, so that keys
 * arriving in one burst (Down Down Enter) each move it.
 */
export function RegionPicker(p: RegionPickerProps) {
  const { stdout } = useStdout();
  const first = Math.max(0, Math.min(p.regions.length - 1, p.initial ?? 0));
  const [view, setView] = useState({ index: first, query: null as string | null, matches: null as number[] | null });
  const at = useRef({ ...view });
  const done = useRef(false);
  const shown = () => at.current.matches ?? null;
  const count = () => shown()?.length ?? p.regions.length;
  const publish = () => setView({ ...at.current });
  const move = (by: number) => {
    at.current.index = Math.max(0, Math.min(count() - 1, at.current.index + by));
    publish();
  };
  const search = (query: string | null) => {
    const cur = at.current;
    const prev = cur.query;
    const matches =
      query === null || query === ''
        ? null
        : filterRegions(p.regions, query, prev && query.startsWith(prev) && cur.matches ? cur.matches : undefined);
    // the highlighted entry stays highlighted when it still matches
    const was = cur.matches ? cur.matches[cur.index] : cur.index;
    const keep = was === undefined ? -1 : matches ? matches.indexOf(was) : was;
    at.current = { query, matches, index: Math.max(0, keep) };
    publish();
  };
  const entry = (i: number) => (at.current.matches ? at.current.matches[i] : i);
  useInput((input, key) => {
    for (const ev of splitKeys(input, key)) {
      if (done.current) return;
      const k = ev.key;
      const searching = at.current.query !== null;
      if (k.ctrl && ev.input === 'c') {
        done.current = true;
        p.onCancel('interrupt');
        return;
      }
      if (k.escape && searching) search(null);
      else if ((ev.input === 'q' && !searching) || k.escape) {
        done.current = true;
        p.onCancel('quit');
        return;
      } else if (k.upArrow || (!searching && ev.input === 'k')) move(-1);
      else if (k.downArrow || (!searching && ev.input === 'j')) move(1);
      else if (k.pageUp) move(-10);
      else if (k.pageDown) move(10);
      else if (k.return) {
        const e = entry(at.current.index);
        if (e === undefined) continue;
        done.current = true;
        p.onPick(p.regions[e]!.index);
        return;
      } else if (k.backspace || k.delete) {
        if (searching) search(at.current.query!.slice(0, -1));
      } else if (!searching && ev.input === '/') search('');
      else if (searching && ev.input.length > 0 && !k.ctrl && !k.meta && !k.tab)
        search((at.current.query! + ev.input.replace(/[\u0000-\u001F\u007F]/g, '')).slice(0, QUERY_MAX));
    }
  });
  const width = stdout.columns || 80;
  const matches = view.matches;
  const n = matches ? matches.length : p.regions.length;
  const label = (i: number) => p.regions[matches ? matches[i]! : i]!.label;
  return (
    <ThemeContext.Provider value={{ color: colorEnabled() }}>
      <ChoiceList
        title={pickerTitle(
          p.file,
          p.regions.length,
          width,
          view.query === null ? null : { query: view.query, matches: n },
        )}
        count={n}
        label={label}
        keyOf={(i) => p.regions[matches ? matches[i]! : i]!.index}
        index={view.index}
        rows={Math.max(3, (stdout.rows || 24) - 3)}
        width={width}
        {...(n === 0 ? { empty: `no region's name or label holds '${view.query}' (⌫ edits, esc clears)` } : {})}
      />
    </ThemeContext.Provider>
  );
}
