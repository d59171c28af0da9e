// The native measurement harness (assets/measure/harness.c): built on first use with the system's
// C compiler into the cache directory (keyed by the source's hash, so a changed harness is
// rebuilt), then run with its parameters in argv and the region's body bytes on stdin — never
// through a shell. See docs/measure.md for the method.

import { createHash } from 'node:crypto';
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../atomicWrite.js';
import { foreignWriter, readSmallFile } from '../readSmall.js';
import { dirname, join } from 'node:path';
import { cacheRoot, packageRoot } from '../data/paths.js';
import { printable, UserError } from '../errors.js';
import { makeDirs } from '../mkdirs.js';
import { decodeRegion } from '../disasm/decode.js';

/** The compilers tried, in order ($CC first when set). */
function compilers(): string[] {
  const cc = process.env.CC?.trim();
  return [...(cc && !/\s/.test(cc) ? [cc] : []), 'cc', 'gcc', 'clang'];
}

function harnessSource(): string {
  return join(packageRoot(), 'assets', 'measure', 'harness.c');
}

/**
 * The path of the built harness, building it when the cache has none for this source. A build
 * goes to a temporary name in the cache directory and is renamed into place, so a concurrent or
 * interrupted build never leaves a half-written executable.
 */
export function ensureHarness(opts: { cacheDir?: string } = {}): string {
  const t = harnessTarget(opts);
  if (verified(t)) return t.exe;
  const tried: string[] = [];
  for (const cc of compilers()) {
    const r = spawnSync(cc, buildArgs(t), { encoding: 'utf8', timeout: 120_000 });
    const done = built(t, cc, r.error as NodeJS.ErrnoException | undefined, r.status, r.stderr ?? '', tried);
    if (done) return done;
  }
  throw noCompiler(tried);
}

/** ensureHarness without blocking the event loop (the explorer builds it in the background). */
async function ensureHarnessAsync(opts: { cacheDir?: string } = {}): Promise<string> {
  const t = harnessTarget(opts);
  if (verified(t)) return t.exe;
  const tried: string[] = [];
  for (const cc of compilers()) {
    const r = await new Promise<{ error?: NodeJS.ErrnoException; status: number | null; stderr: string }>((res) => {
      execFile(cc, buildArgs(t), { encoding: 'utf8', timeout: 120_000 }, (error, _stdout, stderr) => {
        const code =
          error && typeof (error as NodeJS.ErrnoException).code === 'number'
            ? (error as unknown as { code: number }).code
            : null;
        res({
          ...(error && (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? { error: error as NodeJS.ErrnoException }
            : {}),
          status: error ? (code ?? 1) : 0,
          stderr: stderr ?? '',
        });
      });
    });
    const done = built(t, cc, r.error, r.status, r.stderr, tried);
    if (done) return done;
  }
  throw noCompiler(tried);
}

interface Target {
  src: string;
  dir: string;
  exe: string;
  tmp: string;
  /** the built file's SHA-256, written beside it after the build and checked before each run */
  digest: string;
}

function harnessTarget(opts: { cacheDir?: string }): Target {
  const src = harnessSource();
  // the harness includes slope.h beside it: a change to either builds a new one
  const hash = createHash('sha256')
    .update(readFileSync(src))
    .update(readFileSync(join(dirname(src), 'slope.h')))
    .digest('hex')
    .slice(0, 16);
  const dir = join(cacheRoot(opts.cacheDir), 'measure');
  const exe = join(dir, `harness-${hash}`);
  if (!existsSync(exe)) {
    try {
      // whatever the umask: a harness directory others could write would be refused below
      if (makeDirs(dir) !== undefined) chmodSync(dir, 0o755);
    } catch (e) {
      throw new UserError(
        `cannot create ${dir} for the measurement harness: ${(e as NodeJS.ErrnoException).code ?? String(e)} — set UOPSCOPE_CACHE_DIR to a writable directory`,
      );
    }
  }
  trustDir(dir);
  return { src, dir, exe, tmp: `${exe}.${process.pid}.tmp`, digest: `${exe}.sha256` };
}

/**
 * The harness directory must be one only the user (or root) can write: the harness runs with the
 * user's rights, and in a cache on a shared directory (mode 1777) another user could otherwise
 * put a program of their own under the harness's name, or swap it between its check and its run.
 */
function trustDir(dir: string): void {
  let why: string | null;
  try {
    const st = lstatSync(dir);
    why = st.isDirectory() ? foreignWriter(st) : 'not a directory';
  } catch (e) {
    why = `unreadable (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
  if (why)
    throw new UserError(
      `the measurement harness's directory ${printable(dir, 160)} is ${why}, so uopscope does not run what it holds — set UOPSCOPE_CACHE_DIR to a directory of your own`,
    );
}

/** The built harness is there, the user's own and the file uopscope built (its digest, kept
 *  beside it in the user's directory, matches); else it is built again. */
function verified(t: Target): boolean {
  const digest = readSmallFile(t.digest, 256, { private: true });
  if (!digest.ok) return false;
  let bytes: Buffer;
  try {
    const st = lstatSync(t.exe);
    if (!st.isFile() || foreignWriter(st) || st.size > 64 << 20) return false;
    bytes = readFileSync(t.exe);
  } catch {
    return false;
  }
  return createHash('sha256').update(bytes).digest('hex') === digest.text.trim();
}

// no stack protector: the harness points the thread pointer away from libc's TLS while the region runs
const buildArgs = (t: Target): string[] => ['-O2', '-std=gnu11', '-fno-stack-protector', '-o', t.tmp, t.src];

/** After one compiler's try: the executable (renamed into place), null to try the next
 *  compiler (this one is not installed), or a UserError with the compiler's first error. */
function built(
  t: Target,
  cc: string,
  error: NodeJS.ErrnoException | undefined,
  status: number | null,
  stderr: string,
  tried: string[],
): string | null {
  if (error && error.code === 'ENOENT') {
    tried.push(cc);
    return null;
  }
  if (status === 0 && existsSync(t.tmp)) {
    writeFileAtomic(t.digest, `${createHash('sha256').update(readFileSync(t.tmp)).digest('hex')}\n`);
    renameSync(t.tmp, t.exe);
    return t.exe;
  }
  rmSync(t.tmp, { force: true });
  const first = (stderr || error?.message || '').split('\n').find((l) => /error/i.test(l)) ?? `exit ${status}`;
  throw new UserError(
    `cannot build the measurement harness with ${cc}: ${first.trim()} — uopscope measure needs a C compiler for Linux x86-64 with the kernel headers (Debian: apt-get install gcc linux-libc-dev)`,
  );
}

function noCompiler(tried: string[]): UserError {
  return new UserError(
    `uopscope measure builds a small C harness on first use and found no C compiler (tried ${tried.join(', ')}): install one (Debian: apt-get install gcc) or set CC`,
  );
}

/** One measured variant: core cycles per iteration, low (10th) and middle percentile, the
 *  shortest and longest length timed, and every length timed (the unrolled variant's two copy
 *  counts; the loop variant's lengths, whose Theil–Sen slope the figures are). */
export interface HarnessVariant {
  p10: number;
  p50: number;
  n1: number;
  n2: number;
  lengths?: number[];
}

export type HarnessResult =
  | {
      ok: true;
      method: 'perf' | 'tsc';
      repetitions: number;
      pages: number;
      /** why perf_event_open gave no cycle counter: errno, -1 when it gave one that does not count, 0 when it worked */
      perfError: number;
      calibration: [number, number];
      unrolled: HarnessVariant;
      loop: HarnessVariant;
      /** the cycle counter's smallest step (TSC ticks, or 1 for perf) */
      resolution: number;
      /** where each address stream's register started (the layout's order) */
      streams: number[];
      /** the contention canary's figure (ticks per iteration, as `loop`'s) before and after the
       *  loop variant, when one was given */
      canary?: [number, number];
      /** the loop variant's entries (harness.c lead_in: 16 + lead filler instructions before the
       *  body's top, for lead 0 … 11, then the same 12 after a front-end restart): each one's
       *  brief median (ticks per iteration, as `loop`'s) and the entry `loop` was then timed at,
       *  the fastest */
      entry?: { lead: number; p50: number[] };
    }
  | {
      ok: false;
      reason: string;
      phase?: string;
      signal?: number;
      code?: number;
      address?: number;
      offset?: number;
      pages?: number;
      maxPages?: number;
      detail?: string;
      timeout?: number;
      status?: number;
    };

interface HarnessOptions {
  /** x86 number (0 = rax … 15 = r15, not 4) of a register the region does not touch */
  counter: number;
  /** the xmm register (0 … 15, or 16 … 31 on an AVX-512 host) the region does not touch, which
   *  holds the harness's stack pointer while the region runs (prepare.ts picks it; when not
   *  given, stashRegister's choice for the decoded body) */
  stash?: number;
  /** a contention canary (canary.ts), timed just before and just after the loop variant */
  canary?: Uint8Array;
  repetitions?: number;
  timeoutSeconds?: number;
  maxPages?: number;
  cacheDir?: string;
  /** registers that start at another value than the harness's pattern (prepare.ts divisionStarts) */
  startValues?: readonly { number: number; value: bigint }[];
  /** the address streams and the run's lengths (src/measure/layout.ts layoutArgs) */
  layout?: readonly string[];
}

export const DEFAULT_REPETITIONS = 200;
const DEFAULT_TIMEOUT_S = 10;
/** pages mapped on demand outside the address streams (2 MiB, a page each): the stack, RIP-relative
 *  and absolute addresses, and an index without a base register */
const DEFAULT_MAX_PAGES = 512;
const MAX_BODY_BYTES = 4096;

function harnessArgs(body: Uint8Array, o: HarnessOptions): { args: string[]; timeout: number } {
  if (body.length === 0 || body.length > MAX_BODY_BYTES)
    throw new UserError(`the region has ${body.length} bytes of code; uopscope measure takes 1 to ${MAX_BODY_BYTES}`);
  const timeout = o.timeoutSeconds ?? DEFAULT_TIMEOUT_S;
  const args = [o.counter, o.repetitions ?? DEFAULT_REPETITIONS, timeout, o.maxPages ?? DEFAULT_MAX_PAGES].map(String);
  args.push(`x${o.stash ?? freeXmm(body)}`);
  if (o.canary) args.push(`K=${Buffer.from(o.canary).toString('hex')}`);
  for (const s of o.startValues ?? []) args.push(`${s.number}=${BigInt.asUintN(64, s.value)}`);
  args.push(...(o.layout ?? []));
  return { args, timeout };
}

let avx512: boolean | undefined;
/** Whether this host runs AVX-512 (then xmm16–31 exist and the harness clears them). */
export function hostHasAvx512(): boolean {
  if (avx512 === undefined) {
    let flags = '';
    try {
      flags = /^flags\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '';
    } catch {
      // no /proc: assume the 16 registers every x86-64 core has
    }
    avx512 = flags.split(/\s+/).includes('avx512f');
  }
  return avx512;
}

/**
 * The vector register that holds the harness's stack pointer while the region runs: one the
 * region does not touch (it would overwrite the pointer), preferring those that code compiled
 * for this host uses least — xmm31 down to xmm16 on an AVX-512 host (legacy SSE and AVX code
 * cannot name them), then xmm15 down to xmm0. Null when the region names all of them.
 */
export function stashRegister(used: ReadonlySet<string>, avx512 = hostHasAvx512()): number | null {
  const order = [
    ...(avx512 ? [...Array(16).keys()].map((k) => 31 - k) : []),
    ...[...Array(16).keys()].map((k) => 15 - k),
  ];
  return order.find((n) => !used.has(`XMM${n}`)) ?? null;
}

/** The stash register for a body decoded here (the stash must not be one the region touches). */
function freeXmm(body: Uint8Array): number {
  const used = new Set<string>();
  try {
    for (const i of decodeRegion(body, 0, 64, 'the measured code'))
      for (const r of [...i.reads, ...i.writes]) used.add(r);
  } catch {
    return stashRegister(new Set()) ?? 15; // undecodable: it faults before reaching the epilogue
  }
  const n = stashRegister(used);
  if (n === null)
    throw new UserError(
      `the code uses every vector register (xmm0 to xmm${hostHasAvx512() ? 31 : 15}): the measurement harness has none left to keep its stack pointer in`,
    );
  return n;
}

function harnessOutput(exe: string, status: number | null, stdout: string, stderr: string): HarnessResult {
  const line = stdout.trim();
  if (status !== 0 || !line.startsWith('{')) {
    throw new UserError(
      `the measurement harness (${exe}) failed: ${printable((stderr || `exit ${status}`).trim().split('\n')[0]!, 200)}`,
    );
  }
  const r = parseHarnessLine(line);
  if (!r)
    throw new UserError(`the measurement harness (${exe}) printed a malformed result; rebuild it by removing ${exe}`);
  return r;
}

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const variantOk = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  finite((v as HarnessVariant).p10) &&
  finite((v as HarnessVariant).p50) &&
  Number.isInteger((v as HarnessVariant).n1) &&
  Number.isInteger((v as HarnessVariant).n2) &&
  (v as HarnessVariant).n2 > (v as HarnessVariant).n1 &&
  ((v as HarnessVariant).lengths === undefined ||
    (Array.isArray((v as HarnessVariant).lengths) &&
      (v as HarnessVariant).lengths!.every((n) => Number.isSafeInteger(n) && n > 0)));
const entryOk = (e: unknown): boolean => {
  if (typeof e !== 'object' || e === null) return false;
  const { lead, p50 } = e as { lead: unknown; p50: unknown };
  return (
    Array.isArray(p50) &&
    p50.length > 0 &&
    p50.every(finite) &&
    Number.isInteger(lead) &&
    (lead as number) >= 0 &&
    (lead as number) < p50.length
  );
};
const optional = (o: Record<string, unknown>, key: string, ok: (x: unknown) => boolean): boolean =>
  o[key] === undefined || ok(o[key]);

/**
 * The harness's one JSON line, checked field by field (what it prints comes from a process that
 * ran the region), or null: every number finite, the reason one of those notMeasurable knows.
 */
export function parseHarnessLine(line: string): HarnessResult | null {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return null;
  const r = o as Record<string, unknown>;
  if (r.ok === true) {
    const cal = r.calibration;
    const fine =
      (r.method === 'perf' || r.method === 'tsc') &&
      Number.isInteger(r.repetitions) &&
      Number.isInteger(r.pages) &&
      Number.isInteger(r.perfError) &&
      Array.isArray(cal) &&
      cal.length === 2 &&
      cal.every(finite) &&
      variantOk(r.unrolled) &&
      variantOk(r.loop) &&
      Number.isSafeInteger(r.resolution) &&
      Array.isArray(r.streams) &&
      r.streams.every((a) => finite(a) && a > 0) &&
      optional(r, 'canary', (c) => Array.isArray(c) && c.length === 2 && c.every(finite)) &&
      optional(r, 'entry', entryOk);
    return fine ? (o as HarnessResult) : null;
  }
  if (r.ok !== false || typeof r.reason !== 'string' || !REASONS.has(r.reason)) return null;
  const int = (x: unknown): boolean => Number.isSafeInteger(x);
  const fine =
    optional(r, 'phase', (x) => typeof x === 'string' && PHASES.has(x)) &&
    ['signal', 'code', 'offset', 'pages', 'maxPages', 'timeout', 'status'].every((k) => optional(r, k, int)) &&
    // a 64-bit address, above 2^53 when it is a kernel or non-canonical one (printed approximately)
    optional(r, 'address', (x) => finite(x) && (x as number) >= 0) &&
    optional(r, 'detail', (x) => typeof x === 'string' && x.length <= 200);
  return fine
    ? ({
        ...(o as HarnessResult),
        ...(typeof r.detail === 'string' ? { detail: printable(r.detail, 200) } : {}),
      } as HarnessResult)
    : null;
}
const REASONS = new Set([
  'pages',
  'map',
  'protection',
  'general-protection',
  'segv',
  'illegal-instruction',
  'arithmetic',
  'bus',
  'trap',
  'setup',
  'syscall',
  'timeout',
  'killed',
  'exit',
  'invalid-result',
]);
const PHASES = new Set(['setup', 'calibration', 'unrolled', 'loop']);

/** Runs the harness on `body` (the region's bytes, its closing branch removed). */
export function runHarness(body: Uint8Array, o: HarnessOptions): HarnessResult {
  const { args, timeout } = harnessArgs(body, o);
  const exe = ensureHarness(o.cacheDir !== undefined ? { cacheDir: o.cacheDir } : {});
  const r = spawnSync(exe, args, { input: body, encoding: 'utf8', timeout: (timeout + 5) * 1000, maxBuffer: 1 << 20 });
  if (r.error) throw new UserError(`the measurement harness (${exe}) did not run: ${r.error.message}`);
  return harnessOutput(exe, r.status, r.stdout, r.stderr);
}

/** runHarness in the background: `signal` kills the harness (and, with it, its child). */
export async function runHarnessAsync(
  body: Uint8Array,
  o: HarnessOptions,
  signal?: AbortSignal,
): Promise<HarnessResult> {
  const { args, timeout } = harnessArgs(body, o);
  const exe = await ensureHarnessAsync(o.cacheDir !== undefined ? { cacheDir: o.cacheDir } : {});
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = execFile(
      exe,
      args,
      {
        encoding: 'utf8',
        timeout: (timeout + 5) * 1000,
        maxBuffer: 1 << 20,
        killSignal: 'SIGKILL',
        ...(signal ? { signal } : {}),
      },
      (error, stdout, stderr) => {
        if (signal?.aborted) {
          reject(signal.reason ?? new Error('cancelled'));
          return;
        }
        if (error && typeof (error as NodeJS.ErrnoException).code !== 'number') {
          reject(new UserError(`the measurement harness (${exe}) did not run: ${error.message}`));
          return;
        }
        try {
          resolve(harnessOutput(exe, error ? (error as unknown as { code: number }).code : 0, stdout, stderr));
        } catch (e) {
          reject(e);
        }
      },
    );
    child.stdin?.on('error', () => {}); // the harness ended before reading: its output says why
    child.stdin?.end(Buffer.from(body));
  });
}

/** Core cycles per iteration from a harness figure: TSC ticks over ticks per cycle (the
 *  calibration chain's, mean of before and after), or the perf counter's cycles as they are. */
export function cyclesOf(r: Extract<HarnessResult, { ok: true }>, ticks: number): number {
  if (r.method === 'perf') return ticks;
  const perCycle = (r.calibration[0] + r.calibration[1]) / 2;
  return ticks / perCycle;
}

/** One line saying why a region could not be measured; `where` names the faulting line
 *  (' at line 2, idiv rcx') when the caller knows it from the result's offset. */
export function notMeasurable(r: Extract<HarnessResult, { ok: false }>, where = ''): string {
  const at = r.phase && r.phase !== 'unrolled' && r.phase !== 'loop' ? ` (during the harness's ${r.phase})` : where;
  const hex = r.address !== undefined ? `0x${r.address.toString(16)}` : '?';
  switch (r.reason) {
    case 'illegal-instruction':
      return `not measurable: an illegal or unsupported instruction (SIGILL)${at}`;
    case 'arithmetic':
      return `not measurable: an arithmetic fault (SIGFPE: a division by zero or an overflowing division)${at}`;
    case 'general-protection':
      return `not measurable: a general-protection fault (a privileged instruction such as hlt, or a non-canonical address)${at}`;
    case 'protection':
      return `not measurable: the region accessed protected memory at ${hex}${at} (the harness's code is execute-only)`;
    case 'pages':
      return `not measurable: the region touches more than ${r.maxPages} pages of memory (the harness's budget; the next was at ${hex})`;
    case 'map':
      return `not measurable: the region accessed ${hex}, where the harness cannot map a page`;
    case 'segv':
      return `not measurable: the region accessed ${hex}, outside user space`;
    case 'bus':
      return `not measurable: a bus error (SIGBUS) at ${hex}`;
    case 'trap':
      return `not measurable: a trap (SIGTRAP: int3 or a debug instruction)`;
    case 'syscall':
      return 'not measurable: the region made a system call, which the harness forbids';
    case 'timeout':
      return `not measurable: the region ran longer than ${r.timeout} s`;
    case 'setup':
      return `not measurable: the harness could not set up (${r.detail})`;
    case 'invalid-result':
      return "not measurable: the harness's child sent back an impossible result (the region wrote over the harness's memory); nothing it measured is shown";
    default:
      return `not measurable: the harness's child ended unexpectedly (${r.reason}${r.signal ? `, signal ${r.signal}` : ''}${r.status !== undefined ? `, status ${r.status}` : ''})`;
  }
}
