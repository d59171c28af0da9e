// What a prediction leaves out or simulates otherwise than the program runs, read from the region's
// instructions: said at the top of the report, where the figures are read.

import type { DecodedInstruction } from '../disasm/types.js';
import { microcodeChange, microcodeDependence } from '../data/microcode.js';
import { originText } from '../data/origins.js';
import type { MachineModel, ResolvedInstruction } from '../data/types.js';
import { fixed } from './format.js';

/** The caveats of simulating `instrs` as one loop body (`branchAsked`: --branch runs the sides). */
export function predictionCaveats(instrs: readonly DecodedInstruction[], branchAsked: boolean): string[] {
  const out: string[] = [];
  const line = (i: DecodedInstruction) => i.line;
  const inside = instrs.find(
    (i) => i.branch?.kind === 'conditional' && i.branch.targetLine !== null && !i.branch.backward,
  );
  if (inside && !branchAsked)
    out.push(
      `the conditional jump at line ${line(inside)} is inside the loop: both of its sides are simulated every iteration, one after the other (a path the program never takes); --branch simulates each side on its own (the explorer: b)`,
    );
  const inner = instrs.filter(
    (i) => i.branch?.kind === 'conditional' && i.branch.backward && (i.branch.targetLine ?? 0) > 0,
  );
  if (inner.length > 0)
    out.push(
      `an inner loop (lines ${inner.map((i) => `${i.branch!.targetLine}–${line(i)}`).join(', ')}) is simulated once per iteration of this loop, as straight-line code: its other iterations are not in the prediction; give the inner loop's region to simulate it`,
    );
  const calls = instrs.filter((i) => i.branch?.kind === 'call');
  if (calls.length > 0)
    out.push(
      `the call${calls.length > 1 ? 's' : ''} at line${calls.length > 1 ? 's' : ''} ${calls.map((i) => (i.branch?.symbol ? `${i.line} (to ${i.branch.symbol})` : `${i.line}`)).join(', ')}: the called code is not in the prediction (only the call instruction is)`,
    );
  return out;
}

/** The front end reads code in 32- and 64-byte blocks: a relocatable object's code, which the
 *  linker moves by a multiple of its section's alignment, is simulated at each placement within
 *  a 64-byte block it may take (at least every 16 bytes) and these are the shifts. */
export function placementShifts(align: number): number[] {
  const step = Math.max(16, align);
  const out: number[] = [];
  for (let s = step; s < 64; s += step) out.push(s);
  return out;
}

/** The caveat of a relocatable object's loop whose front-end result depends on where the linker
 *  places it (`here`: block throughput at the object's offsets; `moved`: at each shift), or
 *  null when no placement changes it by 1 % or more: a smaller change is the first iterations'
 *  fetch (a cycle or two of the whole run), not the loop's rate. */
export function placementCaveat(
  placement: { section: string; align: number },
  here: number,
  moved: { shift: number; blockThroughput: number }[],
): string | null {
  const shown = fixed(here, 2);
  if (moved.every((m) => Math.abs(m.blockThroughput - here) < 0.01 * here)) return null;
  const alt = moved.map((m) => `${fixed(m.blockThroughput, 2)} at +${m.shift}`).join(', ');
  return `a relocatable object: addresses are offsets in ${placement.section} (aligned to ${placement.align} byte${placement.align === 1 ? '' : 's'}), and the front end's result depends on where the linker places the loop within 32- and 64-byte blocks: ${shown} cycles per iteration here, ${alt} bytes; analyse the linked program, or align the loop to 64 bytes (gcc -falign-loops=64), for the placement it runs at`;
}

/** Lines the core cannot run (their ISA extensions, `missing` by line) and the cores of `cores`
 *  (the records, in their order) that run them all: where to look instead, or null. */
export function missingIsaCaveat(
  arch: string,
  missing: { line: number; features: readonly string[] }[],
  cores: readonly { arch: string; isa: readonly string[] }[],
): string | null {
  if (missing.length === 0) return null;
  const features = [...new Set(missing.flatMap((m) => m.features))];
  const running = cores.filter((c) => c.arch !== arch && features.every((f) => c.isa.includes(f))).map((c) => c.arch);
  const lines = missing.map((m) => m.line);
  const which = `${lines.length === 1 ? 'line' : 'lines'} ${lines.slice(0, 6).join(', ')}${lines.length > 6 ? ', …' : ''}`;
  if (running.length === 0)
    return `${arch} cannot run ${features.join(', ')} (${which}), nor can any core uopscope has`;
  const named = `${running.slice(0, 4).join(', ')}${running.length > 4 ? ', …' : ''}`;
  return `${arch} cannot run ${features.join(', ')} (${which}): ${named} ${running.length === 1 ? 'runs' : 'run'} ${lines.length === 1 ? 'it' : 'them'} (--arch ${running[0]})`;
}

/** 'line 5 (vgatherdpd)', 'lines 5, 7 (vgatherdpd)' */
function linesNamed(instrs: readonly DecodedInstruction[]): string {
  const mnemonics = [...new Set(instrs.map((i) => i.mnemonic.toLowerCase()))].join(', ');
  return `${instrs.length === 1 ? 'line' : 'lines'} ${instrs.map((i) => i.line).join(', ')} (${mnemonics})`;
}

/** The caveats of lines whose figures depend on the microcode (src/data/microcode.ts): those
 *  measured on this machine, which rank first, and on a core whose record names a microcode
 *  change of their figures (Gather Data Sampling), those whose figures predate it. */
export function microcodeCaveats(
  machine: Pick<MachineModel, 'arch' | 'microcode'>,
  instrs: readonly DecodedInstruction[],
  resolved: readonly Pick<ResolvedInstruction, 'origin' | 'provenance'>[],
): string[] {
  const gathers = instrs.filter((i) => microcodeDependence(i) === 'gather');
  if (gathers.length === 0) return [];
  const here = (i: DecodedInstruction) => resolved[i.line]?.provenance?.detail?.rankedFirst === 'gather';
  const out: string[] = [];
  const measured = gathers.filter(here);
  if (measured.length > 0)
    out.push(
      `${linesNamed(measured)}: figures measured on this machine (${originText('measured')}), ranked before every other source: a gather's figures depend on the microcode`,
    );
  const change = microcodeChange(machine, 'gather');
  const elsewhere = gathers.filter((i) => !here(i) && resolved[i.line]?.origin !== 'none');
  if (change && elsewhere.length > 0) {
    const from = [...new Set(elsewhere.map((i) => originText(resolved[i.line]!.origin)))].join(', ');
    out.push(
      `${linesNamed(elsewhere)}: ${machine.arch} is affected by Gather Data Sampling (CVE-2022-40982; Intel 785676, 785681): its microcode mitigation, on by default since August 2023, slows gathers down, and no public source gives their figures under it. These lines' figures (${from}) are those without it: the prediction is for a machine with the mitigation off. 'uopscope measure' runs the loop on this machine; figures measured on this machine rank first for gathers (docs/data.md)`,
    );
  }
  return out;
}

/** The notes `uopscope measure` gives a loop with gathers: the report's (microcodeCaveats), and
 *  what this machine's kernel says of Gather Data Sampling (`state`; null: it says nothing), under
 *  which the loop was measured. */
export function measuredGatherNotes(
  machine: Pick<MachineModel, 'arch' | 'microcode'>,
  instrs: readonly DecodedInstruction[],
  resolved: readonly Pick<ResolvedInstruction, 'origin' | 'provenance'>[],
  state: string | null,
): string[] {
  if (!instrs.some((i) => microcodeDependence(i) === 'gather')) return [];
  const file = '/sys/devices/system/cpu/vulnerabilities/gather_data_sampling';
  return [
    ...microcodeCaveats(machine, instrs, resolved),
    state === null
      ? `this machine's kernel does not say whether the Gather Data Sampling mitigation is on (no ${file}): the measured gathers run as its microcode runs them`
      : `this machine's kernel reports Gather Data Sampling: ${state} (${file}); the measured gathers run under it`,
  ];
}
