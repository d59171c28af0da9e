// Generated programs with random refined-model facts (idioms, move candidates, memory accesses,
// registers read late)
// for property tests of the execution-side mechanisms (seeded).

import type { RefinedFacts } from '../../src/data/refinedFacts.js';
import type { SimProgram } from '../../src/sim/index.js';
import { program, rng } from './generated.js';

const KEYS = [':RA++0', ':RA++8', ':RB+RC*8+0'];

/** program(seed) with random facts on each line (SKL's store-address port 7) */
export function refinedProgram(seed: number): SimProgram {
  const p = program(seed);
  const r = rng(seed * 7919 + 1);
  const n = p.instructions.length;
  p.instructions.forEach((ins) => {
    const kind = r();
    const idiom = kind < 0.15;
    const move = !idiom && kind < 0.3;
    const roles = ['load', 'store', 'load-store', null] as const;
    const role = roles[Math.floor(r() * roles.length)]!;
    const k = Math.floor(r() * KEYS.length);
    // address registers named after a line's written resource, so that deps can write them
    const base = `R${Math.floor(r() * n)}`;
    const index = k === 2 ? `S${Math.floor(r() * n)}` : null;
    const sta = ins.uops.findIndex((u) => u.includes(7));
    const refined = {
      arch: 'SKL',
      idiom: {
        zeroIdiom: idiom,
        dependencyBreaking: idiom || r() < 0.05,
        noPort: idiom && r() < 0.8,
        source: 'generated',
      },
      moveElimination: { candidate: move, source: 'generated' },
      memory:
        role === null
          ? null
          : {
              role,
              key: `${KEYS[k]}${base}`,
              base,
              index,
              scale: index ? 8 : 1,
              displacement: 0,
              segment: null,
              size: 8,
              simpleStoreAddress: role !== 'load' && index === null,
              simpleStaPort: 7,
              loadUops: [],
              staUops: sta >= 0 && role !== 'load' ? [sta] : [],
              stdUops: [],
              roundTrip:
                role === 'load-store' && r() < 0.5 ? { value: 1 + Math.floor(r() * 8), source: 'generated' } : null,
              source: 'generated',
            },
    } as unknown as RefinedFacts;
    ins.refined = refined;
  });
  // load-op forms reading some register late (operandLatency): its own generator, so that the
  // facts above stay what they were
  const late = rng(seed * 104729 + 3);
  p.instructions.forEach((ins, i) => {
    const mem = ins.refined?.memory;
    if (!mem || mem.role === 'store' || late() < 0.4) return;
    const reads = [...new Set(p.deps.filter((d) => d.to === i).map((d) => d.resource))];
    const adv: Record<string, number> = {};
    for (const res of reads)
      if (res !== mem.base && res !== mem.index && late() < 0.7) adv[res] = 1 + Math.floor(late() * 6);
    if (Object.keys(adv).length) ins.readAdvance = adv;
  });
  return p;
}
