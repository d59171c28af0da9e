// The README, the docs and every --help name uopscope's own examples by their place in the
// package (`examples/bin/branch`). A user runs those lines from wherever they are, not from the
// clone: an input path under `examples/` that does not exist where it is typed is read from the
// package's examples instead, and stderr says so, so the file read is never a silent surprise.
// A file of the user's own at that path always wins.
import { existsSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { packageRoot } from '../data/paths.js';

/** The package's copy of a relative `examples/…` input that is missing here, else undefined. */
export function packagedExample(path: string, exists: (p: string) => boolean = existsSync): string | undefined {
  if (isAbsolute(path)) return undefined;
  const rel = normalize(path);
  if (!rel.startsWith('examples/') || exists(path)) return undefined;
  const own = join(packageRoot(), rel);
  return exists(own) ? own : undefined;
}

/** Input options that name files (both spellings yargs keeps); outputs are never rewritten. */
const INPUT_KEYS = ['file', 'uops-xml', 'uopsXml'] as const;

/** yargs middleware: missing `examples/…` inputs become the package's, each said once on stderr. */
export function examplesFromPackage(argv: Record<string, unknown>): void {
  const said = new Set<string>();
  const swap = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    const own = packagedExample(v);
    if (own === undefined) return v;
    if (!said.has(v)) {
      said.add(v);
      process.stderr.write(`uopscope: ${v} is not in this directory; reading uopscope's own example ${own}\n`);
    }
    return own;
  };
  for (const k of INPUT_KEYS) {
    const v = argv[k];
    if (Array.isArray(v)) argv[k] = v.map(swap);
    else if (v !== undefined) argv[k] = swap(v);
  }
}
