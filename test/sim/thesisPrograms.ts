// Test helpers: the thesis's example programs as SimPrograms, built by hand from the facts in
// examples/thesis/thesis-instructions.xml (µops, ports, latencies per architecture) and the
// dependency edges the thesis states (§2.4 Figure 2.3, §4.2, §4.3 Figure 4.1).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import type { Resource } from '../../src/disasm/types.js';
import { normalizeRegisterName } from '../../src/disasm/registers.js';
import type { MachineParams, SimDep, SimInstruction, SimProgram } from '../../src/sim/types.js';

export const FIXTURE = fileURLToPath(new URL('../../examples/thesis/thesis-instructions.xml', import.meta.url));

interface Fact {
  ports: number[][];
  latency: number;
}

type XmlNode = Record<string, unknown>;
const asList = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

let cache: Map<string, Fact> | null = null;

/** `ports="1*p1+1*p23"` → [[1], [2, 3]] */
export function parsePortsAttr(s: string | undefined): number[][] {
  if (!s) return [];
  const out: number[][] = [];
  for (const part of s.split('+')) {
    const m = /^(\d+)\*p(\d+)$/.exec(part.trim());
    if (!m) throw new Error(`bad ports group ${part}`);
    const ports = [...m[2]!].map(Number).sort((a, b) => a - b);
    for (let k = 0; k < Number(m[1]); k++) out.push(ports.slice());
  }
  return out;
}

/** The fixture's facts: key `${string}@${arch}`. */
export function facts(): Map<string, Fact> {
  if (cache) return cache;
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
    readFileSync(FIXTURE, 'utf8'),
  ) as XmlNode;
  const root = xml.root as XmlNode;
  const map = new Map<string, Fact>();
  for (const ext of asList(root.extension as XmlNode | XmlNode[])) {
    for (const ins of asList(ext.instruction as XmlNode | XmlNode[])) {
      for (const arch of asList(ins.architecture as XmlNode | XmlNode[])) {
        const m = arch.measurement as XmlNode;
        const lats = asList(m.latency as XmlNode | XmlNode[]).map((l) => Number(l.cycles));
        map.set(`${ins.string as string}@${arch.name as string}`, {
          ports: parsePortsAttr(m.ports as string | undefined),
          latency: Math.max(1, ...lats),
        });
      }
    }
  }
  cache = map;
  return map;
}

function ins(line: number, asm: string, form: string, arch: string): SimInstruction {
  const f = facts().get(`${form}@${arch}`);
  if (!f) throw new Error(`fixture has no ${form} on ${arch}`);
  return { line, asm, uops: f.ports, latency: f.latency, latencyByResource: {}, divCycles: 0, unknown: false };
}
const dep = (from: number, to: number, resource: Resource, loopCarried = false): SimDep => ({
  from,
  to,
  resource,
  loopCarried,
});

export const MACHINES: Record<string, MachineParams> = {
  // thesis §3.2 and /work/shared/reference/machines.md
  SNB: { arch: 'SNB', ports: [0, 1, 2, 3, 4, 5], issueWidth: 4, rsSize: 54, dividerPort: 0 },
  IVB: { arch: 'IVB', ports: [0, 1, 2, 3, 4, 5], issueWidth: 4, rsSize: 54, dividerPort: 0 },
  SKL: { arch: 'SKL', ports: [0, 1, 2, 3, 4, 5, 6, 7], issueWidth: 4, rsSize: 97, dividerPort: 0 },
  CFL: { arch: 'CFL', ports: [0, 1, 2, 3, 4, 5, 6, 7], issueWidth: 4, rsSize: 97, dividerPort: 0 },
};

/** Thesis ch. 2 example: lines 0–6, dependencies of Figure 2.3. */
export function branchExample(arch: string): SimProgram {
  return {
    instructions: [
      ins(0, 'mov rax, 0x1', 'MOV (R64, I32)', arch),
      ins(1, 'cmp rcx, 0x0', 'CMP (R64, I8)', arch),
      ins(2, 'jnz 0x7', 'JNZ (Rel8)', arch),
      ins(3, 'add rbx, rax', 'ADD_01 (R64, R64)', arch),
      ins(4, 'jmp 0x5', 'JMP (Rel8)', arch),
      ins(5, 'add rbx, rax', 'ADD_01 (R64, R64)', arch),
      ins(6, 'add rbx, rbx', 'ADD_01 (R64, R64)', arch),
    ],
    deps: [
      dep(0, 3, 'RAX'),
      dep(0, 5, 'RAX'),
      dep(1, 2, 'ZF'),
      dep(3, 6, 'RBX'),
      dep(5, 6, 'RBX'),
      dep(6, 3, 'RBX', true),
      dep(6, 5, 'RBX', true),
    ],
  };
}

/** Thesis §2.7: one side of the branch example, original line numbers kept. */
export function branchSide(arch: string, side: 'left' | 'right'): SimProgram {
  const all = branchExample(arch).instructions;
  if (side === 'left') {
    // fall-through: 0 1 2 3 4 → 6
    const keep = [0, 1, 2, 3, 4, 6].map((l) => all[l]!);
    return { instructions: keep, deps: [dep(0, 3, 'RAX'), dep(1, 2, 'ZF'), dep(3, 5, 'RBX'), dep(5, 3, 'RBX', true)] };
  }
  // taken: 0 1 2 → 5 6
  const keep = [0, 1, 2, 5, 6].map((l) => all[l]!);
  return { instructions: keep, deps: [dep(0, 3, 'RAX'), dep(1, 2, 'ZF'), dep(3, 4, 'RBX'), dep(4, 3, 'RBX', true)] };
}

/** Thesis §4.1: six `mov rax, 6`, no dependencies (no register is read). */
export function sixMoves(): SimProgram {
  return { instructions: [0, 1, 2, 3, 4, 5].map((l) => ins(l, 'mov rax, 0x6', 'MOV (R64, I32)', 'SNB')), deps: [] };
}

/** Thesis §4.3: eight `adc r, 1` on SKL: CF chain, CF loop-carried 7→0, each register a self loop. */
export function adcChain(): SimProgram {
  const regs = ['rax', 'rbx', 'rcx', 'rdx', 'r8', 'r9', 'r10', 'r11'];
  const deps: SimDep[] = [];
  for (let i = 1; i < 8; i++) deps.push(dep(i - 1, i, 'CF'));
  deps.push(dep(7, 0, 'CF', true));
  regs.forEach((r, i) => {
    deps.push(dep(i, i, normalizeRegisterName(r)!, true));
  });
  return { instructions: regs.map((r, i) => ins(i, `adc ${r}, 0x1`, 'ADC (R64, I8)', 'SKL')), deps };
}

/** Thesis §4.2: the OSACA 2D-5pt stencil on IVB: xmm chain 0→…→5, r15 from inc (line 6). */
export function stencil(): SimProgram {
  const a = 'IVB';
  const deps: SimDep[] = [
    dep(0, 1, 'XMM2'),
    dep(1, 2, 'XMM3'),
    dep(2, 3, 'XMM4'),
    dep(3, 4, 'XMM5'),
    dep(4, 5, 'XMM6'),
    dep(6, 7, 'R15'),
  ];
  // r15 is read by every address and by inc itself: written by the previous iteration's inc
  for (const l of [0, 1, 2, 3, 5, 6]) deps.push(dep(6, l, 'R15', true));
  return {
    instructions: [
      ins(0, 'vmovsd xmm2, qword ptr [r14+r15*8]', 'VMOVSD (XMM, M64)', a),
      ins(1, 'vaddsd xmm3, xmm2, qword ptr [r14+r15*8+0x10]', 'VADDSD (XMM, XMM, M64)', a),
      ins(2, 'vaddsd xmm4, xmm3, qword ptr [rax+r15*8+0x8]', 'VADDSD (XMM, XMM, M64)', a),
      ins(3, 'vaddsd xmm5, xmm4, qword ptr [rdx+r15*8+0x8]', 'VADDSD (XMM, XMM, M64)', a),
      ins(4, 'vmulsd xmm6, xmm5, xmm1', 'VMULSD (XMM, XMM, XMM)', a),
      ins(5, 'vmovsd qword ptr [r12+r15*8+0x8], xmm6', 'VMOVSD (M64, XMM)', a),
      ins(6, 'inc r15', 'INC (R64)', a),
      ins(7, 'cmp r15, r13', 'CMP_39 (R64, R64)', a),
    ],
    deps,
  };
}
