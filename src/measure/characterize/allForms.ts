// Every form the host can run in user mode (`uopscope data measure --all`): one instance of each
// iced-x86 Code of 64-bit mode (legacy, VEX and EVEX encodings; a register-or-memory operand
// gives a register form and a memory form), built with distinct registers, encoded, decoded back
// by src/disasm, and kept when the host's CPU flags list every extension it needs. Forms the
// characterization excludes (system, serializing, branches, …) are listed with their reason by
// formOf, as for a region.

import { Code, CodeExt, Instruction, MemorySizeExt, OpCodeOperandKind, OpKind, Register } from '../../disasm/iced.js';
import { decodeRegion } from '../../disasm/decode.js';
import type { DecodedInstruction } from '../../disasm/types.js';
import { vsibSignature } from '../../data/signature.js';
import { encode, reg, type RegClass } from './x86.js';

/** iced's CPUID feature names → /proc/cpuinfo flags, where they are not the same in lower case. */
const FLAG: Record<string, string | null> = {
  INTEL8086: null,
  INTEL8086_ONLY: null,
  INTEL186: null,
  INTEL286: null,
  INTEL386: null,
  INTEL486: null,
  X64: 'lm',
  CPUID: null,
  MULTIBYTENOP: null,
  SSE3: 'pni',
  LZCNT: 'abm',
  CMPXCHG16B: 'cx16',
  SHA: 'sha_ni',
  PCLMULQDQ: 'pclmulqdq',
  AVX512_VBMI: 'avx512vbmi',
  AVX512_IFMA: 'avx512ifma',
  AVX512_4FMAPS: 'avx512_4fmaps',
  AVX512_4VNNIW: 'avx512_4vnniw',
  CMOV: 'cmov',
  FXSR: 'fxsr',
  MMX: 'mmx',
  SSE: 'sse',
  SSE2: 'sse2',
  PREFETCHW: '3dnowprefetch',
  D3NOW: '3dnow',
  RDRAND: 'rdrand',
  RDSEED: 'rdseed',
  FSGSBASE: 'fsgsbase',
  TSC: 'tsc',
  RDTSCP: 'rdtscp',
  FPU: 'fpu',
};

/** Whether the host's flags list an iced CPUID feature. */
export function hostHas(feature: string, flags: ReadonlySet<string>): boolean {
  if (feature in FLAG) {
    const f = FLAG[feature];
    return f === null || flags.has(f!);
  }
  const lower = feature.toLowerCase();
  return flags.has(lower) || flags.has(lower.replace(/_/g, '')) || flags.has(lower.replace(/^avx512_/, 'avx512'));
}

/** /proc/cpuinfo's flags of the first processor. */
export function cpuFlags(cpuinfo: string): Set<string> {
  const m = /^flags\s*:\s*(.*)$/m.exec(cpuinfo);
  return new Set((m?.[1] ?? '').split(/\s+/).filter(Boolean));
}

const GPR_SEQ = [1, 2, 3, 6, 7, 8, 9, 10];
const CLASS: Record<string, RegClass> = {
  r8: 'gpr8',
  r16: 'gpr16',
  r32: 'gpr32',
  r64: 'gpr64',
  xmm: 'xmm',
  ymm: 'ymm',
  zmm: 'zmm',
  k: 'k',
};
const FIXED: Record<string, Register> = {
  al: Register.AL,
  cl: Register.CL,
  ax: Register.AX,
  dx: Register.DX,
  eax: Register.EAX,
  rax: Register.RAX,
};
const IMM: Record<string, OpKind> = {
  imm8: OpKind.Immediate8,
  imm8_const_1: OpKind.Immediate8,
  imm8sex16: OpKind.Immediate8to16,
  imm8sex32: OpKind.Immediate8to32,
  imm8sex64: OpKind.Immediate8to64,
  imm16: OpKind.Immediate16,
  imm32: OpKind.Immediate32,
  imm32sex64: OpKind.Immediate32to64,
  imm64: OpKind.Immediate64,
};

/** One instance of `code` (memory for its register-or-memory operand when `memory`), or why not. */
function build(code: Code, memory: boolean): Instruction | string {
  const op = CodeExt.opCode(code);
  const ins = Instruction.create(code);
  let g = 0,
    v = 1,
    k = 1;
  for (let i = 0; i < op.opCount; i++) {
    const kind = OpCodeOperandKind[op.opKind(i)] ?? '';
    const m = /^(r8|r16|r32|r64|xmm|ymm|zmm|k)_(reg|rm|vvvv|opcode|is4|is5|reg_mem|or_mem)$/.exec(kind);
    if (m) {
      const cls = CLASS[m[1]!]!;
      if (m[2] === 'or_mem' && memory) {
        setMemory(ins, i);
        continue;
      }
      const n =
        cls === 'gpr8'
          ? [1, 2, 3][g++ % 3]!
          : cls.startsWith('gpr')
            ? GPR_SEQ[g++ % GPR_SEQ.length]!
            : cls === 'k'
              ? k++
              : v++;
      ins.setOpKind(i, OpKind.Register);
      ins.setOpRegister(i, reg(cls, n));
    } else if (kind === 'mem') {
      setMemory(ins, i);
    } else if (/^mem_vsib(32|64)[xyz]$/.test(kind)) {
      // a gather's (or scatter's) vector index, scaled by the element's size
      setMemory(ins, i);
      ins.memoryIndex = reg(({ x: 'xmm', y: 'ymm', z: 'zmm' } as const)[kind.slice(-1) as 'x' | 'y' | 'z'], v++);
      ins.memoryIndexScale = MemorySizeExt.size(ins.memorySize);
    } else if (kind in FIXED) {
      ins.setOpKind(i, OpKind.Register);
      ins.setOpRegister(i, FIXED[kind]!);
    } else if (kind in IMM) {
      ins.setOpKind(i, IMM[kind]!);
      if (kind === 'imm64') ins.setImmediateU64(i, 1n);
      else ins.setImmediateU32(i, 1);
    } else {
      ins.free();
      return `operand kind ${kind}`;
    }
  }
  if (op.requireOpMaskRegister) ins.opMask = Register.K1;
  return ins;
}

function setMemory(ins: Instruction, i: number): void {
  ins.setOpKind(i, OpKind.Memory);
  ins.memoryBase = Register.RBX;
  ins.memoryIndex = Register.None;
  ins.memoryDisplSize = 0;
  ins.memoryDisplacement = 0n;
}

/** The instances of every 64-bit user-mode Code the host's flags allow, decoded, one per signature. */
export function allInstructions(flags: ReadonlySet<string>): {
  instrs: DecodedInstruction[];
  unsupported: number;
  unbuilt: number;
} {
  const seen = new Set<string>();
  const instrs: DecodedInstruction[] = [];
  let unsupported = 0,
    unbuilt = 0;
  const codes = Object.values(Code).filter((c): c is Code => typeof c === 'number');
  for (const code of codes) {
    const op = CodeExt.opCode(code);
    if (!op.isInstruction || !op.mode64 || !op.cpl3 || op.encoding > 2) continue;
    const rm = Array.from({ length: op.opCount }, (_, i) => OpCodeOperandKind[op.opKind(i)] ?? '').some((k) =>
      k.endsWith('_or_mem'),
    );
    for (const memory of rm ? [false, true] : [false]) {
      const ins = build(code, memory);
      if (typeof ins === 'string') {
        unbuilt++;
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = encode([ins]);
      } catch {
        unbuilt++;
        continue;
      } finally {
        ins.free();
      }
      let d: DecodedInstruction | undefined;
      try {
        d = decodeRegion(bytes, 0, 64, Code[code] ?? 'code')[0];
      } catch {
        unbuilt++;
        continue;
      }
      // a gather's signature names its element, not its index (vgatherqps xmm, [xmm] and [ymm]): the
      // key names both (src/data/signature.ts vsibSignature)
      const key = d ? (vsibSignature(d) ?? d.signature) : '';
      if (!d || seen.has(key)) continue;
      if (!d.cpuid.every((f) => hostHas(f, flags))) {
        unsupported++;
        continue;
      }
      seen.add(key);
      instrs.push({ ...d, line: instrs.length });
    }
  }
  return { instrs, unsupported, unbuilt };
}
