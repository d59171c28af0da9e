import { fstatSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../atomicWrite.js';
import { UserError, printable } from '../errors.js';
import { STDIN_ARG } from './stdio.js';

const STDOUT_NAMES = new Set(['-', '/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']);
const STDERR_NAMES = new Set(['/dev/stderr', '/dev/fd/2', '/proc/self/fd/2']);

/** Writes a file the user named (a graph, an export) atomically with src/atomicWrite.ts, or the
 *  standard stream for `-` and its names; a failure is one UserError line naming the file and
 *  what to do. */
export function writeOutputFile(
  path: string,
  text: string,
  what = 'output',
  inputs: readonly (string | undefined)[] = [],
): void {
  // `-` and the names of the standard streams: written to the stream itself (opening
  // /dev/stdout anew fails when it is a socket, and a rename over it must never happen)
  if (STDOUT_NAMES.has(path)) {
    process.stdout.write(text);
    return;
  }
  if (STDERR_NAMES.has(path)) {
    process.stderr.write(text);
    return;
  }
  const input = inputs.find((i) => i !== undefined && sameFile(i, path));
  if (input !== undefined)
    throw new UserError(
      `${printable(path, 120)}: is the input ${printable(input, 120)}; give the ${what} another file name`,
    );
  try {
    writeFileAtomic(path, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    if (code === 'EISDIR') throw new UserError(`${path}: is a directory; give a file name for the ${what}`);
    if (code === 'EACCES' || code === 'EPERM')
      throw new UserError(
        `${printable(path, 120)}: you cannot write this file (its permissions or owner), and uopscope does not replace it; give the ${what} another file name`,
      );
    if (code === 'EMLINK')
      throw new UserError(
        `${path}: has several hard links and is larger than 64 MiB, so it cannot be rewritten safely in place; remove the other links or write elsewhere`,
      );
    throw new UserError(`${path}: cannot write the ${what} (${code}); check that the directory exists and is writable`);
  }
}

/**
 * Refuses, before anything is written, outputs that would overwrite an input or each other
 * (`graph f --cfg X --dg X` wrote one graph, then replaced it with the other): the standard
 * streams' names excepted, where both are written in turn.
 */
export function checkOutputs(
  outputs: readonly { path: string | undefined; what: string }[],
  inputs: readonly (string | undefined)[] = [],
): void {
  const files = outputs.filter(
    (o): o is { path: string; what: string } =>
      o.path !== undefined && !STDOUT_NAMES.has(o.path) && !STDERR_NAMES.has(o.path),
  );
  for (const [k, o] of files.entries()) {
    const input = inputs.find((i) => i !== undefined && sameFile(i, o.path));
    if (input !== undefined)
      throw new UserError(
        `${printable(o.path, 120)}: is the input ${printable(input, 120)}; give the ${o.what} another file name`,
      );
    const other = files.slice(0, k).find((p) => resolve(p.path) === resolve(o.path) || sameFile(p.path, o.path));
    if (other)
      throw new UserError(
        `${printable(o.path, 120)}: named for both the ${other.what} and the ${o.what}; give each its own file`,
      );
  }
}

/** The same file (device and inode, through links), when both exist; `-` as an input is
 *  standard input, which may be a file redirected with `<`. */
function sameFile(a: string, b: string): boolean {
  try {
    const x = a === '-' || a === STDIN_ARG ? fstatSync(0) : statSync(a),
      y = statSync(b);
    if (!x.isFile() && (a === '-' || a === STDIN_ARG)) return false;
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
