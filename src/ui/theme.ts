// Colour is decoration only: every state is also written as a word or a symbol. NO_COLOR
// (https://no-color.org) turns colour off. Components read the theme from React's context
// (components/ThemeContext.ts, set once by the Explorer), not from their props.

export function colorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !('NO_COLOR' in env && env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}

/** The colour to pass to Ink's <Text color>, or undefined when colour is off. */
export function tint(on: boolean, color: string): string | undefined {
  return on ? color : undefined;
}
