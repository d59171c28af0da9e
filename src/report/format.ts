// Number formatting and a small fixed-width table layout shared by the text renderers.

/**
 * A figure with `digits` decimals, rounded as C's printf("%.*f") rounds — on the exact binary
 * value, exact ties to even — which is how SUACA printed its figures: 401/200 = 2.005 is
 * 2.00499999… in binary and prints "2.00", as the thesis shows for such runs (§2.1, §2.5, §4.2).
 * Number#toFixed does the same except that it rounds exact ties up; those are handled here.
 */
export function fixed(value: number, digits: number): string {
  if (!Number.isFinite(value)) return String(value);
  const extra = 30;
  const precise = Math.abs(value).toFixed(Math.min(100, digits + extra));
  const tail = precise.slice(precise.length - extra);
  if (/^50*$/.test(tail)) {
    // an exact tie: keep the truncated figure when its last digit is even
    const truncated = precise.slice(0, precise.length - extra).replace(/\.$/, '');
    const last = Number(truncated.replace('.', '').slice(-1));
    const magnitude = last % 2 === 0 ? truncated : Math.abs(value).toFixed(digits);
    return (value < 0 && Number(magnitude) !== 0 ? '-' : '') + magnitude;
  }
  const out = value.toFixed(digits);
  return out.startsWith('-') && Number(out) === 0 ? out.slice(1) : out;
}

/** The thesis prints a blank where a value is exactly zero and "0.0" where it only rounds to zero. */
export function blankIfZero(value: number, digits = 1): string {
  return value === 0 ? '' : fixed(value, digits);
}

type Align = 'left' | 'right';

export interface Column {
  /** header rows, top to bottom (all columns get as many rows as the tallest) */
  header: string[];
  align: Align;
  /** separator printed BEFORE this column (ignored for the first) */
  sep?: string;
}

/** A title printed on its own header row, centred over columns `from`..`to` (inclusive). */
interface Span {
  from: number;
  to: number;
  text: string;
}

/** Lays out rows of cells under multi-row headers; trailing spaces are trimmed. */
export function layoutTable(columns: Column[], rows: string[][], spans: Span[] = []): string[] {
  const headerRows = Math.max(0, ...columns.map((c) => c.header.length));
  // a loop, not Math.max(...rows): a spread of 125,000 rows overflows the call stack
  const widths = columns.map((c, i) => {
    let w = 0;
    for (const h of c.header) w = Math.max(w, h.length);
    for (const r of rows) w = Math.max(w, (r[i] ?? '').length);
    return w;
  });
  const line = (cells: string[], header: boolean): string => {
    let out = '';
    columns.forEach((c, i) => {
      const w = widths[i] ?? 0;
      const text = cells[i] ?? '';
      // headers are centred over right-aligned figures, left-aligned over text
      const cell = c.align === 'left' ? text.padEnd(w) : header ? centre(text, w) : text.padStart(w);
      out += (i === 0 ? '' : (c.sep ?? ' ')) + cell;
    });
    return out.replace(/\s+$/, '');
  };
  const lines: string[] = [];
  for (let h = 0; h < headerRows; h++) {
    // bottom-align the header texts (a one-row header sits on the last header row)
    lines.push(
      line(
        columns.map((c) => c.header[h - (headerRows - c.header.length)] ?? ''),
        true,
      ),
    );
  }
  if (spans.length) {
    // offsets of each column's first character
    const starts: number[] = [];
    let at = 0;
    columns.forEach((c, i) => {
      if (i > 0) at += (c.sep ?? ' ').length;
      starts.push(at);
      at += widths[i] ?? 0;
    });
    // a span goes on the first header row (over columns whose headers are shorter), else on a row of its own
    if (headerRows < 2) lines.unshift('');
    for (const s of spans) {
      const from = starts[s.from] ?? 0;
      const to = (starts[s.to] ?? 0) + (widths[s.to] ?? 0);
      const text = centre(s.text, Math.max(s.text.length, to - from));
      const first = (lines[0] ?? '').padEnd(from + text.length);
      lines[0] = (first.slice(0, from) + text + first.slice(from + text.length)).replace(/\s+$/, '');
    }
  }
  for (const r of rows) lines.push(line(r, false));
  return lines;
}

function centre(text: string, width: number): string {
  const left = Math.ceil((width - text.length) / 2);
  return (' '.repeat(Math.max(0, left)) + text).padEnd(width);
}

/** `text` broken at spaces into lines of at most `width` columns (a word longer than that stays
 *  whole); every line after the first starts with `indent`. The first line starts with `first`. */
export function wrapText(text: string, width = 80, indent = '  ', first = ''): string[] {
  const out: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(' ').filter((w) => w.length > 0)) {
    if (!empty && [...line].length + 1 + [...word].length > width) {
      out.push(line);
      line = indent + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
    empty = false;
  }
  out.push(line);
  return out;
}
