# Six independent `mov rax, 6` (SUACA thesis, chapter 4): no dependencies between them, so
# only the ports limit the throughput. Loop control follows the IACA end marker.
        .intel_syntax noprefix
        .text
        .globl  main
main:
        push    rbx
        mov     r8d, 1000
        mov     ebx, 111                # IACA start marker
        .byte   0x64, 0x67, 0x90
1:
        mov     rax, 6
        mov     rax, 6
        mov     rax, 6
        mov     rax, 6
        mov     rax, 6
        mov     rax, 6
        mov     ebx, 222                # IACA end marker
        .byte   0x64, 0x67, 0x90
        dec     r8
        jnz     1b
        pop     rbx
        xor     eax, eax
        ret
