// mkdir -p, bounded: one mkdirSync per missing component of the path. Node 20's
// mkdirSync(path, { recursive: true }) never returns when a parent answers ENOENT to mkdir although
// it exists (e.g. UOPSCOPE_CACHE_DIR=/proc/x: seen hanging `report` and `data fetch`).

import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Create `path` and its missing parents; returns the first directory created (as
 *  mkdirSync's recursive form does), undefined when it existed. Throws the filesystem's error
 *  (ENOENT, EACCES, ENOTDIR, …) instead of looping. */
export function makeDirs(path: string): string | undefined {
  const missing: string[] = [];
  let p = resolve(path);
  for (;;) {
    try {
      if (!statSync(p).isDirectory()) throw Object.assign(new Error(`${p} is not a directory`), { code: 'ENOTDIR' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      missing.push(p);
      const up = dirname(p);
      if (up === p) break;
      p = up;
    }
  }
  let first: string | undefined;
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i]!);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    first ??= missing[i];
  }
  return first;
}
