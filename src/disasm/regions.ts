// Region selection: IACA byte markers, LLVM-MCA/OSACA comment markers (assembly input),
// --function SYMBOL, --range START:END, and loops found from backward branches.
import { Decoder, DecoderOptions, FlowControl, Instruction, OpKind } from './iced.js';
import { UserError } from '../errors.js';
import { hex } from './bytes.js';
import { decodeRegion } from './decode.js';
import type { ImageSection, LoadedInput, LoadedRegion, Region, RegionSelection } from './types.js';

/** IACA's start marker: mov ebx, 111 followed by the fs-prefixed address-size nop 64 67 90. */
export const IACA_START = Uint8Array.from([0xbb, 0x6f, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90]);
/** IACA's end marker: mov ebx, 222 + 64 67 90. The region ends before the mov. */
export const IACA_END = Uint8Array.from([0xbb, 0xde, 0x00, 0x00, 0x00, 0x64, 0x67, 0x90]);

function occurrences(data: Uint8Array, pat: Uint8Array): number[] {
  const out: number[] = [];
  const first = pat[0]!;
  for (let i = data.indexOf(first); i >= 0 && i + pat.length <= data.length; i = data.indexOf(first, i + 1)) {
    let ok = true;
    for (let j = 1; j < pat.length; j++) if (data[i + j] !== pat[j]) { ok = false; break; }
    if (ok) out.push(i);
  }
  return out;
}

/** All IACA-marked regions, in address order; unpaired markers are an error. */
export function findIacaRegions(input: LoadedInput): Region[] {
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
        if (open !== null) throw new UserError(`${input.file}: IACA start marker at ${hex(sec.address + open)} has no end marker before the next start marker at ${at}; add the end marker (mov ebx, 222; .byte 0x64, 0x67, 0x90) after the loop`);
        open = m.o;
      } else {
        if (open === null) throw new UserError(`${input.file}: IACA end marker at ${at} has no start marker before it; add the start marker (mov ebx, 111; .byte 0x64, 0x67, 0x90) before the loop`);
        regions.push({
          index: 0, kind: 'iaca', name: '', start: sec.address + open + IACA_START.length,
          end: sec.address + m.o, section: sec.name,
        });
        open = null;
      }
    }
    if (open !== null) throw new UserError(`${input.file}: IACA start marker at ${hex(sec.address + open)} has no end marker; add the end marker (mov ebx, 222; .byte 0x64, 0x67, 0x90) after the loop`);
  }
  regions.forEach((r, i) => { r.name = `IACA region ${i + 1}`; });
  return regions;
}

/** Loops from backward direct branches (linear sweep of the code), innermost (smallest) first. */
export function findLoops(input: LoadedInput): Region[] {
  const loops: Region[] = [];
  const seen = new Set<string>();
  for (const sec of input.sections.filter((s) => s.executable)) {
    const enclosingSymbol = symbolFinder(input, sec);
    const dec = new Decoder(input.bitness, sec.data, DecoderOptions.None);
    const ins = new Instruction();
    let pos = 0;
    while (pos < sec.data.length) {
      dec.position = pos;
      dec.ip = BigInt(sec.address + pos);
      dec.decodeOut(ins);
      if (ins.isInvalid || ins.length === 0) { pos += 1; continue; }
      const fc = ins.flowControl;
      if ((fc === FlowControl.ConditionalBranch || fc === FlowControl.UnconditionalBranch) &&
          (ins.op0Kind === OpKind.NearBranch64 || ins.op0Kind === OpKind.NearBranch32 || ins.op0Kind === OpKind.NearBranch16)) {
        const target = Number(ins.nearBranchTarget);
        const at = sec.address + pos;
        const end = at + ins.length;
        if (target <= at && target >= sec.address) {
          const key = `${sec.name}:${target}:${end}`;
          if (!seen.has(key)) {
            seen.add(key);
            const fn = enclosingSymbol(target);
            loops.push({ index: 0, kind: 'loop', name: `loop at ${hex(target)}${fn ? ` in ${fn}` : ''} (${end - target} bytes)`, start: target, end, section: sec.name });
          }
        }
      }
      pos += ins.length;
    }
    ins.free();
    dec.free();
  }
  return loops.sort((a, b) => a.end - a.start - (b.end - b.start) || a.start - b.start);
}

/** Finds the symbol a code address lies in (the nearest at or below it) for one section, by
 *  binary search: built once per section, so naming n loops costs n·log(symbols), not n·symbols. */
function symbolFinder(input: LoadedInput, sec: ImageSection): (addr: number) => string | null {
  const list = input.symbols.filter((s) => s.section === sec.name && !s.name.startsWith('.L'));
  // stable sort: of equal addresses the first in the symbol table wins
  const sorted = list.map((s, i) => ({ s, i })).sort((a, b) => a.s.address - b.s.address || a.i - b.i).map((x) => x.s);
  const uniq = sorted.filter((s, k) => k === 0 || sorted[k - 1]!.address !== s.address);
  return (addr) => {
    let lo = 0;
    let hi = uniq.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (uniq[mid]!.address <= addr) { best = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return best >= 0 ? uniq[best]!.name : null;
  };
}

const number = (list: Region[]): Region[] => list.map((r, i) => ({ ...r, index: i + 1 }));

/** The loops inside [start, end) of a section, innermost first. */
export function functionLoops(input: LoadedInput, section: string, start: number, end: number): Region[] {
  return findLoops(input).filter((l) => l.section === section && l.start >= start && l.end <= end);
}

/** The regions `uopscope regions` lists: marked ones if any, else (raw code: all bytes, then)
 *  the loop candidates, innermost first. Without a selection the first one is analysed. */
export function listRegions(input: LoadedInput): Region[] {
  const marked = [...findIacaRegions(input), ...input.commentRegions];
  if (marked.length) return number(marked);
  if (input.format === 'raw') {
    // raw code without markers: all of it first (what --hex usually means), then its loops
    const s = input.sections[0]!;
    return number([{ index: 0, kind: 'whole', name: 'all bytes', start: s.address, end: s.address + s.data.length, section: s.name }, ...findLoops(input)]);
  }
  const loops = findLoops(input);
  if (loops.length === 0 && input.format === 'asm') {
    // assembly without markers or loops (a block piped in, as llvm-mca takes it): all its code
    const s = input.sections.find((x) => x.executable && x.data.length > 0);
    if (s) return number([{ index: 0, kind: 'whole', name: `all code of ${s.name}`, start: s.address, end: s.address + s.data.length, section: s.name }]);
  }
  return number(loops);
}

function parseAddress(s: string, what: string): number {
  const t = s.trim();
  const v = /^0x[0-9a-f]+$/i.test(t) ? parseInt(t.slice(2), 16) : /^\d+$/.test(t) ? parseInt(t, 10) : NaN;
  if (!Number.isSafeInteger(v)) throw new UserError(`--range: '${s}' is not an address (${what}); write START:END as hex (0x401000) or decimal`);
  return v;
}

function sectionFor(input: LoadedInput, start: number, end: number, name?: string): ImageSection | null {
  const fits = (s: ImageSection) => s.executable && start >= s.address && end <= s.address + s.data.length;
  if (name) return input.sections.find((s) => s.name === name && fits(s)) ?? null;
  return input.sections.find(fits) ?? null;
}

function describeSections(input: LoadedInput): string {
  return input.sections.filter((s) => s.executable).map((s) => `${s.name} ${hex(s.address)}–${hex(s.address + s.data.length)}`).join(', ');
}

/** The symbol, section and end address of a function (--function NAME); UserError when absent. */
export function functionExtent(input: LoadedInput, fname: string): { sym: { name: string; address: number }; sec: ImageSection; end: number } {
  const name = fname;
  const sym = input.symbols.find((s) => s.name === name) ?? input.symbols.find((s) => s.name === `_${name}`) ?? input.symbols.find((s) => s.name.replace(/^_/, '') === name);
  if (!sym) {
    const some = [...new Set(input.symbols.map((s) => s.name).filter((n) => !n.startsWith('.L') && !n.startsWith('L')))].slice(0, 8);
    throw new UserError(`${input.file}: no symbol '${name}' in the symbol table${some.length ? ` (it has e.g. ${some.join(', ')})` : ' (the file has no symbols; use --range)'}`);
  }
  const sec = input.sections.find((s) => s.executable && (sym.section ? s.name === sym.section : true) && sym.address >= s.address && sym.address < s.address + s.data.length);
  if (!sec) throw new UserError(`${input.file}: symbol '${sym.name}' is not in a code section; pass a function`);
  let end = sym.size ? sym.address + sym.size : sec.address + sec.data.length;
  if (!sym.size) {
    for (const s of input.symbols) {
      if (s.section === sym.section && s.address > sym.address && s.address < end && !/^L|^\.L/.test(s.name)) end = s.address;
    }
  }
  end = Math.min(end, sec.address + sec.data.length);
  return { sym, sec, end };
}

/** Resolves a selection to a region of the input (without decoding it). */
export function resolveRegion(input: LoadedInput, sel: RegionSelection = {}): Region {
  const chosen = [sel.region !== undefined, sel.function !== undefined, sel.range !== undefined].filter(Boolean).length;
  if (chosen > 1) throw new UserError('choose the code one way: pass only one of --region, --function, --range');
  if (sel.range !== undefined) {
    const m = /^([^:]+):([^:]+)$/.exec(String(sel.range));
    if (!m) throw new UserError(`--range: '${sel.range}' is not START:END; write e.g. --range 0x401000:0x401020`);
    const start = parseAddress(m[1]!, 'START');
    const end = parseAddress(m[2]!, 'END');
    if (end <= start) throw new UserError(`--range: END (${hex(end)}) must be above START (${hex(start)})`);
    const sec = sectionFor(input, start, end);
    if (!sec) throw new UserError(`${input.file}: range ${hex(start)}:${hex(end)} is not inside one code section (${describeSections(input)}); pick addresses from 'uopscope disasm' or objdump`);
    return { index: 1, kind: 'range', name: `range ${hex(start)}:${hex(end)}`, start, end, section: sec.name };
  }
  if (sel.function !== undefined) {
    const { sym, sec, end } = functionExtent(input, String(sel.function));
    if (!sel.wholeFunction) {
      // a function with loops: its innermost loop (the loops are listed innermost first)
      const loops = functionLoops(input, sec.name, sym.address, end);
      if (loops.length) {
        const l = loops[0]!;
        const more = loops.length > 1 ? `the innermost of its ${loops.length} loops (the others: --range ${loops.slice(1).map((x) => `${hex(x.start)}:${hex(x.end)}`).join(', ')})` : 'its loop';
        return { ...l, index: 1, note: `function ${sym.name}: analysing ${more}, ${hex(l.start)}:${hex(l.end)}` };
      }
    }
    return {
      index: 1, kind: 'function', name: sym.name, start: sym.address, end, section: sec.name,
      ...(sel.wholeFunction ? {} : { note: `function ${sym.name} has no loop: analysed whole, as one straight block` }),
    };
  }
  const list = listRegions(input);
  if (sel.region !== undefined) {
    const n = Number(sel.region);
    if (list.length === 0) throw new UserError(`${input.file}: no marked regions or loops to pick --region ${n} from; use --function or --range`);
    if (!Number.isInteger(n) || n < 1 || n > list.length) throw new UserError(`--region ${sel.region}: ${input.file} has ${list.length} region${list.length === 1 ? '' : 's'} (1–${list.length}); see 'uopscope regions ${input.file}'`);
    return list[n - 1]!;
  }
  if (list.length > 1) {
    return { ...list[0]!, note: `${input.file} holds ${list.length} regions; analysing region 1 (${list[0]!.name}); choose another with --region N (see 'uopscope regions ${input.file}')` };
  }
  if (list.length) return list[0]!;
  throw new UserError(`${input.file}: no IACA markers, no LLVM-MCA/OSACA markers and no loop found; mark the loop (mov ebx, 111; .byte 0x64, 0x67, 0x90 … mov ebx, 222; .byte 0x64, 0x67, 0x90) or pass --function SYMBOL or --range START:END`);
}

export function selectRegion(input: LoadedInput, sel: RegionSelection = {}): LoadedRegion {
  const region = resolveRegion(input, sel);
  const sec = sectionFor(input, region.start, region.end, region.section);
  if (!sec) throw new UserError(`${input.file}: ${region.name} (${hex(region.start)}–${hex(region.end)}) lies outside the code sections`);
  if (region.end <= region.start) {
    throw new UserError(`${input.file}: ${region.name} at ${hex(region.start)} is empty (no instructions between the markers); put the loop between the start and end markers`);
  }
  const bytes = sec.data.subarray(region.start - sec.address, region.end - sec.address);
  const where = `${input.file}: ${region.name}`;
  const instructions = decodeRegion(bytes, region.start, input.bitness, where);
  if (region.kind === 'function') {
    // a symbol without a size runs to the next symbol: drop the alignment padding after it
    while (instructions.length > 1 && /^(NOP|INT3)$/.test(instructions.at(-1)!.mnemonic)) instructions.pop();
    const last = instructions.at(-1);
    if (last) region.end = last.address + last.length;
  }
  return { file: input.file, format: input.format, region, instructions };
}
