// Ink (6.x) tokenizes and measures every line of every frame anew: its Output keeps a cache per
// frame only. In the explorer most lines do not change from one cycle to the next, so one cache
// shared across frames saves most of that work (keypress → frame, see bench/ui.bench.ts).
// Ink does not export Output; it is reached by its file next to Ink's entry point. If that ever
// fails (another Ink layout), nothing is patched and Ink works as before.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Caches { widths: Map<string, number>; blockWidths: Map<string, number>; styledChars: Map<string, unknown> }
interface OutputLike { caches: Caches; write(...args: unknown[]): void }

const LIMIT = 20_000;
let installed = false;

export async function shareInkOutputCache(): Promise<boolean> {
  if (installed) return true;
  try {
    const entry = createRequire(import.meta.url).resolve('ink');
    const mod = (await import(pathToFileURL(join(dirname(entry), 'output.js')).href)) as { default?: { prototype: OutputLike } };
    const proto = mod.default?.prototype;
    if (!proto || typeof proto.write !== 'function') return false;
    const write = proto.write;
    let shared: Caches | null = null;
    proto.write = function (this: OutputLike, ...args: unknown[]) {
      if (this.caches !== shared) {
        if (!shared || !(shared.styledChars instanceof Map)) shared = this.caches;
        else {
          if (shared.styledChars.size > LIMIT) { shared.styledChars.clear(); shared.widths.clear(); shared.blockWidths.clear(); }
          this.caches = shared;
        }
      }
      return write.apply(this, args);
    };
    installed = true;
    return true;
  } catch {
    return false;
  }
}
