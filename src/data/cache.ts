// The per-user cache of imported uops.info data: one JSON file per architecture, written into a
// fresh directory, then published by atomically replacing index.json (so a reader sees either
// the old import or the new one, never a mix, and a failed import leaves the old one in place).
//
//   <cache root>/v<N>/index.json            { version, source, date, importedAt, dir, archs }
//   <cache root>/v<N>/import-<stamp>/SKL.json  { version, arch, forms: ArchForm[] }
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError, printable } from '../errors.js';
import { readSmallFile } from '../readSmall.js';
import { LockTimeout, type LockOptions, withLock, withLockSync } from '../lock.js';
import { writeFileAtomic } from '../atomicWrite.js';
import { archFile, isArchName } from './archName.js';
import { ArchEncoder, decodeArch, type EncodedArch } from './cacheFormat.js';
import { formKey } from './formKey.js';
import { CACHE_VERSION, cacheDir } from './paths.js';
import { parseUopsXmlFile } from './uopsXml.js';
import type { ArchForm } from './types.js';
import { makeDirs } from '../mkdirs.js';

export interface CacheIndex {
  version: number;
  /** absolute path of the imported file (the URL for `data fetch`) */
  source: string;
  /** `date` of the file's root element */
  date?: string;
  importedAt: string;
  /** directory (inside the versioned cache dir) holding the per-arch files */
  dir: string;
  /** architecture → number of forms */
  archs: Record<string, number>;
  /** `<instruction>` elements in the file */
  forms: number;
}

/** Largest cache index read (it names each architecture once: a few KiB). */
const MAX_INDEX_BYTES = 1 << 20;
/** Largest per-architecture file read (uops.info's whole file is about 200 MiB of XML, and one
 *  architecture's compact JSON a small part of it). */
const MAX_ARCH_FILE_BYTES = 256 << 20;

/**
 * The text of a file of the cache, read under the rule of every file uopscope reads back
 * (src/readSmall.ts): a regular file of bounded size that no other user could have written (a
 * cache in a shared directory). Null when it does not exist; a UserError naming it otherwise.
 */
export function readCacheFile(path: string, max: number, what = 'the cached data'): string | null {
  const r = readSmallFile(path, max, { private: true });
  if (r.ok) return r.text;
  if (r.missing) return null;
  throw new UserError(
    `${what} ${printable(path, 160)} ${r.why} — delete it (or run 'uopscope data remove imported'), or set UOPSCOPE_CACHE_DIR to a directory of your own`,
  );
}

export function readIndex(dirOverride?: string): CacheIndex | null {
  const path = join(cacheDir(dirOverride), 'index.json');
  const text = readCacheFile(path, MAX_INDEX_BYTES, 'the cache index');
  if (text === null) return null;
  try {
    const idx = JSON.parse(text) as CacheIndex;
    if (idx.version !== CACHE_VERSION) return null;
    // `dir` and the architecture names become paths: only what importUopsXml writes is accepted
    if (
      typeof idx.dir !== 'string' ||
      !/^import-[\w-]+$/.test(idx.dir) ||
      typeof idx.archs !== 'object' ||
      idx.archs === null ||
      !Object.keys(idx.archs).every(isArchName)
    )
      throw new Error('bad index');
    return idx;
  } catch {
    throw new UserError(`the cache index ${path} is damaged — run 'uopscope data import FILE' again or delete it`);
  }
}

/** Reads one architecture's forms from a directory of per-arch files, or null when absent. */
export function readArchFile(dir: string, arch: string): ArchForm[] | null {
  const path = archFile(dir, arch);
  const text = readCacheFile(path, MAX_ARCH_FILE_BYTES);
  if (text === null) return null;
  try {
    const f = JSON.parse(text) as EncodedArch;
    return f.version === CACHE_VERSION && f.arch === arch ? decodeArch(f) : null;
  } catch {
    throw new UserError(`the cached data ${path} is damaged — run 'uopscope data import FILE' again or delete it`);
  }
}

/** Writes per-arch files into a new directory `final` (built as a temp dir, then renamed). */
export function writeArchDir(final: string, archs: Map<string, ArchForm[]> | Map<string, ArchEncoder>): void {
  const tmp = `${final}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  makeDirs(tmp);
  try {
    for (const [arch, forms] of archs) {
      let enc: ArchEncoder;
      if (forms instanceof ArchEncoder) enc = forms;
      else {
        enc = new ArchEncoder(arch);
        for (const f of forms) enc.add(f);
      }
      writeFileSync(archFile(tmp, arch), enc.toJSON(CACHE_VERSION));
    }
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

interface ImportOptions {
  cacheDir?: string;
  onProgress?: (done: number, total: number) => void;
  /** what the index names as the source instead of the file's path (`data fetch`: the URL) */
  source?: string;
}

/** `uopscope data import FILE`: parses the whole file and publishes it as the imported cache. */
export async function importUopsXml(file: string, opts: ImportOptions = {}): Promise<CacheIndex> {
  const source = resolve(file);
  // each form is encoded as it is read (the first of equal forms wins, as everywhere)
  const archs = new Map<string, ArchEncoder>();
  const parsed = await parseUopsXmlFile(source, {
    onProgress: opts.onProgress,
    onForm: (form) => {
      const key = formKey(form);
      for (const [a, m] of Object.entries(form.arch)) {
        let enc = archs.get(a);
        if (!enc) archs.set(a, (enc = new ArchEncoder(a)));
        enc.add(
          {
            string: form.string,
            iform: form.iform,
            asm: form.asm,
            operands: form.operands,
            attributes: form.attributes,
            m,
          },
          key,
        );
      }
    },
  });
  if (parsed.forms === 0)
    throw new UserError(`${file} holds no <instruction> elements — is it uops.info's instructions.xml?`);
  const base = cacheDir(opts.cacheDir);
  return withImportLock(base, () => publish(base, archs, parsed, source, opts));
}

/** Writes the import's directory, points the index at it and removes the others: under the
 *  import lock, so that a concurrent import cannot remove a directory this one is writing or has
 *  just published. */
function publish(
  base: string,
  archs: Map<string, ArchEncoder>,
  parsed: { forms: number; date?: string },
  source: string,
  opts: ImportOptions,
): CacheIndex {
  const stamp = `import-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  try {
    writeArchDir(join(base, stamp), archs);
  } catch (e) {
    throw new UserError(
      `cannot write the cache in ${base}: ${(e as NodeJS.ErrnoException).code ?? String(e)} — set UOPSCOPE_CACHE_DIR to a writable directory`,
    );
  }
  const index: CacheIndex = {
    version: CACHE_VERSION,
    source: opts.source ?? source,
    importedAt: new Date().toISOString(),
    dir: stamp,
    archs: Object.fromEntries([...archs].map(([a, e]) => [a, e.size])),
    forms: parsed.forms,
  };
  if (parsed.date) index.date = parsed.date;
  try {
    writeFileAtomic(join(base, 'index.json'), JSON.stringify(index, null, 1), { mkdir: true });
  } catch (e) {
    rmSync(join(base, stamp), { recursive: true, force: true }); // the old import stays as it was
    throw new UserError(
      `cannot write the cache index in ${base}: ${(e as NodeJS.ErrnoException).code ?? String(e)} — set UOPSCOPE_CACHE_DIR to a writable directory`,
    );
  }
  // the previous import and leftovers of interrupted ones are no longer referenced
  for (const name of readdirSync(base)) {
    if (name.startsWith('import-') && name !== stamp) {
      rmSync(join(base, name), { recursive: true, force: true });
    }
  }
  return index;
}

/** How long an import waits for another one to finish publishing (it holds the lock for the
 *  seconds its files take to write). */
const IMPORT_LOCK_WAIT_MS = 10 * 60_000;

/** The lock imports and removals hold (src/lock.ts), and what its messages say. */
function importLock(base: string): { path: string; options: LockOptions } {
  const path = join(base, '.import.lock');
  return {
    path,
    options: {
      what: 'uopscope importing into the cache',
      waitMs: IMPORT_LOCK_WAIT_MS,
      onWait: (holder) =>
        process.stderr.write(
          `uopscope: waiting for ${printable(holder, 100)}, which holds ${path} (up to ${IMPORT_LOCK_WAIT_MS / 60_000} minutes)\n`,
        ),
    },
  };
}

function lockError(base: string, e: unknown): UserError {
  if (e instanceof LockTimeout)
    return new UserError(
      `${printable(e.holder, 100)} has held ${e.lock} for over ${IMPORT_LOCK_WAIT_MS / 60_000} minutes; wait for it, or remove the lock if no uopscope runs`,
    );
  return new UserError(
    `cannot lock the cache in ${base}: ${(e as NodeJS.ErrnoException).code ?? String(e)} — set UOPSCOPE_CACHE_DIR to a writable directory`,
  );
}

/** Runs `work` holding the cache's import lock: imports and removals serialise on it, so that
 *  neither removes a directory the other is writing or has just published. */
async function withImportLock<T>(base: string, work: () => T): Promise<T> {
  const { path, options } = importLock(base);
  let locked = false;
  try {
    makeDirs(base);
    return await withLock(path, options, () => {
      locked = true;
      return work();
    });
  } catch (e) {
    if (locked || e instanceof UserError) throw e;
    throw lockError(base, e);
  }
}

function withImportLockSync<T>(base: string, work: () => T): T {
  const { path, options } = importLock(base);
  let locked = false;
  try {
    return withLockSync(path, options, () => {
      locked = true;
      return work();
    });
  } catch (e) {
    if (locked || e instanceof UserError) throw e;
    throw lockError(base, e);
  }
}

/** Forms of one architecture from the imported cache, or null when it was not imported. */
export function loadImportedArch(arch: string, dirOverride?: string): { forms: ArchForm[]; index: CacheIndex } | null {
  const index = readIndex(dirOverride);
  if (!index || index.archs[arch] === undefined) return null;
  const forms = readArchFile(join(cacheDir(dirOverride), index.dir), arch);
  return forms ? { forms, index } : null;
}

/** `uopscope data remove imported`: unpublishes the import (its index first, so a reader sees
 *  either all of it or none), then removes its files. The index it removed, or null when there
 *  was none. */
export function removeImport(dirOverride?: string): CacheIndex | null {
  const index = readIndex(dirOverride);
  const base = cacheDir(dirOverride);
  if (!index) return null;
  try {
    // under the import lock: a running import's directory is never removed half-written
    withImportLockSync(base, () => {
      rmSync(join(base, 'index.json'), { force: true });
      for (const name of readdirSync(base)) {
        if (name.startsWith('import-')) rmSync(join(base, name), { recursive: true, force: true });
      }
    });
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(
      `cannot remove the imported data in ${base}: ${(e as NodeJS.ErrnoException).code ?? String(e)} — check the directory's permissions`,
    );
  }
  return index;
}
