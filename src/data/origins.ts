// What a line's figures are: the origins the data providers (src/data/providers/) give figures
// of, each with its letter, its text and what it measured. The one home of the letters, the
// legends and their order; the report, the listing, the explorer and the refined model's rules read
// them here. Light on purpose (no imports): the engine's workers load it through the refined rules.
//
// A new data source registers its origin here (registerOrigin) and its provider in
// src/data/providers/registry.ts, from one file (test/fixtures/providers/ shows one).

/** What a mechanism may ask of a line's figures instead of asking for a source by name. */
type Capability =
  /** fused-domain µops measured on the core (retire slots, and the legacy decoders' µops) */
  | 'measured-fused-uops'
  /** the same-register variant (xor eax, eax) was measured, so its µops and ports are the core's */
  | 'measured-same-reg'
  /** a read-modify-write form's latency through memory, from its memory operand to itself */
  | 'measured-memory-round-trip';

interface OriginInfo {
  /** the origin's name in the JSON ('uops.info', 'llvm') */
  id: string;
  /** one character in a source column ('M') */
  letter: string;
  /** what the figures are, in legends and summaries ('measured by uops.info') */
  text: string;
  /** the same in `data list`'s figures column ('measured (uops.info)') */
  listText: string;
  capabilities: readonly Capability[];
  /** named in every legend; otherwise only in the legend of output that has a line of it */
  alwaysInLegend: boolean;
  /** position in summaries and legends: the order in which the resolver meets the origins */
  rank: number;
}

/** The built-in origins: the `FigureOrigin` values the JSON has always carried. */
type BuiltInOrigin = 'uops.info' | 'measured' | 'thesis' | 'cited' | 'llvm' | 'none';

/** Where a line's figures come from: a built-in origin or one a provider registered. */
export type FigureOrigin = BuiltInOrigin | (string & {});

const ALL: readonly Capability[] = ['measured-fused-uops', 'measured-same-reg', 'measured-memory-round-trip'];

/** The origin of lines without figures: always last, never registered. */
const NONE: OriginInfo = {
  id: 'none',
  letter: '?',
  text: 'no figures',
  listText: 'no figures',
  capabilities: [],
  alwaysInLegend: true,
  rank: Infinity,
};

const origins: OriginInfo[] = [
  {
    id: 'uops.info',
    letter: 'M',
    text: 'measured by uops.info',
    listText: 'measured (uops.info)',
    capabilities: ALL,
    alwaysInLegend: true,
    rank: 100,
  },
  {
    id: 'measured',
    letter: 'U',
    text: 'measured by uopscope',
    listText: 'measured (uopscope)',
    capabilities: ALL,
    alwaysInLegend: false,
    rank: 200,
  },
  {
    id: 'thesis',
    letter: 'T',
    text: 'SUACA thesis',
    listText: 'SUACA thesis',
    capabilities: [],
    alwaysInLegend: true,
    rank: 300,
  },
  {
    // LLVM's model with figures a public source gives for the core in their place
    // (src/data/providers/corrections.ts): each corrected figure names its source
    id: 'cited',
    letter: 'C',
    text: 'LLVM 19 model with cited corrections',
    listText: 'cited corrections',
    capabilities: [],
    alwaysInLegend: false,
    rank: 350,
  },
  {
    id: 'llvm',
    letter: 'L',
    text: 'LLVM 19 model',
    listText: 'LLVM model',
    capabilities: [],
    alwaysInLegend: true,
    rank: 400,
  },
  NONE,
];

/** Letters by origin, kept current as origins are registered (read it, never write it). */
export const ORIGIN_LETTER: Readonly<Record<string, string>> = {};

function refresh(): void {
  for (const o of origins) (ORIGIN_LETTER as Record<string, string>)[o.id] = o.letter;
}
refresh();

/** Adds an origin (a new data source's). Its id and letter must be new. */
export function registerOrigin(o: OriginInfo): void {
  if (origins.some((x) => x.id === o.id)) throw new Error(`origin '${o.id}' is registered already`);
  if (o.letter.length !== 1 || origins.some((x) => x.letter === o.letter))
    throw new Error(`origin '${o.id}': letter '${o.letter}' is not one free character`);
  if (!Number.isFinite(o.rank)) throw new Error(`origin '${o.id}': rank must be a number`);
  origins.push(o);
  origins.sort((a, b) => a.rank - b.rank);
  refresh();
}

/** Removes a registered origin (tests that register one). */
export function unregisterOrigin(id: string): void {
  const i = origins.findIndex((x) => x.id === id);
  if (i >= 0 && origins[i] !== NONE) origins.splice(i, 1);
  delete (ORIGIN_LETTER as Record<string, string>)[id];
}

/** Every origin in resolution order, 'none' last. */
export function originList(): readonly OriginInfo[] {
  return origins;
}

export function originInfo(id: FigureOrigin): OriginInfo {
  return origins.find((o) => o.id === id) ?? { ...NONE, id, letter: '?', text: id, listText: id };
}

/** The origin's letter ('?' for one not registered). */
export function originLetter(id: FigureOrigin): string {
  return originInfo(id).letter;
}

/** What the origin's figures are ('measured by uops.info'). */
export function originText(id: FigureOrigin): string {
  return originInfo(id).text;
}

/** Whether the figures of this origin have what a mechanism needs. */
export function hasCapability(origin: FigureOrigin | undefined, c: Capability): boolean {
  return origin !== undefined && originInfo(origin).capabilities.includes(c);
}

/** The legend of the source letters, in resolution order: 'M measured by uops.info, T …'. The
 *  origins of `present` (a report's lines) are named too when they are not named always. */
export function originLegend(present: readonly FigureOrigin[] = []): string {
  const used = new Set(present);
  return origins
    .filter((o) => o.alwaysInLegend || used.has(o.id))
    .map((o) => `${o.letter} ${o.text}`)
    .join(', ');
}

/** The letters in legend order ('M T L ?'), with those of `present`. */
export function originLetters(present: readonly FigureOrigin[] = []): string {
  const used = new Set(present);
  return origins
    .filter((o) => o.alwaysInLegend || used.has(o.id))
    .map((o) => o.letter)
    .join(' ');
}
