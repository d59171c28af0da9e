// Normalization of iced-x86 registers to the architectural registers the dependency graph
// tracks (contract in types.ts): AL/AH/AX/EAX/RAX → 'RAX', R8B…R8 → 'R8', XMMn/YMMn/ZMMn →
// 'XMMn', K0–K7, MMn, ST0–ST7. RIP and segment registers are never dependencies (null).
import { Register, RegisterExt } from './iced.js';

export function normalizeRegister(r: Register): string | null {
  if (r === Register.None) return null;
  if (RegisterExt.isIP(r) || RegisterExt.isSegmentRegister(r)) return null;
  if (RegisterExt.isGPR(r)) return Register[RegisterExt.fullRegister(r)] ?? null;
  const name = Register[r] ?? `REG${r}`;
  if (RegisterExt.isVectorRegister(r)) return name.replace(/^[XYZ]MM/, 'XMM');
  return name.toUpperCase();
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
