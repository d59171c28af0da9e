// The loop the engine, report and explorer benches simulate: ten instructions of the thesis
// fixture's forms, repeated, between IACA's start and end markers (60 instructions at 6 copies).

/** One copy of the loop's body (Intel syntax). */
export const LOOP_BODY: readonly string[] = [
  'vmovsd xmm0, qword ptr [rdi+8]',
  'vaddsd xmm0, xmm0, qword ptr [rdi+16]',
  'vmulsd xmm1, xmm0, xmm2',
  'vmovsd qword ptr [rsi], xmm1',
  'add rax, rbx',
  'adc rcx, 1',
  'inc rdx',
  'cmp rdx, 100',
  'mov r8, 1',
  'add r9, r8',
];

/** An assembly source with `copies` copies of the body as its IACA region. */
export function loopSource(copies: number): string {
  return [
    '.intel_syntax noprefix',
    '.text',
    '.globl f',
    'f:',
    'mov ebx, 111',
    '.byte 0x64, 0x67, 0x90',
    ...Array.from({ length: copies }, () => LOOP_BODY).flat(),
    'mov ebx, 222',
    '.byte 0x64, 0x67, 0x90',
    'ret',
    '',
  ].join('\n');
}
