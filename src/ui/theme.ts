// Colour is decoration only: every state is also written as a word or a symbol. NO_COLOR
// (https://no-color.org) turns colour off. Components read the theme from React's context
// (components/ThemeContext.ts, set once by the Explorer), not from their props.

export function colorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !('NO_COLOR' in env && env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}

/**
 * The colours the components name, as drawn: only those that keep a contrast of 3:1 (WCAG 2.x)
 * against the background on Solarized Dark and Light and on xterm's palette on white and on black,
 * in their normal and bright forms (a terminal may draw bold text in the bright one) — red and
 * magenta; every other colour is drawn in the terminal's own foreground. The figures and their
 * sources are in docs/explorer.md ("Colour"); test/ui/theme.test.tsx checks the frames. Yellow
 * (1.70:1 on white) and cyan (1.98:1) vanish on light themes, green reaches 2.16:1 on white, blue
 * 2.23:1 on black, and grey (bright black) is Solarized Dark's background itself. Executing, the
 * state that moves, keeps a colour: magenta.
 */
const REPLACED: Readonly<Record<string, string | undefined>> = {
  green: 'magenta',
  greenBright: 'magenta',
  yellow: undefined,
  yellowBright: undefined,
  cyan: undefined,
  cyanBright: undefined,
  blue: undefined,
  blueBright: undefined,
  gray: undefined,
  grey: undefined,
  blackBright: undefined,
  white: undefined,
  whiteBright: undefined,
  black: undefined,
};

/** The colour to pass to Ink's <Text color>, or undefined when colour is off (or when the
 *  terminal's own foreground reads better on every theme). */
export function tint(on: boolean, color: string): string | undefined {
  if (!on) return undefined;
  return color in REPLACED ? REPLACED[color] : color;
}
