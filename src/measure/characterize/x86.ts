// Building the microbenchmarks' machine code: registers by class and number, the helper
// instructions the methods need (chain instructions, dependency breakers, NOPs, jumps), and
// encoding with iced-x86's encoder. Every benchmark is a list of iced Instructions encoded back
// to back; nothing here runs code.

import { Code, Decoder, DecoderOptions, Encoder, Instruction, MemoryOperand, Register } from '../../disasm/iced.js';

/** The register classes the generators rename. */
export type RegClass = 'gpr8' | 'gpr16' | 'gpr32' | 'gpr64' | 'xmm' | 'ymm' | 'zmm' | 'k' | 'mm';

export const VECTOR: ReadonlySet<RegClass> = new Set(['xmm', 'ymm', 'zmm']);

/** General-purpose registers the benchmarks may use, by x86 number: not rsp (the harness's
 *  stack) and not r15 (the harness's loop counter, prepare.ts picks it first). */
export const GPR_POOL: readonly number[] = [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
/** the harness's loop-counter register, never used by a benchmark */
export const COUNTER = 15;
/** Vector registers the benchmarks may use: not xmm15, which is the harness's (STASH) on a host
 *  without AVX-512, so that a benchmark never touches the register holding the harness's stack
 *  pointer, whatever the form. */
export const VEC_POOL: readonly number[] = Array.from({ length: 15 }, (_, i) => i);
/** The vector register where the harness keeps its stack pointer while a benchmark runs: xmm31
 *  on an AVX-512 host (no legacy or VEX form can name it, and the benchmarks never do), else
 *  xmm15, which no benchmark uses (VEC_POOL). */
export const stashFor = (avx512: boolean): number => (avx512 ? 31 : 15);

/** The register of `cls` with x86 number n. */
export function reg(cls: RegClass, n: number): Register {
  switch (cls) {
    case 'gpr64':
      return (Register.RAX + n) as Register;
    case 'gpr32':
      return (Register.EAX + n) as Register;
    case 'gpr16':
      return (Register.AX + n) as Register;
    case 'gpr8':
      return (n < 4 ? Register.AL + n : n < 8 ? Register.SPL + (n - 4) : Register.R8L + (n - 8)) as Register;
    case 'xmm':
      return (Register.XMM0 + n) as Register;
    case 'ymm':
      return (Register.YMM0 + n) as Register;
    case 'zmm':
      return (Register.ZMM0 + n) as Register;
    case 'k':
      return (Register.K0 + n) as Register;
    case 'mm':
      return (Register.MM0 + n) as Register;
  }
}

/** The class and x86 number of an iced register, or null for registers the generators keep. */
export function classOf(r: Register): { cls: RegClass; n: number } | null {
  const within = (base: number, count: number): number | null => (r >= base && r < base + count ? r - base : null);
  let k: number | null;
  if ((k = within(Register.RAX, 16)) !== null) return { cls: 'gpr64', n: k };
  if ((k = within(Register.EAX, 16)) !== null) return { cls: 'gpr32', n: k };
  if ((k = within(Register.AX, 16)) !== null) return { cls: 'gpr16', n: k };
  if ((k = within(Register.AL, 4)) !== null) return { cls: 'gpr8', n: k };
  if ((k = within(Register.SPL, 4)) !== null) return { cls: 'gpr8', n: k + 4 };
  if ((k = within(Register.R8L, 8)) !== null) return { cls: 'gpr8', n: k + 8 };
  if ((k = within(Register.XMM0, 32)) !== null) return { cls: 'xmm', n: k };
  if ((k = within(Register.YMM0, 32)) !== null) return { cls: 'ymm', n: k };
  if ((k = within(Register.ZMM0, 32)) !== null) return { cls: 'zmm', n: k };
  if ((k = within(Register.K0, 8)) !== null) return { cls: 'k', n: k };
  if ((k = within(Register.MM0, 8)) !== null) return { cls: 'mm', n: k };
  return null;
}

/** Decodes one instruction (the form's template). */
export function decodeOne(bytes: Uint8Array): Instruction {
  const d = new Decoder(64, bytes, DecoderOptions.None);
  const ins = d.decode();
  d.free();
  return ins;
}

/** Encodes instructions back to back (each at the address after the previous). */
export function encode(list: readonly Instruction[]): Uint8Array {
  const enc = new Encoder(64);
  let at = 0n;
  const parts: Uint8Array[] = [];
  for (const ins of list) {
    const n = enc.encode(ins, at);
    const b = enc.takeBuffer();
    parts.push(b.slice(0, n));
    at += BigInt(n);
  }
  enc.free();
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let k = 0;
  for (const p of parts) {
    out.set(p, k);
    k += p.length;
  }
  return out;
}

/** [base] as an iced memory operand. */
function mem(base: number, index: number | null = null): MemoryOperand {
  return index === null
    ? new MemoryOperand(reg('gpr64', base), Register.None, 1, 0n, 0, false, Register.None)
    : new MemoryOperand(reg('gpr64', base), reg('gpr64', index), 1, 0n, 0, false, Register.None);
}

// ---- helper instructions (each documented where a method uses it) ----

/** movsxd r64, r32: the general-purpose chain instruction (the paper's MOVSX: never eliminated) */
export const movsxd = (dst: number, src: number): Instruction =>
  Instruction.createRegReg(Code.Movsxd_r64_rm32, reg('gpr64', dst), reg('gpr32', src));
/** movsx r64, r16 / r8 */
export const movsx16 = (dst: number, src: number): Instruction =>
  Instruction.createRegReg(Code.Movsx_r64_rm16, reg('gpr64', dst), reg('gpr16', src));
export const movsx8 = (dst: number, src: number): Instruction =>
  Instruction.createRegReg(Code.Movsx_r64_rm8, reg('gpr64', dst), reg('gpr8', src));
/** pshufd (legacy SSE) / vpshufd (VEX, EVEX): the vector chain instruction (a shuffle, never a
 *  move that could be eliminated) */
export function pshufd(cls: 'xmm' | 'ymm' | 'zmm', vex: boolean, dst: number, src: number): Instruction {
  if (cls === 'xmm' && !vex)
    return Instruction.createRegRegU32(Code.Pshufd_xmm_xmmm128_imm8, reg('xmm', dst), reg('xmm', src), 0);
  if (cls === 'xmm')
    return Instruction.createRegRegU32(Code.VEX_Vpshufd_xmm_xmmm128_imm8, reg('xmm', dst), reg('xmm', src), 0);
  if (cls === 'ymm')
    return Instruction.createRegRegU32(Code.VEX_Vpshufd_ymm_ymmm256_imm8, reg('ymm', dst), reg('ymm', src), 0);
  return Instruction.createRegRegU32(Code.EVEX_Vpshufd_zmm_k1z_zmmm512b32_imm8, reg('zmm', dst), reg('zmm', src), 0);
}
/** movq xmm, r64 and movq r64, xmm: the chain instructions between the two classes */
export const movqToVec = (x: number, g: number): Instruction =>
  Instruction.createRegReg(Code.Movq_xmm_rm64, reg('xmm', x), reg('gpr64', g));
export const movqToGpr = (g: number, x: number): Instruction =>
  Instruction.createRegReg(Code.Movq_rm64_xmm, reg('gpr64', g), reg('xmm', x));
/** xor r64, r64 (two registers: a dependency; the same register: a zero idiom) */
export const xor64 = (a: number, b: number): Instruction =>
  Instruction.createRegReg(Code.Xor_r64_rm64, reg('gpr64', a), reg('gpr64', b));
export const xor32 = (a: number, b: number): Instruction =>
  Instruction.createRegReg(Code.Xor_r32_rm32, reg('gpr32', a), reg('gpr32', b));
/** test r64, r64: a general-purpose register into the flags (the paper's §5.2.3) */
export const test64 = (a: number): Instruction =>
  Instruction.createRegReg(Code.Test_rm64_r64, reg('gpr64', a), reg('gpr64', a));
/** cmovb r64, r64: the flags into a general-purpose register */
export const cmovb = (a: number, b: number): Instruction =>
  Instruction.createRegReg(Code.Cmovb_r64_rm64, reg('gpr64', a), reg('gpr64', b));
export const add64 = (a: number, b: number): Instruction =>
  Instruction.createRegReg(Code.Add_r64_rm64, reg('gpr64', a), reg('gpr64', b));
export const addImm = (a: number, imm: number): Instruction =>
  Instruction.createRegI32(Code.Add_rm64_imm8, reg('gpr64', a), imm);
export const imul64 = (a: number, b: number): Instruction =>
  Instruction.createRegReg(Code.Imul_r64_rm64, reg('gpr64', a), reg('gpr64', b));
export const mov64 = (a: number, b: number): Instruction =>
  Instruction.createRegReg(Code.Mov_r64_rm64, reg('gpr64', a), reg('gpr64', b));
export const movImm32 = (a: number, imm: number): Instruction =>
  Instruction.createRegU32(Code.Mov_r32_imm32, reg('gpr32', a), imm);
export const load64 = (dst: number, base: number): Instruction =>
  Instruction.createRegMem(Code.Mov_r64_rm64, reg('gpr64', dst), mem(base));
export const store64 = (base: number, src: number): Instruction =>
  Instruction.createMemReg(Code.Mov_rm64_r64, mem(base), reg('gpr64', src));
export const imul3 = (a: number, b: number): Instruction =>
  Instruction.createRegRegI32(Code.Imul_r64_rm64_imm8, reg('gpr64', a), reg('gpr64', b), 3);
export const vpaddd = (a: number, b: number, c: number): Instruction =>
  Instruction.createRegRegReg(Code.VEX_Vpaddd_xmm_xmm_xmmm128, reg('xmm', a), reg('xmm', b), reg('xmm', c));
export const vpmuludq = (a: number, b: number, c: number): Instruction =>
  Instruction.createRegRegReg(Code.VEX_Vpmuludq_xmm_xmm_xmmm128, reg('xmm', a), reg('xmm', b), reg('xmm', c));
/** VEX three-operand xmm forms the record-chosen blockers use */
export const V = {
  mulpd: Code.VEX_Vmulpd_xmm_xmm_xmmm128,
  addpd: Code.VEX_Vaddpd_xmm_xmm_xmmm128,
  unpcklpd: Code.VEX_Vunpcklpd_xmm_xmm_xmmm128,
} as const;
export const vex3 = (code: Code, a: number, b: number, c: number): Instruction =>
  Instruction.createRegRegReg(code, reg('xmm', a), reg('xmm', b), reg('xmm', c));
export const vpsllq = (a: number, b: number): Instruction =>
  Instruction.createRegRegU32(Code.VEX_Vpsllq_xmm_xmm_imm8, reg('xmm', a), reg('xmm', b), 1);
export const shlImm = (a: number, imm: number): Instruction =>
  Instruction.createRegU32(Code.Shl_rm64_imm8, reg('gpr64', a), imm);
/** vpxor (VEX; vpxord, EVEX, for zmm): a gather's result xored twice into its index or mask
 *  register leaves that register's value as it was and puts the result on its chain */
export function vpxor(cls: 'xmm' | 'ymm' | 'zmm', dst: number, a: number, b: number): Instruction {
  const code =
    cls === 'xmm'
      ? Code.VEX_Vpxor_xmm_xmm_xmmm128
      : cls === 'ymm'
        ? Code.VEX_Vpxor_ymm_ymm_ymmm256
        : Code.EVEX_Vpxord_zmm_k1z_zmm_zmmm512b32;
  return Instruction.createRegRegReg(code, reg(cls, dst), reg(cls, a), reg(cls, b));
}
/** vpcmpeqd mask, z, z: every lane all ones whatever z holds; it reads only z, which no benchmark
 *  instruction writes, so it resets an AVX2 gather's mask without a dependency on anything */
export function vpcmpeqdOnes(cls: 'xmm' | 'ymm', dst: number, z: number): Instruction {
  const code = cls === 'xmm' ? Code.VEX_Vpcmpeqd_xmm_xmm_xmmm128 : Code.VEX_Vpcmpeqd_ymm_ymm_ymmm256;
  return Instruction.createRegRegReg(code, reg(cls, dst), reg(cls, z), reg(cls, z));
}
/** kxnorw k, k0, k0: every bit set; k0 is never written (it cannot be a gather's mask), so it
 *  resets an AVX-512 gather's opmask without a dependency on anything */
export const kxnorOnes = (k: number): Instruction =>
  Instruction.createRegRegReg(Code.VEX_Kxnorw_kr_kr_kr, reg('k', k), Register.K0, Register.K0);
/** nop dword ptr [rax+0] (4 bytes): a rename slot and no execution port; not the one-byte 0x90,
 *  of which more fit in 32 bytes than the µop cache holds, so that they would measure the legacy
 *  decoders instead */
export const nop = (): Instruction =>
  Instruction.createMem(Code.Nop_rm32, new MemoryOperand(Register.RAX, Register.None, 1, 0n, 1, false, Register.None));
/** n taken jumps, one per 64-byte line: each `jmp` skips the 62 bytes of int3 after it to the
 *  next line's jump (straight-line control flow, every branch taken; one per line because cores
 *  track a few branches per line, and two per line would measure that limit instead) */
export function jumps(n: number): Uint8Array {
  return Uint8Array.from(Array.from({ length: n }, () => [0xeb, 62, ...new Array<number>(62).fill(0xcc)]).flat());
}
