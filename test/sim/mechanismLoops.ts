// Small loops assembled by the system assembler (`as`) at test time, for the refined model's
// mechanism tests: decoded, resolved against the data uopscope ships (or a uops.info-schema
// file), built with the machine so that each line carries its refined facts.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { buildDependencyGraph, loadRegion } from '../../src/disasm/index.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import type { ArchName } from '../../src/data/types.js';
import { BASELINE, buildSimProgram, machineParams, simulate, SUACA_MECHANISMS } from '../../src/sim/index.js';
import type { MechanismSet, MachineParams, SimProgram } from '../../src/sim/index.js';

export const dir = mkdtempSync(join(tmpdir(), 'uopscope-mech-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let nfile = 0;
/** Assembles `body` as a loop (Intel syntax) and returns the program built for `arch`. */
export async function loop(
  body: string,
  arch: ArchName,
  uopsXml?: string,
): Promise<{ program: SimProgram; machine: MachineParams }> {
  const file = join(dir, `t${nfile++}.s`);
  writeFileSync(file, `.intel_syntax noprefix\n.text\n.p2align 6\n.globl f\nf:\n${body}\n  ret\n`);
  const r = await loadRegion({ file, function: 'f', wholeFunction: true });
  const m = loadMachine(arch);
  const lines = r.instructions.filter((i) => !/^ret/.test(i.intel));
  // the record's model (LLVM's with cited corrections), not the figures measured on this machine
  // that uopscope ships for its core: the mechanisms are tested on the model's figures
  const data = await loadArchData(arch, { measured: false, ...(uopsXml ? { uopsXml } : {}) });
  const resolved = resolveInstructions(lines, data, {
    fallback: 'skip',
    machine: m,
  });
  const graph = buildDependencyGraph(lines, { loop: true });
  return { program: buildSimProgram(lines, graph, resolved, { machine: m }), machine: machineParams(m) };
}

export const mech = (on: Partial<MechanismSet>): MechanismSet => ({ ...SUACA_MECHANISMS, ...on });
export function run(p: { program: SimProgram; machine: MachineParams }, on: Partial<MechanismSet>, iterations = 200) {
  return simulate(p.program, p.machine, { iterations, variant: BASELINE }, { model: { mechanisms: mech(on) } });
}
