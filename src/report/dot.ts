// Graphviz DOT for the control-flow graph and the dependency graph. Nodes are the region's
// lines ("0: mov rax, 0x1"); dependency edges are labelled by register or flag, loop-carried
// ones dashed red (as in the thesis's figures), CFG back edges dashed red as well.
import type { ControlFlowGraph, DecodedInstruction, DependencyGraph } from '../disasm/types.js';

const esc = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

function nodes(instrs: DecodedInstruction[]): string[] {
  return instrs.map((i) => `  n${i.line} [label="${i.line}: ${esc(i.intel)}"];`);
}

export function cfgToDot(instrs: DecodedInstruction[], cfg: ControlFlowGraph, name = 'cfg'): string {
  const lines = [`digraph "${esc(name)}" {`, '  node [shape=box, fontname="monospace"];', ...nodes(instrs)];
  for (const e of cfg.edges) {
    const style =
      e.kind === 'back' ? ' [style=dashed, color=red, label="back"]' : e.kind === 'taken' ? ' [label="taken"]' : '';
    lines.push(`  n${e.from} -> n${e.to}${style};`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

export function dgToDot(instrs: DecodedInstruction[], dg: DependencyGraph, name = 'dg'): string {
  const lines = [`digraph "${esc(name)}" {`, '  node [shape=box, fontname="monospace"];', ...nodes(instrs)];
  // one edge per (from, to, loop-carried) with all resources in its label
  const grouped = new Map<string, { from: number; to: number; loop: boolean; res: string[] }>();
  for (const e of dg.edges) {
    const k = `${e.from},${e.to},${e.loopCarried}`;
    const g = grouped.get(k) ?? { from: e.from, to: e.to, loop: e.loopCarried, res: [] };
    g.res.push(e.resource.toLowerCase());
    grouped.set(k, g);
  }
  for (const g of grouped.values()) {
    const attrs = [`label="${esc(g.res.join(', '))}"`];
    if (g.loop) attrs.push('style=dashed', 'color=red');
    lines.push(`  n${g.from} -> n${g.to} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}
