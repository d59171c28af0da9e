# The branch example of the SUACA thesis (Meerkamp 2018, chapter 2, Figures 2.1-2.3):
#   0 mov rax, 1 / 1 cmp rcx, 0 / 2 jne else / 3 add rbx, rax / 4 jmp end /
#   5 else: add rbx, rax / 6 end: add rbx, rbx
# The IACA markers enclose exactly these seven lines, as the thesis prints them (lines 0..6).
# The loop's own counter and back branch (dec r8; jnz) follow the end marker, so that they
# are not part of the analysed region: SUACA simulated the seven lines as the loop body.
# Portable GNU as / clang syntax (ELF, PE/COFF and Mach-O builds use this same file); numeric
# labels (1:, jne 1f) stay assembler-local in every format, so Mach-O branches are resolved.
        .intel_syntax noprefix
        .text
        .globl  main
main:
        push    rbx                     # rbx is callee-saved (and the markers clobber it)
        xor     ecx, ecx
        mov     r8d, 1000               # iterations
        mov     ebx, 111                # IACA start marker
        .byte   0x64, 0x67, 0x90
3:
        mov     rax, 1
        cmp     rcx, 0
        jne     1f
        add     rbx, rax
        jmp     2f
1:
        add     rbx, rax
2:
        add     rbx, rbx
        mov     ebx, 222                # IACA end marker
        .byte   0x64, 0x67, 0x90
        dec     r8
        jnz     3b
        pop     rbx
        xor     eax, eax
        ret
