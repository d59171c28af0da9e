// Generated programs for property tests (seeded: every run sees the same programs).

import type { MachineParams, Resource, SimDep, SimInstruction, SimProgram, Variant } from '../../src/sim/index.js';

export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 0x100000000; };
}

export const SKL: MachineParams = { arch: 'SKL', ports: [0, 1, 2, 3, 4, 5, 6, 7], issueWidth: 4, rsSize: 97, dividerPort: 0 };
const PORT_SETS = [[0, 1, 5, 6], [0, 6], [2, 3], [4], [0], [1], [5], [0, 1], [0, 1, 5], [2, 3, 7], [6]];

export function program(seed: number): SimProgram {
  const r = rng(seed);
  const n = 3 + Math.floor(r() * 10);
  const instructions: SimInstruction[] = [];
  for (let i = 0; i < n; i++) {
    const u = Math.floor(r() * 4);         // 0–3 µops (0: eliminated)
    const uops = Array.from({ length: u }, () => PORT_SETS[Math.floor(r() * PORT_SETS.length)]!.slice());
    const latency = u === 0 ? 0 : 1 + Math.floor(r() * 6);
    const div = u > 0 && r() < 0.1 ? 2 + Math.floor(r() * 10) : 0;
    if (div) uops.push([0]);
    instructions.push({ line: i, asm: `i${i}`, uops, latency: div ? Math.max(latency, div) : latency,
      latencyByResource: { [`R${i}`]: Math.max(1, Math.floor(latency / 2)), [`S${i}`]: latency }, divCycles: div, unknown: false });
  }
  const deps: SimDep[] = [];
  const m = Math.floor(r() * 2 * n);
  for (let d = 0; d < m; d++) {
    const from = Math.floor(r() * n), to = Math.floor(r() * n);
    deps.push({ from, to, resource: (r() < 0.5 ? `R${from}` : `S${from}`) as Resource, loopCarried: from >= to || r() < 0.2 });
  }
  return { instructions, deps };
}

export const variants: Variant[] = [
  { perfectFrontEnd: false, infinitePorts: false, noDependencies: false },
  { perfectFrontEnd: true, infinitePorts: false, noDependencies: false },
  { perfectFrontEnd: false, infinitePorts: true, noDependencies: false },
  { perfectFrontEnd: false, infinitePorts: false, noDependencies: false, portCapacity: 2, rsSize: 20, issueWidth: 3 },
];

