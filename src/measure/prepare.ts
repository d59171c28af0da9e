// What the harness runs for a region: its body's bytes (the closing branch taken off) and a
// counter register the region does not touch, or the reason the region cannot be measured.

import type { DecodedInstruction } from '../disasm/types.js';

/** x86 register numbers, in the order counters are picked (r15 first: compilers use it least). */
const GPRS: [string, number][] = [
  ['R15', 15], ['R14', 14], ['R13', 13], ['R12', 12], ['R11', 11], ['R10', 10], ['R9', 9], ['R8', 8],
  ['RBP', 5], ['RBX', 3], ['RSI', 6], ['RDI', 7], ['RDX', 2], ['RCX', 1], ['RAX', 0],
];

/** Instructions refused before anything runs: they leave user space's own computation. */
const SYSTEM = new Set(['SYSCALL', 'SYSENTER', 'INT', 'INT1', 'INT3', 'INTO']);

export interface PreparedRegion {
  body: Uint8Array;
  /** the closing branch taken off (line number), or null when the region has none */
  closingBranch: number | null;
  counter: { name: string; number: number };
}

export type Preparation = { ok: true; region: PreparedRegion } | { ok: false; why: string };

export function prepareRegion(instrs: readonly DecodedInstruction[], bitness: 32 | 64 = 64): Preparation {
  if (bitness !== 64) return { ok: false, why: 'uopscope measure runs 64-bit code only; this region is 32-bit' };
  if (!instrs.length) return { ok: false, why: 'the region has no instructions' };
  const last = instrs[instrs.length - 1]!;
  // the loop's closing branch: the last instruction, jumping back to the region's start or before
  // it (an IACA-marked loop jumps back to its start marker, just before the region)
  const b = last.branch;
  const backToStart = !!b && (b.kind === 'conditional' || b.kind === 'unconditional')
    && (b.targetLine === 0 || (b.targetLine === null && b.target !== null && b.target <= instrs[0]!.address));
  const closing = backToStart ? last.line : null;
  const body = closing === null ? instrs : instrs.slice(0, -1);
  for (const i of body) {
    if (SYSTEM.has(i.mnemonic)) return { ok: false, why: `line ${i.line} (${i.intel}) is a system call or interrupt: the harness does not run it` };
    if (i.branch) {
      return { ok: false, why: `line ${i.line} (${i.intel}) branches inside the region: uopscope measure runs straight-line regions (a loop's closing branch is taken off); measuring each side of a branch is not implemented — measure a region without it (--range)` };
    }
  }
  if (!body.length) return { ok: false, why: 'the region is only its closing branch' };
  const used = new Set<string>();
  for (const i of instrs) {
    for (const r of [...i.reads, ...i.writes]) used.add(r);
    if (i.memory?.base) used.add(i.memory.base);
    if (i.memory?.index) used.add(i.memory.index);
  }
  const free = GPRS.find(([name]) => !used.has(name));
  if (!free) return { ok: false, why: 'the region uses every general-purpose register: the "loop" variant has none left for its counter' };
  const hex = body.map((i) => i.bytes).join('');
  return { ok: true, region: { body: Uint8Array.from(Buffer.from(hex, 'hex')), closingBranch: closing, counter: { name: free[0].toLowerCase(), number: free[1] } } };
}
