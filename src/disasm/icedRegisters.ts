// iced-x86's registers as the disasm stage names them: the Resource (registers.ts's one
// normalization), the Intel spelling, and uops.info's operand kind.
import { Register, RegisterExt } from './iced.js';
import { normalizeRegisterName } from './registers.js';
import type { Resource } from './types.js';

/** An iced-x86 register → its Resource (normalizeRegisterName of its name), or null. */
export function resourceOfRegister(r: Register): Resource | null {
  if (r === Register.None) return null;
  return normalizeRegisterName(Register[r] ?? `REG${r}`);
}

/** The register as written in Intel syntax, lower-case ('eax', 'r8b', 'xmm2'). */
export function writtenName(r: Register): string {
  const n = (Register[r] ?? '').toLowerCase();
  // iced spells the low bytes of r8–r15 'r8l'; assemblers and objdump write 'r8b'
  return /^r\d+l$/.test(n) ? `${n.slice(0, -1)}b` : n;
}

/** uops.info operand kind of a register operand: 'R64', 'XMM', 'K', … */
export function registerKind(r: Register): string {
  if (RegisterExt.isGPR8(r)) return 'R8';
  if (RegisterExt.isGPR16(r)) return 'R16';
  if (RegisterExt.isGPR32(r)) return 'R32';
  if (RegisterExt.isGPR64(r)) return 'R64';
  if (RegisterExt.isXMM(r)) return 'XMM';
  if (RegisterExt.isYMM(r)) return 'YMM';
  if (RegisterExt.isZMM(r)) return 'ZMM';
  if (RegisterExt.isK(r)) return 'K';
  if (RegisterExt.isMM(r)) return 'MM';
  if (RegisterExt.isST(r)) return r === Register.ST0 ? 'ST(0)' : 'ST(i)';
  if (RegisterExt.isSegmentRegister(r)) return 'SREG';
  if (RegisterExt.isCR(r)) return 'CR';
  if (RegisterExt.isDR(r)) return 'DR';
  return (Register[r] ?? 'REG').toUpperCase();
}
