/** xorshift32: a small deterministic generator, so a failure can be replayed from its seed. */
export type Rng = () => number;

export function rng(seed: number): Rng {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

export const pick = <T>(next: Rng, xs: readonly T[]): T => xs[next() % xs.length]!;
export const chance = (next: Rng, p: number): boolean => next() % 1000 < p * 1000;

/** The seed of case `i` of a run seeded `seed`: every case can be replayed on its own. */
export const caseSeed = (seed: number, i: number): number =>
  (Math.imul(seed >>> 0, 0x9e3779b1) + Math.imul(i + 1, 0x85ebca77)) >>> 0;
