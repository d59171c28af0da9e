// Files are written whole or not at all: a temp file next to the target, then a rename. Shared by
// every stage that writes files (the data cache, the config, graphs and exports).
import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` to `path` atomically. A symbolic link is followed (its target is replaced, the
 * link stays); a device or FIFO (/dev/stdout, a pipe) is written directly, since it cannot be
 * renamed over; a directory is refused (EISDIR). Errors are Node's own (with their `code`): each
 * caller turns them into its one-line message.
 */
export function writeFileAtomic(path: string, data: string, opts: { mkdir?: boolean } = {}): void {
  let target = path;
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) target = realpathSync(path);
    else if (st.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
    else if (!st.isFile()) { writeFileSync(path, data); return; }
  } catch (e) {
    // ENOENT: a new file, or a dangling link (then the link's own path is written)
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (opts.mkdir) mkdirSync(dirname(target), { recursive: true });
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
