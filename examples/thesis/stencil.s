# The stencil loop of the SUACA thesis, section 4.2 (compiled by icc there):
#   b[i+1] = (a[i] + a[i+2] + c[i+1] + d[i+1]) * s
# SUACA's table for it has exactly these 8 lines (vmovsd ... cmp r15, r13) and 12 uops, so the
# IACA region ends before the loop's `jb`: the end marker sits between `cmp` and `jb` (mov and
# the marker nop leave the flags alone, so the loop still works).
# Arrays live on the stack: a at rsp, c at rsp+0x220, d at rsp+0x440, b at rsp+0x660
# (66 doubles each), n = 64.
        .intel_syntax noprefix
        .text
        .globl  main
main:
        push    rbx
        push    r12
        push    r13
        push    r14
        push    r15
        sub     rsp, 0x880
        mov     r14, rsp                # a
        lea     rax, [rsp+0x220]        # c
        lea     rdx, [rsp+0x440]        # d
        lea     r12, [rsp+0x660]        # b
        mov     r13d, 64                # n
        xor     r15d, r15d              # i
        vxorpd  xmm1, xmm1, xmm1        # s
        mov     ebx, 111                # IACA start marker
        .byte   0x64, 0x67, 0x90
1:
        vmovsd  xmm2, qword ptr [r14+r15*8]
        vaddsd  xmm3, xmm2, qword ptr [r14+r15*8+0x10]
        vaddsd  xmm4, xmm3, qword ptr [rax+r15*8+0x8]
        vaddsd  xmm5, xmm4, qword ptr [rdx+r15*8+0x8]
        vmulsd  xmm6, xmm5, xmm1
        vmovsd  qword ptr [r12+r15*8+0x8], xmm6
        inc     r15
        cmp     r15, r13
        mov     ebx, 222                # IACA end marker
        .byte   0x64, 0x67, 0x90
        jb      1b
        add     rsp, 0x880
        pop     r15
        pop     r14
        pop     r13
        pop     r12
        pop     rbx
        xor     eax, eax
        ret
