// Forms whose figures depend on the core's microcode: a figure measured on another machine, or on
// this core before an update, need not be what this machine's microcode gives. The one home of
// that list. The resolver (resolve.ts) takes the figures measured on this machine first for such a
// form (docs/data.md, "Where the figures come from"); the report says when such a line's figures
// come from elsewhere on a core whose record names the change (src/report/caveats.ts).
import type { DecodedInstruction } from '../disasm/types.js';
import type { MachineModel } from './types.js';

/** Why a form's figures depend on the microcode. */
export type MicrocodeDependence = 'gather';

/** AVX2 and AVX-512 gathers (VGATHERDPD, VPGATHERDD, …): the instructions Intel's Gather Data
 *  Sampling mitigation changes. The AVX-512PF gather prefetches (VGATHERPF0DPS) load no register
 *  and are not among them. */
const GATHER = /^VP?GATHER[DQ](?:D|Q|PS|PD)$/;

/** Whether the figures of the instruction's form depend on the microcode, and why (null: no). */
export function microcodeDependence(d: Pick<DecodedInstruction, 'mnemonic'>): MicrocodeDependence | null {
  return GATHER.test(d.mnemonic) ? 'gather' : null;
}

/** Whether the core's record says its current microcode changes the figures of such forms (the
 *  cited figure: MachineModel.microcode), or null when it names no change. */
export function microcodeChange(
  machine: Pick<MachineModel, 'microcode'>,
  why: MicrocodeDependence,
): { value: boolean; source: string } | null {
  const gds = why === 'gather' ? machine.microcode?.gatherDataSampling : undefined;
  return gds?.value ? gds : null;
}
