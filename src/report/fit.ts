// Tables and prose fitted to a terminal's width: `disasm`'s listing and `data list` print rows of
// 170 to 320 characters, which a terminal wraps into an unreadable zigzag. When stdout is a
// terminal (and --wide is not given) the widest text columns (bytes, signature, registers, paths)
// give up width first, their cells cut with "…"; the figures (µops, ports, latency, counts) are
// never cut; prose lines wrap at spaces. Piped or redirected output keeps its full lines.

export interface FitColumn {
  /** right-aligned (numbers) */
  right?: boolean;
  /** the column may narrow down to this width, its longer cells cut with "…"; absent: never cut */
  min?: number;
  /** of the narrowing columns, those of the lowest rank narrow first (default 0) */
  rank?: number;
  /** when the columns at their narrowest are still too wide, columns with `drop` are left out,
   *  the lowest first (a note says which) */
  drop?: number;
  /** cells are cut at their start ("…" then the end): paths, whose end says most */
  cutStart?: boolean;
}

/** The width to fit to: the terminal's columns when `stream` is a terminal and `wide` is not
 *  asked, else undefined (full lines). */
export function fitWidth(wide: boolean | undefined, stream: NodeJS.WriteStream = process.stdout): number | undefined {
  if (wide || !stream.isTTY || !stream.columns) return undefined;
  return stream.columns;
}

/** `s` cut to `w` characters, the last one "…" when cut. */
function elide(s: string, w: number): string {
  if (s.length <= w) return s;
  return w <= 0 ? '' : `${s.slice(0, w - 1)}…`;
}

const SEP = 2;

/** Column widths for `rows` (the header among them) within `width`: of the lowest rank first, the
 *  shrinkable column with the most room above its minimum narrows first; returns how far the
 *  table is still over `width` (0: it fits). */
function fitWidths(cols: readonly FitColumn[], rows: readonly string[][], width?: number): [number[], number] {
  const widths = cols.map((_, k) => rows.reduce((w, row) => Math.max(w, (row[k] ?? '').length), 0));
  if (width === undefined) return [widths, 0];
  let over = widths.reduce((a, b) => a + b, 0) + SEP * (cols.length - 1) - width;
  const ranks = [...new Set(cols.filter((c) => c.min !== undefined).map((c) => c.rank ?? 0))].sort((a, b) => a - b);
  for (const rank of ranks) {
    while (over > 0) {
      let best = -1;
      const room = (k: number) => widths[k]! - cols[k]!.min!;
      for (let k = 0; k < cols.length; k++) {
        const c = cols[k]!;
        if (c.min === undefined || (c.rank ?? 0) !== rank || room(k) <= 0) continue;
        if (best < 0 || room(k) > room(best)) best = k;
      }
      if (best < 0) break;
      const step = Math.min(over, Math.max(1, Math.ceil(room(best) / 4)));
      widths[best]! -= step;
      over -= step;
    }
  }
  return [widths, Math.max(0, over)];
}

/** The rows as lines of columns two spaces apart, fitted to `width` (undefined: full width):
 *  text columns narrow (cells cut with "…"), then droppable columns are left out; a row still
 *  wider than `width` is cut with "…". `dropped`: the indices of the columns left out. */
export function fitTable(
  cols: readonly FitColumn[],
  rows: readonly string[][],
  width?: number,
): { lines: string[]; dropped: number[] } {
  let keep = cols.map((_, k) => k);
  let [widths, over] = fitWidths(cols, rows, width);
  const droppable = keep.filter((k) => cols[k]!.drop !== undefined).sort((a, b) => cols[a]!.drop! - cols[b]!.drop!);
  while (over > 0 && droppable.length > 0) {
    const gone = droppable.shift()!;
    keep = keep.filter((k) => k !== gone);
    [widths, over] = fitWidths(
      keep.map((k) => cols[k]!),
      rows.map((r) => keep.map((k) => r[k] ?? '')),
      width,
    );
  }
  const lines = rows.map((row) => {
    const line = keep
      .map((k, j) => {
        const w = widths[j]!;
        const cell = row[k] ?? '';
        const s = cols[k]!.cutStart && cell.length > w ? `…${cell.slice(cell.length - w + 1)}` : elide(cell, w);
        return cols[k]!.right ? s.padStart(w) : s.padEnd(w);
      })
      .join(' '.repeat(SEP))
      .trimEnd();
    return width === undefined ? line : elide(line, width);
  });
  return { lines, dropped: cols.map((_, k) => k).filter((k) => !keep.includes(k)) };
}

/** The line saying which columns were left out to fit (none: no line). */
export function droppedNote(headers: readonly string[], width?: number): string[] {
  if (headers.length === 0) return [];
  return wrapProse(`(left out to fit the terminal: ${headers.join(', ')}; --wide shows every column)`, width);
}

/** A prose line wrapped at spaces to `width` (continuation lines indented by two); a word longer
 *  than the width is cut with "…". Undefined width: the line as it is. */
export function wrapProse(line: string, width?: number): string[] {
  if (width === undefined || line.length <= width) return [line];
  const out: string[] = [];
  let cur = '';
  for (const word of line.split(' ')) {
    const next = cur === '' ? word : `${cur} ${word}`;
    if (next.length <= width || cur === '') cur = next;
    else {
      out.push(cur);
      cur = `  ${word}`;
    }
  }
  out.push(cur);
  return out.map((l) => elide(l, width));
}

/** Every line of `text` (prose) wrapped to `width`. */
export function wrapText(text: string, width?: number): string {
  if (width === undefined) return text;
  const end = text.endsWith('\n') ? '\n' : '';
  const body = end ? text.slice(0, -1) : text;
  return (
    body
      .split('\n')
      .flatMap((l) => wrapProse(l, width))
      .join('\n') + end
  );
}
