import { useStdout } from 'ink';
import { ChoiceList } from './ChoiceList.js';
import { useRegionPick } from '../hooks/useRegionPick.js';
import type { RegionChoice } from '../regionSearch.js';
import { firstFitting } from '../format.js';
import { colorEnabled } from '../theme.js';
import { ThemeContext } from './ThemeContext.js';

interface RegionPickerProps {
  file: string;
  regions: RegionChoice[];
  /** the entry highlighted first (the region analysed without a choice); default the first */
  initial?: number;
  onPick(index: number): void;
  /** q or esc: 'quit'; Ctrl-C: 'interrupt' */
  onCancel(how: 'quit' | 'interrupt'): void;
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
 * label holds the text). The state and the keys' actions: hooks/useRegionPick.ts, regionSearch.ts.
 */
export function RegionPicker(p: RegionPickerProps) {
  const { stdout } = useStdout();
  const view = useRegionPick(p);
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
