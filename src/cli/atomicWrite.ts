import { lstatSync, realpathSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../errors.js';

/**
 * Writes `text` to `path` via a temporary file and a rename: never a half-written file. A symbolic
 * link is followed (its target is replaced, the link stays); a device or FIFO (/dev/stdout, a
 * pipe) is written directly, since it cannot be renamed over.
 */
export function writeFileAtomic(path: string, text: string, what = 'output'): void {
  let target = path;
  const fail = (e: unknown): never => {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new UserError(`${path}: cannot write the ${what} (${code}); check that the directory exists and is writable`);
  };
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) target = realpathSync(path);
    else if (!st.isFile()) {
      if (st.isDirectory()) throw new UserError(`${path}: is a directory; give a file name for the ${what}`);
      try { writeFileSync(path, text); } catch (e) { fail(e); }
      return;
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    // ENOENT: a new file (a dangling link's target is refused by realpath: write the link's own path)
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') fail(e);
  }
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    fail(e);
  }
}
