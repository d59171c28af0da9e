// Assembly input: the source is assembled by the system assembler (`as`, or `clang -c` when
// asked; a versioned clang-N when there is no plain clang) into a temporary object that is then
// read like any other binary. What compilers emit is accepted as it is: clang's own directives
// (.addrsig …) are left out for GNU as, and Intel syntax without `.intel_syntax` is recognised. Comment markers of
// LLVM-MCA (`# LLVM-MCA-BEGIN [name]` / `# LLVM-MCA-END`) and OSACA (`# OSACA-BEGIN` /
// `# OSACA-END`) are replaced, line for line, by labels that survive assembly, so their
// addresses can be read back from the object's symbol table.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError, printable } from '../errors.js';
import { DEFAULT_MAX_INSTRUCTIONS, maxCodeBytes, raiseHint } from './limits.js';

export const MARKER_PREFIX = '__uopscope_marker_';

const MARKER_RE = /^(\s*)(?:#|\/\/|;)\s*(LLVM-MCA|OSACA)-(BEGIN|END)\b\s*([A-Za-z0-9_.$-]*)/;

interface AssembledMarker {
  kind: 'llvm-mca' | 'osaca';
  begin: boolean;
  name: string;
  label: string;
  line: number; // 1-based source line
}

/** Replaces marker comments by labels; returns the new source and what was replaced. */
function injectMarkerLabels(source: string): { source: string; markers: AssembledMarker[] } {
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

/** Directives clang writes for its own assembler that GNU as does not know and that change
 *  nothing uopscope reads (address-significance tables, call-graph profiles, Mach-O build
 *  versions, data-in-code regions): left out, line for line. */
const CLANG_ONLY =
  /^\s*\.(addrsig|addrsig_sym|cg_profile|build_version|macosx_version_min|data_region|end_data_region|loh|subsections_via_symbols)\b/;

export type AsmSyntax = 'att' | 'intel';

/**
 * The syntax of a source that does not say (no .intel_syntax / .att_syntax), from its
 * instructions, as OSACA tells them apart: AT&T names registers with `%` and immediates with
 * `$`; Intel writes memory operands in brackets or with `ptr` and registers bare. Null when
 * nothing tells (labels and directives only, `ret`, `nop`).
 */
export function detectSyntax(source: string): AsmSyntax | null {
  let att = 0;
  let intel = 0;
  for (const raw of source.split('\n')) {
    const line = raw.replace(/(#|\/\/).*$/, '').trim();
    if (/^\.intel_syntax\b/.test(line)) return null;
    if (/^\.att_syntax\b/.test(line)) return null;
    if (!line || line.startsWith('.') || /^[\w.$@]+:$/.test(line)) continue;
    const ins = line.replace(/^[\w.$@]+:\s*/, '');
    if (/%[a-z]/i.test(ins) || /\$-?(0x)?[0-9a-f]/i.test(ins)) att++;
    else if (
      /\b(byte|word|dword|qword|xmmword|ymmword|zmmword|tbyte|oword) ptr\b|\[[^\]]*\]/i.test(ins) ||
      /^[a-z][a-z0-9.]*\s+(?:[re]?[abcd]x|[re]?[sd]il?|[re]?[sb]pl?|r\d+[dwb]?|[abcd][lh]|[xyz]mm\d+|k[0-7])\s*(,|$)/i.test(
        ins,
      )
    )
      intel++;
  }
  return intel > att ? 'intel' : att > 0 ? 'att' : null;
}

/** The source as the assembler gets it: clang-only directives out, and Intel syntax declared
 *  when the source is Intel without saying so (Compiler Explorer's output; `--syntax intel`). */
export function prepareSource(source: string, syntax?: AsmSyntax): string {
  const lines = source.split('\n').map((l) => (CLANG_ONLY.test(l) ? '' : l));
  const declared = lines.some((l) => /^\s*\.(intel|att)_syntax\b/.test(l));
  const wanted = syntax ?? (declared ? null : detectSyntax(source));
  // on the first line, after a `;` (a statement separator for both as and clang): the source's
  // line numbers stay those of the user's file
  if (wanted === 'intel' && !declared && lines.length) lines[0] = `.intel_syntax noprefix; ${lines[0]}`;
  return lines.join('\n');
}

/** What to say when the assembler rejects the source, from its message. */
function rejectionHint(message: string, tool: string): string {
  const pseudo = /unknown (?:pseudo-op|directive)[^`'.]*[`']?(\.[\w.]+)/i.exec(message);
  if (pseudo)
    return `${pseudo[1]} is a directive ${tool === 'as' ? 'GNU as' : tool} does not know${tool === 'as' ? ' (clang writes some of its own): pass --assembler clang, or delete the line' : ': delete the line'}`;
  if (
    /too many memory references|invalid char '\['|ambiguous operand size|no such instruction|bad register name|invalid operand|junk .* after expression|operand type mismatch/i.test(
      message,
    )
  ) {
    return 'if the source is Intel syntax, pass --syntax intel (or put .intel_syntax noprefix first); for AT&T, --syntax att';
  }
  return `fix the source (${tool === 'as' ? 'GNU as' : tool} syntax; --syntax intel for Intel syntax)`;
}

/** The clang to run: `clang` on the PATH, else the newest versioned one (Debian installs
 *  clang-19 without a plain `clang`). */
export function findClang(path = process.env.PATH ?? ''): string {
  const { readdirSync } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  let best: { name: string; version: number } | null = null;
  for (const dir of path.split(':').filter(Boolean)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    if (names.includes('clang')) return 'clang';
    for (const n of names) {
      const m = /^clang-(\d+)$/.exec(n);
      if (m && (!best || Number(m[1]) > best.version)) best = { name: n, version: Number(m[1]) };
    }
  }
  return best?.name ?? 'clang';
}

/** The assembler's bounds: CPU seconds, address space and the largest file it may write. */
interface ToolLimits {
  cpuSeconds: number;
  addressSpace: number;
  fileSize: number;
}

const ASSEMBLER_CPU_SECONDS = 60;
/** The bounds for assembling code of at most `maxInstructions` instructions: an address space of
 *  192 MiB (1 GiB for clang, which maps LLVM's libraries) plus 32 bytes per byte of code, files of
 *  16 MiB plus 16 bytes per byte of code. A 7 MB source of 300,000 instructions takes `as` about
 *  230 MB; `.rept 10000000` of one instruction asks for 190 MB at once and is refused at once. */
function assemblerLimits(tool: string, maxInstructions: number): ToolLimits {
  const code = maxCodeBytes(maxInstructions);
  return {
    cpuSeconds: ASSEMBLER_CPU_SECONDS,
    addressSpace: (/^clang/.test(tool) ? 1024 : 192) * 2 ** 20 + 32 * code,
    fileSize: 16 * 2 ** 20 + 16 * code,
  };
}

type SpawnSync = typeof import('node:child_process').spawnSync;
let confined: boolean | undefined;
/** Whether util-linux's setpriv and prlimit are there to confine the tool: found on the PATH
 *  (asking each for its --help would start two more processes at every assembly, a good part of
 *  an assembly file's report); a setpriv too old for --pdeathsig is found out when it refuses it
 *  (run() then runs the tool unconfined). */
function canConfine(path = process.env.PATH ?? ''): boolean {
  if (confined === undefined) {
    const { accessSync, constants } = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
    const onPath = (name: string) =>
      path
        .split(':')
        .filter(Boolean)
        .some((dir) => {
          try {
            accessSync(join(dir, name), constants.X_OK);
            return true;
          } catch {
            return false;
          }
        });
    confined = onPath('setpriv') && onPath('prlimit');
  }
  return confined;
}

/** setpriv's refusal of an option it does not know (util-linux before 2.33 has no --pdeathsig). */
const SETPRIV_TOO_OLD = /^setpriv: (?:unrecognized|invalid|unknown) option/m;

// The tool runs under a small shell that ends it and removes the temporary directory when
// uopscope is interrupted (SIGINT, SIGTERM, SIGHUP) or dies (setpriv's parent-death signal):
// otherwise an interrupted uopscope would leave the directory behind and the assembler running
// without the time limit only the dead parent enforced. prlimit bounds the tool's CPU time,
// memory and output whether uopscope lives or not.
const GUARD = `dir=$1; shift; pid=; trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf -- "$dir"; exit 143' TERM INT HUP; "$@" & pid=$!; wait "$pid"`;

function run(
  tool: string,
  args: string[],
  file: string,
  hint: string,
  dir: string,
  limits: ToolLimits,
  maxInstructions: number,
): void {
  // node:child_process only for assembly input (a binary's run does not load it)
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  let res = canConfine() ? guarded(spawnSync, tool, args, dir, limits) : null;
  if (res && res.status !== 0 && SETPRIV_TOO_OLD.test(res.stderr ?? '')) {
    confined = false;
    res = null;
  }
  res ??= spawnSync(tool, args, { encoding: 'utf8', timeout: limits.cpuSeconds * 1000, maxBuffer: 1 << 20 });
  checkRun(res, tool, file, hint, limits, maxInstructions);
}

/** The tool run under setpriv, the guard and prlimit (above). */
function guarded(spawnSync: SpawnSync, tool: string, args: string[], dir: string, limits: ToolLimits) {
  return spawnSync(
    'setpriv',
    [
      '--pdeathsig',
      'TERM',
      '--',
      'sh',
      '-c',
      GUARD,
      'sh',
      dir,
      'prlimit',
      `--cpu=${limits.cpuSeconds}`,
      `--as=${limits.addressSpace}`,
      `--fsize=${limits.fileSize}`,
      '--',
      tool,
      ...args,
    ],
    { encoding: 'utf8', timeout: (limits.cpuSeconds + 5) * 1000, maxBuffer: 1 << 20 },
  );
}

/** A UserError when the tool's run failed (not there, too long, too large, rejected the source). */
function checkRun(
  res: import('node:child_process').SpawnSyncReturns<string>,
  tool: string,
  file: string,
  hint: string,
  limits: ToolLimits,
  maxInstructions: number,
): void {
  if (res.error) {
    const code = (res.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${file}: cannot assemble: '${tool}' is not installed; ${hint}`);
    if (code === 'ETIMEDOUT')
      throw new UserError(
        `${file}: the assembler (${tool}) ran longer than ${limits.cpuSeconds} s; ${raiseHint(maxInstructions)}`,
      );
    throw new UserError(`${file}: cannot assemble: running '${tool}' failed (${printable(res.error.message, 120)})`);
  }
  // under the guard a tool that is not installed is the shell's 127 (prlimit's "failed to execute")
  if (res.status === 127 || (res.status !== 0 && /failed to execute/.test(res.stderr ?? '')))
    throw new UserError(`${file}: cannot assemble: '${tool}' is not installed; ${hint}`);
  const sig = res.status !== null && res.status > 128 ? res.status - 128 : null;
  if (sig === 25 /* SIGXFSZ */)
    throw new UserError(
      `${file}: the assembler (${tool}) wrote more than ${(limits.fileSize / 2 ** 20).toFixed(0)} MiB: the source expands too much (.fill, .rept, .incbin, .include); ${raiseHint(maxInstructions)}`,
    );
  if (sig === 24 /* SIGXCPU */ || sig === 9)
    throw new UserError(
      `${file}: the assembler (${tool}) ran longer than ${limits.cpuSeconds} s: the source expands too much (.rept, .include); ${raiseHint(maxInstructions)}`,
    );
  if (res.status !== 0 && /out of memory|memory exhausted|cannot allocate|bad_alloc/i.test(res.stderr ?? '')) {
    throw new UserError(
      `${file}: the assembler (${tool}) needed more than ${(limits.addressSpace / 2 ** 20).toFixed(0)} MiB: the source expands too much (.rept, .fill, .include "/dev/zero"); ${raiseHint(maxInstructions)}`,
    );
  }
  if (res.status !== 0) {
    const first =
      (res.stderr || res.stdout || '').split('\n').find((l) => /error/i.test(l)) ??
      (res.stderr || '').split('\n')[0] ??
      '';
    // the assembler quotes the offending line, which may come from any file the source
    // includes (.include "/etc/passwd"): keep a short excerpt of it only
    const where = printable(
      first
        .replace(/^.*?\.(s|S|asm):/, `${basename(file)}:`)
        .trim()
        .replace(/`([^`']{24})[^`']*'/g, "`$1…'"),
      160,
    );
    throw new UserError(
      `${file}: the assembler (${tool}) rejected the source: ${where || `exit status ${res.status}`}; ${rejectionHint(first, tool === 'as' || tool === 'cpp' ? 'as' : tool)}`,
    );
  }
}

/** Assembles `file` (or `text`, named `file` in messages) into an object; returns its bytes and
 *  the injected markers. */
export function assemble(
  file: string,
  assembler: 'as' | 'clang' = 'as',
  given?: string,
  syntax?: AsmSyntax,
  maxInstructions = DEFAULT_MAX_INSTRUCTIONS,
): { object: Uint8Array; markers: AssembledMarker[] } {
  const text = given ?? readFileSync(file, 'utf8');
  const injected = injectMarkerLabels(text);
  const markers = injected.markers;
  const source = prepareSource(injected.source, syntax);
  // the source is copied into a temporary directory (with its markers replaced): its own
  // directory goes on the include path, so `#include "x.h"` and `.include "x.s"` next to it are found
  const inc = ['-I', dirname(resolve(file))];
  const tmp = tmpdir();
  const unusable = (e: unknown): UserError =>
    new UserError(
      `${file}: cannot assemble: the temporary directory ${printable(tmp, 80)} is unusable (${(e as NodeJS.ErrnoException).code ?? String(e)}); set TMPDIR to a writable directory`,
    );
  let dir: string;
  try {
    dir = mkdtempSync(join(tmp, 'uopscope-asm-'));
  } catch (e) {
    throw unusable(e);
  }
  try {
    const preprocess = file.endsWith('.S');
    const src = join(dir, preprocess ? 'input.S' : 'input.s');
    const obj = join(dir, 'input.o');
    try {
      writeFileSync(src, source);
    } catch (e) {
      throw unusable(e);
    }
    const tool = (name: string, args: string[], hint: string) =>
      run(name, args, file, hint, dir, assemblerLimits(name, maxInstructions), maxInstructions);
    if (assembler === 'clang') {
      tool(
        findClang(),
        ['-c', '-target', 'x86_64-linux-gnu', ...inc, ...(preprocess ? [] : ['-x', 'assembler']), src, '-o', obj],
        'install clang (apt-get install clang) or use --assembler as',
      );
    } else {
      let input = src;
      if (preprocess) {
        input = join(dir, 'input.s');
        tool(
          'cpp',
          ['-P', '-x', 'assembler-with-cpp', ...inc, src, '-o', input],
          'install cpp (apt-get install cpp) to preprocess .S files, or use --assembler clang',
        );
      }
      tool(
        'as',
        ['--64', ...inc, input, '-o', obj],
        'install binutils (apt-get install binutils) or pass --assembler clang',
      );
    }
    return { object: new Uint8Array(readFileSync(obj)), markers };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
