# Comment markers instead of IACA bytes: an LLVM-MCA region and an OSACA region (the markers
# are comments, so the code is unchanged; uopscope assembles the file and finds them).
        .intel_syntax noprefix
        .text
        .globl  main
main:
        mov     ecx, 100
        xor     eax, eax
        xor     edx, edx
1:
# LLVM-MCA-BEGIN dot
        add     rax, rcx
        imul    rdx, rax
        dec     ecx
        jnz     1b
# LLVM-MCA-END
        mov     ecx, 100
2:
# OSACA-BEGIN
        lea     rax, [rax+rcx*2]
        xor     rdx, rax
        sub     ecx, 1
        jnz     2b
# OSACA-END
        xor     eax, eax
        ret
