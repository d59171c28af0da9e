# Two IACA-marked loops in one file (`uopscope regions` lists both; --region 2 picks the
# second): a dependent multiply chain and an independent load/add loop.
        .intel_syntax noprefix
        .text
        .globl  main
main:
        push    rbx
        mov     eax, 1
        mov     ecx, 3
        mov     r8d, 100
        mov     ebx, 111                # IACA start marker (region 1)
        .byte   0x64, 0x67, 0x90
1:
        imul    rax, rcx
        imul    rax, rcx
        dec     r8
        jnz     1b
        mov     ebx, 222                # IACA end marker (region 1)
        .byte   0x64, 0x67, 0x90
        sub     rsp, 0x108
        xor     edx, edx
        mov     r8d, 32
        mov     ebx, 111                # IACA start marker (region 2)
        .byte   0x64, 0x67, 0x90
2:
        add     rdx, qword ptr [rsp+r8*8]
        add     rdx, qword ptr [rsp+r8*8-0x8]
        sub     r8, 1
        jnz     2b
        mov     ebx, 222                # IACA end marker (region 2)
        .byte   0x64, 0x67, 0x90
        add     rsp, 0x108
        pop     rbx
        xor     eax, eax
        ret
