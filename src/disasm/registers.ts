// Register names → the architectural registers the dependency graph tracks (the contract's
// Resource, types.ts): AL/AH/AX/EAX/RAX → 'RAX', R8B/R8L/R8W/R8D → 'R8', XMMn/YMMn/ZMMn → 'XMMn',
// ST(i) → 'STi'; K0–K7, MMn and the rest keep their upper-case name. RIP and segment registers
// are never dependencies (null). The one normalization of register names: the decoder's (iced
// registers, icedRegisters.ts) and the data stage's (uops.info's operand names, src/data) both
// use it. No iced-x86 here, so that the data stage can use it without loading the decoder.
import type { Resource } from './types.js';

const GPR64 = ['RAX', 'RCX', 'RDX', 'RBX', 'RSP', 'RBP', 'RSI', 'RDI'] as const;
const ALIASES: Record<string, Resource> = {};
for (const r of GPR64) {
  const x = r.slice(1); // AX, CX, …, SP, BP, SI, DI
  ALIASES[r] = r;
  ALIASES[`E${x}`] = r;
  ALIASES[x] = r;
}
Object.assign(ALIASES, {
  AL: 'RAX',
  AH: 'RAX',
  CL: 'RCX',
  CH: 'RCX',
  DL: 'RDX',
  DH: 'RDX',
  BL: 'RBX',
  BH: 'RBX',
  SPL: 'RSP',
  BPL: 'RBP',
  SIL: 'RSI',
  DIL: 'RDI',
});
const NOT_TRACKED = new Set(['', 'RIP', 'EIP', 'IP', 'ES', 'CS', 'SS', 'DS', 'FS', 'GS']);

/** A register name as any stage writes it ('eax', 'R8D', 'YMM3', 'ST(1)') → its Resource, or
 *  null for something that is never a dependency (RIP, segment registers). */
export function normalizeRegisterName(name: string): Resource | null {
  const r = name.trim().toUpperCase() as Resource;
  if (NOT_TRACKED.has(r)) return null;
  const alias = ALIASES[r];
  if (alias) return alias;
  let m = /^R(\d+)[BWDL]?$/.exec(r);
  if (m) return `R${m[1]!}` as Resource;
  m = /^[XYZ]MM(\d+)$/.exec(r);
  if (m) return `XMM${m[1]!}` as Resource;
  m = /^ST\((\d)\)$/.exec(r);
  if (m) return `ST${m[1]!}` as Resource;
  return r;
}
