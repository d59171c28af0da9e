// How readable the explorer's colours are on four terminal themes: the contrast ratio of each ANSI
// colour against the theme's background, as WCAG 2.x defines it. test/ui/theme.test.tsx checks
// every colour the explorer's frames carry against MIN_CONTRAST; `npm run docs:screens` writes the
// table of docs/explorer.md ("Colour") from the same figures.

/** The 16 ANSI colours in SGR order (30–37, then the bright 90–97), as chalk and Ink name them. */
export const ANSI_NAMES = [
  'black',
  'red',
  'green',
  'yellow',
  'blue',
  'magenta',
  'cyan',
  'white',
  'blackBright',
  'redBright',
  'greenBright',
  'yellowBright',
  'blueBright',
  'magentaBright',
  'cyanBright',
  'whiteBright',
] as const;
export type AnsiName = (typeof ANSI_NAMES)[number];

export interface TerminalTheme {
  name: string;
  /** background and default foreground (the text without a colour) */
  background: string;
  foreground: string;
  /** the 16 ANSI colours, in ANSI_NAMES' order */
  ansi: readonly string[];
  source: string;
}

// Solarized, https://ethanschoonover.com/solarized/ ("The values", and the 16/8 TERMCOL column
// that maps each value onto the terminal's ANSI slots; the same table is in the README of
// https://github.com/altercation/solarized):
//   black base02 #073642, red #dc322f, green #859900, yellow #b58900, blue #268bd2,
//   magenta #d33682, cyan #2aa198, white base2 #eee8d5; brblack base03 #002b36,
//   brred orange #cb4b16, brgreen base01 #586e75, bryellow base00 #657b83, brblue base0 #839496,
//   brmagenta violet #6c71c4, brcyan base1 #93a1a1, brwhite base3 #fdf6e3.
// Its dark mode: background base03, body text base0; light mode: background base3, body text
// base00 (the page's "Usage & development").
const SOLARIZED_ANSI = [
  '#073642',
  '#dc322f',
  '#859900',
  '#b58900',
  '#268bd2',
  '#d33682',
  '#2aa198',
  '#eee8d5',
  '#002b36',
  '#cb4b16',
  '#586e75',
  '#657b83',
  '#839496',
  '#6c71c4',
  '#93a1a1',
  '#fdf6e3',
];
const SOLARIZED = 'ethanschoonover.com/solarized';

// xterm's default palette: its app-defaults file XTerm-color (xterm's XTerm-col.ad): color0 black,
// color1 red3, color2 green3, color3 yellow3, color4 blue2, color5 magenta3, color6 cyan3,
// color7 gray90, color8 gray50, color9 red, color10 green, color11 yellow, color12 rgb:5c/5c/ff,
// color13 magenta, color14 cyan, color15 white — the X11 colour names' values from X11's rgb.txt.
// xterm draws black on white by default (the light theme); `xterm -rv` and most dark terminals
// draw on black.
const XTERM_ANSI = [
  '#000000',
  '#cd0000',
  '#00cd00',
  '#cdcd00',
  '#0000ee',
  '#cd00cd',
  '#00cdcd',
  '#e5e5e5',
  '#7f7f7f',
  '#ff0000',
  '#00ff00',
  '#ffff00',
  '#5c5cff',
  '#ff00ff',
  '#00ffff',
  '#ffffff',
];
const XTERM = "xterm's XTerm-col.ad, X11 rgb.txt";

export const THEMES: readonly TerminalTheme[] = [
  { name: 'Solarized Dark', background: '#002b36', foreground: '#839496', ansi: SOLARIZED_ANSI, source: SOLARIZED },
  { name: 'Solarized Light', background: '#fdf6e3', foreground: '#657b83', ansi: SOLARIZED_ANSI, source: SOLARIZED },
  { name: 'light (white)', background: '#ffffff', foreground: '#000000', ansi: XTERM_ANSI, source: XTERM },
  { name: 'dark (black)', background: '#000000', foreground: '#ffffff', ansi: XTERM_ANSI, source: XTERM },
];

/**
 * The least contrast a colour must reach on every theme: 3:1, WCAG 2.x's minimum for large text
 * (SC 1.4.3) and for the visual information that identifies states (SC 1.4.11). Not 4.5:1 (SC
 * 1.4.3's for body text): the explorer's colours only repeat what a word or a symbol in the text
 * already says, and Solarized Light's own body text (base00 on base3) reaches 4.13:1 only.
 */
export const MIN_CONTRAST = 3;

/**
 * WCAG 2.x relative luminance of an sRGB colour (#rrggbb): each channel c = v/255 linearized as
 * c ≤ 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4, then L = 0.2126 R + 0.7152 G + 0.0722 B
 * (https://www.w3.org/TR/WCAG22/#dfn-relative-luminance; WCAG 2.0 and 2.1 print 0.03928 as the
 * threshold, which changes no 8-bit value's result).
 */
export function relativeLuminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => {
    const c = Number.parseInt(h, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05), L1 the lighter
 *  (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio): 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** A colour as a theme draws it: an ANSI name, or 'foreground' (no colour set). */
export function themeColour(theme: TerminalTheme, colour: AnsiName | 'foreground'): string {
  if (colour === 'foreground') return theme.foreground;
  return theme.ansi[ANSI_NAMES.indexOf(colour)]!;
}

export function contrastOn(theme: TerminalTheme, colour: AnsiName | 'foreground'): number {
  return contrastRatio(themeColour(theme, colour), theme.background);
}

/** The ANSI colour an SGR foreground code (30–37, 90–97) selects, or undefined for another code. */
export function sgrForeground(code: number): AnsiName | undefined {
  if (code >= 30 && code <= 37) return ANSI_NAMES[code - 30];
  if (code >= 90 && code <= 97) return ANSI_NAMES[code - 90 + 8];
  return undefined;
}

/** The bright twin of a colour (terminals such as xterm may draw bold text in it) and back. */
export function twin(colour: AnsiName): AnsiName {
  const i = ANSI_NAMES.indexOf(colour);
  return ANSI_NAMES[i < 8 ? i + 8 : i - 8]!;
}

/** The Markdown table of docs/explorer.md: every colour's contrast on every theme, `used` marking
 *  the ones the explorer draws. */
export function contrastTable(used: ReadonlySet<string>): string {
  const head = `| colour | ${THEMES.map((t) => t.name).join(' | ')} | the explorer draws it |`;
  const rule = `|---|${THEMES.map(() => '---:').join('|')}|---|`;
  const rows = (['foreground', ...ANSI_NAMES.filter((n) => !/^(black|white)/.test(n))] as const).map((c) => {
    const ratios = THEMES.map((t) => contrastOn(t, c));
    const low = ratios.some((r) => r < MIN_CONTRAST);
    const cells = ratios.map((r) => (r < MIN_CONTRAST ? `**${r.toFixed(2)}**` : r.toFixed(2)));
    const verdict = used.has(c) ? (low ? 'yes (under the minimum!)' : 'yes') : 'no: the terminal’s text instead';
    return `| ${c === 'foreground' ? 'no colour (the terminal’s text)' : c} | ${cells.join(' | ')} | ${verdict} |`;
  });
  return [head, rule, ...rows].join('\n');
}
