// The theme as React context: set once by the Explorer (and the region picker), read by every
// component that colours something.
import { createContext, useContext } from 'react';
import { tint } from '../theme.js';

interface Theme {
  color: boolean;
}

export const ThemeContext = createContext<Theme>({ color: true });

/** The theme's tint: a colour for Ink's <Text color>, or undefined when colour is off. */
export function useTint(): (color: string) => string | undefined {
  const { color } = useContext(ThemeContext);
  return (c) => tint(color, c);
}
