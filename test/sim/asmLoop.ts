// Small loops assembled by the system assembler (`as`) at test time, decoded, resolved against the
// embedded data and built with the refined model's facts (for the mechanism tests).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { buildDependencyGraph, loadRegion } from '../../src/disasm/index.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import type { ArchName } from '../../src/data/types.js';
import { BASELINE, buildSimProgram, machineParams, simulate } from '../../src/sim/index.js';
import type { MachineParams, SimProgram } from '../../src/sim/index.js';
import { SUACA_MECHANISMS } from '../../src/sim/mechanisms.js';
import type { MechanismSet } from '../../src/sim/mechanisms.js';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-fe-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
/** `body` assembled as function f (Intel syntax; `pad` bytes of NOPs after a 64-byte alignment
 *  put the loop where a test needs it), built for `arch`: the loop is the whole function. */
export async function loop(body: string, arch: ArchName, pad = 0): Promise<{ p: SimProgram; m: MachineParams }> {
  const file = join(dir, `t${count++}.s`);
  writeFileSync(
    file,
    `.intel_syntax noprefix\n.text\n.p2align 6\n.globl g\ng:\n${pad > 0 ? `.skip ${pad}, 0x90\n` : ''}.globl f\nf:\n${body}\n`,
  );
  const r = await loadRegion({ file, function: 'f', wholeFunction: true });
  const machine = loadMachine(arch);
  const resolved = resolveInstructions(r.instructions, await loadArchData(arch, {}), { fallback: 'skip', machine });
  const graph = buildDependencyGraph(r.instructions, { loop: true });
  return { p: buildSimProgram(r.instructions, graph, resolved, { machine }), m: machineParams(machine) };
}

export const on = (...ks: (keyof MechanismSet)[]): MechanismSet => ({
  ...SUACA_MECHANISMS,
  ...Object.fromEntries(ks.map((k) => [k, true])),
});
export const cpi = (p: SimProgram, m: MachineParams, mech: MechanismSet, iterations = 1000): number =>
  simulate(p, m, { iterations, variant: BASELINE }, { model: { mechanisms: mech } }).stats.blockThroughput;
