// Which instructions a core can run: iced-x86's CPUID feature names of an instruction, mapped to
// the ISA extension names of the machine models (assets/uarch/machines/*.json `isa`). The one
// place this mapping lives: the resolver uses it to name lines a core cannot run, the LLVM data
// generator (tools/llvm-sched) to leave such forms out of a core's file.

/** iced-x86 CpuidFeature name → machine-model ISA name ('BASE' for what every x86-64 core has). */
const RENAME: Record<string, string> = {
  INTEL8086: 'BASE',
  INTEL186: 'BASE',
  INTEL286: 'BASE',
  INTEL386: 'BASE',
  INTEL486: 'BASE',
  X64: 'BASE',
  CPUID: 'BASE',
  CMOV: 'BASE',
  CX8: 'BASE',
  FXSR: 'BASE',
  SYSCALL: 'BASE',
  TSC: 'BASE',
  MULTIBYTENOP: 'BASE',
  PAUSE: 'BASE',
  CLFSH: 'BASE',
  SEP: 'BASE',
  MSR: 'BASE',
  RDTSCP: 'BASE',
  RDPMC: 'BASE',
  MONITOR: 'BASE',
  SMX: 'SMX',
  VMX: 'VMX',
  FPU: 'X87',
  FPU287: 'X87',
  FPU387: 'X87',
  SSE4_1: 'SSE4.1',
  SSE4_2: 'SSE4.2',
  PREFETCHW: 'PRFCHW',
  XSAVEOPT: 'XSAVE',
};

/** The machine-model ISA names an instruction needs (all of them), from iced's feature names. */
function isaNeeded(cpuidFeatures: readonly string[]): string[] {
  return [...new Set(cpuidFeatures.map((f) => RENAME[f] ?? f))];
}

/** The ISA extensions of `needed` that the core (its machine model's `isa`) lacks; [] = runs. */
export function missingIsa(coreIsa: readonly string[], cpuidFeatures: readonly string[]): string[] {
  return isaNeeded(cpuidFeatures).filter((n) => !coreIsa.includes(n));
}
