// SUACA's control-flow-sensitive dependency graph (thesis §2.4, §3.1, Algorithms 1 and 2):
// read-after-write edges only, per register and per RFLAGS bit, address registers counted as
// reads, walking every path of the CFG with its own map "resource → last writer" (no join of
// branches), back branches ignored. Loop-carried edges (§3.1.2) come from analysing the program
// doubled: copy 0 followed by copy 1, where copy 0's end and its backward branches continue
// into copy 1; an edge from a line of copy 0 to a line of copy 1 crosses an iteration.
import type { DecodedInstruction, DepEdge, DependencyGraph, Resource } from './types.js';
import { fallsThrough } from './cfg.js';
import { UserError } from '../errors.js';

interface Node {
  line: number; // original line
  reads: Resource[];
  writes: Resource[];
  succ: number[]; // successors in the (possibly doubled) program, fall-through first
}

const resourcesRead = (i: DecodedInstruction): Resource[] => [...i.reads, ...i.flagsRead];
const resourcesWritten = (i: DecodedInstruction): Resource[] => [...i.writes, ...i.flagsWritten];

/**
 * The line a backward branch continues at in the next iteration: its target line, or line 0
 * when it jumps to just before the region (a loop head in front of the IACA start marker).
 */
function backTarget(instrs: DecodedInstruction[], ins: DecodedInstruction): number | null {
  const b = ins.branch;
  if (!b || (b.kind !== 'conditional' && b.kind !== 'unconditional') || !b.backward) return null;
  if (b.targetLine !== null) return b.targetLine;
  return b.target !== null && instrs.length > 0 && b.target < instrs[0]!.address ? 0 : null;
}

/** Nodes of the program repeated `copies` times (1 or 2). */
export function program(instrs: DecodedInstruction[], copies: 1 | 2): Node[] {
  const n = instrs.length;
  const nodes: Node[] = [];
  for (let c = 0; c < copies; c++) {
    const last = c === copies - 1;
    instrs.forEach((ins, i) => {
      const idx = c * n + i;
      const succ: number[] = [];
      if (fallsThrough(ins) && (i + 1 < n || !last)) succ.push(idx + 1);
      const b = ins.branch;
      const t = backTarget(instrs, ins);
      if (b && (b.kind === 'conditional' || b.kind === 'unconditional') && b.targetLine !== null && !b.backward) {
        succ.push(c * n + b.targetLine);
      } else if (t !== null && !last) {
        succ.push((c + 1) * n + t); // the back edge enters the next iteration
      }
      nodes.push({ line: idx, reads: resourcesRead(ins), writes: resourcesWritten(ins), succ: [...new Set(succ)] });
    });
  }
  return nodes;
}

/** A straight-line program of the given original lines (branch analysis paths). */
function straight(instrs: DecodedInstruction[], lines: number[], copies: 1 | 2): { nodes: Node[]; orig: number[] } {
  const nodes: Node[] = [];
  const orig: number[] = [];
  const len = lines.length;
  for (let c = 0; c < copies; c++) {
    lines.forEach((l, k) => {
      const ins = instrs[l]!;
      const idx = c * len + k;
      nodes.push({
        line: idx,
        reads: resourcesRead(ins),
        writes: resourcesWritten(ins),
        succ: idx + 1 < len * copies ? [idx + 1] : [],
      });
      orig.push(l);
    });
  }
  return { nodes, orig };
}

type RawEdge = [from: number, to: number, resource: Resource];

const STEP_BUDGET = 50_000;
/** Steps (set insertions, edges) reachingDefinitions may take: a few seconds at most. */
export const REACHING_BUDGET = 50_000_000;
const MAX_WALK_BRANCHES = 16;

/**
 * The dependency edges of the nodes' DAG (node 0 is the start), in node indices: Algorithm 2
 * when the number of paths is manageable, else the equivalent reaching-definitions form.
 */
function walk(nodes: Node[]): RawEdge[] {
  // up to 2^branches paths: with many branches go straight to the polynomial form
  if (nodes.filter((nd) => nd.succ.length > 1).length > MAX_WALK_BRANCHES) return reachingDefinitions(nodes);
  return walkPaths(nodes, STEP_BUDGET) ?? reachingDefinitions(nodes);
}

/** Algorithm 2: every path with its own map "resource -> last writer"; null past `budget` steps. */
export function walkPaths(nodes: Node[], budget: number): RawEdge[] | null {
  const found = new Map<string, RawEdge>();
  const addEdge = (from: number, to: number, r: Resource) => {
    const k = `${from},${to},${r}`;
    if (!found.has(k)) found.set(k, [from, to, r]);
  };
  if (nodes.length === 0) return [];
  const preds = new Array<number>(nodes.length).fill(0);
  for (const nd of nodes) for (const s of nd.succ) preds[s] = (preds[s] ?? 0) + 1;
  const seenAtJoin = new Set<string>();
  const stack: [number, Map<string, number>][] = [[0, new Map()]];
  let steps = 0;
  while (stack.length) {
    let [node, map] = stack.pop()!;
    for (;;) {
      if ((preds[node] ?? 0) > 1) {
        // paths meet here: the same map at the same node gives the same edges from now on
        const key = `${node}|${[...map.entries()].sort().join(';')}`;
        if (seenAtJoin.has(key)) break;
        seenAtJoin.add(key);
      }
      if (++steps > budget) return null;
      const nd = nodes[node]!;
      for (const r of nd.reads) {
        const w = map.get(r);
        if (w !== undefined) addEdge(w, node, r);
      }
      for (const w of nd.writes) map.set(w, node);
      if (nd.succ.length === 0) break;
      for (let s = nd.succ.length - 1; s >= 1; s--) stack.push([nd.succ[s]!, new Map(map)]);
      node = nd.succ[0]!;
    }
  }
  return [...found.values()];
}

/**
 * Reaching definitions over the same DAG: an edge w -> r for resource x exists iff some path
 * from the start passes w and then reaches r without another write of x. That is exactly the
 * union of the per-path edges of Algorithm 2, computed in polynomial time; used when a region
 * has so many branches that walking every path would take too long.
 */
export function reachingDefinitions(nodes: Node[], budget = REACHING_BUDGET): RawEdge[] {
  // Writers that reach a point only through some paths pile up (a register written under one
  // branch after another): the sets, and the edges, can grow with the square of the region's
  // length. A hostile region of 40,000 such instructions took minutes; past the budget the
  // region is refused in one line instead.
  let work = 0;
  const spend = (n: number): void => {
    work += n;
    if (work > budget) {
      throw new UserError(
        `the region's branches leave too many possible last writers to trace (over ${budget.toLocaleString('en-US')} steps for ${nodes.length} instructions of the unrolled loop); analyse a smaller region with --range or --region`,
      );
    }
  };
  const reachable = new Array<boolean>(nodes.length).fill(false);
  if (nodes.length) reachable[0] = true;
  const inSets: Map<string, Set<number>>[] = nodes.map(() => new Map());
  const edges = new Map<string, RawEdge>();
  // nodes are in topological order (all successors have higher indices)
  nodes.forEach((nd, i) => {
    if (!reachable[i]) return;
    const cur = inSets[i]!;
    for (const r of nd.reads) {
      const ws = cur.get(r);
      if (!ws) continue;
      spend(ws.size);
      for (const w of ws) edges.set(`${w},${i},${r}`, [w, i, r]);
    }
    const out = new Map(cur);
    for (const w of nd.writes) out.set(w, new Set([i]));
    for (const s of nd.succ) {
      reachable[s] = true;
      const target = inSets[s]!;
      for (const [r, ws] of out) {
        spend(ws.size + 1);
        const set = target.get(r) ?? new Set<number>();
        for (const w of ws) set.add(w);
        target.set(r, set);
      }
    }
    inSets[i] = new Map(); // no longer needed
  });
  return [...edges.values()];
}

function toGraph(
  raw: RawEdge[],
  orig: (idx: number) => number,
  copyOf: (idx: number) => number,
  lines: number,
): DependencyGraph {
  const edges = new Map<string, DepEdge>();
  for (const [a, b, r] of raw) {
    const ca = copyOf(a);
    const cb = copyOf(b);
    if (ca === 1 && cb === 0) continue; // cannot happen (forward only); defensive
    const e: DepEdge = { from: orig(a), to: orig(b), resource: r, loopCarried: ca !== cb };
    edges.set(`${e.from},${e.to},${e.resource},${e.loopCarried}`, e);
  }
  const list = [...edges.values()].sort(
    (x, y) =>
      Number(x.loopCarried) - Number(y.loopCarried) ||
      x.from - y.from ||
      x.to - y.to ||
      (x.resource < y.resource ? -1 : x.resource > y.resource ? 1 : 0),
  );
  return { lines, edges: list };
}

/** The dependency graph of a region; `loop` adds the loop-carried edges (doubling, §3.1.2). */
export function buildDependencyGraph(
  instrs: DecodedInstruction[],
  opts: { loop: boolean } = { loop: true },
): DependencyGraph {
  const n = instrs.length;
  const nodes = program(instrs, opts.loop ? 2 : 1);
  return toGraph(
    walk(nodes),
    (i) => i % n,
    (i) => Math.floor(i / n),
    n,
  );
}

/** The dependency graph of one path (original line numbers, e.g. from branchPaths). */
export function dependencyGraphOfPath(
  instrs: DecodedInstruction[],
  lines: number[],
  opts: { loop: boolean } = { loop: true },
): DependencyGraph {
  for (const l of lines)
    if (!Number.isInteger(l) || l < 0 || l >= instrs.length)
      throw new RangeError(`line ${l} is not in the region (0–${instrs.length - 1})`);
  const { nodes, orig } = straight(instrs, lines, opts.loop ? 2 : 1);
  const len = lines.length;
  return toGraph(
    walk(nodes),
    (i) => orig[i]!,
    (i) => Math.floor(i / len),
    instrs.length,
  );
}

/** A conditional jump that stays in the region and goes forward: a branch inside the loop. */
function insideBranch(i: DecodedInstruction): boolean {
  return i.branch?.kind === 'conditional' && i.branch.targetLine !== null && !i.branch.backward;
}

/**
 * When a region has conditional jumps but none is a branch inside the loop (each is the loop's
 * back edge or leaves the region), their lines: the two "sides" would be the same path.
 */
export function onlyLoopJumps(instrs: DecodedInstruction[]): number[] {
  if (instrs.some(insideBranch)) return [];
  return instrs.flatMap((i, k) => (i.branch?.kind === 'conditional' ? [k] : []));
}

/**
 * The two paths through the FIRST conditional jump inside the loop (thesis §2.7; forward, to a
 * line of the region — the loop's back edge or a jump out has no second side): left =
 * fall-through, right = taken. Later conditional jumps fall through, except a jump back to
 * line 0 (the closing branch), where the path ends; unconditional jumps to a line other than 0
 * are followed; a path ends at the region's end, a jump to line 0, or a jump out of the region. Null when there is no such jump (see onlyLoopJumps).
 */
export function branchPaths(
  instrs: DecodedInstruction[],
): { branchLine: number; left: number[]; right: number[]; choice: string } | null {
  const branchLine = instrs.findIndex(insideBranch);
  if (branchLine < 0) return null;
  const follow = (start: number | null, prefix: number[]): number[] => {
    const path = [...prefix];
    const seen = new Set(path);
    let cur = start;
    while (cur !== null && cur < instrs.length && !seen.has(cur)) {
      path.push(cur);
      seen.add(cur);
      const ins = instrs[cur]!;
      const b = ins.branch;
      if (b && b.kind === 'unconditional') {
        // a jump to a later line, or back to a line other than the first (a loop laid out from
        // its test: a path placed before it jumps back into the loop); a jump to line 0 closes it
        cur = b.targetLine !== null && b.targetLine !== 0 ? b.targetLine : null;
      } else if (b && b.kind === 'conditional' && b.targetLine === 0) {
        // the loop's closing branch: the path ends where the next iteration starts
        cur = null;
      } else if (!fallsThrough(ins)) {
        cur = null;
      } else {
        cur = cur + 1;
      }
    }
    return path;
  };
  // the lines before the branch, walked from line 0 up to and including the branch
  const head: number[] = [];
  {
    let cur: number | null = 0;
    const seen = new Set<number>();
    while (cur !== null && cur <= branchLine && !seen.has(cur)) {
      head.push(cur);
      seen.add(cur);
      if (cur === branchLine) break;
      const ins: DecodedInstruction = instrs[cur]!;
      const b = ins.branch;
      if (b && b.kind === 'unconditional') cur = b.targetLine !== null && !b.backward ? b.targetLine : null;
      else cur = fallsThrough(ins) ? cur + 1 : null;
    }
  }
  const br = instrs[branchLine]!.branch!;
  const left = follow(branchLine + 1, head);
  const right = br.targetLine !== null && !br.backward ? follow(br.targetLine, head) : [...head];
  return { branchLine, left, right, choice: branchChoice(instrs, branchLine) };
}

/** Which conditional jump the branch comparison takes and why not an earlier one (a jump out of
 *  the region or back has no second side in it), as the report and the explorer say it. */
function branchChoice(instrs: DecodedInstruction[], branchLine: number): string {
  const earlier = instrs
    .slice(0, branchLine)
    .filter((i) => i.branch?.kind === 'conditional')
    .map((i) => `line ${i.line} ${i.branch!.targetLine === null ? 'leaves the region' : 'jumps back'}`);
  const shown = earlier.length > 3 ? [...earlier.slice(0, 3), `${earlier.length - 3} more`] : earlier;
  return `the first conditional jump to a later line of the region${shown.length ? `; before it, ${shown.join(', ')}: no second side to compare` : ''}`;
}
