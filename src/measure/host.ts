// The host's core, from CPUID's vendor, family, model and stepping as Linux reports them in
// /proc/cpuinfo, matched against the CPUID signatures in the machine records (identity.cpuid).

import { readFileSync } from 'node:fs';
import { listMachines } from '../data/machines.js';

export interface HostCore {
  vendor: string;
  family: number;
  model: number;
  stepping: number;
  modelName: string;
  /** CPUID's hypervisor bit: a virtual machine, whose CPUID may name another core than the real one */
  virtual: boolean;
  /** uopscope's name for the core, or null when it has no model for it */
  arch: string | null;
  /** how the core was mapped, when the mapping is by the nearest model rather than the same core */
  note?: string;
}

/** The core a CPUID signature names, from the machine records' identities (identity.cpuid);
 *  the matching signature's note says when it maps a derivative to the core. */
export function archOfSignature(vendor: string, family: number, model: number, stepping: number): { arch: string | null; note?: string } {
  for (const m of listMachines()) {
    const sig = m.identity?.cpuid.find((c) => c.vendor === vendor && c.family === family && c.models.includes(model)
      && (c.steppings === undefined || (stepping >= c.steppings[0] && stepping <= c.steppings[1])));
    if (sig) return sig.note ? { arch: m.arch, note: sig.note } : { arch: m.arch };
  }
  return { arch: null };
}

/** An Intel family 6 model's core (archOfSignature). */
export function archOfModel(model: number, stepping: number): { arch: string | null; note?: string } {
  return archOfSignature('GenuineIntel', 6, model, stepping);
}

/** Parses /proc/cpuinfo's first processor. */
export function parseCpuinfo(text: string): HostCore {
  const first = text.split(/\n\s*\n/)[0] ?? '';
  const field = (name: string): string => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(first)?.[1]?.trim() ?? '';
  const vendor = field('vendor_id');
  const family = Number(field('cpu family'));
  const model = Number(field('model'));
  const stepping = Number(field('stepping'));
  const virtual = /\bhypervisor\b/.test(field('flags'));
  const mapped = archOfSignature(vendor, family, model, stepping);
  return { vendor, family, model, stepping, modelName: field('model name'), virtual, ...mapped };
}

export function hostCore(path = '/proc/cpuinfo'): HostCore | null {
  try {
    return parseCpuinfo(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** 'family 6 model 0xa7 stepping 1' */
export function cpuidText(h: HostCore): string {
  return `${h.vendor} family ${h.family} model 0x${h.model.toString(16)} stepping ${h.stepping}`;
}
