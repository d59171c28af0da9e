// The embedded default data: assets/uarch/embedded/*.xml, in uops.info's schema, read by the
// same parser as an imported file. Parsing all of it takes longer than one architecture may
// (≤ 100 ms), so the first parse is cached: per-arch JSON files in
// <cache root>/v<N>/embedded-<hash of the XML files>/ — a changed XML file gets a new hash and is
// parsed again. When the cache directory is not writable the XML is parsed on every run.
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomicWrite.js';
import { readArchFile, readCacheFile, writeArchDir } from './cache.js';
import { dedupe } from './formKey.js';
import { CACHE_VERSION, assetsDir, cacheDir } from './paths.js';
import { parseUopsXmlText } from './uopsXml.js';
import type { ArchForm } from './types.js';

interface EmbeddedSummary {
  /** the XML files, in the order they are read (file name order; the first definition of a form wins) */
  files: string[];
  /** oldest `date` among the files' root elements, when any */
  date?: string;
  archs: Record<string, number>;
  /** per architecture, where its figures come from: the files that define it and their `date`s
   *  (an architecture of one file is credited to that file's origin, not to another file's) */
  origins: Record<string, { files: string[]; date?: string }>;
  hash: string;
}

export function embeddedDir(): string {
  return join(assetsDir(), 'embedded');
}

export function embeddedFiles(dir = embeddedDir()): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => join(dir, f));
}

interface Loaded {
  summary: EmbeddedSummary;
  archs: Map<string, ArchForm[]> | null;
  dir: string | null;
}
const memo = new Map<string, Loaded>();

/**
 * A 64-bit hash of strings (cyrb53's two multiplicative lanes, both kept): the compiled cache's
 * key, not a security measure. Loading node:crypto at every run would cost more
 * than hashing ~10 KB of XML this way.
 */
class TextHash {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;
  update(s: string): this {
    let { h1, h2 } = this;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }
  digest(): string {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
  }
}

function hashFiles(files: string[]): { hash: string; texts: string[] } {
  const h = new TextHash();
  // the summary's layout is part of the key (origins per architecture since summary 2; their
  // file names without the directory since summary 3), and so are the measurement fields the
  // compiled forms keep (uops_retire_slots and uops_MITE since fields 2, uops_MS since fields 3)
  h.update(`v${CACHE_VERSION}\nsummary 3\nfields 3\n`);
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  files.forEach((f, i) => {
    h.update(f.replace(/^.*\//, ''));
    h.update('\0');
    h.update(texts[i]!);
    h.update('\0');
  });
  return { hash: h.digest(), texts };
}

/** Parses every embedded file into per-arch lists (the first definition of a form wins). */
export function parseEmbedded(
  files: string[],
  texts?: string[],
): { archs: Map<string, ArchForm[]>; date?: string; origins: EmbeddedSummary['origins'] } {
  const archs = new Map<string, ArchForm[]>();
  const origins: EmbeddedSummary['origins'] = {};
  let date: string | undefined;
  files.forEach((file, i) => {
    const parsed = parseUopsXmlText(texts?.[i] ?? readFileSync(file, 'utf8'), file);
    if (parsed.date && (!date || parsed.date < date)) date = parsed.date;
    for (const [a, forms] of parsed.archs) {
      const list = archs.get(a);
      if (list) list.push(...forms);
      else archs.set(a, [...forms]);
      const o = (origins[a] ??= { files: [] });
      // the name only: the compiled summary is shared by every install with the same files
      o.files.push(file.replace(/^.*\//, ''));
      if (parsed.date) o.date = o.date ? `${o.date}; ${parsed.date}` : parsed.date;
    }
  });
  for (const [a, forms] of archs) archs.set(a, dedupe(forms));
  const out: { archs: Map<string, ArchForm[]>; date?: string; origins: EmbeddedSummary['origins'] } = {
    archs,
    origins,
  };
  if (date) out.date = date;
  return out;
}

/** Opens the embedded data (from the compiled cache when it is current), without reading
 *  every architecture's forms unless it had to parse the XML. */
function open(dirOverride?: string, sourceDir = embeddedDir()): Loaded {
  const key = `${dirOverride ?? ''}\0${sourceDir}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const files = embeddedFiles(sourceDir);
  const { hash, texts } = hashFiles(files);
  const dir = join(cacheDir(dirOverride), `embedded-${hash}`);
  const summaryPath = join(dir, 'summary.json');
  let loaded: Loaded;
  let summaryText: string | null = null;
  try {
    summaryText = readCacheFile(summaryPath, 1 << 20);
  } catch {
    /* not a file, too large or another user's: parse again (and replace it when allowed) */
  }
  if (summaryText !== null) {
    try {
      const summary = JSON.parse(summaryText) as EmbeddedSummary;
      loaded = { summary, archs: null, dir };
      memo.set(key, loaded);
      return loaded;
    } catch {
      /* damaged: parse again */
    }
  }
  const parsed = parseEmbedded(files, texts);
  const summary: EmbeddedSummary = {
    files,
    archs: Object.fromEntries([...parsed.archs].map(([a, f]) => [a, f.length])),
    origins: parsed.origins,
    hash,
  };
  if (parsed.date) summary.date = parsed.date;
  let written: string | null = null;
  try {
    writeArchDir(dir, parsed.archs);
    writeFileAtomic(summaryPath, JSON.stringify(summary, null, 1), { mkdir: true });
    written = dir;
  } catch {
    /* read-only cache: keep the parsed forms in memory */
  }
  loaded = { summary, archs: parsed.archs, dir: written };
  memo.set(key, loaded);
  return loaded;
}

export function embeddedSummary(dirOverride?: string, sourceDir?: string): EmbeddedSummary {
  return open(dirOverride, sourceDir).summary;
}

/** Forms of one architecture in the embedded data, or null when it has none. */
export function loadEmbeddedArch(arch: string, dirOverride?: string, sourceDir?: string): ArchForm[] | null {
  const l = open(dirOverride, sourceDir);
  if (l.archs) return l.archs.get(arch) ?? null;
  if (l.summary.archs[arch] === undefined) return null;
  let forms: ArchForm[] | null = null;
  try {
    forms = l.dir ? readArchFile(l.dir, arch) : null;
  } catch {
    // a damaged compiled file: the shipped XML is the source, so drop the compiled copy (the next
    // run writes it anew) and parse again — nothing for the user to do
    try {
      if (l.dir) rmSync(l.dir, { recursive: true, force: true });
    } catch {
      /* another user's directory: parse the XML on every run instead */
    }
  }
  if (forms) return forms;
  // the cache vanished or was damaged: parse again
  memo.clear();
  const fresh = parseEmbedded(embeddedFiles(sourceDir ?? embeddedDir()));
  return fresh.archs.get(arch) ?? null;
}

/** Forgets what was loaded (tests). */
export function resetEmbeddedMemo(): void {
  memo.clear();
}
