/*
 * uopscope's measurement harness (see docs/measure.md). Built on first use by `uopscope measure`
 * with the system's C compiler and cached; the TypeScript side (src/measure) runs it with
 * parameters in argv and the region's machine code (its body, closing branch removed) on stdin.
 *
 *   harness COUNTER REPS TIMEOUT_S MAX_PAGES [xSTASH] [REG=VALUE ...] [L=N1,N2] [U=N1,N2]
 *           [M=REG,SIZE,OFFSET,FILL,ELEM,PARAM ...] < body-bytes
 *
 * COUNTER: the number (x86 encoding, 0 = rax … 15 = r15, not 4 = rsp) of a general-purpose
 * register the region does not touch, used to close the "loop" variant. xSTASH (x0 … x31, x15
 * when absent; x16 … x31 only on an AVX-512 host): an xmm register the region does not touch,
 * which holds the harness's stack pointer while the region runs. K=HEX: the contention canary's
 * bytes (src/measure/canary.ts), timed unrolled just before and just after the loop variant. REG=VALUE (decimal, REG a register number but 4): a start value
 * other than the pattern, e.g. 0 for the high half of a division's dividend
 * (src/measure/prepare.ts says when). L=: the loop variant's lengths, 2 to 16 increasing iteration
 * counts (default 1000,2000; src/measure/layout.ts loopLengths gives 12). U=: the unrolled
 * variant's two copy counts (default 100,200). M=: one address stream of
 * the region (src/measure/layout.ts): SIZE bytes of its own memory, mapped at a random address,
 * register REG pointing OFFSET bytes into it, filled with elements of ELEM bytes: FILL s (element
 * k = 1 + k mod 127, an integer, k counted from the element REG points at), v (divisors: 1 + k mod
 * 13), f or d (1 + k mod 127 as floats or doubles), c (every element PARAM, its bits) or p (every
 * 8-byte element the address stream PARAM's register starts at).
 * V=N,FILL,ELEM,PARAM,WIDTH: vector register N (0 … 31), which the region reads before it writes
 * it, starts with lanes of ELEM bytes holding FILL s (lane k = 1 + k mod 127, an integer), f or d
 * (1 + k mod 127 as floats or doubles) or c (every lane PARAM, its bits), not 0, loaded as the
 * region uses it (src/measure/layout.ts vectorInputs): WIDTH s (a legacy-SSE movdqu of 16 bytes,
 * the upper bits left clean: SSE code after a dirty upper state runs several times slower), x, y
 * or z (a VEX or EVEX load of 16, 32 or 64 bytes).
 * J=2|6 B=REG,STREAM,AT1,AT2,…: the loop variant closes with the region's own compare and branch (the
 * body's last 2 or 6 bytes, a jne back to its start, left out of the unrolled copies), register REG
 * starting at AT1, AT2 … (plus the address stream STREAM's start unless it is -1) for each of the
 * L= lengths, so that the loop runs them (src/measure/layout.ts ownLoop). Prints one JSON line.
 *
 * Method (BHive's): a forked child builds the code — a prologue that sets every general-purpose
 * register (rsp too) to PATTERN + REG_STEP × its number, zeroes the vector registers but those V= starts, then the body repeated
 * ("unrolled"), or the body once closed by `dec COUNTER; jnz` ("loop") — and runs it. Each
 * address stream has its own memory (distinct physical pages, filled before the runs); any other
 * page the code touches is mapped on demand (SIGSEGV handler), a fresh page each, filled with
 * PATTERN, so pointers loaded from it point into mapped memory again. MXCSR has
 * denormals-are-zero and flush-to-zero set (PATTERN read as a double is a denormal); it is loaded
 * again after the region, which may have unmasked FP exceptions that the harness's own arithmetic
 * would then raise. The caller's MXCSR is not restored: the child ends after the runs. The
 * unrolled variant runs at two sizes (n1, n2) interleaved over REPS repetitions, each
 * repetition's difference divided by n2 - n1 its figure; the loop variant runs every L= length
 * once per repetition, in a shuffled order, the Theil–Sen slope of those timings its figure
 * (slope.h): both cancel the cost of the prologue, the call and the timer reads. The loop variant
 * is entered 24 ways (after 16 + k filler instructions, k = 0 … 11, each without and with a
 * front-end restart), each timed briefly, the fastest with all the repetitions. Cycles come from
 * perf_event_open (core cycles, user space) when
 * the kernel allows it, else from the TSC, converted to core cycles by a chain of dependent
 * `add rax, rbx` (latency 1) measured the same way in the same process before and after.
 * The child is bounded: alarm() and RLIMIT_CPU, RLIMIT_FSIZE 0, RLIMIT_AS, at most MAX_PAGES
 * pages mapped on demand, all descriptors but its own closed, and a seccomp filter that only lets
 * it read its cycle counter, write one result to its pipe, map one anonymous page at a time
 * where nothing is mapped and return from its signal handler.
 *
 * The region is arbitrary machine code, so nothing the region can reach may lead back to the
 * harness: the code buffers and the TLS block the region sees (fs) are mapped at random
 * addresses far from the harness's own mappings; the code holds no harness address (the stack
 * pointer to return to is kept in the xmm register STASH, which the region does not touch, and
 * MXCSR is loaded from an immediate); every general-purpose, vector and mask register is set or
 * cleared; code is mapped execute-only (unreadable on CPUs with protection keys). Should the
 * region take over the child anyway, the seccomp filter's argument checks and RLIMIT_AS bound
 * what it can do, and the parent checks every field of the result it reads back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <math.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <asm/prctl.h>
#include <ucontext.h>
#include <unistd.h>
#include "slope.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef SEGV_PKUERR
#define SEGV_PKUERR 4
#endif

#define PATTERN 0x2324000ULL
/* BHive starts every register at PATTERN; then two arrays addressed from different base registers
   are the same memory on the one physical page, and a store to one feeds the next iteration's
   load from the other (a dependency through memory the program does not have: a 1D stencil
   measured 13 cycles instead of 2-3). Register n starts at PATTERN + n × REG_STEP instead: 9
   cache lines apart, so such a store and load meet only ~70 iterations later. */
#define REG_STEP 0x240ULL
#define MAX_BODY 4096
#define MIN_ADDR 0x10000ULL
#define MAX_ADDR 0x7ffffffff000ULL
#define MAX_REPS 10000

enum { PH_SETUP, PH_CAL, PH_UNROLLED, PH_LOOP };
static const char *PHASE[] = { "setup", "calibration", "unrolled", "loop" };

enum { FR_OK, FR_PAGES, FR_MAPFAIL, FR_PROT, FR_GP, FR_SEGV, FR_ILL, FR_FPE, FR_BUS, FR_TRAP, FR_SETUP };

struct variant { double p10, p50; uint64_t n1, n2; };
/* the loop variant's entries timed: LEADS numbers of filler instructions (lead_in), each without
   and with a front-end restart at the end of the prologue (entries LEADS … ENTRIES - 1) */
#define LEADS 12
#define ENTRIES (2 * LEADS)
#define MAX_STREAMS 16
/* an address stream: its own memory, the register that points into it, its fill */
struct stream { int reg; uint64_t size, offset, param; char fill; int elem; uint8_t *mem; };
static struct stream streams[MAX_STREAMS];
static int nstreams;
/* a vector register the region reads before it writes it, and its start (V=) */
#define MAX_VECS 32
struct vstart { int reg; char fill; int elem; uint64_t param; char width; };
static struct vstart vecs[MAX_VECS];
static int nvecs;
static uint8_t *vec_block;                /* 64 bytes per V=, loaded by the prologue */
/* the loop variant's lengths (L=, increasing): each repetition times them all, and its figure is
   their Theil–Sen slope (slope.h) */
static uint64_t loop_n[SLOPE_MAX_LENGTHS] = { 1000, 2000 }, unrolled_n[2] = { 100, 200 };
static int nloop = 2;

/* the loop variant closed by the region's own branch: the body's last own_jump bytes jump back to
   its start (not part of the unrolled copies), and register bound_reg starts at bound_at[k] (plus
   the address of stream bound_stream when it is one) for each length, so the loop runs loop_n[k] */
static int own_jump, bound_reg = -1, bound_stream = -1, nbound;
static uint64_t bound_at[SLOPE_MAX_LENGTHS];
/* the contention canary (K=): a block timed (unrolled) just before and just after the loop
   variant, so that the caller can tell a sample taken while another guest shared the core */
#define MAX_CANARY 256
static uint8_t canary[MAX_CANARY];
static size_t canary_len;
struct result {
  int reason, phase, sig, code; uint64_t addr; int64_t offset;
  int perf, perf_err; double cal_before, cal_after; int pages;
  struct variant v[2];
  uint64_t stream_at[MAX_STREAMS];      /* where each stream's register started */
  uint64_t resolution;                  /* the cycle counter's smallest step */
  double canary[2];                     /* the contention canary before and after the loop variant */
  double entry[ENTRIES];                /* the loop variant's brief median for each entry (lead_in, restart) */
  int lead;                             /* the entry the loop variant's figure is from */
  char setup[120];
};

static int outfd = -1, perffd = -1, max_pages, pages, phase, stash = 15;
/* MXCSR for the region: all exceptions masked, round to nearest, and denormals-are-zero plus
   flush-to-zero, because the memory pattern read as a double is a denormal; without them every
   floating-point operation on loaded data can take a microcode assist. */
#define REGION_MXCSR (0x1F80 | 0x8000 | 0x0040)

/* System calls after the sandbox is up go through these, not libc's wrappers, which read the
   thread pointer (fs) that the region's run points elsewhere. */
static long sys3(long nr, long a, long b, long c) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}
static long sys6(long nr, long a, long b, long c, long d, long e, long f) {
  long r;
  register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
  __asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
  return r;
}
static __attribute__((noreturn)) void sys_exit(int code) {
  for (;;) sys3(SYS_exit_group, code, 0, 0);
}

/* A mapping of `size` bytes at a random 2 MiB-aligned address between 16 TiB and 96 TiB, where
   neither the executable, its libraries, its heap nor its stack are: a region that learns the
   address of its code or of its TLS block learns nothing of the harness's own memory. */
static void *random_map(size_t size) {
  for (int tries = 0; tries < 64; tries++) {
    uint64_t r = 0;
    if (syscall(SYS_getrandom, &r, sizeof r, 0) != (long)sizeof r) return NULL;
    uint64_t addr = (0x100000000000ULL + (r % (0x500000000000ULL >> 21)) * (1ULL << 21));
    void *p = mmap((void *)(uintptr_t)addr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == (void *)(uintptr_t)addr) return p;
    if (p != MAP_FAILED) munmap(p, size);     /* a kernel that took the address as a hint */
  }
  return NULL;
}
static struct result res;
/* start values of the general-purpose registers (PATTERN + n × REG_STEP unless overridden) */
static uint64_t start_value[16];
/* the code buffers built, to say where in the body a fault happened */
struct built { uint64_t base, top, end, len; };
static struct built builtv[40];
static int nbuilt;
static int64_t body_offset(uint64_t addr) {
  for (int k = 0; k < nbuilt; k++)
    if (addr >= builtv[k].base + builtv[k].top && addr < builtv[k].end && builtv[k].len)
      return (int64_t)((addr - builtv[k].base - builtv[k].top) % builtv[k].len);
  return -1;
}

/* One write of the whole result (a pipe takes up to PIPE_BUF = 4096 bytes atomically): the
   seccomp filter allows no other size. */
static void send_result(void) {
  sys3(SYS_write, outfd, (long)&res, sizeof res);
}
static void fail(int reason, int sig, int code, uint64_t addr, uint64_t ip) {
  res.reason = reason; res.phase = phase; res.sig = sig; res.code = code; res.addr = addr; res.pages = pages;
  res.offset = body_offset(ip);
  send_result();
  sys_exit(3);
}

static uint64_t ip_of(void *ctx) { return (uint64_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP]; }
static void on_segv(int sig, siginfo_t *si, void *ctx) {
  uint64_t a = (uint64_t)(uintptr_t)si->si_addr, ip = ip_of(ctx);
  if (si->si_code == SEGV_MAPERR && a >= MIN_ADDR && a < MAX_ADDR) {
    if (pages >= max_pages) fail(FR_PAGES, sig, si->si_code, a, ip);
    void *page = (void *)(uintptr_t)(a & ~4095ULL);
    long p = sys6(SYS_mmap, (long)page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != (long)page) fail(FR_MAPFAIL, sig, si->si_code, a, ip);
    for (int i = 0; i < 512; i++) ((uint64_t *)page)[i] = PATTERN;
    pages++;
    return;
  }
  if (si->si_code == SEGV_ACCERR || si->si_code == SEGV_PKUERR) fail(FR_PROT, sig, si->si_code, a, ip);
  if (si->si_code == SI_KERNEL) fail(FR_GP, sig, si->si_code, a, ip);
  fail(FR_SEGV, sig, si->si_code, a, ip);
}
static void on_other(int sig, siginfo_t *si, void *ctx) {
  int r = sig == SIGILL ? FR_ILL : sig == SIGFPE ? FR_FPE : sig == SIGBUS ? FR_BUS : FR_TRAP;
  fail(r, sig, si->si_code, (uint64_t)(uintptr_t)si->si_addr, ip_of(ctx));
}

/* ---- code generation ---- */
struct buf { uint8_t *p; size_t n, cap; };
static void put(struct buf *b, const void *s, size_t n) { memcpy(b->p + b->n, s, n); b->n += n; }
static void put1(struct buf *b, uint8_t x) { b->p[b->n++] = x; }
static void put64(struct buf *b, uint64_t x) { memcpy(b->p + b->n, &x, 8); b->n += 8; }
static void movabs(struct buf *b, int r, uint64_t v) { put1(b, r >= 8 ? 0x49 : 0x48); put1(b, (uint8_t)(0xB8 + (r & 7))); put64(b, v); }

static int has_avx, has_avx512;

/* vpxord xmmN, xmmN, xmmN (EVEX.128, which clears the whole zmmN), N = 16 … 31 */
static void clear_high(struct buf *b, int n) {
  uint8_t r = (uint8_t)(((n & 8) ? 0 : 0xA0) | 0x01), v = (uint8_t)(0x7d ^ ((n & 15) << 3));
  uint8_t e[] = { 0x62, r, v, 0x00, 0xef, (uint8_t)(0xC0 | ((n & 7) << 3) | (n & 7)) };
  put(b, e, sizeof e);
}
/* kxorw kN, kN, kN for N = 1 … 7 */
static const uint8_t clear_masks[] = {
  0xc5, 0xf4, 0x47, 0xc9, 0xc5, 0xec, 0x47, 0xd2, 0xc5, 0xe4, 0x47, 0xdb, 0xc5, 0xdc, 0x47, 0xe4,
  0xc5, 0xd4, 0x47, 0xed, 0xc5, 0xcc, 0x47, 0xf6, 0xc5, 0xc4, 0x47, 0xff,
};
/* movq xmmN, rsp (0x6E) or movq rsp, xmmN (0x7E); EVEX-encoded for N = 16 … 31 (AVX-512 hosts) */
static void movq_stash(struct buf *b, uint8_t op, int n) {
  if (n >= 16) {
    uint8_t e[] = { 0x62, (uint8_t)(((n & 8) ? 0 : 0x80) | 0x60 | 0x01), 0xFD, 0x08, op, (uint8_t)(0xC4 | ((n & 7) << 3)) };
    put(b, e, sizeof e);
    return;
  }
  put1(b, 0x66); put1(b, (uint8_t)(0x48 | (n >= 8 ? 4 : 0))); put1(b, 0x0F); put1(b, op);
  put1(b, (uint8_t)(0xC4 | ((n & 7) << 3)));
}

/* The filler before the body, which starts on a 64-byte boundary: one-byte NOPs (LEAD < 0), or
   exactly 16 + LEAD NOPs of 1 to 8 bytes filling 64 to 127 bytes, so that the instructions
   executed before the body's top differ by LEAD while the body stays where it is. Some loops run
   at a speed set by the number of instructions before them (with the loop's macro-op count as
   the period, as if the loop kept the dispatch-group boundaries it was entered with): on Zen 4
   gcc's 512-bit daxpy at 2.15 or 2.51 cycles per iteration, clang's daxpy at 2.02 or 2.50. */
static const uint8_t nops[8][8] = {
  { 0x90 }, { 0x66, 0x90 }, { 0x0F, 0x1F, 0x00 }, { 0x0F, 0x1F, 0x40, 0x00 }, { 0x0F, 0x1F, 0x44, 0x00, 0x00 },
  { 0x66, 0x0F, 0x1F, 0x44, 0x00, 0x00 }, { 0x0F, 0x1F, 0x80, 0x00, 0x00, 0x00, 0x00 },
  { 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};
static void lead_in(struct buf *b, int lead) {
  if (lead < 0) { while (b->n % 64) put1(b, 0x90); return; }
  size_t gap = ((b->n + 64 + 63) & ~(size_t)63) - b->n, count = 16 + (size_t)lead;
  for (size_t i = 0; i < count; i++) {
    size_t l = gap / count + (i < gap % count ? 1 : 0);
    put(b, nops[l - 1], l);
  }
}
/* A function `void f(uint64_t arg)`: prologue, filler (lead_in), body × copies (or the body closed
   by `dec COUNTER; jnz`), epilogue. Register ARG_REG (unless -1) starts at arg instead of its start
   value: the loop variant's lengths differ only in it (the iteration count, or the bound of the
   region's own compare), so all run the same code at the same address, entered the same way,
   and differ in nothing but the length. LEAD: -1 for no entry filler, 0 … LEADS - 1 for 16 + LEAD
   filler instructions, LEADS … ENTRIES - 1 for the same after a front-end restart. */
static void *build(const uint8_t *body, size_t len, uint64_t copies, int counter, int arg_reg, int lead, size_t *size) {
  size_t cap = 672 + 16 * (size_t)nvecs + len * copies;
  cap = (cap + 4095) & ~(size_t)4095;
  uint8_t *mem = random_map(cap);
  if (!mem) return NULL;
  struct buf b = { mem, 0, cap };
  static const uint8_t push[] = { 0x53, 0x55, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57 };
  put(&b, push, sizeof push);
  static const uint8_t mxcsr[] = { 0x68, REGION_MXCSR & 0xFF, (REGION_MXCSR >> 8) & 0xFF, 0, 0,   /* push imm32 */
                                   0x0F, 0xAE, 0x14, 0x24,                                        /* ldmxcsr [rsp] */
                                   0x48, 0x83, 0xC4, 0x08 };                                      /* add rsp, 8 */
  put(&b, mxcsr, sizeof mxcsr);
  movq_stash(&b, 0x6E, stash);                                      /* movq xmmSTASH, rsp */
  put1(&b, 0xFC);                                                   /* cld */
  if (has_avx) { static const uint8_t vzu[] = { 0xC5, 0xF8, 0x77 }; put(&b, vzu, 3); }
  for (int i = 0; i < 16; i++) {                                    /* pxor xmmi, xmmi */
    if (i == stash) continue;
    put1(&b, 0x66); if (i >= 8) put1(&b, 0x45);
    put1(&b, 0x0F); put1(&b, 0xEF); put1(&b, (uint8_t)(0xC0 | ((i & 7) << 3) | (i & 7)));
  }
  if (has_avx512) {
    for (int i = 16; i < 32; i++) if (i != stash) clear_high(&b, i);
    put(&b, clear_masks, sizeof clear_masks);
  }
  for (int k = 0; k < nvecs; k++) {                                 /* the V= starts, from vec_block */
    int n = vecs[k].reg;
    uint8_t m = (uint8_t)((n & 7) << 3);                            /* [rax] */
    movabs(&b, 0, (uint64_t)(uintptr_t)vec_block + 64 * (uint64_t)k);
    char w = vecs[k].width;
    if (w == 'z' || n >= 16) {                                      /* vmovdqu64 x/y/zmmN, [rax] (EVEX) */
      const uint8_t ll = w == 'z' ? 0x48 : w == 'y' ? 0x28 : 0x08;
      const uint8_t e[] = { 0x62, (uint8_t)(((n & 8) ? 0 : 0x80) | 0x60 | ((n & 16) ? 0 : 0x10) | 0x01), 0xFE, ll, 0x6F, m };
      put(&b, e, sizeof e);
    } else if (w == 'y' || w == 'x') {                              /* vmovdqu x/ymmN, [rax] (VEX) */
      const uint8_t e[] = { 0xC5, (uint8_t)(((n & 8) ? 0x7A : 0xFA) | (w == 'y' ? 0x04 : 0)), 0x6F, m };
      put(&b, e, sizeof e);
    } else {                                                        /* movdqu xmmN, [rax] (legacy SSE) */
      put1(&b, 0xF3); if (n & 8) put1(&b, 0x44); put1(&b, 0x0F); put1(&b, 0x6F); put1(&b, m);
    }
  }
  if (arg_reg >= 0 && arg_reg != 7) {                              /* mov ARG_REG, rdi */
    put1(&b, (uint8_t)(0x48 | (arg_reg >= 8 ? 1 : 0))); put1(&b, 0x89); put1(&b, (uint8_t)(0xC0 | (7 << 3) | (arg_reg & 7)));
  }
  for (int r = 0; r < 16; r++) if (r != 4 && r != arg_reg) movabs(&b, r, start_value[r]);
  if (lead >= LEADS) {
    /* the restart entries: call 1f; 1: add qword [rsp], 6; ret (on the harness's stack, before rsp
       is set). The return predictor predicts the add, so the core discards what it fetched after
       the ret and restarts there: what the prologue ran before it (cld, ldmxcsr, kxorw …) no
       longer decides how the loop runs (gcc's histogram: 1.27 cycles per iteration after them,
       1.00 after the restart, as in the program). The entries without it stay: after it gcc's
       512-bit daxpy ran at 2.47-2.56 whatever the filler, without it 2.17-2.20 at some (the
       program: 2.20). Which one a program's loop is in is the program's code before it. */
    static const uint8_t rs[] = { 0xE8, 0, 0, 0, 0, 0x48, 0x83, 0x04, 0x24, 0x06, 0xC3 };
    put(&b, rs, sizeof rs);
  }
  put1(&b, 0xBC); uint32_t sp = (uint32_t)(PATTERN + 4 * REG_STEP); put(&b, &sp, 4);   /* mov esp, imm32 */
  lead_in(&b, lead >= LEADS ? lead - LEADS : lead);
  size_t top = b.n;
  for (uint64_t c = 0; c < copies; c++) put(&b, body, len);
  if (counter >= 0) {
    put1(&b, counter >= 8 ? 0x49 : 0x48); put1(&b, 0xFF); put1(&b, (uint8_t)(0xC8 + (counter & 7)));  /* dec */
    int32_t rel = (int32_t)((int64_t)top - (int64_t)(b.n + 6));
    put1(&b, 0x0F); put1(&b, 0x85); memcpy(b.p + b.n, &rel, 4); b.n += 4;                            /* jnz top */
  }
  movq_stash(&b, 0x7E, stash);                                      /* movq rsp, xmmSTASH */
  put(&b, mxcsr, sizeof mxcsr);     /* the region may have unmasked FP exceptions: the harness's own arithmetic must not fault */
  static const uint8_t restore[] = { 0x41, 0x5F, 0x41, 0x5E, 0x41, 0x5D, 0x41, 0x5C, 0x5D, 0x5B, 0xC3 };
  put(&b, restore, sizeof restore);
  /* execute-only: the kernel gives such a mapping an execute-only protection key where the CPU
     has them (PKU); elsewhere x86 lets code be read */
  if (mprotect(mem, cap, PROT_EXEC) != 0) return NULL;
  if (nbuilt < 40) builtv[nbuilt++] = (struct built){ (uint64_t)(uintptr_t)mem, top, (uint64_t)(uintptr_t)mem + top + len * copies, len };
  *size = cap;
  return mem;
}

/* ---- cycles ---- */
static inline uint64_t now(void) {
  if (perffd >= 0) { uint64_t v = 0; if (sys3(SYS_read, perffd, (long)&v, 8) != 8) return 0; return v; }
  uint32_t lo, hi;
  __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
  return ((uint64_t)hi << 32) | lo;
}
/* Shell sort: no allocation (qsort may allocate, which the seccomp filter forbids). */
static void sort_u64(uint64_t *a, int n) {
  for (int gap = n / 2; gap > 0; gap /= 2)
    for (int i = gap; i < n; i++) {
      uint64_t x = a[i]; int j = i;
      for (; j >= gap && a[j - gap] > x; j -= gap) a[j] = a[j - gap];
      a[j] = x;
    }
}
static uint64_t *s1, *s2, *s3;
static int reps;
static uint64_t resolution = 1;

/* The counter's smallest step: a virtual machine's TSC can advance in steps of tens of ticks
   (26 on the development machine), coarse beside a run of a few hundred. */
static uint64_t counter_resolution(void) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < 2000; i++) {
    uint64_t a = now(), b = now();
    while (b == a) b = now();
    if (b - a < best) best = b - a;
  }
  return best ? best : 1;
}

/* Runs f1 and f2 interleaved, each `calls` times per sample; the 10th and 50th percentiles of the
   per-sample figure (t2 - t1) / (calls × (n2 - n1)) over the quiet samples, those in which
   neither length ran slower than its own median (a disturbed short run would make a figure too
   low). Percentiles of per-sample figures, not differences of each length's percentiles: those are
   not a percentile of anything (a counter that steps by 26 ticks put one length's 10th percentile
   a step below its median and the other's not, and the "10th percentile" came out 14 % above the
   median). `calls` makes the difference of one sample at least 400 counter steps, so a step is at
   most 0.25 % of it. */
typedef void (*code_fn)(uint64_t);
static struct variant time_pair(code_fn f1, uint64_t a1, code_fn f2, uint64_t a2, uint64_t n1, uint64_t n2) {
  for (int w = 0; w < 3; w++) { f1(a1); f2(a2); }     /* map the pages, warm the caches */
  uint64_t d = UINT64_MAX;
  for (int w = 0; w < 8; w++) {
    uint64_t a = now(); f1(a1); uint64_t b = now(); f2(a2); uint64_t c = now();
    if (c - b > b - a && (c - b) - (b - a) < d) d = (c - b) - (b - a);
  }
  uint64_t calls = 1;
  if (d == UINT64_MAX || d == 0) d = 1;
  while (calls < 4096 && calls * d < 400 * resolution) calls *= 2;
  for (int r = 0; r < reps; r++) {
    uint64_t a = now();
    for (uint64_t k = 0; k < calls; k++) f1(a1);
    uint64_t b = now();
    for (uint64_t k = 0; k < calls; k++) f2(a2);
    uint64_t c = now();
    s1[r] = b - a; s2[r] = c - b;
  }
  memcpy(s3, s1, sizeof(uint64_t) * (size_t)reps); sort_u64(s3, reps);
  uint64_t m1 = s3[(reps - 1) / 2];
  memcpy(s3, s2, sizeof(uint64_t) * (size_t)reps); sort_u64(s3, reps);
  uint64_t m2 = s3[(reps - 1) / 2];
  /* offset by 2^62: a short run can still take longer than a long one */
  const uint64_t off = (uint64_t)1 << 62;
  int n = 0;
  for (int r = 0; r < reps; r++) if (s1[r] <= m1 && s2[r] <= m2) s3[n++] = s2[r] + off - s1[r];
  if (n < 3) { n = 0; for (int r = 0; r < reps; r++) s3[n++] = s2[r] + off - s1[r]; }
  sort_u64(s3, n);
  int lo = (n - 1) / 10, mid = (n - 1) / 2;
  double per = (double)calls * (double)(n2 - n1);
  struct variant v = { ((double)s3[lo] - (double)off) / per, ((double)s3[mid] - (double)off) / per, n1, n2 };
  return v;
}

/* The loop variant: f at each of the nloop lengths (arg[i] runs loop_n[i] iterations), every
   length once per repetition in a shuffled order, `calls` calls each; each repetition's figure is
   the Theil–Sen slope of its lengths (slope.h), and the percentiles are over the quiet
   repetitions. A difference of two lengths cancels the call's fixed cost only when that cost is
   the same at both, and on Zen 4 it steps by about 26 cycles with the exact trip count. `calls`
   makes the difference between the shortest and the longest length at least 400 counter steps. */
static uint64_t *samples;
static double *scratch;
static struct variant time_lengths(code_fn f, const uint64_t *arg) {
  int k = nloop, order[SLOPE_MAX_LENGTHS];
  for (int w = 0; w < 3; w++) for (int i = 0; i < k; i++) f(arg[i]);
  uint64_t d = UINT64_MAX;
  for (int w = 0; w < 8; w++) {
    uint64_t a = now(); f(arg[0]); uint64_t b = now(); f(arg[k - 1]); uint64_t c = now();
    if (c - b > b - a && (c - b) - (b - a) < d) d = (c - b) - (b - a);
  }
  uint64_t calls = 1, seed = SLOPE_SEED;
  if (d == UINT64_MAX || d == 0) d = 1;
  while (calls < 4096 && calls * d < 400 * resolution) calls *= 2;
  for (int r = 0; r < reps; r++) {
    slope_order(order, k, &seed);
    for (int j = 0; j < k; j++) {
      int i = order[j];
      uint64_t a = now();
      for (uint64_t c = 0; c < calls; c++) f(arg[i]);
      samples[(size_t)r * (size_t)k + (size_t)i] = now() - a;
    }
  }
  struct variant v = { 0, 0, loop_n[0], loop_n[k - 1] };
  slope_percentiles(loop_n, k, samples, reps, calls, scratch, &v.p10, &v.p50);
  return v;
}

static int open_perf(void) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a; a.type = PERF_TYPE_HARDWARE; a.config = PERF_COUNT_HW_CPU_CYCLES;
  a.exclude_kernel = 1; a.exclude_hv = 1;
  int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
  if (fd < 0) { res.perf_err = errno; return -1; }
  uint64_t x = 0, y = 0;                     /* a counter that never counts (some VMs) is no counter */
  if (read(fd, &x, 8) != 8) { res.perf_err = errno; close(fd); return -1; }
  for (volatile int i = 0; i < 100000; i++) {}
  if (read(fd, &y, 8) != 8 || y <= x) { res.perf_err = -1; close(fd); return -1; }
  return fd;
}

/* The filter is built by these: each system call allowed is a block that checks its arguments
   (all 64 bits) and allows it, or kills the process at the first mismatch. */
static struct sock_filter flt[128];
static int nflt;
static void emit(struct sock_filter f) { if (nflt < (int)(sizeof flt / sizeof flt[0])) flt[nflt++] = f; }
static void arg_is(int i, uint64_t v) {
  emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[i])));
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)v, 1, 0));
  emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[i]) + 4));
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(v >> 32), 1, 0));
  emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
}
static int block_start(int nr) {
  emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 0));
  return nflt - 1;
}
static void block_end(int at) {
  emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  flt[at].jf = (uint8_t)(nflt - at - 1);
}

/* Allowed after set-up: read 8 bytes of the cycle counter, write one result to the pipe, map one
   anonymous page where nothing is mapped (the page-on-demand handler's exact call), return
   from a signal handler, exit. Nothing else: no mprotect, no other mapping, no other descriptor. */
static int install_seccomp(void) {
  nflt = 0;
  emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
  emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
  emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  int b;
  if (perffd >= 0) { b = block_start(SYS_read); arg_is(0, (uint64_t)perffd); arg_is(2, 8); block_end(b); }
  b = block_start(SYS_write); arg_is(0, (uint64_t)outfd); arg_is(2, sizeof res); block_end(b);
  b = block_start(SYS_mmap); arg_is(1, 4096); arg_is(2, PROT_READ | PROT_WRITE);
  arg_is(3, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE); arg_is(4, (uint64_t)-1); arg_is(5, 0); block_end(b);
  b = block_start(SYS_rt_sigreturn); block_end(b);
  b = block_start(SYS_exit_group); block_end(b);
  b = block_start(SYS_exit); block_end(b);
  emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  if (nflt >= (int)(sizeof flt / sizeof flt[0])) { errno = E2BIG; return -1; }
  struct sock_fprog prog = { (unsigned short)nflt, flt };
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* The address space the child may use: what it has mapped now plus the pages the region may map
   on demand, and a little for the kernel's rounding. */
static int limit_address_space(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long size = 0;
  if (!f) return -1;
  int n = fscanf(f, "%lu", &size);
  fclose(f);
  if (n != 1) { errno = EINVAL; return -1; }
  rlim_t bytes = ((rlim_t)size + (rlim_t)max_pages + 64) * 4096;
  struct rlimit as = { bytes, bytes };
  return setrlimit(RLIMIT_AS, &as);
}

static void setup_fail(const char *what) {
  snprintf(res.setup, sizeof res.setup, "%s: %s", what, strerror(errno));
  fail(FR_SETUP, 0, 0, 0, 0);
}

/* Each stream's own memory: a mapping at a random address (distinct physical pages), filled
   before the runs, its register pointing OFFSET bytes in. */
static void map_vectors(void) {
  if (!nvecs) return;
  for (int k = 0; k < nvecs; k++)
    if (vecs[k].reg >= (has_avx512 ? 32 : 16) || (vecs[k].width == 'z' && !has_avx512)
        || ((vecs[k].width == 'y' || vecs[k].width == 'x') && !has_avx))
      setup_fail("a vector register start (V=) the host cannot load");
  vec_block = random_map(4096);
  if (!vec_block) setup_fail("mapping the vector registers' starts");
  for (int k = 0; k < nvecs; k++) {
    const struct vstart *v = &vecs[k];
    for (int lane = 0; lane < 64 / v->elem; lane++) {
      uint64_t x = v->fill == 'c' ? v->param : 1 + (uint64_t)lane % 127;
      uint8_t *at = vec_block + 64 * k + lane * v->elem;
      if (v->fill == 'f') { float f = (float)x; memcpy(at, &f, 4); continue; }
      if (v->fill == 'd') { double d = (double)x; memcpy(at, &d, 8); continue; }
      memcpy(at, &x, (size_t)v->elem);
    }
  }
}

static void map_streams(void) {
  for (int k = 0; k < nstreams; k++) {
    struct stream *t = &streams[k];
    t->mem = random_map(t->size);
    if (!t->mem) setup_fail("mapping an address stream's memory");
    start_value[t->reg] = (uint64_t)(uintptr_t)t->mem + t->offset;
    res.stream_at[k] = start_value[t->reg];
  }
  for (int k = 0; k < nstreams; k++) {
    struct stream *t = &streams[k];
    uint64_t n = t->size / (uint64_t)t->elem, first = t->offset / (uint64_t)t->elem;
    for (uint64_t i = 0; i < n; i++) {
      /* counted from the element the register points at, as a program's arrays from their start */
      uint64_t j = i >= first ? i - first : 127 * t->size - (first - i);
      uint64_t v = t->fill == 'v' ? 1 + j % 13 : 1 + j % 127;
      uint8_t *at = t->mem + i * (uint64_t)t->elem;
      if (t->fill == 'f') { float x = (float)v; memcpy(at, &x, 4); continue; }
      if (t->fill == 'd') { double x = (double)v; memcpy(at, &x, 8); continue; }
      if (t->fill == 'c') v = t->param;
      if (t->fill == 'p') v = start_value[streams[t->param].reg];
      memcpy(at, &v, (size_t)t->elem);
    }
  }
}

static void child(const uint8_t *body, size_t len, int counter, int timeout) {
  phase = PH_SETUP;
  struct rlimit cpu = { (rlim_t)timeout, (rlim_t)timeout + 1 }, fsz = { 0, 0 }, core = { 0, 0 };
  setrlimit(RLIMIT_CPU, &cpu); setrlimit(RLIMIT_FSIZE, &fsz); setrlimit(RLIMIT_CORE, &core);
  alarm((unsigned)timeout);
  for (int fd = 0; fd < 1024; fd++) if (fd != outfd) close(fd);
  has_avx = __builtin_cpu_supports("avx");
  has_avx512 = __builtin_cpu_supports("avx512f");
  if (stash >= 16 && !has_avx512) { errno = EINVAL; setup_fail("the stash register xmm16-31 needs AVX-512"); }
  perffd = open_perf();
  res.perf = perffd >= 0;
  map_streams();
  map_vectors();
  s1 = malloc(sizeof(uint64_t) * (size_t)reps); s2 = malloc(sizeof(uint64_t) * (size_t)reps);
  s3 = malloc(sizeof(uint64_t) * (size_t)reps);
  samples = malloc(sizeof(uint64_t) * (size_t)reps * (size_t)nloop);
  scratch = malloc(sizeof(double) * SLOPE_SCRATCH(reps, nloop));
  if (!s1 || !s2 || !s3 || !samples || !scratch) setup_fail("malloc");
  static uint8_t altstack[65536];
  stack_t ss = { altstack, 0, sizeof altstack };
  if (sigaltstack(&ss, NULL) != 0) setup_fail("sigaltstack");
  struct sigaction sa; memset(&sa, 0, sizeof sa);
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER; sa.sa_sigaction = on_segv;
  sigaction(SIGSEGV, &sa, NULL);
  sa.sa_sigaction = on_other;
  sigaction(SIGILL, &sa, NULL); sigaction(SIGFPE, &sa, NULL); sigaction(SIGBUS, &sa, NULL); sigaction(SIGTRAP, &sa, NULL);

  /* the calibration chain: add rax, rbx (not `add rax, 1`: recent cores fold additions of an
     immediate at rename, which makes such a chain faster than one cycle per add) */
  static const uint8_t add1[] = { 0x48, 0x01, 0xD8, 0x90 };
  uint8_t chain[400]; for (int i = 0; i < 100; i++) memcpy(chain + 4 * i, add1, 4);
  size_t sz;
  uint64_t u1 = unrolled_n[0], u2 = unrolled_n[1];
  while (u1 > 2 && len * u2 > (1u << 20)) { u1 /= 2; u2 /= 2; }
  void *cal1 = build(chain, sizeof chain, 10, -1, -1, -1, &sz), *cal2 = build(chain, sizeof chain, 20, -1, -1, -1, &sz);
  void *un1 = build(body, len - (size_t)own_jump, u1, -1, -1, -1, &sz), *un2 = build(body, len - (size_t)own_jump, u2, -1, -1, -1, &sz);
  /* the loop variant: one code buffer per entry (lead_in, restart), each running every length, the
     length in the call's argument */
  void *lp[ENTRIES];
  uint64_t lp_arg[SLOPE_MAX_LENGTHS];
  int lp_ok = 1;
  uint64_t at = own_jump && bound_stream >= 0 ? start_value[streams[bound_stream].reg] : 0;
  for (int i = 0; i < nloop; i++) lp_arg[i] = own_jump ? at + bound_at[i] : loop_n[i];
  for (int k = 0; k < ENTRIES; k++) {
    lp[k] = own_jump ? build(body, len, 1, -1, bound_reg, k, &sz) : build(body, len, 1, counter, counter, k, &sz);
    if (!lp[k]) lp_ok = 0;
  }
  void *ca1 = NULL, *ca2 = NULL;
  if (canary_len) { ca1 = build(canary, canary_len, 100, -1, -1, -1, &sz); ca2 = build(canary, canary_len, 200, -1, -1, -1, &sz); }
  if (!cal1 || !cal2 || !un1 || !un2 || !lp_ok || (canary_len && (!ca1 || !ca2))) setup_fail("building the code");
  /* the thread pointer the region sees: an empty block at a random address, not libc's TLS
     (whose fields lead to the harness's memory); nothing after this point uses libc's TLS */
  uint8_t *tls = random_map(65536);
  if (!tls) setup_fail("mapping the region's TLS block");
  if (limit_address_space() != 0) setup_fail("RLIMIT_AS");
  unsigned long libc_fs = 0;
  if (syscall(SYS_arch_prctl, ARCH_GET_FS, &libc_fs) != 0) setup_fail("arch_prctl");
  if (syscall(SYS_arch_prctl, ARCH_SET_FS, (unsigned long)(tls + 57344)) != 0) setup_fail("arch_prctl");
  if (install_seccomp() != 0) {
    int e = errno;
    syscall(SYS_arch_prctl, ARCH_SET_FS, libc_fs);
    errno = e;
    setup_fail("seccomp");
  }

  phase = PH_CAL;
  res.resolution = resolution = counter_resolution();
  struct variant c = time_pair((code_fn)cal1, 0, (code_fn)cal2, 0, 1000, 2000);
  res.cal_before = c.p10;
  phase = PH_UNROLLED;
  res.v[0] = time_pair((code_fn)un1, 0, (code_fn)un2, 0, u1, u2);
  if (canary_len) res.canary[0] = time_pair((code_fn)ca1, 0, (code_fn)ca2, 0, 100, 200).p10;
  phase = PH_LOOP;
  /* each entry timed briefly (its median: a brief run's low percentile can be a stray), then the
     fastest with all the repetitions: how the loop is entered is the program's (the code before
     it), which the harness does not have */
  int all = reps, best = 0;
  reps = reps / LEADS > 10 ? reps / LEADS : 10;
  for (int k = 0; k < ENTRIES; k++) {
    res.entry[k] = time_lengths((code_fn)lp[k], lp_arg).p50;
    if (res.entry[k] < res.entry[best]) best = k;
  }
  reps = all;
  res.lead = best;
  res.v[1] = time_lengths((code_fn)lp[best], lp_arg);
  phase = PH_CAL;
  if (canary_len) res.canary[1] = time_pair((code_fn)ca1, 0, (code_fn)ca2, 0, 100, 200).p10;
  phase = PH_CAL;
  c = time_pair((code_fn)cal1, 0, (code_fn)cal2, 0, 1000, 2000);
  res.cal_after = c.p10;
  res.reason = FR_OK; res.pages = pages;
  send_result();
  sys_exit(0);
}

static int hexval(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; }

static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c >= 0x7f) continue;
    if (c == '"' || c == '\\') putchar('\\');
    putchar(c);
  }
  putchar('"');
}

/* The child's result is read from memory the region could reach had it escaped the sandbox, so
   every field is checked before it is printed: known reason and phase, pages within the budget,
   an offset within the body, the sizes the parent asked for, finite figures. */
static int fair(double x) { return isfinite(x) && x > -1e12 && x < 1e12; }
static int entries_fair(const struct result *g) {
  for (int k = 0; k < ENTRIES; k++) if (!fair(g->entry[k])) return 0;
  return 1;
}
static int valid_result(struct result *g, uint64_t u1, uint64_t u2) {
  for (int k = 0; k < nstreams; k++) if (g->reason == FR_OK && (g->stream_at[k] < 0x100000000000ULL || g->stream_at[k] > 0x700000000000ULL)) return 0;
  g->setup[sizeof g->setup - 1] = 0;
  if (g->phase < 0 || g->phase > PH_LOOP || g->pages < 0 || g->pages > max_pages) return 0;
  if (g->reason == FR_OK) {
    return (g->perf == 0 || g->perf == 1) && fair(g->cal_before) && fair(g->canary[0]) && fair(g->canary[1]) && fair(g->cal_after)
      && fair(g->v[0].p10) && fair(g->v[0].p50) && fair(g->v[1].p10) && fair(g->v[1].p50)
      && g->v[0].n1 == u1 && g->v[0].n2 == u2 && g->v[1].n1 == loop_n[0] && g->v[1].n2 == loop_n[nloop - 1]
      && g->lead >= 0 && g->lead < ENTRIES && entries_fair(g);
  }
  return g->reason > FR_OK && g->reason <= FR_SETUP && g->offset >= -1 && g->offset < MAX_BODY;
}

int main(int argc, char **argv) {
  if (argc < 5 || argc > 9 + 16 + MAX_STREAMS) { fprintf(stderr, "usage: harness COUNTER REPS TIMEOUT_S MAX_PAGES [xSTASH] [REG=VALUE ...] < body\n"); return 2; }
  /* the body first: a caller that writes it is not left with a closed pipe when a parameter is bad */
  static uint8_t body[MAX_BODY + 1];
  size_t len = 0; ssize_t r;
  while ((r = read(0, body + len, sizeof body - len)) > 0) { len += (size_t)r; if (len > MAX_BODY) break; }
  int counter = atoi(argv[1]); reps = atoi(argv[2]); int timeout = atoi(argv[3]); max_pages = atoi(argv[4]);
  if (counter < 0 || counter > 15 || counter == 4 || reps < 10 || reps > MAX_REPS || timeout < 1 || timeout > 600 || max_pages < 1 || max_pages > 65536) {
    fprintf(stderr, "harness: bad parameters\n"); return 2;
  }
  for (int r = 0; r < 16; r++) start_value[r] = PATTERN + (uint64_t)r * REG_STEP;
  int first = 5;
  if (argc > 5 && argv[5][0] == 'x') {
    char *end = NULL;
    long x = strtol(argv[5] + 1, &end, 10);
    if (end == argv[5] + 1 || *end || x < 0 || x > 31) { fprintf(stderr, "harness: bad stash register %s\n", argv[5]); return 2; }
    stash = (int)x; first = 6;
  }
  for (int k = first; k < argc; k++) {
    char *end = NULL; errno = 0;
    if (argv[k][0] == 'L' && argv[k][1] == '=') {
      /* 2 to SLOPE_MAX_LENGTHS increasing lengths */
      const char *q = argv[k] + 2;
      int n = 0, ok = 1;
      while (ok && n < SLOPE_MAX_LENGTHS) {
        unsigned long long a = strtoull(q, &end, 10);
        if (end == q || a < 1 || a > 100000000ULL || (n && a <= loop_n[n - 1])) ok = 0;
        else loop_n[n++] = a;
        if (*end != ',') break;
        q = end + 1;
      }
      if (!ok || *end || errno || n < 2) { fprintf(stderr, "harness: bad lengths %s\n", argv[k]); return 2; }
      nloop = n;
      continue;
    }
    if (argv[k][0] == 'U' && argv[k][1] == '=') {
      uint64_t *n = unrolled_n;
      unsigned long long a = strtoull(argv[k] + 2, &end, 10), b = 0;
      if (*end == ',') b = strtoull(end + 1, &end, 10);
      if (*end || errno || a < 1 || b <= a || b > 100000ULL) { fprintf(stderr, "harness: bad sizes %s\n", argv[k]); return 2; }
      n[0] = a; n[1] = b;
      continue;
    }
    if (argv[k][0] == 'K' && argv[k][1] == '=') {
      const char *h = argv[k] + 2;
      size_t n = strlen(h);
      int ok = n >= 2 && n % 2 == 0 && n / 2 <= MAX_CANARY;
      for (size_t i = 0; ok && i < n / 2; i++) {
        int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);
        if (hi < 0 || lo < 0) ok = 0;
        else canary[i] = (uint8_t)(hi << 4 | lo);
      }
      if (!ok) { fprintf(stderr, "harness: bad canary %s\n", argv[k]); return 2; }
      canary_len = n / 2;
      continue;
    }
    if (argv[k][0] == 'J' && argv[k][1] == '=') {
      own_jump = atoi(argv[k] + 2);
      if (own_jump != 2 && own_jump != 6) { fprintf(stderr, "harness: bad own jump %s\n", argv[k]); return 2; }
      continue;
    }
    if (argv[k][0] == 'B' && argv[k][1] == '=') {
      long r = strtol(argv[k] + 2, &end, 10), st = -2;
      if (*end == ',') st = strtol(end + 1, &end, 10);
      nbound = 0;
      while (*end == ',' && nbound < SLOPE_MAX_LENGTHS) bound_at[nbound++] = strtoull(end + 1, &end, 10);
      if (*end || errno || nbound < 2 || r < 0 || r > 15 || r == 4 || r == counter || st < -1 || st >= MAX_STREAMS) { fprintf(stderr, "harness: bad bound %s\n", argv[k]); return 2; }
      bound_reg = (int)r; bound_stream = (int)st;
      continue;
    }
    if (argv[k][0] == 'M' && argv[k][1] == '=') {
      unsigned long long f[6] = { 0 }; char fill = 0; const char *q = argv[k] + 2;
      for (int i = 0; i < 6 && *q; i++) {
        if (i == 3) { fill = *q++; } else { f[i] = strtoull(q, &end, 10); if (end == q) break; q = end; }
        if (i < 5) { if (*q != ',') break; q++; }
      }
      int ok = *q == 0 && nstreams < MAX_STREAMS && f[0] <= 15 && f[0] != 4 && (int)f[0] != counter
        && f[1] >= 4096 && f[1] <= (1ULL << 30) && f[1] % 4096 == 0 && f[2] < f[1]
        && (fill == 's' || fill == 'v' || fill == 'f' || fill == 'd' || fill == 'c' || fill == 'p')
        && (f[4] == 1 || f[4] == 2 || f[4] == 4 || f[4] == 8) && (fill != 'f' || f[4] == 4) && (fill != 'd' || f[4] == 8)
        && (fill != 'p' || (f[4] == 8 && f[5] < MAX_STREAMS));
      if (!ok || errno) { fprintf(stderr, "harness: bad stream %s\n", argv[k]); return 2; }
      streams[nstreams++] = (struct stream){ (int)f[0], f[1], f[2], f[5], fill, (int)f[4], NULL };
      continue;
    }
    if (argv[k][0] == 'V' && argv[k][1] == '=') {
      unsigned long long f[5] = { 0 }; char fill = 0, width = 0; const char *q = argv[k] + 2;
      for (int i = 0; i < 5 && *q; i++) {
        if (i == 1) fill = *q++;
        else if (i == 4) width = *q++;
        else { f[i] = strtoull(q, &end, 10); if (end == q) break; q = end; }
        if (i < 4) { if (*q != ',') break; q++; }
      }
      int ok = *q == 0 && nvecs < MAX_VECS && f[0] <= 31 && (fill == 's' || fill == 'f' || fill == 'd' || fill == 'c')
        && (width == 's' || width == 'x' || width == 'y' || width == 'z') && (width != 's' || f[0] < 16)
        && (f[2] == 1 || f[2] == 2 || f[2] == 4 || f[2] == 8) && (fill != 'f' || f[2] == 4) && (fill != 'd' || f[2] == 8);
      for (int i = 0; i < nvecs; i++) ok = ok && vecs[i].reg != (int)f[0];
      if (!ok || errno) { fprintf(stderr, "harness: bad vector register start %s\n", argv[k]); return 2; }
      vecs[nvecs++] = (struct vstart){ (int)f[0], fill, (int)f[2], f[3], width };
      continue;
    }
    long reg = strtol(argv[k], &end, 10);
    if (end == argv[k] || *end != '=' || reg < 0 || reg > 15 || reg == 4 || reg == counter) { fprintf(stderr, "harness: bad register start value %s\n", argv[k]); return 2; }
    const char *v = end + 1;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno) { fprintf(stderr, "harness: bad register start value %s\n", argv[k]); return 2; }
    start_value[reg] = (uint64_t)x;
  }
  for (int k = 0; k < nstreams; k++)
    if (streams[k].fill == 'p' && (int)streams[k].param >= nstreams) { fprintf(stderr, "harness: bad stream target\n"); return 2; }
  if ((own_jump != 0) != (bound_reg >= 0) || (own_jump && nbound != nloop) || bound_stream >= nstreams || (own_jump && len <= (size_t)own_jump)) { fprintf(stderr, "harness: J= and B= go together\n"); return 2; }
  for (int k = 0; k < nvecs; k++)
    if (vecs[k].reg == stash) { fprintf(stderr, "harness: V= names the stash register\n"); return 2; }
  if (len == 0 || len > MAX_BODY) { fprintf(stderr, "harness: the body must be 1..%d bytes\n", MAX_BODY); return 2; }
  prctl(PR_SET_PDEATHSIG, SIGKILL);            /* ended with uopscope */
  int fds[2];
  if (pipe(fds) != 0) { perror("harness: pipe"); return 2; }
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) { perror("harness: fork"); return 2; }
  if (pid == 0) {
    /* ended with the harness: the explorer cancels a measurement by killing the harness */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) _exit(3);
    close(fds[0]); outfd = fds[1]; child(body, len, counter, timeout);
  }
  close(fds[1]);
  struct result got; memset(&got, 0, sizeof got);
  size_t have = 0;
  while (have < sizeof got) { ssize_t n = read(fds[0], (char *)&got + have, sizeof got - have); if (n <= 0) break; have += (size_t)n; }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  uint64_t u1 = unrolled_n[0], u2 = unrolled_n[1];   /* as the child computes them */
  while (u1 > 2 && len * u2 > (1u << 20)) { u1 /= 2; u2 /= 2; }
  if (have == sizeof got && !valid_result(&got, u1, u2)) {
    printf("{\"ok\":false,\"reason\":\"invalid-result\"}\n");
    return 0;
  }
  if (have == sizeof got && got.reason == FR_OK && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    printf("{\"ok\":true,\"method\":\"%s\",\"repetitions\":%d,\"pages\":%d,\"perfError\":%d,\"calibration\":[%.6f,%.6f]", got.perf ? "perf" : "tsc", reps, got.pages, got.perf_err, got.cal_before, got.cal_after);
    for (int k = 0; k < 2; k++) {
      printf(",\"%s\":{\"p10\":%.6f,\"p50\":%.6f,\"n1\":%llu,\"n2\":%llu", k ? "loop" : "unrolled", got.v[k].p10, got.v[k].p50, (unsigned long long)got.v[k].n1, (unsigned long long)got.v[k].n2);
      printf(",\"lengths\":[");          /* every length timed: the unrolled variant's two, the loop's nloop */
      if (k) for (int i = 0; i < nloop; i++) printf("%s%llu", i ? "," : "", (unsigned long long)loop_n[i]);
      else printf("%llu,%llu", (unsigned long long)got.v[k].n1, (unsigned long long)got.v[k].n2);
      printf("]}");
    }
    if (canary_len) printf(",\"canary\":[%.6f,%.6f]", got.canary[0], got.canary[1]);
    printf(",\"entry\":{\"lead\":%d,\"p50\":[", got.lead);
    for (int k = 0; k < ENTRIES; k++) printf("%s%.6f", k ? "," : "", got.entry[k]);
    printf("]}");
    printf(",\"resolution\":%llu,\"streams\":[", (unsigned long long)got.resolution);
    for (int k = 0; k < nstreams; k++) printf("%s%llu", k ? "," : "", (unsigned long long)got.stream_at[k]);
    printf("]}\n");
    return 0;
  }
  static const char *why[] = { "ok", "pages", "map", "protection", "general-protection", "segv", "illegal-instruction", "arithmetic", "bus", "trap", "setup" };
  if (have == sizeof got) {
    printf("{\"ok\":false,\"phase\":\"%s\",\"reason\":\"%s\",\"signal\":%d,\"code\":%d,\"address\":%llu,\"offset\":%lld,\"pages\":%d,\"maxPages\":%d,\"detail\":",
           PHASE[got.phase], why[got.reason], got.sig, got.code, (unsigned long long)got.addr, (long long)got.offset, got.pages, max_pages);
    json_str(got.setup);
    printf("}\n");
  } else if (WIFSIGNALED(status)) {
    int s = WTERMSIG(status);
    printf("{\"ok\":false,\"reason\":\"%s\",\"signal\":%d,\"timeout\":%d}\n",
           s == SIGALRM || s == SIGXCPU ? "timeout" : s == SIGSYS ? "syscall" : "killed", s, timeout);
  } else {
    printf("{\"ok\":false,\"reason\":\"exit\",\"status\":%d}\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  return 0;
}
