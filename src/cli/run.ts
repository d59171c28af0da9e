import { existsSync } from 'node:fs';
import type { Argv } from 'yargs';
import { UserError, printable } from '../errors.js';
import { commands } from './commands/index.js';
import { skipHelpCache } from './yargsHelpCache.js';

import { COMMAND_NAMES, DATA_COMMANDS } from './commandNames.js';
import { MODEL_OPTION_NAMES } from './modelOptions.js';
import { VARIANT_SWITCHES } from '../sim/variants.js';
import { examplesFromPackage } from './examplePath.js';
import { STDIN_ARG, quietOnClosedPipe, stdoutColumns, whenFirstUsed } from './stdio.js';
export { STDIN_ARG };

export { COMMAND_NAMES, DATA_COMMANDS };

/** The closest of `names` to `word` when it is close enough to be a typo, else null. */
export function nearest(word: string, names: readonly string[]): string | null {
  const w = word.toLowerCase().replace(/^-+/, '');
  const best = names.map((c) => ({ c, d: editDistance(w, c) })).sort((x, y) => x.d - y.d)[0];
  if (!best) return null;
  return best.d <= Math.max(1, Math.floor(best.c.length / 3)) || (w.length >= 3 && best.c.startsWith(w))
    ? best.c
    : null;
}

/** Edit distance (insertions, deletions, substitutions, adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The first word is neither a command nor an existing file, and either looks like a mistyped
 * command or is followed by more words (which only a command takes): say that, with the nearest
 * command, instead of yargs's "Unknown argument" about the word after it.
 */
export function checkFirstWord(args: string[], exists: (p: string) => boolean = existsSync): void {
  const first = args[0];
  if (first === 'data' && args[1] !== undefined && !args[1].startsWith('-') && !DATA_COMMANDS.includes(args[1])) {
    const near = nearest(args[1], DATA_COMMANDS);
    throw new UserError(
      `'data ${args[1]}' is not a uopscope command: ${near ? `did you mean 'uopscope data ${near}'?` : `the data commands are ${DATA_COMMANDS.join(', ')}`} (see 'uopscope data --help')`,
    );
  }
  if (first === undefined || first.startsWith('-') || COMMAND_NAMES.includes(first) || exists(first)) return;
  const near = COMMAND_NAMES.map((c) => ({ c, d: editDistance(first.toLowerCase(), c) })).sort((x, y) => x.d - y.d)[0]!;
  const close =
    near.d <= Math.max(1, Math.floor(near.c.length / 3)) ||
    (first.length >= 3 && near.c.startsWith(first.toLowerCase()));
  const more = args.slice(1).some((a) => !a.startsWith('-'));
  if (!close && !more) return; // a missing file: the input stage says so
  const suggest = close ? `did you mean 'uopscope ${near.c}'?` : `the commands are ${COMMAND_NAMES.join(', ')}`;
  throw new UserError(
    `'${first}' is not a uopscope command (nor an existing file): ${suggest} (see 'uopscope --help')`,
  );
}

/** Prints a UserError as its one line and exits non-zero; anything else is a bug. */
export function reportFailure(err: unknown): never {
  if (err instanceof UserError) {
    // a message may quote input (a file name, a tag, a flag): never let it drive the terminal
    process.stderr.write(`uopscope: ${printable(err.message, 2000)}\n`);
    process.exit(err.exitCode);
  }
  const msg = err instanceof Error ? err.message : String(err);
  process.stderr.write(`uopscope: internal error: ${msg} (please report this with the input that caused it)\n`);
  if (process.env.UOPSCOPE_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  process.exit(70);
}

/** Every long option of every command (for suggestions when yargs cannot list the command's);
 *  test/cli/mistypes.test.ts checks that each is accepted by some command. */
export const ALL_OPTIONS = [
  'arch',
  'iterations',
  'uops-xml',
  'measured',
  'no-measured',
  'fallback',
  'export-dir',
  'compare-arch',
  'hex',
  'raw',
  'region',
  'function',
  'range',
  'assembler',
  'syntax',
  'max-instructions',
  ...VARIANT_SWITCHES.map((s) => s.flag),
  'port-capacity',
  'issue-width',
  'rs-size',
  'fast',
  'all-variants',
  'branch',
  'detail',
  'json',
  'wide',
  'cfg',
  'dg',
  'loop',
  'no-loop',
  'att',
  'cache-dir',
  'url',
  'connect-timeout',
  'stall-timeout',
  'total-timeout',
  'strict',
  'all-regions',
  'repetitions',
  'working-set',
  'fill',
  'help',
  'version',
  'all',
  'core',
  'output',
  'runs',
  ...MODEL_OPTION_NAMES,
];

/** llvm-mca's and the compilers' spellings with a uopscope meaning: `-mcpu=skylake` (llvm-mca,
 *  clang) and `-march=skylake` (gcc) name the core; `-x86-asm-syntax=intel` the syntax. */
const FOREIGN_FLAGS: Record<string, string> = { mcpu: 'arch', march: 'arch', 'x86-asm-syntax': 'syntax' };

/** llvm-mca's views and statistics: no uopscope option, but the report answers the question. */
const LLVM_MCA_VIEWS = new Set([
  'timeline',
  'bottleneck-analysis',
  'resource-pressure',
  'register-file-stats',
  'dispatch-stats',
  'scheduler-stats',
  'retire-stats',
  'instruction-info',
  'instruction-tables',
  'all-stats',
  'all-views',
  'show-encoding',
  'show-barriers',
  'timeline-max-iterations',
  'timeline-max-cycles',
  'noalias',
  'lqueue',
  'squeue',
  'dispatch',
  'micro-op-queue-size',
  'decoder-throughput',
]);

/** llvm-mca's `-mtriple=x86_64-…` (in most pasted llvm-mca lines): the target uopscope always
 *  has, so taken and dropped; another target is refused in one line. */
const X86_64_TRIPLE = /^(x86_64|x86-64|amd64)(h)?(-|$)/i;

function checkedTriple(value: string | undefined): void {
  const triple = value ?? '';
  if (X86_64_TRIPLE.test(triple)) return;
  throw new UserError(
    triple === ''
      ? "'-mtriple' needs a value (-mtriple=x86_64-unknown-linux-gnu): uopscope analyses x86-64 code, so the option can also be left out"
      : `'-mtriple=${printable(triple, 60)}': uopscope analyses x86-64 code only (a 32-bit binary's code too, read from the file); leave the option out`,
  );
}
const VIEW_HINT = "llvm-mca's; uopscope's report shows each line's µops, ports and waits, and what-if runs";

/** Short options uopscope's commands take (-a ARCH, -i N, -p, -b, -h): clusters of them stay. */
const SHORT = new Set(['a', 'i', 'p', 'b', 'h']);

/**
 * Arguments with llvm-mca's single-dash long options rewritten: `-iterations=100` is
 * `--iterations=100` (yargs would read it as -i with the value 'terations=100', or a cluster of
 * short flags), `-mcpu=skylake` is `--arch=skylake`. A single-dash word that is no uopscope
 * option is refused, saying how uopscope spells it. Nothing after `--` is touched.
 */
export function llvmMcaArgs(args: string[], known: readonly string[] = ALL_OPTIONS): string[] {
  const out: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === '--') {
      out.push(...args.slice(k));
      break;
    }
    const m = /^(--?)([a-zA-Z][a-zA-Z0-9-]*)(=.*)?$/.exec(a);
    if (!m) {
      out.push(a);
      continue;
    }
    const [, dashes, name, value] = m as unknown as [string, string, string, string | undefined];
    if (name === 'mtriple') {
      // the value after '=' or as the next word
      const v = value !== undefined ? value.slice(1) : args[k + 1];
      checkedTriple(v);
      if (value === undefined) k++;
      continue;
    }
    const mapped = FOREIGN_FLAGS[name];
    if (mapped) {
      out.push(`--${mapped}${value ?? ''}`);
      continue;
    }
    if (dashes === '--') {
      out.push(a);
      continue;
    }
    if (name.length === 1 || (value === undefined && [...name].every((c) => SHORT.has(c)))) {
      out.push(a);
      continue;
    }
    if (known.includes(name)) {
      out.push(`--${name}${value ?? ''}`);
      continue;
    }
    if (LLVM_MCA_VIEWS.has(name))
      throw new UserError(`'-${name}' is not a uopscope option (${VIEW_HINT}; see 'uopscope report --help')`);
    const near = nearest(name, known);
    throw new UserError(
      `'-${printable(name, 60)}' is not a uopscope option${near ? `: uopscope spells it --${near}` : ''} (options take two dashes; see 'uopscope --help')`,
    );
  }
  return out;
}

/** yargs's "Unknown argument: arhc" with the option the user probably meant (--arch). */
export function unknownOptionHint(msg: string, y?: Argv): string {
  const one = msg.replace(/\s*\n\s*/g, ' ');
  const m = /^Unknown arguments?: (.+)$/.exec(one);
  if (!m) return one;
  let known: string[] = [];
  try {
    const opts = (y as unknown as { getOptions?: () => { key?: Record<string, unknown> } } | undefined)?.getOptions?.();
    known = Object.keys(opts?.key ?? {}).filter((k) => k.length > 1);
    if (known.length === 0) known = ALL_OPTIONS;
  } catch {
    /* no options known */
  }
  // yargs lists a kebab-case option twice, the second time camel-cased: once is enough
  const names = m[1]!.split(', ');
  const kebab = new Set(
    names.filter((n) => n.includes('-')).map((n) => n.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())),
  );
  const parts = names
    .filter((n) => !kebab.has(n))
    .map((name) => {
      if (LLVM_MCA_VIEWS.has(name)) return `'${name}' (${VIEW_HINT})`;
      const near = nearest(name, known);
      return near ? `'${name}' (did you mean --${near}?)` : `'${name}'`;
    });
  return `unknown argument${parts.length > 1 ? 's' : ''}: ${parts.join(', ')}`;
}

/** `-` became STDIN_ARG before yargs (start.ts), which would take it for an empty string: only
 *  the positional FILE keeps that name (standard input); everywhere else, option values and other
 *  positionals (`--cfg -`, `config set export-dir -`), it is `-` again after parsing. */
function dashAgain(argv: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(argv)) if (k !== 'file' && v === STDIN_ARG) argv[k] = '-';
}

export async function runCli(y: Argv, args?: string[]): Promise<void> {
  // when the streams are created (stdio.ts: not before something uses them)
  whenFirstUsed('stdout', (s) => quietOnClosedPipe(s));
  // a closed stderr leaves no one to tell; never turn it into an uncaught exception
  whenFirstUsed('stderr', (s) => {
    s.on('error', () => {});
  });
  if (args) {
    try {
      checkFirstWord(args);
    } catch (err) {
      reportFailure(err);
    }
  }
  let cli = y
    .scriptName('uopscope')
    .strict()
    .help()
    .alias('h', 'help')
    .version()
    .middleware(dashAgain, true)
    .middleware(examplesFromPackage, true)
    .wrap(Math.min(100, stdoutColumns() || 80))
    .fail((msg, err, y) => {
      if (err) reportFailure(err);
      process.stderr.write(
        `uopscope: ${printable(unknownOptionHint(String(msg), y ?? cli), 2000)} (see 'uopscope --help')\n`,
      );
      process.exit(2);
    });
  for (const c of commands) cli = c(cli);
  skipHelpCache(cli); // see yargsHelpCache.ts: why, and the test that guards it
  try {
    await cli.parseAsync();
  } catch (err) {
    reportFailure(err);
  }
}
