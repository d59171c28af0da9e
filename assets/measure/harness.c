/*
 * uopscope's measurement harness (see docs/measure.md). Built on first use by `uopscope measure`
 * with the system's C compiler and cached; the TypeScript side (src/measure) runs it with
 * parameters in argv and the region's machine code (its body, closing branch removed) on stdin.
 *
 *   harness COUNTER REPS TIMEOUT_S MAX_PAGES [REG=VALUE ...] < body-bytes
 *
 * COUNTER: the number (x86 encoding, 0 = rax … 15 = r15, not 4 = rsp) of a general-purpose
 * register the region does not touch, used to close the "loop" variant. REG=VALUE (decimal,
 * REG a register number but 4): a start value other than the pattern, e.g. 0 for the high half of
 * a division's dividend (src/measure/prepare.ts says when). Prints one JSON line.
 *
 * Method (BHive's): a forked child builds the code — a prologue that sets every general-purpose
 * register (rsp too) to PATTERN + REG_STEP × its number and zeroes the vector registers, then the body repeated
 * ("unrolled"), or the body once closed by `dec COUNTER; jnz` ("loop") — and runs it. Pages the
 * code touches are mapped on demand (SIGSEGV handler) onto one shared physical page (a memfd)
 * filled with PATTERN, so pointers loaded from memory point into mapped memory again and data
 * stays in L1. MXCSR has denormals-are-zero and flush-to-zero set (PATTERN read as a double is
 * a denormal). The caller's MXCSR is not restored: the child ends after the runs. Each variant runs at two sizes (n1, n2) interleaved over REPS repetitions; the
 * difference of their low percentiles, divided by n2 - n1, is the cost of one iteration with
 * the prologue's cost cancelled. Cycles come from perf_event_open (core cycles, user space) when
 * the kernel allows it, else from the TSC, converted to core cycles by a chain of dependent
 * `add rax, rbx` (latency 1) measured the same way in the same process before and after.
 * The child is bounded: alarm() and RLIMIT_CPU, RLIMIT_FSIZE 0, at most MAX_PAGES pages mapped
 * on demand, all descriptors but its own closed, and a seccomp filter that only lets it read,
 * write to its result pipe, map memory and return from its signal handler.
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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
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
struct result {
  int reason, phase, sig, code; uint64_t addr; int64_t offset;
  int perf, perf_err; double cal_before, cal_after; int pages;
  struct variant v[2];
  char setup[120];
};

static int memfd = -1, outfd = -1, perffd = -1, max_pages, pages, phase;
static uint64_t saved_rsp;
/* MXCSR for the region: all exceptions masked, round to nearest, and denormals-are-zero plus
   flush-to-zero, because the memory pattern read as a double is a denormal; without them every
   floating-point operation on loaded data can take a microcode assist. */
static uint32_t region_mxcsr = 0x1F80 | 0x8000 | 0x0040;
static struct result res;
/* start values of the general-purpose registers (PATTERN + n × REG_STEP unless overridden) */
static uint64_t start_value[16];
/* the code buffers built, to say where in the body a fault happened */
struct built { uint64_t base, top, end, len; };
static struct built builtv[8];
static int nbuilt;
static int64_t body_offset(uint64_t addr) {
  for (int k = 0; k < nbuilt; k++)
    if (addr >= builtv[k].base + builtv[k].top && addr < builtv[k].end && builtv[k].len)
      return (int64_t)((addr - builtv[k].base - builtv[k].top) % builtv[k].len);
  return -1;
}

static void send_result(void) {
  const char *p = (const char *)&res; size_t left = sizeof res;
  while (left) { ssize_t w = write(outfd, p, left); if (w <= 0) break; p += w; left -= (size_t)w; }
}
static void fail(int reason, int sig, int code, uint64_t addr, uint64_t ip) {
  res.reason = reason; res.phase = phase; res.sig = sig; res.code = code; res.addr = addr; res.pages = pages;
  res.offset = body_offset(ip);
  send_result();
  _exit(3);
}

static uint64_t ip_of(void *ctx) { return (uint64_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP]; }
static void on_segv(int sig, siginfo_t *si, void *ctx) {
  uint64_t a = (uint64_t)(uintptr_t)si->si_addr, ip = ip_of(ctx);
  if (si->si_code == SEGV_MAPERR && a >= MIN_ADDR && a < MAX_ADDR) {
    if (pages >= max_pages) fail(FR_PAGES, sig, si->si_code, a, ip);
    void *page = (void *)(uintptr_t)(a & ~4095ULL);
    void *p = mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, memfd, 0);
    if (p != page) fail(FR_MAPFAIL, sig, si->si_code, a, ip);
    pages++;
    return;
  }
  if (si->si_code == SEGV_ACCERR) fail(FR_PROT, sig, si->si_code, a, ip);
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

static int has_avx;

/* A function `void f(void)`: prologue, body × copies (or the body in a loop of `iters`), epilogue. */
static void *build(const uint8_t *body, size_t len, uint64_t copies, int counter, uint64_t iters, size_t *size) {
  size_t cap = 512 + len * copies;
  cap = (cap + 4095) & ~(size_t)4095;
  uint8_t *mem = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return NULL;
  struct buf b = { mem, 0, cap };
  static const uint8_t push[] = { 0x53, 0x55, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57 };
  put(&b, push, sizeof push);
  movabs(&b, 0, (uint64_t)(uintptr_t)&saved_rsp);
  static const uint8_t save_rsp[] = { 0x48, 0x89, 0x20 };          /* mov [rax], rsp */
  put(&b, save_rsp, sizeof save_rsp);
  put1(&b, 0xFC);                                                   /* cld */
  if (has_avx) { static const uint8_t vzu[] = { 0xC5, 0xF8, 0x77 }; put(&b, vzu, 3); }
  for (int i = 0; i < 16; i++) {                                    /* pxor xmmi, xmmi */
    put1(&b, 0x66); if (i >= 8) put1(&b, 0x45);
    put1(&b, 0x0F); put1(&b, 0xEF); put1(&b, (uint8_t)(0xC0 | ((i & 7) << 3) | (i & 7)));
  }
  movabs(&b, 0, (uint64_t)(uintptr_t)&region_mxcsr);
  static const uint8_t ldmxcsr[] = { 0x0F, 0xAE, 0x10 };            /* ldmxcsr [rax] */
  put(&b, ldmxcsr, sizeof ldmxcsr);
  movabs(&b, 0, PATTERN + 4 * REG_STEP);
  static const uint8_t set_rsp[] = { 0x48, 0x89, 0xC4 };            /* mov rsp, rax */
  put(&b, set_rsp, sizeof set_rsp);
  for (int r = 0; r < 16; r++) if (r != 4) movabs(&b, r, start_value[r]);
  if (counter >= 0) movabs(&b, counter, iters);
  while (b.n % 64) put1(&b, 0x90);
  size_t top = b.n;
  for (uint64_t c = 0; c < copies; c++) put(&b, body, len);
  if (counter >= 0) {
    put1(&b, counter >= 8 ? 0x49 : 0x48); put1(&b, 0xFF); put1(&b, (uint8_t)(0xC8 + (counter & 7)));  /* dec */
    int32_t rel = (int32_t)((int64_t)top - (int64_t)(b.n + 6));
    put1(&b, 0x0F); put1(&b, 0x85); memcpy(b.p + b.n, &rel, 4); b.n += 4;                            /* jnz top */
  }
  movabs(&b, 0, (uint64_t)(uintptr_t)&saved_rsp);
  static const uint8_t restore[] = { 0x48, 0x8B, 0x20, 0x41, 0x5F, 0x41, 0x5E, 0x41, 0x5D, 0x41, 0x5C, 0x5D, 0x5B, 0xC3 };
  put(&b, restore, sizeof restore);
  if (mprotect(mem, cap, PROT_READ | PROT_EXEC) != 0) return NULL;
  if (nbuilt < 8) builtv[nbuilt++] = (struct built){ (uint64_t)(uintptr_t)mem, top, (uint64_t)(uintptr_t)mem + top + len * copies, len };
  *size = cap;
  return mem;
}

/* ---- cycles ---- */
static inline uint64_t now(void) {
  if (perffd >= 0) { uint64_t v = 0; if (read(perffd, &v, 8) != 8) return 0; return v; }
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
static uint64_t *s1, *s2;
static int reps;

/* Runs f1 and f2 interleaved; the low (10th) and middle percentiles of (t2 - t1) / (n2 - n1). */
static struct variant time_pair(void (*f1)(void), void (*f2)(void), uint64_t n1, uint64_t n2) {
  for (int w = 0; w < 3; w++) { f1(); f2(); }     /* map the pages, warm the caches */
  for (int r = 0; r < reps; r++) {
    uint64_t a = now(); f1(); uint64_t b = now(); f2(); uint64_t c = now();
    s1[r] = b - a; s2[r] = c - b;
  }
  sort_u64(s1, reps); sort_u64(s2, reps);
  int lo = (reps - 1) / 10, mid = (reps - 1) / 2;
  struct variant v = { ((double)s2[lo] - (double)s1[lo]) / (double)(n2 - n1),
                       ((double)s2[mid] - (double)s1[mid]) / (double)(n2 - n1), n1, n2 };
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

static int install_seccomp(void) {
  struct sock_filter f[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_read, 6, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 5, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigreturn, 4, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 3, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 2, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    /* write: only to the result pipe */
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)outfd, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
  };
  struct sock_fprog prog = { (unsigned short)(sizeof f / sizeof f[0]), f };
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static void setup_fail(const char *what) {
  snprintf(res.setup, sizeof res.setup, "%s: %s", what, strerror(errno));
  fail(FR_SETUP, 0, 0, 0, 0);
}

static void child(const uint8_t *body, size_t len, int counter, int timeout) {
  phase = PH_SETUP;
  struct rlimit cpu = { (rlim_t)timeout, (rlim_t)timeout + 1 }, fsz = { 0, 0 }, core = { 0, 0 };
  setrlimit(RLIMIT_CPU, &cpu); setrlimit(RLIMIT_FSIZE, &fsz); setrlimit(RLIMIT_CORE, &core);
  alarm((unsigned)timeout);
  for (int fd = 0; fd < 1024; fd++) if (fd != outfd && fd != memfd) close(fd);
  has_avx = __builtin_cpu_supports("avx");
  perffd = open_perf();
  res.perf = perffd >= 0;
  uint64_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
  if (page == MAP_FAILED) setup_fail("mmap of the data page");
  for (int i = 0; i < 512; i++) page[i] = PATTERN;
  munmap(page, 4096);
  s1 = malloc(sizeof(uint64_t) * (size_t)reps); s2 = malloc(sizeof(uint64_t) * (size_t)reps);
  if (!s1 || !s2) setup_fail("malloc");
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
  uint64_t u1 = 100, u2 = 200;
  while (u1 > 2 && len * u2 > (1u << 20)) { u1 /= 2; u2 /= 2; }
  void *cal1 = build(chain, sizeof chain, 10, -1, 0, &sz), *cal2 = build(chain, sizeof chain, 20, -1, 0, &sz);
  void *un1 = build(body, len, u1, -1, 0, &sz), *un2 = build(body, len, u2, -1, 0, &sz);
  void *lp1 = build(body, len, 1, counter, 1000, &sz), *lp2 = build(body, len, 1, counter, 2000, &sz);
  if (!cal1 || !cal2 || !un1 || !un2 || !lp1 || !lp2) setup_fail("building the code");
  if (install_seccomp() != 0) setup_fail("seccomp");

  phase = PH_CAL;
  struct variant c = time_pair((void (*)(void))cal1, (void (*)(void))cal2, 1000, 2000);
  res.cal_before = c.p10;
  phase = PH_UNROLLED;
  res.v[0] = time_pair((void (*)(void))un1, (void (*)(void))un2, u1, u2);
  phase = PH_LOOP;
  res.v[1] = time_pair((void (*)(void))lp1, (void (*)(void))lp2, 1000, 2000);
  phase = PH_CAL;
  c = time_pair((void (*)(void))cal1, (void (*)(void))cal2, 1000, 2000);
  res.cal_after = c.p10;
  res.reason = FR_OK; res.pages = pages;
  send_result();
  _exit(0);
}

static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++) { if (*s == '"' || *s == '\\') putchar('\\'); if ((unsigned char)*s >= 0x20) putchar(*s); }
  putchar('"');
}

int main(int argc, char **argv) {
  if (argc < 5 || argc > 5 + 15) { fprintf(stderr, "usage: harness COUNTER REPS TIMEOUT_S MAX_PAGES [REG=VALUE ...] < body\n"); return 2; }
  /* the body first: a caller that writes it is not left with a closed pipe when a parameter is bad */
  static uint8_t body[MAX_BODY + 1];
  size_t len = 0; ssize_t r;
  while ((r = read(0, body + len, sizeof body - len)) > 0) { len += (size_t)r; if (len > MAX_BODY) break; }
  int counter = atoi(argv[1]); reps = atoi(argv[2]); int timeout = atoi(argv[3]); max_pages = atoi(argv[4]);
  if (counter < 0 || counter > 15 || counter == 4 || reps < 10 || reps > MAX_REPS || timeout < 1 || timeout > 600 || max_pages < 1 || max_pages > 65536) {
    fprintf(stderr, "harness: bad parameters\n"); return 2;
  }
  for (int r = 0; r < 16; r++) start_value[r] = PATTERN + (uint64_t)r * REG_STEP;
  for (int k = 5; k < argc; k++) {
    char *end = NULL; errno = 0;
    long reg = strtol(argv[k], &end, 10);
    if (end == argv[k] || *end != '=' || reg < 0 || reg > 15 || reg == 4 || reg == counter) { fprintf(stderr, "harness: bad register start value %s\n", argv[k]); return 2; }
    const char *v = end + 1;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno) { fprintf(stderr, "harness: bad register start value %s\n", argv[k]); return 2; }
    start_value[reg] = (uint64_t)x;
  }
  if (len == 0 || len > MAX_BODY) { fprintf(stderr, "harness: the body must be 1..%d bytes\n", MAX_BODY); return 2; }
  prctl(PR_SET_PDEATHSIG, SIGKILL);            /* ended with uopscope */
  memfd = (int)syscall(SYS_memfd_create, "uopscope-data", 0);
  if (memfd < 0 || ftruncate(memfd, 4096) != 0) { perror("harness: memfd"); return 2; }
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
  if (have == sizeof got && got.reason == FR_OK && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    printf("{\"ok\":true,\"method\":\"%s\",\"repetitions\":%d,\"pages\":%d,\"perfError\":%d,\"calibration\":[%.6f,%.6f]", got.perf ? "perf" : "tsc", reps, got.pages, got.perf_err, got.cal_before, got.cal_after);
    for (int k = 0; k < 2; k++)
      printf(",\"%s\":{\"p10\":%.6f,\"p50\":%.6f,\"n1\":%llu,\"n2\":%llu}", k ? "loop" : "unrolled", got.v[k].p10, got.v[k].p50, (unsigned long long)got.v[k].n1, (unsigned long long)got.v[k].n2);
    printf("}\n");
    return 0;
  }
  static const char *why[] = { "ok", "pages", "map", "protection", "general-protection", "segv", "illegal-instruction", "arithmetic", "bus", "trap", "setup" };
  if (have == sizeof got) {
    printf("{\"ok\":false,\"phase\":\"%s\",\"reason\":\"%s\",\"signal\":%d,\"code\":%d,\"address\":%llu,\"offset\":%lld,\"pages\":%d,\"maxPages\":%d,\"detail\":",
           PHASE[got.phase & 3], why[got.reason % 11], got.sig, got.code, (unsigned long long)got.addr, (long long)got.offset, got.pages, max_pages);
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
