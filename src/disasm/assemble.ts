// Assembly input: the source is assembled by the system assembler (`as`, or `clang -c` when
// asked) into a temporary object that is then read like any other binary. Comment markers of
// LLVM-MCA (`# LLVM-MCA-BEGIN [name]` / `# LLVM-MCA-END`) and OSACA (`# OSACA-BEGIN` /
// `# OSACA-END`) are replaced, line for line, by labels that survive assembly, so their
// addresses can be read back from the object's symbol table.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError, printable } from '../errors.js';

export const MARKER_PREFIX = '__uopscope_marker_';

const MARKER_RE = /^(\s*)(?:#|\/\/|;)\s*(LLVM-MCA|OSACA)-(BEGIN|END)\b\s*([A-Za-z0-9_.$-]*)/;

export interface AssembledMarker {
  kind: 'llvm-mca' | 'osaca';
  begin: boolean;
  name: string;
  label: string;
  line: number; // 1-based source line
}

/** Replaces marker comments by labels; returns the new source and what was replaced. */
export function injectMarkerLabels(source: string): { source: string; markers: AssembledMarker[] } {
  const markers: AssembledMarker[] = [];
  const lines = source.split('\n').map((text, i) => {
    const m = MARKER_RE.exec(text);
    if (!m) return text;
    const kind = m[2] === 'LLVM-MCA' ? 'llvm-mca' : 'osaca';
    const begin = m[3] === 'BEGIN';
    const label = `${MARKER_PREFIX}${markers.length}`;
    markers.push({ kind, begin, name: m[4] ?? '', label, line: i + 1 });
    return `${m[1] ?? ''}${label}:`;
  });
  return { source: lines.join('\n'), markers };
}

function run(tool: string, args: string[], file: string, hint: string): void {
  // node:child_process only for assembly input (a binary's run does not load it)
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const res = spawnSync(tool, args, { encoding: 'utf8', timeout: 60_000 });
  if (res.error) {
    const code = (res.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${file}: cannot assemble: '${tool}' is not installed; ${hint}`);
    throw new UserError(`${file}: cannot assemble: running '${tool}' failed (${res.error.message})`);
  }
  if (res.status !== 0) {
    const first = (res.stderr || res.stdout || '').split('\n').find((l) => /error/i.test(l)) ?? (res.stderr || '').split('\n')[0] ?? '';
    // the assembler quotes the offending line, which may come from any file the source
    // includes (.include "/etc/passwd"): keep a short excerpt of it only
    const where = printable(first.replace(/^.*?\.(s|S|asm):/, `${basename(file)}:`).trim()
      .replace(/`([^`']{24})[^`']*'/g, '`$1…\''), 160);
    throw new UserError(`${file}: the assembler (${tool}) rejected the source: ${where || `exit status ${res.status}`}; fix the source (GNU as syntax; use .intel_syntax noprefix for Intel syntax)`);
  }
}

/** Assembles `file` (or `text`, named `file` in messages) into an object; returns its bytes and
 *  the injected markers. */
export function assemble(file: string, assembler: 'as' | 'clang' = 'as', given?: string): { object: Uint8Array; markers: AssembledMarker[] } {
  const text = given ?? readFileSync(file, 'utf8');
  const { source, markers } = injectMarkerLabels(text);
  // the source is copied into a temporary directory (with its markers replaced): its own
  // directory goes on the include path, so `#include "x.h"` and `.include "x.s"` next to it are found
  const inc = ['-I', dirname(resolve(file))];
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-asm-'));
  try {
    const preprocess = file.endsWith('.S');
    const src = join(dir, preprocess ? 'input.S' : 'input.s');
    const obj = join(dir, 'input.o');
    writeFileSync(src, source);
    if (assembler === 'clang') {
      run('clang', ['-c', '-target', 'x86_64-linux-gnu', ...inc, ...(preprocess ? [] : ['-x', 'assembler']), src, '-o', obj], file, 'install clang (apt-get install clang) or use --assembler as');
    } else {
      let input = src;
      if (preprocess) {
        input = join(dir, 'input.s');
        run('cpp', ['-P', '-x', 'assembler-with-cpp', ...inc, src, '-o', input], file, 'install cpp (apt-get install cpp) to preprocess .S files, or use --assembler clang');
      }
      run('as', ['--64', ...inc, input, '-o', obj], file, 'install binutils (apt-get install binutils) or pass --assembler clang');
    }
    return { object: new Uint8Array(readFileSync(obj)), markers };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
