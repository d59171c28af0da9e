// A patch of Ink's internals, kept here alone. Why it exists: Ink (6.x) tokenizes and measures
// every line of every frame anew, because its Output (build/output.js) keeps its caches per frame.
// In the explorer most lines do not change from one cycle to the next, so one cache shared across
// frames saves most of that work (keypress → frame, see bench/ui.bench.ts). Ink has no option for
// it (incrementalRendering only limits what is written to the terminal, <Static> is for output
// that scrolls away), and Ink does not export Output: it is reached by its file next to Ink's
// entry point. If that fails (another Ink layout), nothing is patched and Ink works as before,
// only slower. test/ui/libraryPatches.test.ts fails when Ink's Output no longer looks as this
// patch expects or the caches stop being shared: then drop or rewrite this file.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Caches {
  widths: Map<string, number>;
  blockWidths: Map<string, number>;
  styledChars: Map<string, unknown>;
}
interface OutputLike {
  caches: Caches;
  write(...args: unknown[]): void;
  get(): { output: string };
}
type OutputClass = { new (opts: { width: number; height: number }): OutputLike; prototype: OutputLike };

const LIMIT = 20_000;
let installed = false;

/** Ink's Output class, as Ink itself loads it, or null when it is not where it used to be. */
export async function inkOutputClass(): Promise<OutputClass | null> {
  try {
    const entry = createRequire(import.meta.url).resolve('ink');
    const mod = (await import(pathToFileURL(join(dirname(entry), 'output.js')).href)) as { default?: OutputClass };
    const cls = mod.default;
    return cls && typeof cls.prototype?.write === 'function' ? cls : null;
  } catch {
    return null;
  }
}

/** Makes every Ink Output share one set of caches (bounded); false when Ink could not be patched. */
export async function shareInkOutputCache(): Promise<boolean> {
  if (installed) return true;
  const cls = await inkOutputClass();
  if (!cls) return false;
  const proto = cls.prototype;
  const write = proto.write;
  let shared: Caches | null = null;
  proto.write = function (this: OutputLike, ...args: unknown[]) {
    if (this.caches !== shared) {
      if (!shared || !(shared.styledChars instanceof Map)) shared = this.caches;
      else {
        if (shared.styledChars.size > LIMIT) {
          shared.styledChars.clear();
          shared.widths.clear();
          shared.blockWidths.clear();
        }
        this.caches = shared;
      }
    }
    return write.apply(this, args);
  };
  installed = true;
  return true;
}
