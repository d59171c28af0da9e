import { writeFileAtomic } from '../atomicWrite.js';
import { UserError } from '../errors.js';

/** Writes a file the user named (a graph, an export) atomically with src/atomicWrite.ts; a failure
 *  is one UserError line naming the file and what to do. */
export function writeOutputFile(path: string, text: string, what = 'output'): void {
  try {
    writeFileAtomic(path, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    if (code === 'EISDIR') throw new UserError(`${path}: is a directory; give a file name for the ${what}`);
    throw new UserError(`${path}: cannot write the ${what} (${code}); check that the directory exists and is writable`);
  }
}
