/**
 * Bad input (a file, a flag, a data file): one clear line for the user — what, where, what to
 * do. Every stage throws this; the CLI prints `message` alone on stderr and exits `exitCode`.
 * Anything else that escapes is a bug in uopscope and is reported as such.
 */
export class UserError extends Error {
  constructor(
    message: string,
    public readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UserError';
  }

  /** The explorer's modules run from dist/'s ES modules beside the start-up bundle, each with its
   *  own copy of this class: a UserError is recognised by a brand every copy shares, so bad input
   *  thrown there is still one line and exit 2, not an internal error. */
  static override [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[USER_ERROR] === true;
  }
}

const USER_ERROR = Symbol.for('uopscope.UserError');
Object.defineProperty(UserError.prototype, USER_ERROR, { value: true });

/** Text shown on a terminal with its control characters (C0, DEL, C1, line and paragraph
 *  separators) as \xNN, whole: a file name in a heading or a listing cannot drive the terminal. */
export function escapeControls(s: string): string {
  return s.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Text from an input, made safe to quote in a one-line message: control characters (C0, DEL,
 * C1, also newlines) become \xNN escapes and anything longer than `max` is cut with '…'.
 */
export function printable(s: string, max = 60): string {
  const t = s.length > max ? `${s.slice(0, max)}…` : s;
  return t.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
