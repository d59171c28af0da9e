// Region selection: IACA byte markers, LLVM-MCA/OSACA comment markers (assembly input),
// --function SYMBOL, --range START:END, and loops found from backward branches.
import { DEFAULT_MAX_INSTRUCTIONS, maxCodeBytes, raiseHint } from './limits.js';
import { UserError, printable } from '../errors.js';
import { Decoder, DecoderOptions, Instruction } from './iced.js';
import { hex } from './bytes.js';
import { decodeRegion } from './decode.js';
import type {
  DecodedInstruction,
  ImageSection,
  LoadedInput,
  LoadedRegion,
  LoopRole,
  Region,
  RegionSelection,
} from './types.js';
import { naturalLoops, type LoopProgress, type NaturalLoop } from './loops.js';
import { demangleAll } from './demangle.js';

/** IACA's start marker: mov ebx, 111 followed by the fs-prefixed address-size nop 64 67 90. */
export const IACA_START = Uint8Array.from([0xbb, 0x6f, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90]);
/** IACA's end marker: mov ebx, 222 + 64 67 90. The region ends before the mov. */
export const IACA_END = Uint8Array.from([0xbb, 0xde, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90]);

function occurrences(data: Uint8Array, pat: Uint8Array): number[] {
  const out: number[] = [];
  const first = pat[0]!;
  for (let i = data.indexOf(first); i >= 0 && i + pat.length <= data.length; i = data.indexOf(first, i + 1)) {
    let ok = true;
    for (let j = 1; j < pat.length; j++)
      if (data[i + j] !== pat[j]) {
        ok = false;
        break;
      }
    if (ok) out.push(i);
  }
  return out;
}

/** All IACA-marked regions, in address order; unpaired markers are an error. */
function findIacaRegions(input: LoadedInput): Region[] {
  const regions: Region[] = [];
  for (const sec of input.sections.filter((s) => s.executable)) {
    const marks = [
      ...occurrences(sec.data, IACA_START).map((o) => ({ o, start: true })),
      ...occurrences(sec.data, IACA_END).map((o) => ({ o, start: false })),
    ].sort((a, b) => a.o - b.o);
    let open: number | null = null;
    for (const m of marks) {
      const at = hex(sec.address + m.o);
      if (m.start) {
        if (open !== null)
          throw new UserError(
            `${input.file}: IACA start marker at ${hex(sec.address + open)} has no end marker before the next start marker at ${at}; add the end marker (mov ebx, 222; .byte 0x64, 0x67, 0x90) after the loop`,
          );
        open = m.o;
      } else {
        if (open === null)
          throw new UserError(
            `${input.file}: IACA end marker at ${at} has no start marker before it; add the start marker (mov ebx, 111; .byte 0x64, 0x67, 0x90) before the loop`,
          );
        regions.push({
          index: 0,
          kind: 'iaca',
          name: '',
          start: sec.address + open + IACA_START.length,
          end: sec.address + m.o,
          section: sec.name,
        });
        open = null;
      }
    }
    if (open !== null)
      throw new UserError(
        `${input.file}: IACA start marker at ${hex(sec.address + open)} has no end marker; add the end marker (mov ebx, 222; .byte 0x64, 0x67, 0x90) after the loop`,
      );
  }
  regions.forEach((r, i) => {
    r.name = `IACA region ${i + 1}`;
  });
  return regions;
}

/** A loop as a region: named after its header, its function and its part in the function. */
function loopRegion(
  l: NaturalLoop,
  symbol: string | null,
  role: LoopRole,
  main: NaturalLoop | null,
  names: Map<string, string>,
): Region {
  const bytes = l.segments.reduce((n, s) => n + s.end - s.start, 0);
  const fn = symbol ? (names.get(symbol) ?? symbol) : null;
  const what =
    role === 'main'
      ? main
        ? 'main loop'
        : ''
      : role === 'remainder'
        ? `remainder of the loop at ${hex(main!.header)}`
        : role === 'prologue'
          ? `prologue of the loop at ${hex(main!.header)}`
          : role === 'outer'
            ? 'outer loop'
            : '';
  const laidOut = l.segments.length > 1 || l.segments[0]!.start !== l.start || l.segments[0]!.end !== l.end;
  // the loop's own bytes; in blocks with other code between them, the range holds more
  const size = `${bytes} bytes${l.segments.length > 1 ? ` in ${l.segments.length} blocks` : ''}`;
  return {
    index: 0,
    kind: 'loop',
    name: `loop at ${hex(l.header)}${fn ? ` in ${fn}` : ''} (${size}${what ? `, ${what}` : ''})`,
    start: l.start,
    end: l.end,
    section: l.section,
    role,
    ...(laidOut ? { segments: l.segments.map((x) => ({ ...x })) } : {}),
  };
}

/**
 * The loops of a function (or of symbol-less code) and their parts: the main loop is the
 * innermost loop a user most likely means, chosen by MAIN_RULE; an innermost loop that does a
 * subset of the main loop's operations with narrower vectors or fewer instructions is its
 * remainder (after it) or prologue (before it), as compilers emit around a vectorized or unrolled
 * loop; a loop with loops inside is an outer loop.
 */
function roles(group: NaturalLoop[]): { main: NaturalLoop | null; role: Map<NaturalLoop, LoopRole> } {
  const role = new Map<NaturalLoop, LoopRole>();
  const inner = group.filter((l) => l.innermost);
  let main: NaturalLoop | null = null;
  for (const l of inner) {
    if (
      !main ||
      l.vectorBits > main.vectorBits ||
      (l.vectorBits === main.vectorBits && l.instructions > main.instructions)
    )
      main = l;
  }
  for (const l of group) {
    if (!l.innermost) {
      role.set(l, 'outer');
      continue;
    }
    if (l === main) {
      role.set(l, 'main');
      continue;
    }
    const lesser = l.vectorBits < main!.vectorBits || l.instructions < main!.instructions;
    const subset = [...l.ops].every((o) => main!.ops.has(o));
    // a compiler's remainder or prologue runs in the same enclosing loop as its main loop (or
    // both in none): a loop under another outer loop is other work (a benchmark's next timing loop)
    const sameNest = enclosing(l, group) === enclosing(main!, group);
    role.set(l, lesser && subset && sameNest ? (l.start > main!.start ? 'remainder' : 'prologue') : 'other');
  }
  return { main: inner.length > 1 ? main : null, role };
}

/** The innermost other loop of `group` whose blocks hold `l`'s header, or null. */
function enclosing(l: NaturalLoop, group: NaturalLoop[]): NaturalLoop | null {
  let best: NaturalLoop | null = null;
  const size = (x: NaturalLoop) => x.segments.reduce((n, g) => n + g.end - g.start, 0);
  for (const o of group) {
    if (o === l || o.innermost || !o.segments.some((g) => g.start <= l.header && l.header < g.end)) continue;
    if (!best || size(o) < size(best)) best = o;
  }
  return best;
}

/** How the main loop is chosen, as the notes say it. */
const MAIN_RULE =
  'the one with the widest vectors, then the most instructions: vectorized or unrolled, not a remainder';

interface FoundLoop {
  region: Region;
  loop: NaturalLoop;
  main: boolean;
  group: NaturalLoop[];
  fn: string | null;
}

const loopCache = new WeakMap<LoadedInput, FoundLoop[]>();

/** Natural loops (see loops.ts) in address order, with their parts in their functions. */
function foundLoops(input: LoadedInput, onProgress?: LoopProgress): FoundLoop[] {
  const cached = loopCache.get(input);
  if (cached) return cached;
  const loops = naturalLoops(input, onProgress);
  const finders = new Map(input.sections.map((sec) => [sec.name, symbolFinder(input, sec)]));
  const shown = (l: NaturalLoop) => l.fn ?? finders.get(l.section)?.(l.header) ?? null;
  const names = demangleAll([
    ...new Set(
      loops.flatMap((l) => {
        const n = shown(l);
        return n ? [n] : [];
      }),
    ),
  ]);
  const groups = new Map<string, NaturalLoop[]>();
  for (const l of loops) {
    // code without a function symbol around it (a stripped part of a binary): each loop on its
    // own, as the loops of unrelated functions (assembly and raw code are one piece)
    const key = `${l.section}\0${l.fn ?? (input.format === 'asm' || input.format === 'raw' ? '' : `@${l.header}`)}`;
    const g = groups.get(key);
    if (g) g.push(l);
    else groups.set(key, [l]);
  }
  const info = new Map<NaturalLoop, { role: LoopRole; main: NaturalLoop | null; group: NaturalLoop[] }>();
  for (const g of groups.values()) {
    const { main, role } = roles(g);
    for (const l of g) info.set(l, { role: role.get(l)!, main, group: g });
  }
  const out = loops.map((l) => {
    const { role, main, group } = info.get(l)!;
    const sym = shown(l);
    return {
      region: loopRegion(l, sym, role, main, names),
      loop: l,
      main: role === 'main',
      group,
      fn: sym ? (names.get(sym) ?? sym) : null,
    };
  });
  loopCache.set(input, out);
  return out;
}

/** The natural loops of the input as regions, in address order (see loops.ts). */
function findLoops(input: LoadedInput, onProgress?: LoopProgress): Region[] {
  return foundLoops(input, onProgress).map((f) => f.region);
}

/** Finds the symbol a code address lies in (the nearest at or below it) for one section, by
 *  binary search: built once per section, so naming n loops costs n·log(symbols), not n·symbols. */
function symbolFinder(input: LoadedInput, sec: ImageSection): (addr: number) => string | null {
  const list = input.symbols.filter((s) => s.section === sec.name && !s.name.startsWith('.L'));
  // stable sort: of equal addresses the first in the symbol table wins
  const sorted = list
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.address - b.s.address || a.i - b.i)
    .map((x) => x.s);
  const uniq = sorted.filter((s, k) => k === 0 || sorted[k - 1]!.address !== s.address);
  return (addr) => {
    let lo = 0;
    let hi = uniq.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (uniq[mid]!.address <= addr) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best >= 0 ? uniq[best]!.name : null;
  };
}

const number = (list: Region[]): Region[] => list.map((r, i) => ({ ...r, index: i + 1 }));

/** The loops inside [start, end) of a section, in address order. */
export function functionLoops(input: LoadedInput, section: string, start: number, end: number): Region[] {
  return findLoops(input).filter((l) => l.section === section && l.start >= start && l.end <= end);
}

/** The regions `uopscope regions` lists: marked ones if any, else (raw code: all bytes, then)
 *  the loops, in address order. Without a selection defaultRegion() chooses. `onProgress`: the
 *  loop search's (bytes of code searched). */
export function listRegions(input: LoadedInput, onProgress?: LoopProgress): Region[] {
  const marked = [...findIacaRegions(input), ...input.commentRegions];
  if (marked.length) return number(marked);
  if (input.format === 'raw') {
    // raw code without markers: all of it first (what --hex of a straight block means), then its
    // loops; the default is still the main loop when there is one (defaultRegion)
    const s = input.sections[0]!;
    return number([
      { index: 0, kind: 'whole', name: 'all bytes', start: s.address, end: s.address + s.data.length, section: s.name },
      ...findLoops(input, onProgress),
    ]);
  }
  const loops = findLoops(input, onProgress);
  if (loops.length === 0 && input.format === 'asm') {
    // assembly without markers or loops (a block piped in, as llvm-mca takes it): all its code
    const s = input.sections.find((x) => x.executable && x.data.length > 0);
    if (s)
      return number([
        {
          index: 0,
          kind: 'whole',
          name: `all code of ${s.name}`,
          start: s.address,
          end: s.address + s.data.length,
          section: s.name,
        },
      ]);
  }
  return number(loops);
}

const sameLoop = (a: Region, b: Region) =>
  a.kind === 'loop' &&
  b.kind === 'loop' &&
  a.section === b.section &&
  a.start === b.start &&
  a.end === b.end &&
  a.name === b.name;

/** The other loops a note names by their --range (the rest are counted). */
const OTHERS_NAMED = 5;

/** Why a loop was chosen among its function's loops (for the notes). */
function choiceWhy(f: FoundLoop, found: FoundLoop[], list: Region[], fns: number): string {
  const fn = f.fn;
  const of = fn ? `${fn}${fns > 1 ? ' (the first function with a loop)' : ''}` : 'this code';
  const inner = f.group.filter((l) => l.innermost);
  if (f.group.length === 1) return `the only loop of ${of}`;
  const group = new Set(f.group);
  const rest = found.filter((o) => group.has(o.loop) && o.region !== f.region);
  // a few named, the rest counted: a function can hold thousands of loops
  const others = rest.slice(0, OTHERS_NAMED).map((o) => {
    const at = list.findIndex((r) => sameLoop(r, o.region));
    return `${at >= 0 ? `region ${at + 1}` : hex(o.region.start)} is ${o.region.role === 'remainder' ? 'its remainder' : o.region.role === 'prologue' ? 'its prologue' : o.region.role === 'outer' ? 'an outer loop' : 'another loop'}`;
  });
  if (rest.length > OTHERS_NAMED) others.push(`${rest.length - OTHERS_NAMED} more loops (uopscope regions lists them)`);
  if (inner.length === 1) return `the innermost loop of ${of}${others.length ? ` (${others.join(', ')})` : ''}`;
  return `the main loop of ${of} (of its ${inner.length} innermost loops, ${MAIN_RULE}${others.length ? `; ${others.join(', ')}` : ''})`;
}

/** The command that lists the regions of the input the user gave, as they can run it: standard
 *  input and --hex bytes are given again, not named by a placeholder. */
function regionsCommand(file: string): string {
  if (file === '<stdin>') return "'uopscope regions -' with the same standard input";
  if (file === '<hex>') return "'uopscope regions --hex BYTES' with the same bytes";
  return `'uopscope regions ${file}'`;
}

/** The region analysed when none is named, and why (null: none to choose from). */
export function defaultRegion(input: LoadedInput, list: Region[] = listRegions(input)): Region | null {
  if (!list.length) return null;
  const found = foundLoops(input);
  const main = found.find((f) => f.main && list.some((r) => sameLoop(r, f.region)));
  if (!main || (list[0]!.kind !== 'whole' && list[0]!.kind !== 'loop')) {
    const r = list[0]!;
    return list.length > 1
      ? {
          ...r,
          note: `${input.file} holds ${list.length} regions; analysing region 1 (${r.name}); choose another with --region N (see ${regionsCommand(input.file)})`,
        }
      : r;
  }
  const at = list.findIndex((r) => sameLoop(r, main.region));
  const fns = new Set(found.map((f) => f.group)).size;
  const why = choiceWhy(main, found, list, fns);
  if (list.length === 1) return { ...main.region, index: at + 1, note: `analysing ${why}` };
  return {
    ...main.region,
    index: at + 1,
    note: `analysing region ${at + 1} of ${list.length}, ${why}; choose another with --region N (see ${regionsCommand(input.file)})`,
  };
}

function parseAddress(s: string, what: string, bareHex: boolean): number {
  const t = s.trim();
  const v = /^0x[0-9a-f]+$/i.test(t)
    ? parseInt(t.slice(2), 16)
    : bareHex && /^[0-9a-f]+$/i.test(t)
      ? parseInt(t, 16)
      : /^\d+$/.test(t)
        ? parseInt(t, 10)
        : NaN;
  if (!Number.isSafeInteger(v))
    throw new UserError(`--range: '${s}' is not an address (${what}); write START:END as hex (0x401000) or decimal`);
  return v;
}

/** Where the instruction that holds `addr` starts, decoding the code from the function (symbol)
 *  around it, or from the section's start; null when `addr` starts an instruction. */
function insideInstruction(input: LoadedInput, sec: ImageSection, addr: number): number | null {
  const from = Math.max(
    sec.address,
    ...input.symbols
      .filter((x) => x.section === sec.name && x.address <= addr && !x.name.startsWith('.L'))
      .map((x) => x.address),
  );
  // a bounded look back: a linear decode of more than 64 KiB says little about one address
  if (addr - from > 1 << 16) return null;
  const dec = new Decoder(
    input.bitness,
    sec.data.subarray(from - sec.address, addr - sec.address + 16),
    DecoderOptions.None,
  );
  const ins = new Instruction();
  try {
    let pos = 0;
    while (from + pos < addr) {
      dec.position = pos;
      dec.decodeOut(ins);
      const len = ins.isInvalid || ins.length === 0 ? 1 : ins.length;
      if (from + pos + len > addr) return from + pos;
      pos += len;
    }
    return null;
  } finally {
    ins.free();
    dec.free();
  }
}

function sectionFor(input: LoadedInput, start: number, end: number, name?: string): ImageSection | null {
  const fits = (s: ImageSection) => s.executable && start >= s.address && end <= s.address + s.data.length;
  if (name) return input.sections.find((s) => s.name === name && fits(s)) ?? null;
  return input.sections.find(fits) ?? null;
}

function describeSections(input: LoadedInput): string {
  return input.sections
    .filter((s) => s.executable)
    .map((s) => `${s.name} ${hex(s.address)}–${hex(s.address + s.data.length)}`)
    .join(', ');
}

/** The symbol, section and end address of a function (--function NAME); UserError when absent. */
export function functionExtent(
  input: LoadedInput,
  fname: string,
): { sym: { name: string; address: number }; sec: ImageSection; end: number } {
  // names are read with their control characters as \xNN (bytes.ts latin1), which is also how
  // listings show them: a name typed with the characters themselves is matched the same way
  const name = fname.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const sym =
    input.symbols.find((s) => s.name === name) ??
    input.symbols.find((s) => s.name === `_${name}`) ??
    input.symbols.find((s) => s.name.replace(/^_/, '') === name);
  if (!sym) {
    const some = [
      ...new Set(input.symbols.map((s) => s.name).filter((n) => !n.startsWith('.L') && !n.startsWith('L'))),
    ].slice(0, 8);
    throw new UserError(
      `${input.file}: no symbol '${name}' in the symbol table${some.length ? ` (it has e.g. ${some.join(', ')})` : ' (the file has no symbols; use --range)'}`,
    );
  }
  const sec = input.sections.find(
    (s) =>
      s.executable &&
      (sym.section ? s.name === sym.section : true) &&
      sym.address >= s.address &&
      sym.address < s.address + s.data.length,
  );
  if (!sec) throw new UserError(`${input.file}: symbol '${sym.name}' is not in a code section; pass a function`);
  let end = sym.size ? sym.address + sym.size : sec.address + sec.data.length;
  if (!sym.size) {
    for (const s of input.symbols) {
      if (s.section === sym.section && s.address > sym.address && s.address < end && !/^L|^\.L/.test(s.name))
        end = s.address;
    }
  }
  end = Math.min(end, sec.address + sec.data.length);
  return { sym, sec, end };
}

/** Resolves a selection to a region of the input (without decoding it). */
export function resolveRegion(input: LoadedInput, sel: RegionSelection = {}): Region {
  const chosen = [sel.region !== undefined, sel.function !== undefined, sel.range !== undefined].filter(Boolean).length;
  if (chosen > 1) throw new UserError('choose the code one way: pass only one of --region, --function, --range');
  if (sel.range !== undefined) return rangeRegion(input, String(sel.range));
  if (sel.function !== undefined) return functionRegion(input, sel, String(sel.function));
  const list = listRegions(input);
  if (sel.region !== undefined) {
    const n = Number(sel.region);
    if (list.length === 0)
      throw new UserError(
        `${input.file}: no marked regions or loops to pick --region ${n} from; use --function or --range`,
      );
    if (!Number.isInteger(n) || n < 1 || n > list.length)
      throw new UserError(
        `--region ${sel.region}: ${input.file} has ${list.length} region${list.length === 1 ? '' : 's'} (1–${list.length}); see ${regionsCommand(input.file)}`,
      );
    return list[n - 1]!;
  }
  const chosen1 = defaultRegion(input, list);
  if (chosen1) return chosen1;
  throw new UserError(
    `${input.file}: no IACA markers, no LLVM-MCA/OSACA markers and no loop found; mark the loop (mov ebx, 111; .byte 0x64, 0x67, 0x90 … mov ebx, 222; .byte 0x64, 0x67, 0x90) or pass --function SYMBOL or --range START:END`,
  );
}

/** The region `--range START:END` names, with a note on how bare bounds were read. */
function rangeRegion(input: LoadedInput, range: string): Region {
  // SECTION:START:END names the section, where several hold the addresses (an object built with
  // -ffunction-sections has each function's section at 0)
  const named = /^(.+):([^:]+):([^:]+)$/.exec(range);
  const m = named ? ([named[0], named[2], named[3]] as const) : /^([^:]+):([^:]+)$/.exec(range);
  if (!m)
    throw new UserError(
      `--range: '${range}' is not START:END or SECTION:START:END; write e.g. --range 0x401000:0x401020`,
    );
  const sectionName = named?.[1];
  // objdump prints hex without 0x: a bound with a hex letter makes both bare bounds hex
  const bare = [m[1]!, m[2]!].map((x) => x.trim()).filter((x) => !/^0x/i.test(x));
  const bareHex = bare.some((x) => /[a-f]/i.test(x));
  const start = parseAddress(m[1]!, 'START', bareHex);
  const end = parseAddress(m[2]!, 'END', bareHex);
  if (end <= start) throw new UserError(`--range: END (${hex(end)}) must be above START (${hex(start)})`);
  const sec = sectionFor(input, start, end, sectionName);
  if (!sec)
    throw new UserError(
      sectionName !== undefined && !input.sections.some((s) => s.executable && s.name === sectionName)
        ? `${input.file}: no code section '${printable(sectionName, 80)}' (${describeSections(input)})`
        : `${input.file}: range ${hex(start)}:${hex(end)} is not inside one code section (${describeSections(input)}); pick addresses from 'uopscope disasm' or objdump`,
    );
  if (sectionName === undefined) {
    const all = input.sections.filter((s) => s.executable && start >= s.address && end <= s.address + s.data.length);
    if (all.length > 1) {
      const names = all.slice(0, 4).map((s) => s.name);
      throw new UserError(
        `${input.file}: range ${hex(start)}:${hex(end)} lies in ${all.length} code sections (${names.join(', ')}${all.length > 4 ? ', …' : ''}; an object built with -ffunction-sections has each function's at 0): name one, e.g. --range ${names[0]}:${hex(start)}:${hex(end)} ('uopscope regions' gives each loop's section)`,
      );
    }
  }
  const notes: string[] = [];
  if (bare.length && bareHex)
    notes.push(`--range ${range}: read as hex (${hex(start)}:${hex(end)}), as objdump prints addresses`);
  else if (bare.length)
    notes.push(
      `--range ${range}: ${bare.join(' and ')} read as decimal (${hex(start)}:${hex(end)}); objdump prints hex without 0x: for hex write ${[m[1]!, m[2]!].map((x) => (/^0x/i.test(x.trim()) ? x.trim() : `0x${x.trim()}`)).join(':')}`,
    );
  const inside = insideInstruction(input, sec, start);
  if (inside !== null)
    notes.push(
      `${hex(start)} is inside the instruction at ${hex(inside)} (decoding from the function's start): the range decodes other instructions than the function runs; start at ${hex(inside)}`,
    );
  return {
    index: 1,
    kind: 'range',
    name: `range ${hex(start)}:${hex(end)}`,
    start,
    end,
    section: sec.name,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

/** The region `--function NAME` names: its main loop (or the loop chosen), else the whole function. */
function functionRegion(input: LoadedInput, sel: RegionSelection, name: string): Region {
  const { sym, sec, end } = functionExtent(input, name);
  if (!sel.wholeFunction) {
    // a function with loops: its main loop, or the one the picker chose
    const loops = functionLoops(input, sec.name, sym.address, end);
    if (sel.functionLoop !== undefined) {
      const l = loops[sel.functionLoop - 1];
      if (!l)
        throw new UserError(
          `--function ${sym.name}: it has ${loops.length} loop${loops.length === 1 ? '' : 's'}, not a loop ${sel.functionLoop}`,
        );
      return { ...l, index: 1 };
    }
    if (loops.length) {
      const found = foundLoops(input);
      const mains = found.filter((f) => f.main && loops.some((r) => sameLoop(r, f.region)));
      const m = mains[0] ?? found.find((f) => sameLoop(f.region, loops[0]!))!;
      const list = listRegions(input);
      const why = loops.length === 1 ? 'its loop' : choiceWhy(m, found, list, 1).replace(/ of \S+ \(/, ' (');
      const byRegion = list.some((r) => r.kind === 'loop');
      // at most a few of the others: a function can hold thousands of loops
      const others = loops.filter((l) => !sameLoop(l, m.region));
      const how = byRegion
        ? ''
        : ` (the others: ${others
            .slice(0, OTHERS_NAMED)
            .map((l) => `--range ${hex(l.start)}:${hex(l.end)}`)
            .join(', ')}${others.length > OTHERS_NAMED ? ` and ${others.length - OTHERS_NAMED} more` : ''})`;
      return { ...m.region, index: 1, note: `function ${sym.name}: analysing ${why}${how}` };
    }
  }
  return {
    index: 1,
    kind: 'function',
    name: sym.name,
    start: sym.address,
    end,
    section: sec.name,
    ...(sel.wholeFunction ? {} : { note: `function ${sym.name} has no loop: analysed whole, as one straight block` }),
  };
}

export function selectRegion(input: LoadedInput, sel: RegionSelection = {}): LoadedRegion {
  return decodeChosenRegion(input, resolveRegion(input, sel), sel);
}

/** A region already chosen (one of listRegions's, resolveRegion's) decoded: what selectRegion
 *  returns for it. A batch of every region of an input lists them once and decodes each here;
 *  `region` is the caller's (its end and note may be adjusted): pass a copy of a shared one. */
export function decodeChosenRegion(
  input: LoadedInput,
  region: Region,
  sel: Pick<RegionSelection, 'maxInstructions' | 'wholeFunction' | 'admit'> = {},
): LoadedRegion {
  const sec = sectionFor(input, region.start, region.end, region.section);
  if (!sec)
    throw new UserError(
      `${input.file}: ${region.name} (${hex(region.start)}–${hex(region.end)}) lies outside the code sections`,
    );
  if (region.end <= region.start) {
    throw new UserError(
      `${input.file}: ${region.name} at ${hex(region.start)} is empty (no instructions between the markers); put the loop between the start and end markers`,
    );
  }
  const where = `${input.file}: ${region.name}`;
  const limit = sel.maxInstructions ?? DEFAULT_MAX_INSTRUCTIONS;
  if (region.end - region.start > maxCodeBytes(limit)) {
    throw new UserError(
      `${where} spans ${(region.end - region.start).toLocaleString('en-US')} bytes: ${raiseHint(limit)}`,
    );
  }
  let instructions: DecodedInstruction[];
  try {
    instructions = region.segments
      ? decodeSegments(sec, region.segments, input.bitness, where, limit, sel.admit)
      : decodeRegion(
          sec.data.subarray(region.start - sec.address, region.end - sec.address),
          region.start,
          input.bitness,
          where,
          limit,
          sel.admit,
        );
  } catch (e) {
    // a range read as decimal, or starting inside an instruction, is the likely reason: say so
    if (e instanceof UserError && region.kind === 'range' && region.note)
      throw new UserError(`${e.message} (${region.note})`, e.exitCode);
    throw e;
  }
  if (sec.relocatedTargets) applyRelocatedTargets(instructions, sec.relocatedTargets);
  if (region.kind === 'function') {
    // a symbol without a size runs to the next symbol: drop the alignment padding after it
    while (instructions.length > 1 && /^(NOP|INT3)$/.test(instructions.at(-1)!.mnemonic)) instructions.pop();
    const last = instructions.at(-1);
    if (last) region.end = last.address + last.length;
  }
  const leaves = instructions.filter(
    (i, k) =>
      (i.branch?.kind === 'return' || i.branch?.kind === 'indirect') &&
      !(region.kind === 'function' && sel.wholeFunction && k === instructions.length - 1),
  );
  if (leaves.length) {
    const which =
      leaves
        .slice(0, 3)
        .map((i) => `line ${i.line} (${i.intel})`)
        .join(', ') + (leaves.length > 3 ? ` and ${leaves.length - 3} more` : '');
    const note = `${which} ${leaves.length === 1 ? 'leaves' : 'leave'} the code for good (a return or an indirect jump): this is not a loop the processor repeats, and the figures run past ${leaves.length === 1 ? 'it' : 'them'} as straight-line code`;
    region.note = region.note ? `${region.note}; ${note}` : note;
  }
  return {
    file: input.file,
    format: input.format,
    region,
    instructions,
    ...(sec.placement ? { placement: { section: sec.name, align: sec.placement.align } } : {}),
  };
}

/** A direct branch whose 32-bit target field a relocation names (a relocatable object's call to
 *  another function): its target is that symbol, not the address its zero bytes decode to. */
function applyRelocatedTargets(instructions: DecodedInstruction[], targets: Map<number, string>): void {
  for (const i of instructions) {
    const b = i.branch;
    if (!b || b.target === null || i.length < 5) continue;
    const symbol = targets.get(i.address + i.length - 4);
    if (symbol === undefined) continue;
    const shown = hex(b.target);
    const att = i.att;
    i.intel = i.intel.endsWith(shown) ? `${i.intel.slice(0, -shown.length)}${symbol}` : `${i.intel} <${symbol}>`;
    i.att = att.endsWith(shown) ? `${att.slice(0, -shown.length)}${symbol}` : `${att} <${symbol}>`;
    i.branch = { ...b, target: null, targetLine: null, backward: false, symbol };
  }
}

/** A loop laid out as several runs of addresses (see loops.ts's layout): decoded run by run and
 *  numbered through, branches pointing at lines of the whole layout. */
function decodeSegments(
  sec: ImageSection,
  segments: { start: number; end: number }[],
  bitness: 32 | 64,
  where: string,
  limit: number,
  admit?: (lines: number) => void,
): DecodedInstruction[] {
  const out: DecodedInstruction[] = [];
  for (const g of segments) {
    for (const i of decodeRegion(
      sec.data.subarray(g.start - sec.address, g.end - sec.address),
      g.start,
      bitness,
      where,
      limit - out.length,
      admit && ((lines) => admit(out.length + lines)),
    )) {
      i.line = out.length;
      out.push(i);
    }
  }
  const lineOf = new Map(out.map((i) => [i.address, i.line]));
  for (const i of out) {
    const b = i.branch;
    if (!b || b.target === null) continue;
    const t = lineOf.get(b.target) ?? null;
    // backward in the layout: to a line before (a jump to the loop's first line closes it)
    i.branch = { ...b, targetLine: t, backward: t !== null ? t <= i.line : b.target <= i.address };
  }
  return out;
}
