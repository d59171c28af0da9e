// The host's core. CPUID's vendor, family, model and stepping (as Linux reports them in
// /proc/cpuinfo) are matched against the machine records' CPUID signatures, but a virtual machine
// may show a CPUID model that is not the core underneath (a Sapphire Rapids host presenting Rocket
// Lake's model 0xa7 with AMX and AVX512-FP16 among its flags): the feature flags and the L2 cache
// size are checked against the records too, and when they rule out the CPUID's core the core they
// fit is chosen, and the reason said. The user may name the core ($UOPSCOPE_HOST_ARCH).

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listMachines, parseArchName } from '../data/machines.js';
import { printable } from '../errors.js';
import type { MachineModel } from '../data/types.js';

export interface HostCore {
  vendor: string;
  family: number;
  model: number;
  stepping: number;
  modelName: string;
  /** CPUID's hypervisor bit: a virtual machine, whose CPUID may name another core than the real one */
  virtual: boolean;
  /** uopscope's name for the host's core, or null when it has no model for it */
  arch: string | null;
  /** the core CPUID's signature alone names (null: none of the records') */
  cpuidArch: string | null;
  /** how `arch` was chosen, one sentence */
  why: string;
  /** how the core was mapped (a derivative mapped to its core), or where the evidence disagrees */
  note?: string;
}

/** What identification reads besides /proc/cpuinfo; tests give their own. */
interface HostSources {
  /** /proc/cpuinfo's text */
  cpuinfo: string;
  /** the per-core L2 size in KiB (/sys/devices/system/cpu/cpu0/cache), when known */
  l2KiB?: number | null;
  /** the core the user names ($UOPSCOPE_HOST_ARCH) */
  named?: string | undefined;
}

/** The core a CPUID signature names, from the machine records' identities (identity.cpuid);
 *  the matching signature's note says when it maps a derivative to the core. */
export function archOfSignature(
  vendor: string,
  family: number,
  model: number,
  stepping: number,
): { arch: string | null; note?: string } {
  for (const m of listMachines()) {
    const sig = m.identity?.cpuid.find(
      (c) =>
        c.vendor === vendor &&
        c.family === family &&
        c.models.includes(model) &&
        (c.steppings === undefined || (stepping >= c.steppings[0] && stepping <= c.steppings[1])),
    );
    if (sig) return sig.note ? { arch: m.arch, note: sig.note } : { arch: m.arch };
  }
  return { arch: null };
}

/** An Intel family 6 model's core (archOfSignature). */
export function archOfModel(model: number, stepping: number): { arch: string | null; note?: string } {
  return archOfSignature('GenuineIntel', 6, model, stepping);
}

/** The ISA extension (as the records' `isa` lists name them) each /proc/cpuinfo flag shows, where
 *  the names differ (Linux's arch/x86/include/asm/cpufeatures.h); other flags are the ISA name in
 *  lower case (avx2 → AVX2). Only names some record lists count as evidence. */
const FLAG_ISA: Readonly<Record<string, string>> = {
  sha_ni: 'SHA',
  avx512ifma: 'AVX512_IFMA',
  avx512vbmi: 'AVX512_VBMI',
  pclmulqdq: 'PCLMULQDQ',
  bmi1: 'BMI1',
  abm: 'LZCNT',
  '3dnowprefetch': 'PRFCHW',
  cx16: 'CMPXCHG16B',
  lahf_lm: 'LAHF',
  sse4_1: 'SSE4.1',
  sse4_2: 'SSE4.2',
  pni: 'SSE3',
};

/** The extensions that count as evidence: the instruction-set families the records list for every
 *  core that has them (vector, AMX, crypto, bit manipulation). System features (PKU, WAITPKG, …)
 *  are left out: the records' lists of those are not meant to be complete. */
const DECISIVE =
  /^(AVX|AMX|FMA$|F16C$|SHA$|GFNI$|VAES$|VPCLMULQDQ$|AES$|PCLMULQDQ$|BMI[12]$|ADX$|MOVBE$|SSE|SSSE3$|POPCNT$)/;

/** The ISA extensions of the records that the host's flags show (the decisive ones). */
export function hostIsa(flags: readonly string[], machines: readonly MachineModel[] = listMachines()): Set<string> {
  const known = new Set(machines.flatMap((m) => m.isa));
  const out = new Set<string>();
  for (const f of flags) {
    const isa = FLAG_ISA[f] ?? f.toUpperCase();
    if (known.has(isa) && DECISIVE.test(isa)) out.add(isa);
  }
  return out;
}

/** The per-core L2 cache size in KiB from sysfs (null when unreadable). */
function readL2KiB(dir = '/sys/devices/system/cpu/cpu0/cache'): number | null {
  try {
    for (const idx of readdirSync(dir).filter((n) => /^index\d+$/.test(n))) {
      const read = (f: string) => readFileSync(join(dir, idx, f), 'utf8').trim();
      if (read('level') !== '2' || read('type') === 'Instruction') continue;
      const m = /^(\d+)([KM])$/.exec(read('size'));
      if (m) return Number(m[1]) * (m[2] === 'M' ? 1024 : 1);
    }
  } catch {
    /* no sysfs: no cache evidence */
  }
  return null;
}

const hex = (n: number) => `0x${n.toString(16)}`;
const list = (xs: string[], max = 4) => (xs.length > max ? `${xs.slice(0, max).join(', ')}, …` : xs.join(', '));

/**
 * The host's core from CPUID, the feature flags and the L2 size. The CPUID's core stands unless
 * the host shows ISA extensions that core lacks (a core cannot run what it does not have; a
 * virtual machine may hide features but not add them): then the core that has them all and the
 * fewest the host does not show is chosen, the L2 size deciding a tie. A core the user names
 * wins, with the evidence that disagrees said.
 */
export function identifyHost(src: HostSources): HostCore {
  const first = src.cpuinfo.split(/\n\s*\n/)[0] ?? '';
  const field = (name: string): string => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(first)?.[1]?.trim() ?? '';
  const vendor = field('vendor_id');
  const family = Number(field('cpu family'));
  const model = Number(field('model'));
  const stepping = Number(field('stepping'));
  const flags = field('flags').split(/\s+/).filter(Boolean);
  const virtual = flags.includes('hypervisor');
  const base = { vendor, family, model, stepping, modelName: field('model name'), virtual };
  const sig = archOfSignature(vendor, family, model, stepping);
  const cpuid = `CPUID ${vendor} family ${family} model ${hex(model)} stepping ${stepping}`;
  const machines = listMachines();
  const have = hostIsa(flags, machines);
  const lacks = (m: MachineModel) => lacking(have, m);
  const l2 = src.l2KiB ?? null;
  const l2Fits = (m: MachineModel) => l2Agrees(l2, m);
  const l2Text = l2 === null ? '' : `, L2 ${l2} KiB per core`;

  const named = src.named?.trim();
  let badName: string | undefined;
  if (named) {
    const m = namedCore(named, machines);
    if (typeof m !== 'string') return namedHost(m, base, sig.arch, cpuid, lacks(m));
    badName = m;
  }
  const withBad = (h: HostCore): HostCore => (badName ? { ...h, note: h.note ? `${badName}; ${h.note}` : badName } : h);
  // a core of another vendor never stands in: only the records of the CPUID's vendor are candidates
  const ofVendor = machines.filter((m) => m.identity?.cpuid.some((c) => c.vendor === vendor));
  if (ofVendor.length === 0) {
    return withBad({
      ...base,
      arch: null,
      cpuidArch: null,
      why: `${cpuid}: no core of vendor ${printable(vendor, 20) || '(none)'} is modelled`,
    });
  }
  const own = sig.arch ? machines.find((m) => m.arch === sig.arch) : undefined;
  if (own && lacks(own).length === 0) {
    const l2Note = !l2Fits(own)
      ? `its L2 (${l2} KiB per core) is not ${own.arch}'s (${own.identity!.l2KiB!.join(' or ')} KiB)`
      : undefined;
    const notes = [sig.note, l2Note].filter((x): x is string => !!x);
    return withBad({
      ...base,
      arch: own.arch,
      cpuidArch: own.arch,
      why: `${cpuid} names ${own.arch}; ${have.size ? 'its feature flags agree' : 'no feature flags to check'}${l2Text}`,
      ...(notes.length ? { note: notes.join('; ') } : {}),
    });
  }
  // CPUID names no core uopscope models (an Atom, a newer core): nothing to go by
  if (!own) return withBad({ ...base, arch: null, cpuidArch: null, why: `${cpuid} names no core uopscope models` });
  return withBad(byFeatures({ base, cpuidArch: sig.arch, cpuid, own, machines: ofVendor, have, l2 }));
}

/** The extensions the host shows that core `m` does not have. */
const lacking = (have: ReadonlySet<string>, m: MachineModel): string[] => [...have].filter((x) => !m.isa.includes(x));
/** Whether the host's L2 size (when known) is one of core `m`'s (when it has any). */
const l2Agrees = (l2: number | null, m: MachineModel): boolean =>
  l2 === null || !m.identity?.l2KiB || m.identity.l2KiB.includes(l2);

type HostBase = Omit<HostCore, 'arch' | 'cpuidArch' | 'why' | 'note'>;

/** The core UOPSCOPE_HOST_ARCH names, or why it names none. */
function namedCore(named: string, machines: readonly MachineModel[]): MachineModel | string {
  const arch = parseArchName(named);
  const m = arch ? machines.find((x) => x.arch === arch) : undefined;
  if (m) return m;
  return `UOPSCOPE_HOST_ARCH='${printable(named, 20)}' names no core uopscope models (known: ${machines.map((x) => x.arch).join(', ')}); it was ignored`;
}

/** The host as the core the user named, with the extensions the host shows that it lacks. */
function namedHost(
  m: MachineModel,
  base: HostBase,
  cpuidArch: string | null,
  cpuid: string,
  against: string[],
): HostCore {
  return {
    ...base,
    arch: m.arch,
    cpuidArch,
    why: `named by UOPSCOPE_HOST_ARCH (${cpuid}${cpuidArch ? ` names ${cpuidArch}` : ''})`,
    ...(against.length ? { note: `the host shows ${list(against)}, which ${m.arch} does not have` } : {}),
  };
}

/** The CPUID's core cannot be the host's: the core that has every extension the host shows and the
 *  fewest it does not, the L2 size deciding a tie. */
function byFeatures({
  base,
  cpuidArch,
  cpuid,
  own,
  machines,
  have,
  l2,
}: {
  base: HostBase;
  cpuidArch: string | null;
  cpuid: string;
  own: MachineModel;
  machines: readonly MachineModel[];
  have: Set<string>;
  l2: number | null;
}): HostCore {
  const lacks = (m: MachineModel) => lacking(have, m);
  const l2Fits = (m: MachineModel) => l2Agrees(l2, m);
  const fits = machines.filter((m) => lacks(m).length === 0 && m.identity !== undefined);
  const extra = (m: MachineModel) => m.isa.filter((x) => !have.has(x)).length;
  fits.sort((a, b) => extra(a) - extra(b) || Number(l2Fits(b)) - Number(l2Fits(a)));
  const best = fits[0];
  const ruledOut = `${cpuid} names ${own.arch}, but the host shows ${list(lacks(own))}, which ${own.arch} does not have`;
  if (!best) return { ...base, arch: null, cpuidArch, why: ruledOut };
  const tie = fits.filter((m) => extra(m) === extra(best)).map((m) => m.arch);
  const l2Why =
    l2 === null
      ? ''
      : l2Fits(best)
        ? `; its L2 (${l2} KiB per core) is ${best.arch}'s`
        : `; its L2 (${l2} KiB per core) is not ${best.arch}'s`;
  return {
    ...base,
    arch: best.arch,
    cpuidArch,
    why: `${ruledOut}; ${best.arch} (${best.name}) has every extension the host shows${tie.length > 1 ? ` (as do ${tie.filter((a) => a !== best.arch).join(', ')}; ${best.arch} fits the rest best)` : ''}${l2Why}`,
    note: `identified by its features, not its CPUID model: ${ruledOut}; set UOPSCOPE_HOST_ARCH to name the core`,
  };
}

/** Parses /proc/cpuinfo's first processor (no cache evidence, nothing named). */
export function parseCpuinfo(text: string): HostCore {
  return identifyHost({ cpuinfo: text });
}

export function hostCore(path = '/proc/cpuinfo', env: NodeJS.ProcessEnv = process.env): HostCore | null {
  let cpuinfo: string;
  try {
    cpuinfo = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  return identifyHost({ cpuinfo, l2KiB: readL2KiB(), named: env.UOPSCOPE_HOST_ARCH });
}

/** What this machine's kernel says of Gather Data Sampling ('Mitigation: Microcode', 'Vulnerable',
 *  'Not affected', …), or null when it says nothing (a kernel without the file). */
export function gatherDataSamplingState(
  path = '/sys/devices/system/cpu/vulnerabilities/gather_data_sampling',
): string | null {
  try {
    const text = printable(readFileSync(path, 'utf8').trim(), 200);
    return text || null;
  } catch {
    return null;
  }
}

/** 'family 6 model 0xa7 stepping 1' */
export function cpuidText(h: HostCore): string {
  return `${h.vendor} family ${h.family} model ${hex(h.model)} stepping ${h.stepping}`;
}
