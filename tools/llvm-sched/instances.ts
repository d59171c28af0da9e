// One canonical machine-code instance of every iced-x86 `Code` that exists in 64-bit mode: the
// keys of the LLVM-derived data (assets/uarch/llvm). For each Code: a register form, a memory
// form when an operand may be either (`r/m`), a same-register form when two or more register
// operands of one class exist (zero idioms resolve differently in LLVM's scheduling models), and
// EVEX merge-masked, zero-masked and broadcast forms where the Code allows them.
//
// Deterministic: the same iced-x86 version gives the same instances in the same order.
import {
  Code,
  CodeExt,
  Encoder,
  Instruction,
  type OpCodeInfo,
  OpCodeOperandKind as K,
  OpKind,
  Register,
} from 'iced-x86';

export type Variant = '' | 'm' | 's' | 'k' | 'z' | 'b';

export interface CanonicalInstance {
  /** `<Code name>` plus `:<variant>` when not the register form ('m' memory, 's' same register,
   *  'k' merge-masked, 'z' zero-masked, 'b' broadcast) */
  key: string;
  code: string;
  variant: Variant;
  hex: string;
  /** register name (upper case, as LLVM prints it) → iced operand index, for explicit registers */
  regs: Record<string, number>;
}

const POOL: Record<string, Register[]> = {
  r8: [Register.CL, Register.DL, Register.BL, Register.R8L, Register.R9L],
  r16: [Register.CX, Register.DX, Register.BX, Register.R8W, Register.R9W],
  r32: [Register.ECX, Register.EDX, Register.EBX, Register.R8D, Register.R9D],
  r64: [Register.RCX, Register.RDX, Register.RBX, Register.R8, Register.R9],
  k: [Register.K1, Register.K2, Register.K3, Register.K4, Register.K5],
  mm: [Register.MM1, Register.MM2, Register.MM3, Register.MM4],
  xmm: [Register.XMM1, Register.XMM2, Register.XMM3, Register.XMM4, Register.XMM5],
  ymm: [Register.YMM1, Register.YMM2, Register.YMM3, Register.YMM4, Register.YMM5],
  zmm: [Register.ZMM1, Register.ZMM2, Register.ZMM3, Register.ZMM4, Register.ZMM5],
  tmm: [Register.TMM1, Register.TMM2, Register.TMM3],
  bnd: [Register.BND1, Register.BND2],
  st: [Register.ST1, Register.ST2],
};

const REG_CLASS: Partial<Record<K, string>> = {
  [K.r8_or_mem]: 'r8',
  [K.r8_reg]: 'r8',
  [K.r8_opcode]: 'r8',
  [K.r16_or_mem]: 'r16',
  [K.r16_reg]: 'r16',
  [K.r16_reg_mem]: 'r16',
  [K.r16_rm]: 'r16',
  [K.r16_opcode]: 'r16',
  [K.r32_or_mem]: 'r32',
  [K.r32_or_mem_mpx]: 'r32',
  [K.r32_reg]: 'r32',
  [K.r32_reg_mem]: 'r32',
  [K.r32_rm]: 'r32',
  [K.r32_opcode]: 'r32',
  [K.r32_vvvv]: 'r32',
  [K.r64_or_mem]: 'r64',
  [K.r64_or_mem_mpx]: 'r64',
  [K.r64_reg]: 'r64',
  [K.r64_reg_mem]: 'r64',
  [K.r64_rm]: 'r64',
  [K.r64_opcode]: 'r64',
  [K.r64_vvvv]: 'r64',
  [K.k_or_mem]: 'k',
  [K.k_reg]: 'k',
  [K.k_rm]: 'k',
  [K.k_vvvv]: 'k',
  [K.mm_or_mem]: 'mm',
  [K.mm_reg]: 'mm',
  [K.mm_rm]: 'mm',
  [K.xmm_or_mem]: 'xmm',
  [K.xmm_reg]: 'xmm',
  [K.xmm_rm]: 'xmm',
  [K.xmm_vvvv]: 'xmm',
  [K.xmm_is4]: 'xmm',
  [K.xmm_is5]: 'xmm',
  [K.ymm_or_mem]: 'ymm',
  [K.ymm_reg]: 'ymm',
  [K.ymm_rm]: 'ymm',
  [K.ymm_vvvv]: 'ymm',
  [K.ymm_is4]: 'ymm',
  [K.ymm_is5]: 'ymm',
  [K.zmm_or_mem]: 'zmm',
  [K.zmm_reg]: 'zmm',
  [K.zmm_rm]: 'zmm',
  [K.zmm_vvvv]: 'zmm',
  [K.tmm_reg]: 'tmm',
  [K.tmm_rm]: 'tmm',
  [K.tmm_vvvv]: 'tmm',
  [K.bnd_or_mem_mpx]: 'bnd',
  [K.bnd_reg]: 'bnd',
  [K.sti_opcode]: 'st',
};

const OR_MEM = new Set<K>([
  K.r8_or_mem,
  K.r16_or_mem,
  K.r32_or_mem,
  K.r32_or_mem_mpx,
  K.r64_or_mem,
  K.r64_or_mem_mpx,
  K.mm_or_mem,
  K.xmm_or_mem,
  K.ymm_or_mem,
  K.zmm_or_mem,
  K.bnd_or_mem_mpx,
  K.k_or_mem,
]);
const MEM_ONLY = new Set<K>([
  K.mem,
  K.mem_mpx,
  K.sibmem,
  K.mem_vsib32x,
  K.mem_vsib64x,
  K.mem_vsib32y,
  K.mem_vsib64y,
  K.mem_vsib32z,
  K.mem_vsib64z,
]);
const VSIB_INDEX: Partial<Record<K, Register>> = {
  [K.mem_vsib32x]: Register.XMM6,
  [K.mem_vsib64x]: Register.XMM6,
  [K.mem_vsib32y]: Register.YMM6,
  [K.mem_vsib64y]: Register.YMM6,
  [K.mem_vsib32z]: Register.ZMM6,
  [K.mem_vsib64z]: Register.ZMM6,
};
const FIXED: Partial<Record<K, Register>> = {
  [K.es]: Register.ES,
  [K.cs]: Register.CS,
  [K.ss]: Register.SS,
  [K.ds]: Register.DS,
  [K.fs]: Register.FS,
  [K.gs]: Register.GS,
  [K.al]: Register.AL,
  [K.cl]: Register.CL,
  [K.ax]: Register.AX,
  [K.dx]: Register.DX,
  [K.eax]: Register.EAX,
  [K.rax]: Register.RAX,
  [K.st0]: Register.ST0,
  [K.seg_reg]: Register.ES,
  [K.cr_reg]: Register.CR0,
  [K.dr_reg]: Register.DR0,
  [K.kp1_reg]: Register.K2,
  [K.xmmp3_vvvv]: Register.XMM4,
  [K.zmmp3_vvvv]: Register.ZMM4,
};
const IMM: Partial<Record<K, OpKind>> = {
  [K.imm8]: OpKind.Immediate8,
  [K.imm4_m2z]: OpKind.Immediate8,
  [K.imm8_const_1]: OpKind.Immediate8,
  [K.imm8sex16]: OpKind.Immediate8to16,
  [K.imm8sex32]: OpKind.Immediate8to32,
  [K.imm8sex64]: OpKind.Immediate8to64,
  [K.imm16]: OpKind.Immediate16,
  [K.imm32]: OpKind.Immediate32,
  [K.imm32sex64]: OpKind.Immediate32to64,
  [K.imm64]: OpKind.Immediate64,
};
const BRANCH = new Set<K>([K.br64_1, K.br64_4, K.br32_1, K.br32_4, K.xbegin_2, K.xbegin_4]);
const STRING_MEM: Partial<Record<K, OpKind>> = {
  [K.seg_rSI]: OpKind.MemorySegRSI,
  [K.es_rDI]: OpKind.MemoryESRDI,
  [K.seg_rDI]: OpKind.MemorySegRDI,
};

const regName = (r: Register): string => {
  const n = Register[r]!;
  // LLVM prints the low byte of R8–R15 as R8B, iced calls it R8L
  return n.replace(/^R(\d+)L$/, 'R$1B');
};

interface Plan {
  mem: boolean;
  same: boolean;
  mask: 0 | 1 | 2;
  bcast: boolean;
}

function build(code: Code, info: OpCodeInfo, plan: Plan): { ins: Instruction; regs: Record<string, number> } | null {
  const ins = Instruction.create(code);
  const used: Record<string, number> = {};
  const regs: Record<string, number> = {};
  for (let i = 0; i < info.opCount; i++) {
    const k = info.opKind(i) as K;
    const cls = REG_CLASS[k];
    if ((OR_MEM.has(k) && plan.mem) || MEM_ONLY.has(k)) {
      ins.setOpKind(i, OpKind.Memory);
      ins.memoryBase = Register.R14;
      const vsib = VSIB_INDEX[k];
      if (vsib !== undefined) {
        ins.memoryIndex = vsib;
        ins.memoryIndexScale = 1;
      } else if (k === K.sibmem) {
        ins.memoryIndex = Register.R15;
        ins.memoryIndexScale = 1;
      }
      ins.memoryDisplacement = 0x40n;
      ins.memoryDisplSize = 1;
      if (plan.bcast) ins.isBroadcast = true;
      continue;
    }
    if (cls) {
      const n = plan.same ? 0 : (used[cls] ?? 0);
      used[cls] = n + 1;
      const r = POOL[cls]![n];
      if (r === undefined) return null;
      ins.setOpKind(i, OpKind.Register);
      ins.setOpRegister(i, r);
      regs[regName(r)] ??= i;
      continue;
    }
    const fixed = FIXED[k];
    if (fixed !== undefined) {
      ins.setOpKind(i, OpKind.Register);
      ins.setOpRegister(i, fixed);
      continue;
    }
    const imm = IMM[k];
    if (imm !== undefined) {
      ins.setOpKind(i, imm);
      ins.setImmediateU32(i, k === K.imm8_const_1 ? 1 : 2);
      continue;
    }
    if (BRANCH.has(k)) {
      ins.setOpKind(i, OpKind.NearBranch64);
      (ins as unknown as { nearBranch64: bigint }).nearBranch64 = 0x1000n;
      continue;
    }
    const sm = STRING_MEM[k];
    if (sm !== undefined) {
      ins.setOpKind(i, sm);
      continue;
    }
    return null; // far branches, moffs, MIB, TR registers: not generated
  }
  if (plan.mask) {
    ins.opMask = Register.K7;
    if (plan.mask === 2) ins.zeroingMasking = true;
  }
  return { ins, regs };
}

function encode(enc: Encoder, ins: Instruction): string | null {
  try {
    const n = enc.encode(ins, 0x1000n as unknown as bigint);
    const bytes = enc.takeBuffer();
    return Buffer.from(bytes.subarray(0, n)).toString('hex');
  } catch {
    return null;
  }
}

export function canonicalInstances(): CanonicalInstance[] {
  const out: CanonicalInstance[] = [];
  const enc = new Encoder(64);
  const names = Object.keys(Code).filter((k) => Number.isNaN(Number(k)));
  const codes = names.map((n) => Code[n as keyof typeof Code] as number).sort((a, b) => a - b);
  for (const code of codes) {
    const info = CodeExt.opCode(code);
    try {
      if (!info.isInstruction || !info.mode64 || info.encoding === 3 /* MVEX */) continue;
      const kinds = Array.from({ length: info.opCount }, (_, i) => info.opKind(i) as K);
      const hasOrMem = kinds.some((k) => OR_MEM.has(k));
      const hasMem = hasOrMem || kinds.some((k) => MEM_ONLY.has(k));
      const classes = kinds.map((k) => REG_CLASS[k]).filter((c): c is string => !!c);
      const sameable = classes.some((c, i) => classes.indexOf(c) !== i);
      const plans: [Variant, Plan][] = [];
      if (!kinds.some((k) => MEM_ONLY.has(k))) plans.push(['', { mem: false, same: false, mask: 0, bcast: false }]);
      if (hasMem) plans.push(['m', { mem: true, same: false, mask: 0, bcast: false }]);
      if (sameable && !kinds.some((k) => MEM_ONLY.has(k)))
        plans.push(['s', { mem: false, same: true, mask: 0, bcast: false }]);
      if (info.canUseOpMaskRegister && !info.requireOpMaskRegister) {
        plans.push(['k', { mem: false, same: false, mask: 1, bcast: false }]);
        if (info.canUseZeroingMasking) plans.push(['z', { mem: false, same: false, mask: 2, bcast: false }]);
      }
      if (info.canBroadcast && hasMem) plans.push(['b', { mem: true, same: false, mask: 0, bcast: true }]);
      if (info.requireOpMaskRegister) for (const p of plans) p[1].mask = 1;
      // forms with only a memory operand and a mask: the masked memory instance is the base one
      if (plans.length === 0) continue;
      for (const [variant, plan] of plans) {
        const b = build(code, info, plan);
        if (!b) continue;
        const hex = encode(enc, b.ins);
        b.ins.free();
        if (!hex) continue;
        const name = Code[code]!;
        out.push({ key: variant ? `${name}:${variant}` : name, code: name, variant, hex, regs: b.regs });
      }
    } finally {
      info.free();
    }
  }
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const list = canonicalInstances();
  const byVariant: Record<string, number> = {};
  for (const i of list) byVariant[i.variant || 'r'] = (byVariant[i.variant || 'r'] ?? 0) + 1;
  process.stderr.write(`${list.length} instances ${JSON.stringify(byVariant)}\n`);
  for (const i of list) process.stdout.write(`${i.key} ${i.hex}\n`);
}
