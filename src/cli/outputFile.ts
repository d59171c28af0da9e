import { statSync } from 'node:fs';
import { writeFileAtomic } from '../atomicWrite.js';
import { UserError, printable } from '../errors.js';

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

/** The same file (device and inode, through links), when both exist. */
function sameFile(a: string, b: string): boolean {
  try {
    const x = statSync(a),
      y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
