// Fuzz of the measure harness's sandbox (assets/measure/harness.c): straight-line regions that
// write wherever a region can reach — the data pages around every register's start value, the
// stack, their own code (rip-relative), addresses loaded from memory, random user and kernel
// addresses, `rep stosq` runs, and (bypassing prepare.ts, which refuses them) the thread
// pointer's block through fs — encoded here from a small menu, decoded by uopscope, prepared as
// `uopscope measure` prepares a region and run in the harness. A region's own fault is a result
// ("not measurable"); a finding is anything that means the region reached the harness: a system
// call (the region has none, so one means it returned into harness code), an impossible result,
// a child that died otherwise, a harness that failed or printed something malformed, or a run
// far beyond its time limit.
import { loadRegion } from '../../src/disasm/index.js';
import { runHarness, type HarnessResult } from '../../src/measure/harness.js';
import { prepareRegion } from '../../src/measure/prepare.js';
import { caseSeed, chance, pick, rng, type Rng } from './rng.js';

const TIMEOUT_S = 5;
/** what a region's own behaviour may end in */
const REGION_FAULTS = new Set([
  'pages',
  'map',
  'protection',
  'general-protection',
  'segv',
  'illegal-instruction',
  'arithmetic',
  'bus',
  'timeout',
]);

const hex = (bytes: number[]): string => Buffer.from(bytes).toString('hex');
const le = (v: bigint, n: number): number[] =>
  Array.from({ length: n }, (_, k) => Number((BigInt.asUintN(64, v) >> BigInt(8 * k)) & 0xffn));
const rex = (w: boolean, r: number, b: number): number => 0x40 | (w ? 8 : 0) | ((r >> 3) << 2) | (b >> 3);
/** modrm (+ sib) + disp32 for [base + disp] */
const mem = (reg: number, base: number, disp: number): number[] => [
  0x80 | ((reg & 7) << 3) | (base & 7),
  ...((base & 7) === 4 ? [0x24] : []),
  ...le(BigInt(disp), 4),
];

function value(next: Rng): bigint {
  const r = () => BigInt(next());
  switch (next() % 9) {
    case 0:
      return 0x2324000n + (r() % 64n) * 0x240n; // near the start values
    case 1:
      return 0x2324000n + (r() % 0x100000n) * 8n; // the data pages' neighbourhood
    case 2:
      return ((r() << 16n) | r()) & 0x7ffffffff000n; // a user-space address
    case 3:
      return 0x100000000000n + ((r() << 8n) % 0x500000000000n); // where code and TLS blocks are mapped
    case 4:
      return 0x7ff000000000n + ((r() << 4n) % 0xfff000000n); // where libraries and the stack usually are
    case 5:
      return 0xffff800000000000n + r(); // kernel space
    case 6:
      return (r() << 32n) | r(); // anything, often non-canonical
    case 7:
      return r() % 4096n;
    default:
      return 0x10000n;
  }
}

interface Gen {
  regs: number[];
  xmms: number[];
  direct: boolean;
}

function instruction(next: Rng, g: Gen): number[] {
  const r = () => pick(next, g.regs);
  const x = () => pick(next, g.xmms);
  const disp = () => pick(next, [0, 8, -8, 64, 4096, -4096, 0x240, (next() % 0x20000) - 0x10000]);
  switch (next() % 16) {
    case 0:
    case 1: {
      const d = r();
      return [rex(true, 0, d), 0xb8 + (d & 7), ...le(value(next), 8)];
    } // mov r, imm64
    case 2:
    case 3: {
      const s = r(),
        b = r();
      return [rex(true, s, b), 0x89, ...mem(s, b, disp())];
    } // mov [b + d], s
    case 4: {
      const d = r(),
        b = r();
      return [rex(true, d, b), 0x8b, ...mem(d, b, disp())];
    } // mov d, [b + d]
    case 5: {
      const b = r();
      return [rex(false, 0, b), 0xc6, ...mem(0, b, disp()), next() & 0xff];
    } // mov byte [b + d], imm8
    case 6: {
      const d = r();
      return [rex(true, d, 0), 0x8d, ((d & 7) << 3) | 5, ...le(BigInt((next() % 0x4000) - 0x2000), 4)];
    } // lea d, [rip + d]
    case 7: {
      const d = r();
      return [...(d >= 8 ? [0x41] : []), (chance(next, 0.5) ? 0x50 : 0x58) + (d & 7)];
    } // push / pop
    case 8: {
      const s = r();
      return [rex(true, s, 4), 0x89, 0xc0 | ((s & 7) << 3) | 4];
    } // mov rsp, s
    case 9: {
      const s = r(),
        d = r();
      return [rex(true, s, d), pick(next, [0x01, 0x31, 0x29]), 0xc0 | ((s & 7) << 3) | (d & 7)];
    } // add/xor/sub d, s
    case 10: {
      const d = r();
      return [rex(true, 0, d), 0xc1, 0xe0 | (d & 7), next() % 64];
    } // shl d, imm8
    case 11:
      return [0xf3, 0x48, 0xab]; // rep stosq
    case 12: {
      const v = x(),
        s = r();
      return [0x66, rex(true, v, s), 0x0f, 0x6e, 0xc0 | ((v & 7) << 3) | (s & 7)];
    } // movq xmm, r
    case 13: {
      const v = x(),
        b = r();
      return [0xf3, ...(v >= 8 || b >= 8 ? [rex(false, v, b)] : []), 0x0f, 0x7f, ...mem(v, b, disp())];
    } // movdqu [b + d], xmm
    case 14: {
      const s = r(),
        b = r();
      return [rex(true, s, b), 0x87, ...mem(s, b, disp())];
    } // xchg [b + d], s
    default: {
      if (!g.direct) {
        const d = r();
        return [rex(true, 0, d), 0xb8 + (d & 7), ...le(value(next), 8)];
      }
      const s = r(); // mov fs:[d], s
      return [0x64, rex(true, s, 0), 0x89, 0x04 | ((s & 7) << 3), 0x25, ...le(BigInt(disp() & 0xffff), 4)];
    }
  }
}

export interface HarnessCase {
  hex: string;
  direct: boolean;
}

/** One case: a region of 1 to 40 instructions; one in five is run without prepare.ts's checks. */
export function genHarnessCase(seed: number): HarnessCase {
  const next = rng(seed);
  const direct = chance(next, 0.2);
  // direct cases leave r15 (the counter) and xmm15 (the stash) alone, as prepare.ts would
  const regs = [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, ...(direct ? [] : [15])].filter(() => chance(next, 0.6));
  const g: Gen = { regs: regs.length ? regs : [3], xmms: direct ? [0, 1, 2, 14] : [0, 1, 2, 15], direct };
  const n = 1 + (next() % 40);
  const bytes: number[] = [];
  for (let k = 0; k < n; k++) bytes.push(...instruction(next, g));
  return { hex: hex(bytes), direct };
}

export interface HarnessFuzzStats {
  seed: number;
  cases: number;
  measured: number;
  faulted: number;
  refused: number;
  reasons: Record<string, number>;
  maxMs: number;
}

/**
 * Runs cases seeded from `seed` until `seconds` passed or `maxCases` ran; a finding throws an
 * Error naming the seed and case (replay: genHarnessCase(caseSeed(seed, i))).
 */
export async function runHarnessFuzz(
  seed: number,
  seconds: number,
  maxCases = Infinity,
  cacheDir?: string,
  log?: (s: string) => void,
): Promise<HarnessFuzzStats> {
  const stats: HarnessFuzzStats = { seed, cases: 0, measured: 0, faulted: 0, refused: 0, reasons: {}, maxMs: 0 };
  const end = performance.now() + seconds * 1000;
  let lastLog = performance.now();
  for (let i = 0; i < maxCases && performance.now() < end; i++) {
    const cs = caseSeed(seed, i);
    const c = genHarnessCase(cs);
    const where = `harness fuzz seed ${seed} case ${i} (case seed ${cs}, ${c.direct ? 'direct' : 'prepared'}, --hex ${c.hex})`;
    let region;
    try {
      region = await loadRegion({ hex: c.hex });
    } catch {
      stats.refused++;
      stats.cases++;
      continue;
    }
    let body: Uint8Array,
      counter = 15,
      stash = 15;
    if (c.direct) {
      body = Uint8Array.from(Buffer.from(c.hex, 'hex'));
    } else {
      const p = prepareRegion(region.instructions);
      if (!p.ok) {
        stats.refused++;
        stats.cases++;
        continue;
      }
      ({ body } = p.region);
      counter = p.region.counter.number;
      stash = p.region.stash;
    }
    const t0 = performance.now();
    let r: HarnessResult;
    try {
      r = runHarness(body, {
        counter,
        stash,
        repetitions: 10,
        timeoutSeconds: TIMEOUT_S,
        ...(cacheDir ? { cacheDir } : {}),
      });
    } catch (e) {
      throw new Error(`${where}: the harness failed: ${(e as Error).message}`);
    }
    const ms = performance.now() - t0;
    if (ms > (TIMEOUT_S + 20) * 1000)
      throw new Error(`${where}: took ${ms.toFixed(0)} ms, beyond the ${TIMEOUT_S} s limit`);
    if (!r.ok && !REGION_FAULTS.has(r.reason)) throw new Error(`${where}: ${JSON.stringify(r)}`);
    stats.cases++;
    stats.maxMs = Math.max(stats.maxMs, ms);
    if (r.ok) stats.measured++;
    else {
      stats.faulted++;
      stats.reasons[r.reason] = (stats.reasons[r.reason] ?? 0) + 1;
    }
    if (log && performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      log(JSON.stringify(stats));
    }
  }
  return stats;
}
