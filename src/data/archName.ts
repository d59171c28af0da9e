// Architecture names become file names (<cache>/…/SKL.json), so every name that reaches a path is
// checked against one strict pattern first: upper-case letters, digits, '+', '-' and '_', at most
// 16 characters, starting with a letter or digit (uops.info uses e.g. SKL, ADL-P, ZEN+, ZEN4).
// Nothing else — no '/', no '.', no '..' — can become part of a path.
import { join } from 'node:path';
import { UserError, printable } from '../errors.js';
import type { ArchName } from './types.js';

const ARCH_NAME = /^[A-Z0-9][A-Z0-9+_-]{0,15}$/;

export function isArchName(name: string): boolean {
  return ARCH_NAME.test(name);
}

/** The per-architecture file `<dir>/<arch>.json`; refuses a name outside ARCH_NAME. */
export function archFile(dir: string, arch: string): string {
  if (!isArchName(arch)) {
    throw new UserError(
      `'${printable(arch, 40)}' is not an architecture name (letters, digits, + - _; at most 16); use one such as SKL`,
    );
  }
  return join(dir, `${arch}.json`);
}

/**
 * The one place a name the user wrote ('skl', ' ADL-P ') becomes an ArchName: trimmed and
 * upper-cased as uops.info and the machine models spell it; null when it cannot be one (the same
 * pattern as every name that reaches a path). Whether the architecture exists is loadMachine's
 * (machines.ts) to say.
 */
export function parseArchName(value: unknown): ArchName | null {
  const s = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return isArchName(s) ? (s as ArchName) : null;
}
