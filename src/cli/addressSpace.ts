// What fits under an address-space limit (`ulimit -v`, RLIMIT_AS). Every worker thread is a V8
// isolate that reserves its own code range (512 MiB on x64 Node, measured: a worker adds about
// 540 MB to the process's address space before running anything), so under a limit a worker that
// does not fit would abort the whole process with V8's out-of-memory dump. Linux only: elsewhere
// (no /proc) nothing is limited here.
import { readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import { grouped } from '../disasm/limits.js';

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

/** The address space a region's analysis and simulations take beyond what is in use once its bytes
 *  are decoded (before its lines are described): a fixed part and a part per line, with room.
 *  Measured through bin/uopscope.cjs on Node 20, `report -i 1 --fast`, loops of loads, stores,
 *  adds and multiplies, with what was in use after describing the lines subtracted from the
 *  limit: 40,000 lines ran in 561 MiB (14.4 KiB a line); 10,000 lines failed in 177 MiB, 50,000
 *  in 531 MiB, 70,000 in 946 MiB (13.8 KiB a line). That is about 44 MiB and 14 KiB a line, to
 *  which describing the lines adds 3.2 KiB a line (1,103 MiB in use for 99,999 lines against 818
 *  for 9,999): taken here as 64 MiB and 20 KiB a line (docs/hostile-input.md). */
export const REGION_FIXED_BYTES = 64 * 2 ** 20;
export const REGION_BYTES_PER_LINE = 20 * 1024;
/** The same for a region only listed (`disasm`) or drawn (`graph`), not simulated. Measured as
 *  above under 1,000,000 KiB (about 213 MiB left once counted): `disasm` of 49,999 lines and
 *  `graph --dg` of 19,999 ran, `graph --dg` and `--cfg` of 49,999 and `disasm` of 99,999
 *  failed; under 1,500,000 `disasm` and `graph --dg` of 99,999 ran: 6 KiB a line, with the
 *  same fixed part. */
const LISTED_BYTES_PER_LINE = 6 * 1024;

/** Under an address-space limit, refuses in one line a region of `lines` that the limit leaves no
 *  room for (`perLine` beside the fixed part): V8 would end the process with its out-of-memory
 *  dump, seconds or minutes later. */
export function refuseRegionOverLimit(
  lines: number,
  proc?: { limits: string; status: string },
  perLine = REGION_BYTES_PER_LINE,
): void {
  const limit = addressSpaceLimit(proc?.limits);
  if (limit === null) return;
  const used = addressSpaceUsed(proc?.status);
  if (used === null) return;
  const needed = REGION_FIXED_BYTES + lines * perLine;
  if (used + needed <= limit) return;
  const MB = 2 ** 20;
  // what to raise it to, in ulimit -v's KiB, rounded up to a hundred thousand
  const raiseTo = Math.ceil((used + needed) / 1024 / 100_000) * 100_000;
  throw new UserError(
    `a region of ${grouped(lines)} lines needs about ${grouped(Math.ceil(needed / MB))} MiB of address space, but the limit set by ulimit -v (${grouped(Math.floor(limit / 1024))} KiB) leaves ${grouped(Math.max(0, Math.floor((limit - used) / MB)))} MiB: raise it (ulimit -v ${raiseTo}, or unlimited) or pick a smaller region (--region, --function, --range)`,
  );
}

/** refuseRegionOverLimit for a region only listed or drawn. */
export const refuseListedRegionOverLimit = (lines: number): void =>
  refuseRegionOverLimit(lines, undefined, LISTED_BYTES_PER_LINE);
