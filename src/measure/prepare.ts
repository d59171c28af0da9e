// What the harness runs for a region: its body's bytes (the closing branch taken off), a counter
// register the region does not touch, and the start values that differ from the harness's
// pattern (a division's dividend high half), or the reason the region cannot be measured. A
// region with a branch inside is prepared one side at a time (prepareSide: the lines of that
// side of the branch comparison, src/disasm's branchPaths, as straight-line code).

import type { DecodedInstruction } from '../disasm/types.js';
import { hostHasAvx512, stashRegister } from './harness.js';

/** x86 register numbers, in the order counters are picked (r15 first: compilers use it least). */
const GPRS: [string, number][] = [
  ['R15', 15],
  ['R14', 14],
  ['R13', 13],
  ['R12', 12],
  ['R11', 11],
  ['R10', 10],
  ['R9', 9],
  ['R8', 8],
  ['RBP', 5],
  ['RBX', 3],
  ['RSI', 6],
  ['RDI', 7],
  ['RDX', 2],
  ['RCX', 1],
  ['RAX', 0],
];
const NUMBER = new Map(GPRS);

/** The harness's start values (assets/measure/harness.c PATTERN and REG_STEP): register n
 *  starts at PATTERN + n × REG_STEP unless the preparation gives it another. */
const PATTERN = 0x2324000n;
const REG_STEP = 0x240n;
const patternOf = (n: number): bigint => PATTERN + BigInt(n) * REG_STEP;

/** Instructions refused before anything runs: they leave user space's own computation. */
const SYSTEM = new Set(['SYSCALL', 'SYSENTER', 'INT', 'INT1', 'INT3', 'INTO']);
/** Instructions that read or write registers they do not name (every vector register: the
 *  harness keeps its stack pointer in one the region does not touch) or the thread pointer. */
const HIDDEN_STATE = /^(?:FX(?:SAVE|RSTOR)(?:64)?|XSAVE\w*|XRSTOR\w*|(?:RD|WR)[FG]SBASE)$/;

interface StartValue {
  /** lower-case 64-bit name, 'rdx' */
  register: string;
  number: number;
  value: bigint;
  why: string;
}

export interface PreparedRegion {
  body: Uint8Array;
  /** the region's lines the body holds, in order (to name the line of a fault) */
  lines: number[];
  /** each line's byte offset in the body */
  offsets: number[];
  /** the closing branch taken off (line number), or null when the region has none */
  closingBranch: number | null;
  /** branches of the side's path taken off (the internal branch, a jump over the other side) */
  removedBranches: number[];
  /** of those, the side's later conditional branches inside the region: taken off as not taken,
   *  the way the branch comparison's side follows them (their fall-through) */
  notTaken: number[];
  counter: { name: string; number: number };
  /** the xmm register (0 … 31, harness.ts stashRegister) the region does not touch, where the
   *  harness keeps its stack pointer */
  stash: number;
  /** registers that start at another value than the harness's pattern, and why */
  startValues: StartValue[];
}

type Preparation = { ok: true; region: PreparedRegion } | { ok: false; why: string; internalBranch?: number };

/** The loop's closing branch: the last instruction that jumps back to the region's start or
 *  before it (an IACA-marked loop jumps back to its start marker, just before the region). It is
 *  usually the last line; gcc can put the IACA end marker after a few lines that follow the loop
 *  (crc32_table's `not eax`), which the simulation runs in the loop all the same, so does the harness. */
function closingBranchOf(instrs: readonly DecodedInstruction[]): number | null {
  for (let k = instrs.length - 1; k >= 0; k--) {
    const b = instrs[k]!.branch;
    if (!b) continue;
    const back =
      (b.kind === 'conditional' || b.kind === 'unconditional') &&
      (b.targetLine === 0 || (b.targetLine === null && b.target !== null && b.target <= instrs[0]!.address));
    if (back) return instrs[k]!.line;
  }
  return null;
}

export function prepareRegion(instrs: readonly DecodedInstruction[], bitness: 32 | 64 = 64): Preparation {
  if (bitness !== 64) return { ok: false, why: 'uopscope measure runs 64-bit code only; this region is 32-bit' };
  if (!instrs.length) return { ok: false, why: 'the region has no instructions' };
  return prepare(
    instrs,
    instrs.map((i) => i.line),
    null,
  );
}

/**
 * One side of the branch comparison: `lines` (branchPaths' left or right, in execution order) as
 * straight-line code, without the internal branch at `branchLine`, the unconditional jumps the
 * side follows and the closing branch. Another conditional branch on the side is refused.
 */
export function prepareSide(
  instrs: readonly DecodedInstruction[],
  lines: readonly number[],
  branchLine: number,
  bitness: 32 | 64 = 64,
): Preparation {
  if (bitness !== 64) return { ok: false, why: 'uopscope measure runs 64-bit code only; this region is 32-bit' };
  return prepare(instrs, lines, branchLine);
}

type Refusal = Extract<Preparation, { ok: false }>;

function prepare(
  instrs: readonly DecodedInstruction[],
  lines: readonly number[],
  branchLine: number | null,
): Preparation {
  const closing = closingBranchOf(instrs);
  const byLine = new Map(instrs.map((i) => [i.line, i]));
  const removed: number[] = [];
  const notTaken: number[] = [];
  const body: DecodedInstruction[] = [];
  for (const line of lines) {
    const i = byLine.get(line)!;
    if (line === closing) continue;
    const verdict = lineVerdict(i, line, branchLine);
    if (verdict === 'remove') removed.push(line);
    else if (verdict === 'not-taken') {
      removed.push(line);
      notTaken.push(line);
    } else if (verdict === 'keep') body.push(i);
    else return verdict;
  }
  if (!body.length)
    return {
      ok: false,
      why: branchLine === null ? 'the region is only its closing branch' : 'this side is only branches',
    };
  const left = registersLeft(instrs);
  if (!left.ok) return left;
  const { free, stash } = left;
  const offsets: number[] = [];
  let at = 0;
  for (const i of body) {
    offsets.push(at);
    at += i.length;
  }
  return {
    ok: true,
    region: {
      body: Uint8Array.from(Buffer.from(body.map((i) => i.bytes).join(''), 'hex')),
      lines: body.map((i) => i.line),
      offsets,
      closingBranch: closing,
      removedBranches: removed,
      notTaken,
      counter: { name: free[0].toLowerCase(), number: free[1] },
      stash,
      startValues: divisionStarts(body),
    },
  };
}

/** Whether a line goes into the body, is taken off (a branch the side follows), or refuses the
 *  region (what the harness cannot run). */
function lineVerdict(
  i: DecodedInstruction,
  line: number,
  branchLine: number | null,
): 'keep' | 'remove' | 'not-taken' | Refusal {
  if (SYSTEM.has(i.mnemonic))
    return {
      ok: false,
      why: `line ${i.line} (${i.intel}) is a system call or interrupt: the harness does not run it`,
    };
  // xbegin's abort resumes at its fallback address, which may be inside bytes never decoded here
  // (a hidden system call): any flow that is not a branch handled below is refused before running
  if (i.otherFlow)
    return {
      ok: false,
      why: `line ${i.line} (${i.intel}) ${i.otherFlow === 'transaction' ? 'starts, ends or aborts a transaction, which can resume elsewhere' : i.otherFlow === 'interrupt' ? 'is a system call or interrupt' : 'always raises an exception'}: the harness does not run it`,
    };
  // popf is how user code sets the trap flag: every instruction after it would trap (SIGTRAP),
  // and the harness's own code too, so the fault would not be the region's
  if (/^POPF[DQ]?$/.test(i.mnemonic))
    return {
      ok: false,
      why: `line ${i.line} (${i.intel}) loads the flags register, which can set the trap flag (a trap after every instruction): the harness does not run it`,
    };
  if (HIDDEN_STATE.test(i.mnemonic))
    return {
      ok: false,
      why: `line ${i.line} (${i.intel}) saves, restores or reads state the harness keeps from the region (every vector register, or the thread pointer): the harness does not run it`,
    };
  if (i.memory?.segment === 'FS' || i.memory?.segment === 'GS')
    return {
      ok: false,
      why: `line ${i.line} (${i.intel}) addresses memory through ${i.memory.segment.toLowerCase()}, the thread pointer, which the harness does not give the region`,
    };
  if (!i.branch) return 'keep';
  // on a side: the internal branch, the jumps the side follows, and the loop's exits (a jump
  // out of the region is not taken while the loop runs, as the simulation assumes)
  if (
    branchLine !== null &&
    (line === branchLine ||
      (i.branch.kind === 'unconditional' && i.branch.targetLine !== null) ||
      (i.branch.kind === 'conditional' && i.branch.targetLine === null && i.branch.target !== null))
  )
    return 'remove';
  // another conditional branch inside the region, on a side: the branch comparison's side
  // (src/disasm branchPaths) follows its fall-through, so the side's straight-line code runs it
  // not taken, as the side's prediction simulates it
  if (branchLine !== null && i.branch.kind === 'conditional' && i.branch.targetLine !== null) return 'not-taken';
  const b = i.branch;
  const kind =
    b.targetLine === null
      ? b.kind === 'conditional'
        ? 'jumps out of the region (a loop exit: the branch comparison has no second side)'
        : 'leaves the straight-line path (a call, a return or an indirect or outgoing jump)'
      : b.backward
        ? 'jumps back inside the region (an inner loop)'
        : 'branches inside the region';
  return branchLine === null
    ? {
        ok: false,
        why: `line ${i.line} (${i.intel}) ${kind}: the harness runs straight-line code; measure a region without it (--range)`,
        internalBranch: i.line,
      }
    : { ok: false, why: `line ${i.line} (${i.intel}) ${kind} on this side: the harness runs straight-line code` };
}

/** A general-purpose register for the loop's counter and an xmm register for the harness's stack
 *  pointer that the region does not touch. */
function registersLeft(
  instrs: readonly DecodedInstruction[],
): { ok: true; free: [string, number]; stash: number } | Refusal {
  const used = new Set<string>();
  for (const i of instrs) {
    for (const r of [...i.reads, ...i.writes]) used.add(r);
    if (i.memory?.base) used.add(i.memory.base);
    if (i.memory?.index) used.add(i.memory.index);
  }
  const free = GPRS.find(([name]) => !used.has(name));
  if (!free)
    return {
      ok: false,
      why: 'the region uses every general-purpose register: the "loop" variant has none left for its counter',
    };
  const stash = stashRegister(used);
  if (stash === null)
    return {
      ok: false,
      why: `the region uses every vector register (xmm0 to xmm${hostHasAvx512() ? 31 : 15}): the harness has none left to keep its stack pointer in`,
    };
  return { ok: true, free, stash };
}

/** The operand size of a DIV/IDIV from its signature ('DIV (R64)', 'IDIV (M32)'). */
function divisionSize(i: DecodedInstruction): number | null {
  const m = /\((?:R|M)(8|16|32|64)\)/.exec(i.signature);
  return m ? Number(m[1]) : null;
}

/**
 * Start values that make the body's divisions run without a quotient overflow, when the region
 * itself leaves the dividend's high half to its inputs: with every register at the pattern,
 * `div rcx` divides rdx:rax (rdx > rcx) by rcx and the quotient overflows, which the program's
 * own inputs would not do. An unsigned division of high half h and divisor d cannot overflow
 * when h < d (a signed one when, in addition, the low half over d fits: true for the pattern's
 * values, all below 2^31), and after a division h is the remainder, below d again. So:
 *  - the high half (rdx, or ah for an 8-bit division) starts at 0 when no line before the
 *    division writes it; after a division it holds the remainder, below the divisor again;
 *  - a divisor register no line before the division writes starts at the pattern, non-zero in
 *    the operand's size (one more when its low byte is 0, for an 8-bit division).
 * A region that sets the high half or the divisor itself (`xor edx, edx`, `cqo`, a divisor it
 * computes or loads) is run as it is: its division by zero or overflow is its own, and refused.
 */
export function divisionStarts(body: readonly DecodedInstruction[]): StartValue[] {
  const starts = new Map<string, StartValue>();
  const writtenBefore = (k: number, reg: string): boolean =>
    body.slice(0, k).some((i) => i.writes.includes(reg as never));
  body.forEach((i, k) => {
    if (i.mnemonic !== 'DIV' && i.mnemonic !== 'IDIV') return;
    const size = divisionSize(i);
    if (size === null) return;
    const what = `line ${i.line}, ${i.intel}`;
    if (size === 8) {
      if (!writtenBefore(k, 'RAX') && !starts.has('RAX')) {
        starts.set('RAX', {
          register: 'rax',
          number: 0,
          value: patternOf(0) & ~0xffffn,
          why: `ah, the high half of the dividend of ${what}, starts at 0`,
        });
      }
    } else if (!writtenBefore(k, 'RDX') && !starts.has('RDX')) {
      starts.set('RDX', { register: 'rdx', number: 2, value: 0n, why: `the high half of the dividend of ${what}` });
    }
    const reg = i.operands[0]?.kind.startsWith('R') ? i.operands[0].register : undefined;
    const n = reg !== undefined ? NUMBER.get(reg) : undefined;
    if (
      reg === undefined ||
      n === undefined ||
      reg === 'RAX' ||
      reg === 'RDX' ||
      writtenBefore(k, reg) ||
      starts.has(reg)
    )
      return;
    const mask = (1n << BigInt(size)) - 1n;
    const v = patternOf(n);
    if ((v & mask) === 0n)
      starts.set(reg, {
        register: reg.toLowerCase(),
        number: n,
        value: v + 1n,
        why: `the divisor of ${what}, non-zero in ${size} bits`,
      });
  });
  return [...starts.values()];
}

/** The region's line at a byte offset of the body (the harness reports where a fault happened). */
export function lineAtOffset(p: PreparedRegion, offset: number | undefined): number | null {
  if (offset === undefined || offset < 0) return null;
  let line: number | null = null;
  p.offsets.forEach((o, k) => {
    if (o <= offset) line = p.lines[k]!;
  });
  return line;
}
