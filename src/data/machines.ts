// Machine models of Intel cores: assets/uarch/machines/<ARCH>.json (fields of MachineModel).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { assetsDir } from './paths.js';
import { parseArchName } from './archName.js';
import type { ArchName, MachineModel } from './types.js';

export type { ArchName };
export { parseArchName };

let all: Map<string, MachineModel> | undefined;

export function machinesDir(): string {
  return join(assetsDir(), 'machines');
}

/** Checks one model's fields; returns the problems (empty when valid). */
export function validateMachine(m: Partial<MachineModel>): string[] {
  const bad: string[] = [];
  const isNums = (v: unknown) => Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0);
  if (typeof m.arch !== 'string' || parseArchName(m.arch) !== m.arch) bad.push('arch');
  if (m.inheritsDataFrom !== undefined && parseArchName(m.inheritsDataFrom) !== m.inheritsDataFrom) bad.push('inheritsDataFrom');
  if (typeof m.name !== 'string' || !m.name) bad.push('name');
  if (!isNums(m.ports) || m.ports!.length === 0) bad.push('ports');
  if (!isNums(m.aluPorts) || m.aluPorts!.length === 0) bad.push('aluPorts');
  else if (m.ports && m.aluPorts!.some((p) => !m.ports!.includes(p))) bad.push('aluPorts (not in ports)');
  if (!Number.isInteger(m.dividerPort) || (m.ports && !m.ports.includes(m.dividerPort!))) bad.push('dividerPort');
  for (const k of ['issueWidth', 'rsSize'] as const) if (!Number.isInteger(m[k]) || m[k]! <= 0) bad.push(k);
  if (!Array.isArray(m.isa) || m.isa.length === 0) bad.push('isa');
  if (!Array.isArray(m.sources) || m.sources.length === 0) bad.push('sources');
  return bad;
}

function loadAll(): Map<string, MachineModel> {
  if (all) return all;
  const dir = machinesDir();
  const map = new Map<string, MachineModel>();
  for (const f of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')).sort() : []) {
    const path = join(dir, f);
    let m: MachineModel;
    try {
      m = JSON.parse(readFileSync(path, 'utf8')) as MachineModel;
    } catch (e) {
      throw new UserError(`machine model ${path} is not valid JSON (${(e as Error).message}) — reinstall uopscope`);
    }
    const bad = validateMachine(m);
    if (bad.length) throw new UserError(`machine model ${path} has bad fields: ${bad.join(', ')} — fix the file`);
    map.set(m.arch, m);
  }
  for (const m of map.values()) {
    if (m.inheritsDataFrom && !map.has(m.inheritsDataFrom)) {
      throw new UserError(`machine model ${m.arch} inherits data from unknown ${m.inheritsDataFrom} — fix assets/uarch/machines/${m.arch}.json`);
    }
  }
  return (all = map);
}

/** The model of one core (parseArchName makes the name from what the user wrote). */
export function loadMachine(arch: ArchName): MachineModel {
  const m = loadAll().get(arch);
  if (!m) throw new UserError(`unknown architecture '${arch}' — known: ${listMachines().map((x) => x.arch).join(', ')}`);
  return m;
}

/** Every machine model, oldest core first (file order as listed in ARCH_ORDER). */
export function listMachines(): MachineModel[] {
  const order = ARCH_ORDER;
  return [...loadAll().values()].sort((a, b) => rank(order, a.arch) - rank(order, b.arch));
}

/** The chain of architectures whose data `arch` uses: itself, then what it inherits from. */
export function inheritanceChain(arch: ArchName): ArchName[] {
  const chain = [arch];
  const map = loadAll();
  for (let m = map.get(arch); m?.inheritsDataFrom; m = map.get(m.inheritsDataFrom)) {
    const next = m.inheritsDataFrom;
    if (chain.includes(next)) break;
    chain.push(next);
  }
  return chain;
}

export const ARCH_ORDER = ['NHM', 'WSM', 'SNB', 'IVB', 'HSW', 'BDW', 'SKL', 'SKX', 'KBL', 'CFL', 'CLX', 'ICL', 'TGL', 'RKL', 'ADL-P', 'SPR'];

function rank(order: string[], a: string): number {
  const i = order.indexOf(a);
  return i === -1 ? order.length : i;
}
