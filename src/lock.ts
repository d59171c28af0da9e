// Mutual exclusion between uopscope processes over a file (the cache's imports, a measured file,
// the config file): Node 20 has no flock, so a lock is a file created exclusively beside what it
// guards, holding its holder's pid, the kernel's start time of that process (from
// /proc/<pid>/stat) and what it is doing. A lock whose holder is gone is taken over at once:
// a pid that no longer exists, or one the kernel has given to another process since (its start
// time differs), so a reused pid never keeps a lock. A live holder is waited for, saying once
// whom the command waits for.
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';

export interface LockOptions {
  /** what the holder does, for the waiting process's message ('import into the cache') */
  what: string;
  /** how long to wait for a live holder before giving up */
  waitMs: number;
  /** called once when the lock is held by a live process, with a description of the holder */
  onWait?: (holder: string) => void;
}

/** The kernel's start time of a process (clock ticks since boot, field 22 of /proc/<pid>/stat),
 *  or null where it cannot be read (not Linux, no /proc). */
function startTime(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces or ')': count after the last
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const mine = (): string => `${process.pid} ${startTime('self') ?? '-'}`;

interface Holder {
  text: string;
  live: boolean;
  describe: string;
}

function holderOf(lock: string): Holder | null {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const [pidText, start, ...what] = text.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return { text, live: false, describe: 'nobody' };
  let exists: boolean;
  try {
    process.kill(pid, 0);
    exists = true;
  } catch (e) {
    exists = (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // a pid now given to another process: its start time is not the holder's
  const now = exists && start && start !== '-' ? startTime(pid) : null;
  const live = exists && (now === null || now === start);
  return { text, live, describe: `pid ${pid}${what.length ? ` (${what.join(' ').slice(0, 80)})` : ''}` };
}

/**
 * Creates the lock with its holder already written: the text goes to a file of this process's own,
 * which is then hard-linked to the lock's name (atomic, and refused when the name exists). A lock
 * created empty and written after would be seen empty by another process, taken for stale and
 * removed while its holder works. Where the file system has no hard links, the lock is created
 * exclusively and written at once. False when the lock exists.
 */
function create(lock: string, text: string): boolean {
  const mineFile = `${lock}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(mineFile, text, { flag: 'wx' });
    linkSync(mineFile, lock);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') throw e;
  } finally {
    rmSync(mineFile, { force: true });
  }
  let fd: number;
  try {
    fd = openSync(lock, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** One try: true when the lock is now ours, else its live holder. Stale locks are taken over. */
function tryTake(lock: string, what: string): true | Holder {
  for (;;) {
    if (create(lock, `${mine()} ${what}\n`)) return true;
    const h = holderOf(lock);
    if (!h) continue; // released meanwhile
    if (h.live) return h;
    takeOver(lock, h.text);
  }
}

/** Removes a stale lock, unless another process took it over first (then its lock is put back). */
function takeOver(lock: string, stale: string): void {
  const aside = `${lock}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(lock, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  let moved = '';
  try {
    moved = readFileSync(aside, 'utf8');
  } catch {
    /* gone: nothing to put back */
  }
  if (moved !== stale && moved !== '') {
    try {
      linkSync(aside, lock); // not the stale lock: a live one taken meanwhile, back in place
    } catch {
      /* another lock is there already */
    }
  }
  rmSync(aside, { force: true });
}

const release = (lock: string): void => {
  try {
    if (readFileSync(lock, 'utf8').startsWith(`${mine()} `)) rmSync(lock, { force: true });
  } catch {
    /* already gone */
  }
};

export class LockTimeout extends Error {
  constructor(
    public readonly holder: string,
    public readonly lock: string,
  ) {
    super(`${lock} is held by ${holder}`);
  }
}

/** One try at `lock` per call: true once it is ours; tells `onWait` the first time it is not,
 *  and throws LockTimeout when the wait is over. The callers wait between tries as they can. */
function taker(lock: string, o: LockOptions): () => boolean {
  const until = Date.now() + o.waitMs;
  let told = false;
  return () => {
    const r = tryTake(lock, o.what);
    if (r === true) return true;
    if (!told) o.onWait?.(r.describe);
    told = true;
    if (Date.now() > until) throw new LockTimeout(r.describe, lock);
    return false;
  };
}

function holding<T>(lock: string, work: () => T): T {
  try {
    return work();
  } finally {
    release(lock);
  }
}

/** Runs `work` holding `lock`, waiting (blocking the thread) for a live holder: for the short
 *  writes of a config or measured file. */
export function withLockSync<T>(lock: string, o: LockOptions, work: () => T): T {
  const take = taker(lock, o);
  while (!take()) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  return holding(lock, work);
}

/** withLockSync without blocking the event loop while it waits. */
export async function withLock<T>(lock: string, o: LockOptions, work: () => T): Promise<T> {
  const take = taker(lock, o);
  while (!take()) await new Promise((res) => setTimeout(res, 100));
  return holding(lock, work);
}
