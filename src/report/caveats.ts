// What a prediction leaves out or simulates otherwise than the program runs, read from the region's
// instructions: said at the top of the report, where the figures are read.

import type { DecodedInstruction } from '../disasm/types.js';

/** The caveats of simulating `instrs` as one loop body (`branchAsked`: --branch runs the sides). */
export function predictionCaveats(instrs: readonly DecodedInstruction[], branchAsked: boolean): string[] {
  const out: string[] = [];
  const line = (i: DecodedInstruction) => i.line;
  const inside = instrs.find(
    (i) => i.branch?.kind === 'conditional' && i.branch.targetLine !== null && !i.branch.backward,
  );
  if (inside && !branchAsked)
    out.push(
      `the conditional jump at line ${line(inside)} is inside the loop: both of its sides are simulated every iteration, one after the other (a path the program never takes); --branch simulates each side on its own (the explorer: b)`,
    );
  const inner = instrs.filter(
    (i) => i.branch?.kind === 'conditional' && i.branch.backward && (i.branch.targetLine ?? 0) > 0,
  );
  if (inner.length > 0)
    out.push(
      `an inner loop (lines ${inner.map((i) => `${i.branch!.targetLine}–${line(i)}`).join(', ')}) is simulated once per iteration of this loop, as straight-line code: its other iterations are not in the prediction; give the inner loop's region to simulate it`,
    );
  const calls = instrs.filter((i) => i.branch?.kind === 'call');
  if (calls.length > 0)
    out.push(
      `the call${calls.length > 1 ? 's' : ''} at line${calls.length > 1 ? 's' : ''} ${calls.map(line).join(', ')}: the called code is not in the prediction (only the call instruction is)`,
    );
  return out;
}
