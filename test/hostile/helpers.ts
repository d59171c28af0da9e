// Shared helpers of the hostile-input tests: the real CLI in a child process with its
// own cache and config directories, and checks that a failure is one line with exit 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.cts');
/** tsx by its URL, so that the CLI can run from any working directory */
export const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href;
export const SMALL = join(ROOT, 'test', 'fixtures', 'data', 'small-instructions.xml');
export const smallText = (): string => readFileSync(SMALL, 'utf8');

export function tempDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `uopscope-hostile-${tag}-`));
}

/** A loop in `dir` of `4 * reps + 3` lines, a quarter of them loads */
export function bigLoop(dir: string, reps: number): string {
  const file = join(dir, `loop${reps}.s`);
  writeFileSync(
    file,
    `.intel_syntax noprefix\n.L1:\n.rept ${reps}\nadd rax, rbx\nimul rcx, rdx\nmov r8, [rsi+8]\nxor r9, r10\n.endr\nadd rax, 1\ndec rdi\njnz .L1\n`,
  );
  return file;
}

export interface Run {
  code: number | null;
  out: string;
  err: string;
  signal: NodeJS.Signals | null;
}

export function cli(
  args: string[],
  opts: { cache?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number; input?: string } = {},
): Run {
  const r = spawnSync(process.execPath, ['--import', TSX, MAIN, ...args], {
    encoding: 'utf8',
    cwd: opts.cwd ?? ROOT,
    timeout: opts.timeout ?? 60_000,
    input: opts.input,
    maxBuffer: 256 * 2 ** 20,
    env: {
      ...process.env,
      UOPSCOPE_CACHE_DIR: opts.cache ?? tempDir('cache'),
      UOPSCOPE_CONFIG_DIR: tempDir('config'),
      ...opts.env,
    },
  });
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal };
}

/** exit 2 with one line on stderr matching `re`, no stack trace, no raw control character */
export function assertOneLine(r: Run, re: RegExp): void {
  assert.equal(r.signal, null, `killed by ${r.signal}: ${r.err}`);
  assert.equal(r.code, 2, `exit ${r.code}: ${r.err}${r.out.slice(0, 300)}`);
  const lines = r.err.replace(/\n$/, '').split('\n');
  assert.equal(lines.length, 1, r.err);
  assert.match(lines[0]!, /^uopscope: /);
  assert.doesNotMatch(lines[0]!, /internal error|at .*\.ts:\d+/);
  assert.doesNotMatch(lines[0]!, /[\x00-\x08\x0b-\x1f\x7f]/, 'control characters in the message');
  assert.match(lines[0]!, re);
}

/** Whether user `uid` may read every one of `files` (run through setpriv as that user, so every
 *  directory above each file is checked as the kernel does): a clone under a directory only its
 *  owner may enter (/root, `mktemp -d`) is out of another user's reach. Needs root and setpriv. */
export function userReaches(uid: number, files: readonly string[]): boolean {
  return files.every(
    (f) =>
      spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', 'test', '-r', f]).status === 0,
  );
}
