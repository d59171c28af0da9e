/**
 * Bad input (a file, a flag, a data file): one clear line for the user — what, where, what to
 * do. Every stage throws this; the CLI prints `message` alone on stderr and exits `exitCode`.
 * Anything else that escapes is a bug in uopscope and is reported as such.
 */
export class UserError extends Error {
  constructor(message: string, public readonly exitCode = 2) {
    super(message);
    this.name = 'UserError';
  }
}
