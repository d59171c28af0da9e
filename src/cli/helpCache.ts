// `uopscope --help` from a cached copy of the text yargs printed last time, so that
// `--help` starts about as fast as `node -e 0`: rendering it needs yargs, its layout helpers and
// every command's declaration. The copy is keyed by everything the text depends on: uopscope's
// version, the files of src/cli (dist/cli) with their sizes and modification times (the command
// declarations, the defaults they quote), yargs's version, the locale variables yargs reads and
// the wrap width. One file per width (≤ 100), replaced whole (writeFileAtomic), written only when
// the cache directory already exists; an unwritable or unreadable cache only means yargs renders
// the help, as before.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../atomicWrite.js';
import { cacheDir } from '../data/paths.js';
import { readSmallFile } from '../readSmall.js';

/** The width yargs wraps the help at (run.ts: `.wrap(Math.min(100, columns || 80))`). */
export const helpWidth = (): number => Math.min(100, process.stdout.columns || 80);

const here = dirname(fileURLToPath(import.meta.url));

/** What the help text depends on, as one line. */
export function helpKey(width: number, env: NodeJS.ProcessEnv = process.env): string {
  const parts: string[] = [`width ${width}`];
  const pkg = JSON.parse(readFileSync(join(here, '..', '..', 'package.json'), 'utf8')) as { version?: string };
  parts.push(`uopscope ${pkg.version ?? '?'}`);
  const req = createRequire(import.meta.url);
  const yargsPkg = JSON.parse(readFileSync(req.resolve('yargs/package.json'), 'utf8')) as { version?: string };
  parts.push(`yargs ${yargsPkg.version ?? '?'}`);
  for (const k of ['LC_ALL', 'LC_MESSAGES', 'LANG', 'LANGUAGE']) parts.push(`${k}=${env[k] ?? ''}`);
  const walk = (dir: string, rel: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p, `${rel}${e.name}/`);
      else if (/\.(js|ts|tsx)$/.test(e.name)) {
        const st = statSync(p);
        parts.push(`${rel}${e.name} ${st.size} ${st.mtimeMs}`);
      }
    }
  };
  walk(here, '');
  return parts.join('\t');
}

const fileFor = (width: number, dir?: string): string => join(cacheDir(dir), 'help', `help-${width}.txt`);

/** The cached help for this width and key, or null. */
export function cachedHelp(width: number, key: string, dir?: string): string | null {
  try {
    // another user's copy (a cache in a shared directory) or a FIFO is not read: yargs renders it
    const r = readSmallFile(fileFor(width, dir), 1 << 20, { private: true });
    if (!r.ok) return null;
    const text = r.text;
    const nl = text.indexOf('\n');
    return nl > 0 && text.slice(0, nl) === key ? text.slice(nl + 1) : null;
  } catch {
    return null;
  }
}

/** Keeps what is written to stdout from now on and, when the process ends with status 0 and
 *  wrote something, stores it as the help for this width and key. */
export function recordHelp(width: number, key: string, dir?: string): void {
  const chunks: string[] = [];
  const out = process.stdout;
  const write = out.write.bind(out);
  out.write = ((chunk: unknown, ...rest: unknown[]) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof out.write;
  process.on('exit', (code) => {
    const text = chunks.join('');
    if (code !== 0 || text.length === 0 || text.length > 1 << 20) return;
    // only into an existing cache directory (made by the data stage), without mkdir's recursive
    // walk (which never returns under /proc on Node 20): an unusable cache means no copy
    try {
      const root = cacheDir(dir);
      if (!existsSync(root)) return;
      try {
        mkdirSync(join(root, 'help'));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return;
      }
      writeFileAtomic(fileFor(width, dir), `${key}\n${text}`);
    } catch {
      /* not cached: rendered next time too */
    }
  });
}
