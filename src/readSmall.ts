// Files uopscope reads back (its config, machine records, the cache's index and data, measured
// figures) are input like any other: one rule for all of them. A file is read only when it is a
// regular file of bounded size, opened without blocking (a FIFO put in its place does not hang
// the open) and checked on the open descriptor, never reading more than the bound plus one byte,
// so a link to /dev/zero or a growing file cannot fill the memory. Files of the cache are also
// read only when no other user could have written them (a cache in a shared directory).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

type SmallRead =
  | { ok: true; text: string }
  | { ok: false; missing: true }
  | { ok: false; missing?: false; why: string; code?: string };

/** Why another user could have written a file or directory with these stats, or null when only
 *  the user (or root) could: owned by another uid, or writable by others, or by a group other
 *  than the user's own (a private group, as umask 002 systems give every user, is the user). */
export function foreignWriter(st: Stats): string | null {
  const uid = process.geteuid?.() ?? st.uid;
  if (st.uid !== uid && st.uid !== 0) return `owned by another user (uid ${st.uid})`;
  if (st.mode & 0o002) return 'writable by every user';
  if (st.mode & 0o020 && st.gid !== (process.getegid?.() ?? st.gid)) return `writable by group ${st.gid}`;
  return null;
}

const sizeText = (n: number): string => (n >= 1 << 20 ? `${n / (1 << 20)} MiB` : `${n >> 10} KiB`);

/**
 * The text of `path` when it is a regular file of at most `max` bytes (and, with `private`, one no
 * other user could write: see foreignWriter); else why not, as words to put after the file's
 * name ("is not a regular file …"). `missing` when it does not exist.
 */
export function readSmallFile(path: string, max: number, opts: { private?: boolean } = {}): SmallRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, missing: true };
    return { ok: false, why: `cannot be opened (${code ?? (e as Error).message})`, ...(code ? { code } : {}) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, why: 'is not a regular file (a FIFO, device or directory)' };
    if (opts.private) {
      const w = foreignWriter(st);
      if (w) return { ok: false, why: `is ${w}, so uopscope does not trust it` };
    }
    if (st.size > max) return { ok: false, why: `is larger than ${sizeText(max)}` };
    const buf = Buffer.alloc(Math.min(max + 1, st.size + 1));
    let n = 0;
    for (let r: number; n < buf.length && (r = readSync(fd, buf, n, buf.length - n, null)) > 0; ) n += r;
    // the file grew while it was read: take it as too large rather than read on
    if (n > st.size || n > max) return { ok: false, why: `is larger than ${sizeText(max)}` };
    return { ok: true, text: buf.subarray(0, n).toString('utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, why: `cannot be read (${code ?? (e as Error).message})`, ...(code ? { code } : {}) };
  } finally {
    closeSync(fd);
  }
}
