// The host's core, from CPUID's vendor, family, model and stepping as Linux reports them in
// /proc/cpuinfo, mapped to uopscope's architecture names (src/data/machines.ts ARCH_ORDER).

import { readFileSync } from 'node:fs';

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

/** Intel family 6 models → uopscope arch (some by stepping). Sources: Intel SDM vol. 4 table 2-1
 *  and Linux's arch/x86/include/asm/intel-family.h. */
export function archOfModel(model: number, stepping: number): { arch: string | null; note?: string } {
  const m = model;
  if ([0x1a, 0x1e, 0x1f, 0x2e].includes(m)) return { arch: 'NHM' };
  if ([0x25, 0x2c, 0x2f].includes(m)) return { arch: 'WSM' };
  if ([0x2a, 0x2d].includes(m)) return { arch: 'SNB' };
  if ([0x3a, 0x3e].includes(m)) return { arch: 'IVB' };
  if ([0x3c, 0x3f, 0x45, 0x46].includes(m)) return { arch: 'HSW' };
  if ([0x3d, 0x47, 0x4f, 0x56].includes(m)) return { arch: 'BDW' };
  if ([0x4e, 0x5e].includes(m)) return { arch: 'SKL' };
  if (m === 0x55) return stepping >= 5 ? { arch: 'CLX', ...(stepping >= 10 ? { note: 'Cooper Lake, mapped to Cascade Lake (same core)' } : {}) } : { arch: 'SKX' };
  if (m === 0x8e || m === 0x9e) return stepping <= 9 ? { arch: 'KBL' } : { arch: 'CFL' };
  if (m === 0xa5 || m === 0xa6) return { arch: 'CFL', note: 'Comet Lake, mapped to Coffee Lake (same core)' };
  if ([0x7d, 0x7e, 0x6a, 0x6c].includes(m)) return { arch: 'ICL', ...(m === 0x6a || m === 0x6c ? { note: 'Ice Lake server, mapped to Ice Lake (same Sunny Cove core)' } : {}) };
  if (m === 0x8c || m === 0x8d) return { arch: 'TGL' };
  if (m === 0xa7) return { arch: 'RKL' };
  if (m === 0x97 || m === 0x9a) return { arch: 'ADL-P', note: 'a hybrid core: the figures are the P-core\'s; pin the run to a P-core (taskset) for a fair comparison' };
  if ([0xb7, 0xba, 0xbf].includes(m)) return { arch: 'ADL-P', note: 'Raptor Lake, mapped to Alder Lake P (Raptor Cove is a Golden Cove derivative); a hybrid core: pin to a P-core' };
  if (m === 0x8f) return { arch: 'SPR' };
  if (m === 0xcf) return { arch: 'SPR', note: 'Emerald Rapids, mapped to Sapphire Rapids (same Raptor/Golden Cove core family)' };
  return { arch: null };
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
  const mapped = vendor === 'GenuineIntel' && family === 6 ? archOfModel(model, stepping) : { arch: null };
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
