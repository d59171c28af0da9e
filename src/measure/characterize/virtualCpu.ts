// A virtual CPU for the characterization's tests: uopscope's own engine (src/sim, SUACA's
// scheduler with fused-domain issue) executing the generated microbenchmarks with figures it is
// given per form. The inference cannot see those figures, only the cycles each benchmark takes,
// so a test can check that it recovers them. Each benchmark's body is decoded with src/disasm,
// its register and flag dependencies found by the dependency graph, and the body simulated as a
// loop at two sizes (100 and 200 iterations: the difference is one body's cost without the
// start, as the harness's two sizes).

import { buildDependencyGraph } from '../../disasm/index.js';
import { decodeRegion } from '../../disasm/decode.js';
import type { DecodedInstruction } from '../../disasm/types.js';
import type { PortGroup } from '../../data/types.js';
import type { RefinedFacts } from '../../data/refinedFacts.js';
import { BASELINE, expandPorts, simulate } from '../../sim/index.js';
import type { MachineParams, SimDep, SimInstruction, SimProgram } from '../../sim/types.js';
import type { Bench, Runner, Timing } from './runner.js';

/** What the virtual CPU knows of one form. Operand keys: 'op0'…'op3' (explicit operands, Intel
 *  order), 'flags', 'addr' (the memory operand's registers), or an implicit register ('RDX'). */
interface VirtualForm {
  /** unfused-domain µops and their ports */
  ports: PortGroup[];
  /** fused-domain µops (rename slots); default: one per unfused µop, at least 1 */
  fused?: number;
  /** cycles from the start until a written operand is ready: one figure, or per operand key
   *  (`other` for the rest) */
  latency: number | Record<string, number>;
  /** per read operand key: cycles it is read late (lat(s→d) = latency(d) − readLate(s)) */
  readLate?: Record<string, number>;
  /** cycles the divider is busy */
  divCycles?: number;
  /** executed at rename: no port, no latency; it still depends on its inputs */
  eliminated?: boolean;
  /** with all register operands the same register: a zero idiom (no port, no input) */
  zeroIdiom?: boolean;
}

export interface VirtualMachine {
  ports: number[];
  /** fused-domain µops renamed per cycle */
  issueWidth: number;
  rsSize: number;
  dividerPort: number;
  /** by uops.info-style signature ('ADD (R64, R64)') */
  forms: Record<string, VirtualForm>;
}

const ITER_LOW = 100;
const ITER_HIGH = 200;

export class VirtualCpu implements Runner {
  readonly kind = 'virtual' as const;
  readonly loopBranch = false;
  /** benchmarks run so far */
  runs = 0;
  constructor(readonly machine: VirtualMachine) {}

  run(b: Bench): Timing {
    this.runs++;
    const decoded = executed(decodeRegion(b.code, 0, 64, b.name), b.name);
    const program = this.program(decoded);
    const params: MachineParams = {
      arch: 'VIRTUAL',
      ports: [...this.machine.ports],
      issueWidth: this.machine.issueWidth,
      rsSize: this.machine.rsSize,
      dividerPort: this.machine.dividerPort,
    };
    const model = { mechanisms: { microFusion: true, zeroIdioms: true, operandLatency: true } };
    const cycles = (n: number): number =>
      simulate(program, params, { iterations: n, variant: BASELINE }, { model, fullSimulation: true }).stats.cycles;
    const c = (cycles(ITER_HIGH) - cycles(ITER_LOW)) / (ITER_HIGH - ITER_LOW);
    return { cycles: c, high: c, runs: [c] };
  }

  private formOf(d: DecodedInstruction): VirtualForm {
    const f = this.machine.forms[d.signature];
    if (!f) throw new Error(`the virtual CPU has no figures for ${d.signature} (${d.intel})`);
    return f;
  }

  /** The engine's program for a body: eliminated instructions pass their producers on. */
  program(decoded: DecodedInstruction[]): SimProgram {
    const forms = decoded.map((d) => this.formOf(d));
    const idiom = decoded.map((d, i) => forms[i]!.zeroIdiom === true && d.sameReg);
    const instructions = decoded.map((d, i) => simInstruction(d, i, forms[i]!, idiom[i]!));
    const deps = throughEliminated(decoded, forms, idiom);
    return split(instructions, deps);
  }
}

/** One line of a body as the engine's instruction, with the virtual form's figures. */
function simInstruction(d: DecodedInstruction, i: number, f: VirtualForm, isIdiom: boolean): SimInstruction {
  const gone = f.eliminated === true || isIdiom;
  const uops = gone ? [] : expandPorts(f.ports);
  const lat = (key: string): number =>
    typeof f.latency === 'number' ? f.latency : (f.latency[key] ?? f.latency.other ?? 1);
  const latencyByResource: Record<string, number> = {};
  const readAdvance: Record<string, number> = {};
  const keyOf = (res: string): string => {
    const k = d.operands.findIndex((o) => o.register === res);
    if (k >= 0) return `op${k}`;
    if (d.memory && (d.memory.base === res || d.memory.index === res)) return 'addr';
    return res;
  };
  for (const r of d.writes) latencyByResource[r] = lat(keyOf(r));
  for (const fl of d.flagsWritten) latencyByResource[fl] = lat('flags');
  for (const r of d.reads) {
    const a = f.readLate?.[keyOf(r)];
    if (a) readAdvance[r] = a;
  }
  for (const fl of d.flagsRead) {
    const a = f.readLate?.flags;
    if (a) readAdvance[fl] = a;
  }
  const maxLat = Math.max(0, ...Object.values(latencyByResource));
  const fused = f.fused ?? Math.max(1, uops.length);
  const refined = {
    arch: 'VIRTUAL',
    macroFusion: { firstHalf: false, fusesWithPrevious: false, fusesWithNext: false, source: 'virtual' },
    microFusion: {
      fusedUops: fused,
      decodedUops: fused,
      unfusedUops: uops.length,
      unlaminated: false,
      source: 'virtual',
    },
    idiom: { zeroIdiom: isIdiom, dependencyBreaking: isIdiom, noPort: isIdiom, source: 'virtual' },
    moveElimination: { candidate: false, source: 'virtual' },
    frontEnd: {
      length: d.length,
      address: d.address,
      offset: d.address,
      loopBranch: false,
      jcc32B: null,
      jccErratumApplies: false,
      complexDecoder: false,
      microcodeSequencer: false,
      source: 'virtual',
    },
    memory: null,
  } as unknown as RefinedFacts;
  return {
    line: i,
    asm: d.intel,
    uops,
    latency: gone ? 0 : Math.max(1, maxLat),
    latencyByResource,
    divCycles: f.divCycles ?? 0,
    unknown: false,
    refined,
    ...(Object.keys(readAdvance).length ? { readAdvance } : {}),
  };
}

/** The body's dependencies, eliminated instructions passed through. */
function throughEliminated(decoded: DecodedInstruction[], forms: VirtualForm[], idiom: boolean[]): SimDep[] {
  const graph = buildDependencyGraph(decoded, { loop: true });
  const elim = forms.map((f) => f.eliminated === true);
  // an eliminated instruction's consumers wait for its producers instead (zero latency): follow
  // producers through eliminated ones; a path that crosses the loop's back edge twice is older
  // than the previous iteration, which the engine cannot express, and is dropped
  const into = new Map<number, { from: number; resource: string; loopCarried: boolean }[]>();
  for (const e of graph.edges) {
    if (idiom[e.to]) continue;
    const l = into.get(e.to) ?? [];
    l.push({ from: e.from, resource: e.resource, loopCarried: e.loopCarried });
    into.set(e.to, l);
  }
  const real = (
    line: number,
    lc: boolean,
    seen: Set<number>,
  ): { from: number; resource: string; loopCarried: boolean }[] => {
    const out: { from: number; resource: string; loopCarried: boolean }[] = [];
    for (const p of into.get(line) ?? []) {
      const carried = lc || p.loopCarried;
      if (lc && p.loopCarried) continue;
      if (!elim[p.from]) {
        out.push({ from: p.from, resource: p.resource, loopCarried: carried });
        continue;
      }
      const key = p.from * 2 + (carried ? 1 : 0);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(...real(p.from, carried, seen));
    }
    return out;
  };
  const deps: SimDep[] = [];
  const seenDep = new Set<string>();
  decoded.forEach((_, to) => {
    if (elim[to] || idiom[to]) return;
    for (const p of real(to, false, new Set())) {
      const k = `${p.from}/${to}/${p.resource}/${p.loopCarried}`;
      if (seenDep.has(k)) continue;
      seenDep.add(k);
      deps.push({ from: p.from, to, resource: p.resource as SimDep['resource'], loopCarried: p.loopCarried });
    }
  });
  return deps;
}

/** The instructions a body executes: a forward jump skips what lies before its target (the
 *  taken-branch benchmark's padding), re-decoded so that lines count executed instructions. */
function executed(decoded: DecodedInstruction[], name: string): DecodedInstruction[] {
  const keep: DecodedInstruction[] = [];
  let skipTo = -1;
  for (const d of decoded) {
    if (d.address < skipTo) continue;
    keep.push(d);
    if (d.branch?.kind === 'unconditional' && d.branch.target !== null && d.branch.target > d.address)
      skipTo = d.branch.target;
  }
  if (keep.length === decoded.length) return decoded;
  return decodeRegion(Uint8Array.from(Buffer.from(keep.map((d) => d.bytes).join(''), 'hex')), 0, 64, name);
}

/**
 * SUACA's model lets one instruction's µops share a port in a cycle ("an instruction never
 * blocks itself", thesis §3.3); a real port takes one µop per cycle. So an instruction with two
 * µops bound to the same single port becomes several engine instructions: the first keeps its
 * latencies, dependencies and divider use, each other one carries one of the extra µops, one
 * fused-domain slot, and nothing depends on it.
 */
function split(instructions: SimInstruction[], deps: SimDep[]): SimProgram {
  const out: SimInstruction[] = [];
  const first: number[] = [];
  for (const ins of instructions) {
    const parts: number[][][] = [[]];
    for (const u of ins.uops) {
      const single = u.length === 1 ? u[0] : undefined;
      const part =
        single === undefined ? parts[0]! : parts.find((p) => !p.some((v) => v.length === 1 && v[0] === single));
      if (part) part.push(u);
      else parts.push([u]);
    }
    first.push(out.length);
    const fused = ins.refined!.microFusion.fusedUops;
    const facts = (f: number, unfused: number) => ({
      ...ins.refined!,
      microFusion: { ...ins.refined!.microFusion, fusedUops: f, decodedUops: f, unfusedUops: unfused },
    });
    out.push({
      ...ins,
      line: out.length,
      uops: parts[0]!,
      refined: facts(Math.max(1, fused - (parts.length - 1)), parts[0]!.length),
    });
    for (const p of parts.slice(1)) {
      out.push({
        line: out.length,
        asm: `${ins.asm} (µop)`,
        uops: p,
        latency: 1,
        latencyByResource: {},
        divCycles: 0,
        unknown: false,
        refined: facts(1, p.length),
      });
    }
  }
  return { instructions: out, deps: deps.map((d) => ({ ...d, from: first[d.from]!, to: first[d.to]! })) };
}
