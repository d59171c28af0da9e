import { renameSync, writeFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../errors.js';

/** Writes `text` to `path` via a temporary file and a rename: never a half-written file. */
export function writeFileAtomic(path: string, text: string, what = 'output'): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new UserError(`${path}: cannot write the ${what} (${code}); check that the directory exists and is writable`);
  }
}
