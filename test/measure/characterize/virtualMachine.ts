// The virtual CPU the characterization's tests run on: a Golden Cove-like issue width (6) with
// Skylake's port numbers, and figures per form chosen to exercise every method — including a
// form the LLVM hypothesis gets wrong. Nothing here comes from a real core; the tests check the
// inference recovers exactly these figures.
import { emptyMeasured } from '../../../src/data/measuredFormat.js';
import type { VirtualMachine } from '../../../src/measure/characterize/virtualCpu.js';

const P0156 = [0, 1, 5, 6];
const g = (count: number, ports: number[]) => ({ count, ports });

export const VIRTUAL: VirtualMachine = {
  ports: [0, 1, 2, 3, 4, 5, 6, 7],
  issueWidth: 6,
  rsSize: 97,
  dividerPort: 0,
  forms: {
    // helpers and blockers
    'NOP (M32)': { ports: [], fused: 1, latency: 0, eliminated: true },
    'JMP (Rel8)': { ports: [g(1, [6])], latency: 1 },
    'ADD (R64, R64)': { ports: [g(1, P0156)], latency: 1 },
    'IMUL (R64, R64)': { ports: [g(1, [1])], latency: 3 },
    'MOV (R64, M64)': { ports: [g(1, [2, 3])], latency: 5 },
    'MOV (M64, R64)': { ports: [g(1, [2, 3, 7]), g(1, [4])], fused: 1, latency: 1 },
    'MOV (R64, R64)': { ports: [g(1, P0156)], latency: 1, eliminated: true },
    'MOVSXD (R64, R32)': { ports: [g(1, P0156)], latency: 1 },
    'MOVSX (R64, R16)': { ports: [g(1, P0156)], latency: 1 },
    'MOVSX (R64, R8)': { ports: [g(1, P0156)], latency: 1 },
    'XOR (R64, R64)': { ports: [g(1, P0156)], latency: 1, zeroIdiom: true },
    'XOR (R32, R32)': { ports: [g(1, P0156)], latency: 1, zeroIdiom: true },
    'MOV (R32, I32)': { ports: [g(1, P0156)], latency: 1 },
    'TEST (R64, R64)': { ports: [g(1, P0156)], latency: 1 },
    'CMOVB (R64, R64)': { ports: [g(1, [0, 6])], latency: 1 },
    'IMUL (R64, R64, I8)': { ports: [g(1, [1])], latency: 3 },
    'VPADDD (XMM, XMM, XMM)': { ports: [g(1, [0, 1, 5])], latency: 1 },
    'VPMULUDQ (XMM, XMM, XMM)': { ports: [g(1, [0, 1])], latency: 5 },
    'PSHUFD (XMM, XMM, I8)': { ports: [g(1, [5])], latency: 1 },
    'MOVQ (XMM, R64)': { ports: [g(1, [5])], latency: 2 },
    'MOVQ (R64, XMM)': { ports: [g(1, [0])], latency: 2 },
    // the forms under test
    'ADD (R64, I8)': { ports: [g(1, P0156)], latency: 1, eliminated: true },
    'ADDSD (XMM, XMM)': { ports: [g(1, [0, 1])], latency: 2 },
    'PHADDD (XMM, XMM)': { ports: [g(2, [5]), g(1, [0, 1, 5])], latency: 3 },
    'MUL (R64)': { ports: [g(1, [1]), g(1, [5])], latency: { RAX: 3, RDX: 4, flags: 3, other: 3 } },
    'DIV (R64)': { ports: [g(2, P0156), g(1, [0])], latency: { RAX: 14, RDX: 14, other: 14 }, divCycles: 10 },
    'POPCNT (R64, R64)': { ports: [g(1, [1])], latency: 3 },
    'ADD (R64, M64)': { ports: [g(1, P0156), g(1, [2, 3])], fused: 1, latency: 6, readLate: { op0: 5 } },
  },
};

/** What an LLVM-like model says of some forms: right for most, wrong for POPCNT (it puts the
 *  µop on every ALU port, the virtual CPU has it on port 1 only). */
export const HYPOTHESIS: Record<string, { count: number; ports: number[] }[]> = {
  'ADD (R64, R64)': [g(1, P0156)],
  'ADDSD (XMM, XMM)': [g(1, [0, 1])],
  'PHADDD (XMM, XMM)': [g(2, [5]), g(1, [0, 1, 5])],
  'MUL (R64)': [g(1, [1]), g(1, [5])],
  'DIV (R64)': [g(2, P0156), g(1, [0])],
  'POPCNT (R64, R64)': [g(1, P0156)],
  'ADD (R64, M64)': [g(1, P0156), g(1, [2, 3])],
  'MOV (M64, R64)': [g(1, [2, 3, 7]), g(1, [4])],
};

/** The default blockers' forms, to read their ports off the virtual CPU (the hypothesis a real
 *  run takes from the core's record). */
export const BLOCKER_FORM: Record<string, string> = {
  'add r64, r64': 'ADD (R64, R64)',
  'imul r64, r64, imm8': 'IMUL (R64, R64, I8)',
  'mov r64, [r64]': 'MOV (R64, M64)',
  'vpaddd xmm, xmm, xmm': 'VPADDD (XMM, XMM, XMM)',
  'pshufd xmm, xmm, imm8': 'PSHUFD (XMM, XMM, I8)',
  'vpmuludq xmm, xmm, xmm': 'VPMULUDQ (XMM, XMM, XMM)',
};

/** An empty measured file of a made-up Zen 4 host. */
export const zen4File = (command = 'test') =>
  emptyMeasured({
    cpu: 'AMD EPYC',
    cpuid: 'AuthenticAMD family 25 model 0x11 stepping 1',
    microcode: '0x1000065',
    kernel: 'Linux 6.1',
    virtualMachine: true,
    date: '2026-11-29T09:00:00Z',
    uopscope: '0.1.0',
    command,
    core: { arch: 'ZEN4', why: 'test' },
  });
