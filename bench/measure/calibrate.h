/* The harness's cycle calibration, shared by the validation's driver and the entry experiment:
   the time-stamp counter read between fences, and chains of 1000 and 2000 dependent
   `add rax, rbx` whose difference is 1000 cycles. */
#ifndef UOPSCOPE_CALIBRATE_H
#define UOPSCOPE_CALIBRATE_H
#include <stdint.h>

static inline uint64_t now(void) {
  uint32_t lo, hi;
  __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
  return ((uint64_t)hi << 32) | lo;
}

#define ADD10 "add %%rbx, %%rax\n\t" "add %%rbx, %%rax\n\t" "add %%rbx, %%rax\n\t" "add %%rbx, %%rax\n\t" "add %%rbx, %%rax\n\t" \
              "add %%rbx, %%rax\n\t" "add %%rbx, %%rax\n\t" "add %%rbx, %%rax\n\t" "add %%rbx, %%rax\n\t" "add %%rbx, %%rax\n\t"
#define ADD100 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10 ADD10
static void chain1(void) { uint64_t a = 0, b = 1; __asm__ volatile(ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 : "+a"(a) : "b"(b)); }
static void chain2(void) { uint64_t a = 0, b = 1; __asm__ volatile(ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100
                                                                   ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 ADD100 : "+a"(a) : "b"(b)); }

#endif
