# The adc chain of the SUACA thesis, section 4.3 (Figure 4.1): eight `adc REG, 1`. Each reads
# and writes the carry flag, so CF chains line i to line i+1 and line 7 to line 0 of the next
# iteration, and each line depends on itself through its own register.
# Loop control follows the IACA end marker; `dec` leaves CF alone.
        .intel_syntax noprefix
        .text
        .globl  main
main:
        push    rbx
        push    r12
        xor     eax, eax
        xor     ecx, ecx
        xor     edx, edx
        xor     r8d, r8d
        xor     r9d, r9d
        xor     r10d, r10d
        xor     r11d, r11d
        mov     r12d, 1000
        mov     ebx, 111                # IACA start marker
        .byte   0x64, 0x67, 0x90
1:
        adc     rax, 1
        adc     rbx, 1
        adc     rcx, 1
        adc     rdx, 1
        adc     r8, 1
        adc     r9, 1
        adc     r10, 1
        adc     r11, 1
        mov     ebx, 222                # IACA end marker
        .byte   0x64, 0x67, 0x90
        dec     r12
        jnz     1b
        pop     r12
        pop     rbx
        xor     eax, eax
        ret
