// Control-flow graph of a region (thesis §2.3): fall-through edges, taken edges of forward
// direct branches inside the region, and back edges (backward branches; with `loop`, also the
// implicit jump from the end of the region back to its start that the next iteration takes).
import type { CfgEdge, ControlFlowGraph, DecodedInstruction } from './types.js';

/** Whether control can continue with the next line after this instruction. */
export function fallsThrough(ins: DecodedInstruction): boolean {
  const k = ins.branch?.kind;
  return k !== 'unconditional' && k !== 'indirect' && k !== 'return';
}

export function buildCfg(instrs: DecodedInstruction[], opts: { loop?: boolean } = {}): ControlFlowGraph {
  const n = instrs.length;
  const edges: CfgEdge[] = [];
  const add = (e: CfgEdge) => {
    if (!edges.some((x) => x.from === e.from && x.to === e.to)) edges.push(e);
  };
  instrs.forEach((ins, i) => {
    if (fallsThrough(ins) && i + 1 < n) add({ from: i, to: i + 1, kind: 'fallthrough' });
    const b = ins.branch;
    if (b && (b.kind === 'conditional' || b.kind === 'unconditional')) {
      if (b.targetLine !== null && !b.backward) add({ from: i, to: b.targetLine, kind: 'taken' });
      else if (b.backward && (b.targetLine !== null || opts.loop)) {
        // a loop head just before the region (in front of the IACA start marker) is line 0
        const t = b.targetLine ?? (b.target !== null && b.target < instrs[0]!.address ? 0 : null);
        if (t !== null) add({ from: i, to: t, kind: 'back' });
      }
    }
  });
  if (opts.loop && n > 0) {
    const last = instrs[n - 1]!;
    if (fallsThrough(last) && !edges.some((e) => e.from === n - 1 && e.to === 0))
      edges.push({ from: n - 1, to: 0, kind: 'back' });
  }
  return { lines: n, edges };
}
