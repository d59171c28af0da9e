// Dependency-breaking idioms: instructions whose result, when every register operand is the same
// register, does not depend on that register's value (Intel optimization manual, "dependency
// breaking idioms"). The one list: the decoder marks them (`zeroIdiom`, the register not read) and
// the refined model's facts (src/data/refinedFacts.ts) tell by their kind whether one is a zero
// idiom that may need no port. SBB r, r still depends on CF and is not listed.

/** What the result of an idiom is, and on whose word:
 *  - `zero`: zero, in the manual's list of zero idioms;
 *  - `zero-unlisted`: zero, dependency-breaking as uops.info found although the manual's list
 *    lacks them (paper §7.3.6);
 *  - `ones`: all ones (PCMPEQ*), dependency-breaking;
 *  - `and-not`: zero (x AND NOT x), counted dependency-breaking only. */
type IdiomKind = 'zero' | 'zero-unlisted' | 'ones' | 'and-not';

const IDIOMS: Record<IdiomKind, readonly string[]> = {
  zero: [
    'XOR',
    'SUB',
    'PXOR',
    'VPXOR',
    'VPXORD',
    'VPXORQ',
    'XORPS',
    'XORPD',
    'VXORPS',
    'VXORPD',
    'PSUBB',
    'PSUBW',
    'PSUBD',
    'PSUBQ',
    'VPSUBB',
    'VPSUBW',
    'VPSUBD',
    'VPSUBQ',
  ],
  'zero-unlisted': ['PCMPGTB', 'PCMPGTW', 'PCMPGTD', 'PCMPGTQ', 'VPCMPGTB', 'VPCMPGTW', 'VPCMPGTD', 'VPCMPGTQ'],
  ones: ['PCMPEQB', 'PCMPEQW', 'PCMPEQD', 'PCMPEQQ', 'VPCMPEQB', 'VPCMPEQW', 'VPCMPEQD', 'VPCMPEQQ'],
  'and-not': ['ANDNPS', 'ANDNPD', 'VANDNPS', 'VANDNPD', 'PANDN', 'VPANDN'],
};

const KIND_OF: ReadonlyMap<string, IdiomKind> = new Map(
  (Object.keys(IDIOMS) as IdiomKind[]).flatMap((kind) => IDIOMS[kind].map((m) => [m, kind] as const)),
);

/** The idiom a mnemonic (XED's iclass, as `DecodedInstruction.mnemonic`) is when all its register
 *  operands are one register, or undefined when it is none. */
export function idiomKind(mnemonic: string): IdiomKind | undefined {
  return KIND_OF.get(mnemonic);
}
