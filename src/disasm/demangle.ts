// C++ symbol names as people write them: `_ZN4llvm5APInt4sextEj` → `llvm::APInt::sext(unsigned
// int)`. binutils' c++filt does it (the GNU demangler, kept in step with gcc's and clang's
// manglings); binutils is already what assembles assembly input, and no npm package of a
// demangler is kept up as well. Without c++filt the mangled names are shown.
import { createRequire } from 'node:module';

const MANGLED = /^_{1,2}Z/;

/** Demangled names of the mangled ones among `names` (the others are absent from the map). */
export function demangleAll(names: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const mangled = names.filter((n) => MANGLED.test(n) && !/[\n\r]/.test(n));
  if (!mangled.length) return out;
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  // Mach-O names carry one more underscore (__Z…): c++filt takes them with -_
  for (const [list, args] of [
    [mangled.filter((n) => !n.startsWith('__Z')), []],
    [mangled.filter((n) => n.startsWith('__Z')), ['-_']],
  ] as const) {
    if (!list.length) continue;
    const res = spawnSync('c++filt', [...args], {
      input: `${list.join('\n')}\n`,
      encoding: 'utf8',
      timeout: 20_000,
      maxBuffer: 256 << 20,
    });
    if (res.error || res.status !== 0) continue;
    const lines = res.stdout.split('\n');
    list.forEach((n, i) => {
      const d = lines[i];
      if (d && d !== n) out.set(n, d);
    });
  }
  return out;
}
