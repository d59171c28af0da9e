// Generated programs for property tests (seeded: every run sees the same programs).

import type { MachineParams, Resource, SimDep, SimInstruction, SimProgram, Variant } from '../../src/sim/index.js';
import { loadMachine } from '../../src/data/machines.js';
import { coreFrontEnd } from '../../src/data/refinedFacts.js';

export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

// the front end's figures are the record's, as machineParams gives them
export const SKL: MachineParams = {
  arch: 'SKL',
  ports: [0, 1, 2, 3, 4, 5, 6, 7],
  issueWidth: 4,
  rsSize: 97,
  dividerPort: 0,
  frontEnd: coreFrontEnd(loadMachine('SKL')),
};
const PORT_SETS = [[0, 1, 5, 6], [0, 6], [2, 3], [4], [0], [1], [5], [0, 1], [0, 1, 5], [2, 3, 7], [6]];

export function program(seed: number): SimProgram {
  const r = rng(seed);
  const n = 3 + Math.floor(r() * 10);
  const instructions: SimInstruction[] = [];
  for (let i = 0; i < n; i++) {
    const u = Math.floor(r() * 4); // 0–3 µops (0: eliminated)
    const uops = Array.from({ length: u }, () => PORT_SETS[Math.floor(r() * PORT_SETS.length)]!.slice());
    const latency = u === 0 ? 0 : 1 + Math.floor(r() * 6);
    const div = u > 0 && r() < 0.1 ? 2 + Math.floor(r() * 10) : 0;
    if (div) uops.push([0]);
    instructions.push({
      line: i,
      asm: `i${i}`,
      uops,
      latency: div ? Math.max(latency, div) : latency,
      latencyByResource: { [`R${i}`]: Math.max(1, Math.floor(latency / 2)), [`S${i}`]: latency },
      divCycles: div,
      unknown: false,
    });
  }
  const deps: SimDep[] = [];
  const m = Math.floor(r() * 2 * n);
  for (let d = 0; d < m; d++) {
    const from = Math.floor(r() * n),
      to = Math.floor(r() * n);
    deps.push({
      from,
      to,
      resource: (r() < 0.5 ? `R${from}` : `S${from}`) as Resource,
      loopCarried: from >= to || r() < 0.2,
    });
  }
  return { instructions, deps };
}

export const variants: Variant[] = [
  { perfectFrontEnd: false, infinitePorts: false, noDependencies: false },
  { perfectFrontEnd: true, infinitePorts: false, noDependencies: false },
  { perfectFrontEnd: false, infinitePorts: true, noDependencies: false },
  { perfectFrontEnd: false, infinitePorts: false, noDependencies: false, portCapacity: 2, rsSize: 20, issueWidth: 3 },
];

/**
 * `p` with random refined-model facts on `arch`, as src/data/refinedFacts.ts would
 * attach them: instruction lengths and addresses (a random start), fused-domain µops (≤ the
 * unfused ones, ≥ 1), the last line a Jcc that may fuse with the line before, random complex
 * decoder and JCC-erratum flags. Only the front-end mechanisms read them (macro-, micro-fusion,
 * front end); for the steady-state property test.
 */
export function withRefinedFacts(p: SimProgram, seed: number, arch = 'SKL'): SimProgram {
  const r = rng(seed * 7919 + 13);
  let addr = 0x1000 + Math.floor(r() * 64);
  const n = p.instructions.length;
  const instructions = p.instructions.map((x, i) => {
    const length = 1 + Math.floor(r() * 12);
    const unfused = x.uops.length;
    const fusedUops = Math.max(1, unfused - (unfused > 1 && r() < 0.5 ? 1 : 0));
    const last = i === n - 1;
    const fuses = last && x.uops.length > 0 && r() < 0.6;
    // some instructions of 2 or more fused µops take some from the microcode sequencer (a
    // separate stream: the other facts stay those of the seed)
    const rm = rng(seed * 104729 + i);
    const msUops = fusedUops > 1 && rm() < 0.5 ? 1 + Math.floor(rm() * (fusedUops - 1)) : 0;
    const facts = {
      arch,
      macroFusion: { firstHalf: i === n - 2, fusesWithPrevious: fuses, fusesWithNext: false, source: 'generated' },
      microFusion: { fusedUops, decodedUops: fusedUops, unfusedUops: unfused, unlaminated: false, source: 'generated' },
      idiom: { zeroIdiom: false, dependencyBreaking: false, noPort: false, source: 'generated' },
      moveElimination: { candidate: false, source: 'generated' },
      frontEnd: {
        length,
        address: addr,
        offset: 0,
        loopBranch: last,
        jcc32B: null,
        jccErratumApplies: last && r() < 0.4,
        complexDecoder: fusedUops > 1,
        microcodeSequencer: msUops > 0 || fusedUops > 4,
        ...(msUops > 0 ? { msUops } : {}),
        source: 'generated',
      },
      memory: null,
    };
    addr += length;
    return { ...x, refined: facts as unknown as NonNullable<SimInstruction['refined']> };
  });
  if (n >= 2 && instructions[n - 1]!.refined!.macroFusion.fusesWithPrevious)
    instructions[n - 2]!.refined!.macroFusion.fusesWithNext = true;
  return { instructions, deps: p.deps };
}
