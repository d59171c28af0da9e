// Files are written whole or not at all: a temp file next to the target, then a rename. Shared by
// every stage that writes files (the data cache, the config, graphs and exports).
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  lstatSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makeDirs } from './mkdirs.js';

/**
 * Writes `data` to `path` atomically. A symbolic link is followed (its target is replaced, the
 * link stays); a device, FIFO or pipe (/dev/stdout, /dev/null, /proc/self/fd/N) is written
 * directly, since it cannot be renamed over; a directory is refused (EISDIR). A replaced file
 * keeps its permission bits (and, where allowed, its owner).
 *
 * A file with several hard links is written through, in place: replacing it would cut it off
 * from its other names (which would keep the old content). That write is not atomic, so the old
 * content is kept in memory (up to 64 MiB) and put back if the write fails; larger files with
 * several links are refused (EMLINK) rather than risk a half-written file under every name.
 *
 * An existing file the user could not write itself (read-only, another user's in a shared
 * directory) is refused with EACCES, as the shell's `>` refuses it: a rename would replace it all
 * the same, since that needs only the directory's permission, and change its owner.
 *
 * Errors are Node's own (with their `code`): each caller turns them into its one-line message.
 */
export function writeFileAtomic(path: string, data: string, opts: { mkdir?: boolean } = {}): void {
  let st: Stats | null = null;
  try {
    st = statSync(path); // follows links: what would be written
  } catch (e) {
    // ENOENT: a new file, or a dangling link (then the link's own path is written)
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (st?.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
  if (st && !st.isFile()) {
    writeFileSync(path, data);
    return;
  }
  let target = path;
  if (st && lstatSync(path).isSymbolicLink()) target = realpathSync(path);
  if (st) accessSync(target, constants.W_OK);
  if (st && st.nlink > 1) {
    writeThrough(target, data, st);
    return;
  }
  if (opts.mkdir) makeDirs(dirname(target));
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(tmp, data, st ? { mode: st.mode & 0o7777 } : {});
    if (st) {
      chmodSync(tmp, st.mode & 0o7777); // the mode given to open() is masked by the umask
      try {
        chownSync(tmp, st.uid, st.gid);
      } catch {
        /* not allowed to give it away: keep ours */
      }
    }
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Largest file with several links that is rewritten in place (its old content is kept meanwhile). */
const WRITE_THROUGH_LIMIT = 64 << 20;

function writeThrough(target: string, data: string, st: Stats): void {
  if (st.size > WRITE_THROUGH_LIMIT) {
    throw Object.assign(new Error(`${target} has ${st.nlink} links and is larger than 64 MiB`), { code: 'EMLINK' });
  }
  const old = readFileSync(target);
  try {
    writeFileSync(target, data);
  } catch (e) {
    try {
      writeFileSync(target, old);
    } catch {
      /* the first error says what went wrong */
    }
    throw e;
  }
}
