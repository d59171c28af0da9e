// Where uopscope's files live: the package's asset directory (from src/ under tsx and from dist/
// when built) and the per-user cache directory.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Version of the cache layout; bump when ArchForm or the file layout changes. */
export const CACHE_VERSION = 2;

let pkgRoot: string | undefined;

/** The directory holding uopscope's package.json, found by walking up from this module. */
export function packageRoot(): string {
  if (pkgRoot) return pkgRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'assets'))) return (pkgRoot = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error("cannot find uopscope's package directory (package.json next to assets/)");
    dir = up;
  }
}

export function assetsDir(): string {
  return join(packageRoot(), 'assets', 'uarch');
}

/** Root of the cache: --cache-dir / UOPSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/uopscope, else ~/.cache/uopscope. */
export function cacheRoot(override?: string): string {
  if (override) return resolve(override);
  const env = process.env.UOPSCOPE_CACHE_DIR;
  if (env) return resolve(env);
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg?.startsWith('/') ? xdg : join(homedir(), '.cache'), 'uopscope');
}

/** The versioned directory inside the cache root. */
export function cacheDir(override?: string): string {
  return join(cacheRoot(override), `v${CACHE_VERSION}`);
}
