# 32-bit x86 version of the thesis's branch example (eax/ebx/ecx for rax/rbx/rcx): the i386
# slice of the universal Mach-O build and the ELF32 build. Same seven lines between the markers.
        .intel_syntax noprefix
        .text
        .globl  main
        .globl  _main                   # the name 32-bit Windows C code links against
main:
_main:
        push    ebx
        xor     ecx, ecx
        mov     edx, 1000
        mov     ebx, 111                # IACA start marker
        .byte   0x64, 0x67, 0x90
3:
        mov     eax, 1
        cmp     ecx, 0
        jne     1f
        add     ebx, eax
        jmp     2f
1:
        add     ebx, eax
2:
        add     ebx, ebx
        mov     ebx, 222                # IACA end marker
        .byte   0x64, 0x67, 0x90
        dec     edx
        jnz     3b
        pop     ebx
        xor     eax, eax
        ret
