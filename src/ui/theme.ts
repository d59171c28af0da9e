// Colour is decoration only: every state is also written as a word or a symbol. NO_COLOR
// (https://no-color.org) turns colour off. Components read the theme from React's context
// (components/ThemeContext.ts, set once by the Explorer), not from their props.

export function colorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !('NO_COLOR' in env && env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}

/**
 * Colours that vanish on some terminal themes, and what is drawn instead: yellow is hard to read
 * on light backgrounds, and grey (bright black) is the background colour of Solarized Dark, so
 * text in it disappears there. Magenta reads on both; grey text takes the terminal's own
 * foreground colour. White and black each vanish on one side.
 */
const UNREADABLE: Readonly<Record<string, string | undefined>> = {
  yellow: 'magenta',
  yellowBright: 'magenta',
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
  return color in UNREADABLE ? UNREADABLE[color] : color;
}
