// Lists every distinct instruction form inside the marked regions of the corpus builds, in
// uops.info's string style (`ADD (R64, M64)`, `VADDPD (YMM, YMM, M256)`, `JNZ (Rel8)`), and
// writes examples/corpus/forms.txt. Decodes with iced-x86 directly (the project's decoder in
// src/disasm will re-derive the same list once it is merged).
//
//   node --import tsx examples/corpus/forms.ts [--check]
//
// --check: do not write; exit non-zero when forms.txt is out of date.
import { readFileSync, readdirSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import iced from 'iced-x86';
import { findMarkedRegion } from './elf.js';

const { Decoder, DecoderOptions, Code, Mnemonic, OpKind, Register, MemorySizeExt, OpCodeOperandKind } = iced;

const here = dirname(fileURLToPath(import.meta.url));

/** iced condition-code suffixes → XED's (uops.info's) spelling */
const CC: Record<string, string> = {
  o: 'O', no: 'NO', b: 'B', ae: 'NB', e: 'Z', ne: 'NZ', be: 'BE', a: 'NBE',
  s: 'S', ns: 'NS', p: 'P', np: 'NP', l: 'L', ge: 'NL', le: 'LE', g: 'NLE',
};

function xedMnemonic(m: string): string {
  const lower = m.toLowerCase();
  for (const prefix of ['j', 'cmov', 'set']) {
    if (lower.startsWith(prefix)) {
      const cc = lower.slice(prefix.length);
      if (cc in CC && !(prefix === 'j' && (cc === 'mp'))) return prefix.toUpperCase() + CC[cc];
    }
  }
  return m.toUpperCase();
}

const FIXED_REG_KINDS = new Set(['al', 'cl', 'ax', 'dx', 'eax', 'rax']);

function regKind(reg: number): string {
  const name = Register[reg] as string;
  if (/^[XYZ]MM\d+$/.test(name)) return name.slice(0, 3);
  if (/^K\d$/.test(name)) return 'K';
  if (/^MM\d$/.test(name)) return 'MM';
  if (/^(R\d+|RAX|RBX|RCX|RDX|RSI|RDI|RBP|RSP)$/.test(name)) return 'R64';
  if (/^(R\d+D|EAX|EBX|ECX|EDX|ESI|EDI|EBP|ESP)$/.test(name)) return 'R32';
  if (/^(R\d+W|AX|BX|CX|DX|SI|DI|BP|SP)$/.test(name)) return 'R16';
  if (/^(R\d+L|AL|BL|CL|DL|SIL|DIL|BPL|SPL|AH|BH|CH|DH)$/.test(name)) return 'R8';
  return name;
}

function memBits(size: number): number {
  // a broadcast operand is listed by its element size (uops.info: M64 with bcast="1")
  return 8 * (MemorySizeExt.isBroadcast(size) ? MemorySizeExt.elementSize(size) : MemorySizeExt.size(size));
}

export interface FormInfo {
  form: string;
  vector: boolean;
}

/** uops.info-style form string of one decoded instruction. */
export function formOf(instr: InstanceType<typeof iced.Instruction>): FormInfo {
  const codeName = Code[instr.code] as string;
  const mnem = xedMnemonic(Mnemonic[instr.mnemonic] as string);
  const opc = instr.opCode;
  const ops: string[] = [];
  // VEX/EVEX-only instructions without vector operands (VZEROUPPER, KMOV…) are vector forms too;
  // BMI (SARX, BLSR…) is VEX-encoded but general-purpose
  let vector = /^(V|K[A-Z])/.test(mnem);
  for (let i = 0; i < instr.opCount; i++) {
    const kind = instr.opKind(i);
    const opcKind = OpCodeOperandKind[opc.opKind(i)] as string;
    switch (kind) {
      case OpKind.Register: {
        const reg = instr.opRegister(i);
        const k = regKind(reg);
        if (['XMM', 'YMM', 'ZMM', 'K', 'MM'].includes(k)) vector = true;
        ops.push(FIXED_REG_KINDS.has(opcKind) ? (Register[reg] as string) : k);
        break;
      }
      case OpKind.Memory: {
        if (mnem === 'LEA' || mnem.startsWith('NOP')) {
          ops.push('AGEN');
        } else {
          const bits = memBits(instr.memorySize);
          ops.push(bits ? `M${bits}` : 'M');
        }
        break;
      }
      case OpKind.NearBranch16: case OpKind.NearBranch32: case OpKind.NearBranch64:
        ops.push(/rel8/.test(codeName) ? 'Rel8' : 'Rel32');
        break;
      case OpKind.Immediate8:
        ops.push(opcKind === 'imm8_const_1' ? '1' : 'I8');
        break;
      case OpKind.Immediate8to16: case OpKind.Immediate8to32: case OpKind.Immediate8to64:
        ops.push('I8');
        break;
      case OpKind.Immediate16: ops.push('I16'); break;
      case OpKind.Immediate32: case OpKind.Immediate32to64: ops.push('I32'); break;
      case OpKind.Immediate64: ops.push('I64'); break;
      default:
        ops.push(OpKind[kind] as string);
    }
  }
  // opcode variants of reg-reg forms that have two encodings (uops.info: ADD_01 / ADD_03, MOV_89 / MOV_8B)
  let name = mnem;
  if (ops.length === 2 && /^R(8|16|32|64)$/.test(ops[0] ?? '') && ops[0] === ops[1] && !vector) {
    const op = opc.opCode.toString(16).toUpperCase().padStart(2, '0');
    const dual = /^(ADD|OR|ADC|SBB|AND|SUB|XOR|CMP|MOV)$/.test(mnem);
    if (dual) name = `${mnem}_${op}`;
  }
  if (mnem === 'LEA') {
    // uops.info splits LEA by address shape: LEA_B_D8 (R64) etc. Spelled here as base/index/
    // scale/displacement letters; see forms.txt's header.
    const parts: string[] = [];
    if (instr.memoryBase === Register.RIP) parts.push('R');
    else if (instr.memoryBase !== Register.None) parts.push('B');
    if (instr.memoryIndex !== Register.None) parts.push(instr.memoryIndexScale > 1 ? 'IS' : 'I');
    if (instr.memoryDisplSize > 0 && instr.memoryDisplacement !== 0n && instr.memoryBase !== Register.RIP) {
      const d = Number(BigInt.asIntN(64, instr.memoryDisplacement));
      parts.push(d >= -128 && d <= 127 ? 'D8' : 'D32');
    }
    return { form: `LEA_${parts.join('_')} (${ops[0] ?? ''})`, vector };
  }
  if (instr.hasRepPrefix || instr.hasRepePrefix) name = `REP ${name}`;
  if (instr.hasRepnePrefix && !vector && /^(SCAS|CMPS)/.test(mnem)) name = `REPNE ${name}`;
  return { form: ops.length ? `${name} (${ops.join(', ')})` : name, vector };
}

export interface BuildName { kernel: string; cc: string; opt: string; isa: string }

export function parseBuildName(file: string): BuildName | null {
  const m = /^(.+)\.(gcc|clang)\.(O2|O3)\.(sse2|avx2|avx512)\.o$/.exec(file);
  return m ? { kernel: m[1]!, cc: m[2]!, opt: m[3]!, isa: m[4]! } : null;
}

/** Decode the instructions strictly between the two markers of one object file. */
export function regionInstructions(bytes: Uint8Array) {
  const region = findMarkedRegion(bytes);
  if (!region) return null;
  const code = bytes.subarray(region.start, region.end);
  const dec = new Decoder(64, code, DecoderOptions.None);
  dec.ip = BigInt(region.startVaddr);
  const out = dec.decodeAll();
  return { region, instrs: out };
}

interface Agg { count: number; isas: Set<string>; kernels: Set<string>; vector: boolean }

/** The text of forms.txt for the builds in binDir. */
export function formsText(binDir = join(here, 'bin')): { text: string; builds: number; forms: number } {
  const files = readdirSync(binDir).filter((f) => f.endsWith('.o')).sort();
  const forms = new Map<string, Agg>();
  let builds = 0;
  for (const f of files) {
    const b = parseBuildName(f);
    if (!b) continue;
    const r = regionInstructions(new Uint8Array(readFileSync(join(binDir, f))));
    if (!r) throw new Error(`${f}: no marked region`);
    builds++;
    for (const ins of r.instrs) {
      const { form, vector } = formOf(ins);
      let a = forms.get(form);
      if (!a) forms.set(form, (a = { count: 0, isas: new Set(), kernels: new Set(), vector }));
      a.count++;
      a.isas.add(b.isa);
      a.kernels.add(b.kernel);
    }
    for (const ins of r.instrs) ins.free();
  }
  const order = ['sse2', 'avx2', 'avx512'];
  const rows = [...forms.entries()].sort((x, y) => y[1].count - x[1].count || x[0].localeCompare(y[0]));
  const lines = [
    '# Instruction forms inside the marked regions of every corpus build (examples/corpus/bin),',
    '# generated by examples/corpus/forms.ts (iced-x86). Do not edit by hand.',
    `# builds: ${builds}; distinct forms: ${rows.length}` +
      ` (non-vector: ${rows.filter((r) => !r[1].vector).length}, vector: ${rows.filter((r) => r[1].vector).length})`,
    '# columns: form<TAB>count<TAB>class (gpr|vector: has an XMM/YMM/ZMM/K operand)<TAB>ISA tiers of the builds it occurs in<TAB>kernels',
    '# count = occurrences summed over all builds (one per instruction in each region)',
    '# LEA is listed by address shape: LEA_<B base|R rip>_<I index|IS scaled index>_<D8|D32 displacement> (R64).',
    '# uops.info also splits LEA by address shape, but this spelling is this script\'s own and not verified',
    '# against uops.info\'s strings (the project decoder re-derives forms once merged).',
  ];
  for (const [form, a] of rows) {
    lines.push([form, a.count, a.vector ? 'vector' : 'gpr', order.filter((o) => a.isas.has(o)).join(','),
      [...a.kernels].sort().join(',')].join('\t'));
  }
  return { text: lines.join('\n') + '\n', builds, forms: rows.length };
}

function main() {
  const { text, builds, forms } = formsText();
  const target = join(here, 'forms.txt');
  if (process.argv.includes('--check')) {
    const old = readFileSync(target, 'utf8');
    if (old !== text) { console.error('forms.txt is out of date: run node --import tsx examples/corpus/forms.ts'); process.exit(1); }
    console.log('forms.txt up to date');
    return;
  }
  writeFileSync(target + '.tmp', text);
  renameSync(target + '.tmp', target);
  console.log(`${builds} builds, ${forms} forms → ${target}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
