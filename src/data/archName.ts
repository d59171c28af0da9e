// Architecture names become file names (<cache>/…/SKL.json), so every name that reaches a path is
// checked against one strict pattern first: upper-case letters, digits, '+', '-' and '_', at most
// 16 characters, starting with a letter or digit (uops.info uses e.g. SKL, ADL-P, ZEN+, ZEN4).
// Nothing else — no '/', no '.', no '..' — can become part of a path.
import { join } from 'node:path';
import { UserError, printable } from '../errors.js';

export const ARCH_NAME = /^[A-Z0-9][A-Z0-9+_-]{0,15}$/;

export function isArchName(name: string): boolean {
  return ARCH_NAME.test(name);
}

/** The per-architecture file `<dir>/<arch>.json`; refuses a name outside ARCH_NAME. */
export function archFile(dir: string, arch: string): string {
  if (!isArchName(arch)) {
    throw new UserError(`'${printable(arch, 40)}' is not an architecture name (letters, digits, + - _; at most 16); use one such as SKL`);
  }
  return join(dir, `${arch}.json`);
}

