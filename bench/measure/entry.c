/*
 * What the code run before a loop does to the loop's steady state: gcc -O2's histogram loop
 * (bench/measure/kernels/histogram.c, 4 macro-ops) called as the validation's driver calls it,
 * over the driver's data (1,000 and 2,000 keys 1 + j mod 127, 4 KiB of counters), with
 * different instructions before each call. Prints cycles per iteration (ticks of the longer
 * length minus the shorter, over the 1,000 iterations between them, converted by the harness's
 * chain of dependent adds): the 10th percentile and the median of the samples.
 *
 *   gcc -O2 -no-pie -o /tmp/entry bench/measure/entry.c
 *   flock /work/runs/cpu1.lock taskset -c 1 /tmp/entry [PASSES]
 *
 * Each variant runs some instructions, then (the `+ret` variants) a return whose address is
 * replaced before the `ret`, which the return-address predictor always gets wrong (the core
 * discards what it fetched after it and restarts at its target), or (`+jmp`) a taken jump
 * instead, then 16 + K one-byte NOPs (K = 0 … 3) and the call. docs/measure.md ("The two that
 * disagree") gives the figures of the development machine and what they do and do not show.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* the loop as gcc 12 -O2 -falign-loops=64 compiles histogram.c */
void histogram(unsigned *h, const unsigned char *k, long n);
__asm__(".text\n"
        ".globl histogram\n"
        ".p2align 6\n"
        "histogram:\n"
        "  test %rdx, %rdx\n"
        "  jle 2f\n"
        "  add %rsi, %rdx\n"
        "  .p2align 6\n"
        "1:movzbl (%rsi), %eax\n"
        "  add $1, %rsi\n"
        "  addl $1, (%rdi,%rax,4)\n"
        "  cmp %rdx, %rsi\n"
        "  jne 1b\n"
        "2:ret\n");

static unsigned *counters;
static unsigned char *keys;
unsigned mxcsr_value __attribute__((used)) = 0x1f80;
static void callee(void) { __asm__ volatile("" ::: "memory"); }
void (*volatile callee_ptr)(void) __attribute__((used)) = callee;

#define RET_RESTART "call 7f\n\t7: addq $6, (%%rsp)\n\tret\n\t"
#define JMP_OVER "jmp 7f\n\tint3\n\t7:\n\t"
#define KXOR7 "kxorw %%k1,%%k1,%%k1\n\tkxorw %%k2,%%k2,%%k2\n\tkxorw %%k3,%%k3,%%k3\n\tkxorw %%k4,%%k4,%%k4\n\t" \
              "kxorw %%k5,%%k5,%%k5\n\tkxorw %%k6,%%k6,%%k6\n\tkxorw %%k7,%%k7,%%k7\n\t"
#define BEFORE_none ""
#define BEFORE_cld "cld\n\t"
#define BEFORE_lfence "lfence\n\t"
#define BEFORE_ldmxcsr "ldmxcsr mxcsr_value(%%rip)\n\t"
#define BEFORE_kxorw KXOR7
#define BEFORE_imul "mov $3, %%eax\n\t.rept 60\n\timul %%rax, %%rax\n\t.endr\n\t"
#define BEFORE_movabs "movabs $0x7f2324240123, %%rcx\n\t"
#define BEFORE_lfence_nop400 "lfence\n\t.rept 400\n\tnop\n\t.endr\n\t"
#define BEFORE_lfence_callret "lfence\n\tcall *callee_ptr(%%rip)\n\t"
#define BEFORE_ret_movabs RET_RESTART "movabs $0x7f2324240123, %%rcx\n\t"

/* one function per variant and K: the instructions, then 16 + K NOPs, then the call */
#define BATCH(NAME, PRE, K)                                                                          \
  __attribute__((noinline)) static void NAME##_##K(long n, long calls) {                           \
    for (long c = 0; c < calls; c++) {                                                             \
      __asm__ volatile(PRE ".rept 16 + " #K "\n\tnop\n\t.endr" ::: "memory", "rax", "rcx", "rdx", "cc"); \
      histogram(counters, keys, n);                                                                \
    }                                                                                              \
  }
#define FOUR(NAME, PRE) BATCH(NAME, PRE, 0) BATCH(NAME, PRE, 1) BATCH(NAME, PRE, 2) BATCH(NAME, PRE, 3)
#define THREE(B) FOUR(B, BEFORE_##B) FOUR(B##_ret, BEFORE_##B RET_RESTART) FOUR(B##_jmp, BEFORE_##B JMP_OVER)
THREE(none) THREE(cld) THREE(lfence) THREE(ldmxcsr) THREE(kxorw) THREE(imul) THREE(movabs)
FOUR(lfence_nop400, BEFORE_lfence_nop400) FOUR(lfence_callret, BEFORE_lfence_callret)
FOUR(ret_movabs, BEFORE_ret_movabs)

struct variant { const char *name; void (*f[4])(long, long); };
#define V(NAME) { #NAME, { NAME##_0, NAME##_1, NAME##_2, NAME##_3 } },
#define V3(B) V(B) V(B##_ret) V(B##_jmp)
static const struct variant variants[] = {
  V3(none) V3(cld) V3(lfence) V3(ldmxcsr) V3(kxorw) V3(imul) V3(movabs)
  V(lfence_nop400) V(lfence_callret) V(ret_movabs)
};

#include "calibrate.h"
static int cmpd(const void *x, const void *y) { double a = *(const double *)x, b = *(const double *)y; return a < b ? -1 : a > b; }

int main(int argc, char **argv) {
  int passes = argc > 1 ? atoi(argv[1]) : 2;
  enum { REPS = 40, CALLS = 8, N1 = 1000, N2 = 2000 };
  /* each array its own mapping, the keys 2 KiB into theirs, as the driver places two arrays */
  uint8_t *m1 = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  uint8_t *m2 = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m1 == MAP_FAILED || m2 == MAP_FAILED) { perror("mmap"); return 2; }
  counters = (unsigned *)m1;
  keys = m2 + 2048;
  for (int j = 0; j < 1024; j++) counters[j] = 1 + j % 127;
  for (int j = 0; j < N2; j++) keys[j] = (unsigned char)(1 + j % 127);
  for (int p = 0; p < passes; p++)
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
      double tpc[31], r[REPS];
      for (int i = 0; i < 31; i++) {
        uint64_t a = now(); chain1(); uint64_t b = now(); chain2(); uint64_t c = now();
        tpc[i] = ((double)(c - b) - (double)(b - a)) / 1000.0;
      }
      qsort(tpc, 31, sizeof tpc[0], cmpd);
      printf("%-16s", variants[v].name);
      for (int k = 0; k < 4; k++) {
        void (*f)(long, long) = variants[v].f[k];
        for (int w = 0; w < 3; w++) { f(N1, 1); f(N2, 1); }
        for (int i = 0; i < REPS; i++) {
          uint64_t a = now(); f(N1, CALLS); uint64_t b = now(); f(N2, CALLS); uint64_t c = now();
          r[i] = ((double)(c - b) - (double)(b - a)) / (double)(CALLS * (N2 - N1)) / tpc[15];
        }
        qsort(r, REPS, sizeof r[0], cmpd);
        printf("  K=%d %.2f %.2f", k, r[REPS / 10], r[REPS / 2]);
      }
      printf("   (ticks/cycle %.3f)\n", tpc[15]);
    }
  return 0;
}
