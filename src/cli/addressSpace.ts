// What fits under an address-space limit (`ulimit -v`, RLIMIT_AS). Every worker thread is a V8
// isolate that reserves its own code range (512 MiB on x64 Node, measured: a worker adds about
// 540 MB to the process's address space before running anything), so under a limit a worker that
// does not fit would abort the whole process with V8's out-of-memory dump. Linux only: elsewhere
// (no /proc) nothing is limited here.
import { readFileSync } from 'node:fs';

/** The address space one more worker thread takes (its code range, heap and stack), with room. */
export const WORKER_ADDRESS_SPACE = 640 * 2 ** 20;

/** The soft address-space limit in bytes, or null when there is none (or it cannot be read). */
function addressSpaceLimit(limits?: string): number | null {
  try {
    const m = /^Max address space\s+(\S+)/m.exec(limits ?? readFileSync('/proc/self/limits', 'utf8'));
    return m === null || m[1] === 'unlimited' ? null : Number(m[1]);
  } catch {
    return null;
  }
}

/** The process's address space in use now, in bytes (VmSize), or null. */
function addressSpaceUsed(status?: string): number | null {
  try {
    const m = /^VmSize:\s+(\d+) kB/m.exec(status ?? readFileSync('/proc/self/status', 'utf8'));
    return m === null ? null : Number(m[1]) * 1024;
  } catch {
    return null;
  }
}

/** The memory one simulation of a region takes per line, with room: a whole report measured 22 to
 *  25 KB resident per line (10,000 to 100,000 lines, one iteration, --fast; docs/hostile-input.md). */
export const SIMULATION_BYTES_PER_LINE = 32 * 1024;

/** Of `wanted` worker threads, how many fit under the address-space limit (all when there is none),
 *  leaving room for the simulations themselves: each thread, the workers and the calling one,
 *  runs one and needs `perThread` bytes for it beyond a worker's fixed reservation. */
export function workersThatFit(wanted: number, proc?: { limits: string; status: string }, perThread = 0): number {
  if (wanted <= 0) return 0;
  const limit = addressSpaceLimit(proc?.limits);
  if (limit === null) return wanted;
  const used = addressSpaceUsed(proc?.status);
  if (used === null) return 0;
  const room = limit - used - perThread;
  return Math.max(0, Math.min(wanted, Math.floor(room / (WORKER_ADDRESS_SPACE + perThread))));
}
