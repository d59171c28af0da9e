import { writeFileAtomic as writeRaw } from '../atomicWrite.js';
import { UserError } from '../errors.js';

/** Writes a user-named output file atomically (see src/atomicWrite.ts); failures are one line. */
export function writeFileAtomic(path: string, text: string, what = 'output'): void {
  try {
    writeRaw(path, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    if (code === 'EISDIR') throw new UserError(`${path}: is a directory; give a file name for the ${what}`);
    throw new UserError(`${path}: cannot write the ${what} (${code}); check that the directory exists and is writable`);
  }
}
