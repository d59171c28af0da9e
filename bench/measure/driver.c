/*
 * The validation driver of `uopscope measure` (bench/measure/validate.ts): calls one compiled
 * kernel of bench/measure/kernels over real arrays, as a program would, and times it the way the
 * harness times a region (assets/measure/harness.c), so the two figures can be compared:
 *
 *   driver time REPS N1:I1 N2:I2 …   the kernel at N1, N2 … elements (2 to 16 lengths, the loop
 *                            running I1, I2 … iterations at each, as counted), every length once
 *                            per sample in a shuffled order, REPS samples; prints the TSC ticks
 *                            per iteration, the Theil–Sen slope over the lengths as the harness
 *                            takes it (assets/measure/slope.h; 10th and 50th percentile over the
 *                            quiet samples), and ticks per core cycle, from the same chain of
 *                            dependent `add rax, rbx` the harness times
 *   driver count N           one call at N elements (bench/measure/validate.ts counts the loop's
 *                            iterations with a gdb breakpoint on its closing branch)
 *
 * Built with -DKERNEL_<name>. Each array has its own pages (its own mapping), its start staggered
 * by 4096 / arrays bytes within 4 KiB (no 4 KiB aliasing between arrays, as the harness places
 * streams), filled as the harness's ordinary fill: element j = 1 + j mod 127 (doubles, longs,
 * bytes, 32-bit counters), divisors 1 + j mod 13.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../../assets/measure/slope.h"

/* one letter per array: d double, l long, v long divisor, b byte, u 32-bit counters (4 KiB),
   c complex (two doubles) */
#if defined(KERNEL_copy)
void copy(double *, const double *, long);
#define ARRAYS "dd"
#define CALL(a, n) copy(a[0], a[1], n)
#elif defined(KERNEL_scale)
void scale(double *, const double *, long);
#define ARRAYS "dd"
#define CALL(a, n) scale(a[0], a[1], n)
#elif defined(KERNEL_daxpy)
void daxpy(double *, const double *, long);
#define ARRAYS "dd"
#define CALL(a, n) daxpy(a[0], a[1], n)
#elif defined(KERNEL_daxpy512)
void daxpy512(double *, const double *, long);
#define ARRAYS "dd"
#define CALL(a, n) daxpy512(a[0], a[1], n)
#elif defined(KERNEL_dot)
double dot(const double *, const double *, long);
#define ARRAYS "dd"
static volatile double sink;
#define CALL(a, n) (sink = dot(a[0], a[1], n))
#elif defined(KERNEL_toupper)
void to_upper(unsigned char *, long);
#define ARRAYS "b"
#define CALL(a, n) to_upper(a[0], n)
#elif defined(KERNEL_histogram)
void histogram(unsigned *, const unsigned char *, long);
#define ARRAYS "ub"
#define CALL(a, n) histogram(a[0], a[1], n)
#elif defined(KERNEL_prefix_sum)
void prefix_sum(long *, const long *, long);
#define ARRAYS "ll"
#define CALL(a, n) prefix_sum(a[0], a[1], n)
#elif defined(KERNEL_divide)
void divide(long *, const long *, const long *, long);
#define ARRAYS "llv"
#define CALL(a, n) divide(a[0], a[1], a[2], n)
#elif defined(KERNEL_cmul)
typedef struct { double re, im; } cplx;
void cmul(cplx *, const cplx *, const cplx *, long);
#define ARRAYS "ccc"
#define CALL(a, n) cmul(a[0], a[1], a[2], n)
#else
#error "build with -DKERNEL_<name>"
#endif

static void *arr[8];
static long n1;
/* the lengths timed: elements, and the loop's iterations at each (validate.ts counts them) */
static int nlen;
static long elems[SLOPE_MAX_LENGTHS];
static uint64_t iters[SLOPE_MAX_LENGTHS];

/* The kernel called `calls` times at n elements from one call site, after 16 + K NOPs: both
   lengths go through the same code, entered the same way (two call sites, one per length, put
   clang's daxpy at 1.67 cycles per iteration, below the 2.00 its 12 macro-ops need on a 6-wide
   dispatch: the two lengths entered its loop at different dispatch phases). K sets the number of
   instructions between the previous call's loop exit and the loop's top, as the harness's
   lead-in does (assets/measure/harness.c lead_in): a loop whose macro-ops fill whole dispatch
   groups keeps the phase it was entered at. */
#define LEADS 12
#define BATCH(K)                                                                      \
  __attribute__((noinline)) static void batch##K(long n, long calls) {                \
    for (long k = 0; k < calls; k++) {                                                \
      __asm__ volatile(".rept 16 + " #K "\n\tnop\n\t.endr" ::: "memory");            \
      CALL(arr, n);                                                                   \
    }                                                                                 \
  }
BATCH(0) BATCH(1) BATCH(2) BATCH(3) BATCH(4) BATCH(5) BATCH(6) BATCH(7) BATCH(8) BATCH(9) BATCH(10) BATCH(11)
static void (*const batches[LEADS])(long, long) = { batch0, batch1, batch2, batch3, batch4, batch5,
                                                    batch6, batch7, batch8, batch9, batch10, batch11 };

#include "calibrate.h"

static int cmp(const void *x, const void *y) { uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y; return a < b ? -1 : a > b; }

static uint64_t resolution;
/* the harness's percentiles: of the per-sample differences, over the samples in which neither
   length ran slower than its own median; in ticks per call */
static void percentiles(const uint64_t *s1, const uint64_t *s2, uint64_t *s3, int reps, uint64_t calls, double *p10,
                        double *p50) {
  memcpy(s3, s1, 8 * (size_t)reps); qsort(s3, (size_t)reps, 8, cmp); uint64_t m1 = s3[(reps - 1) / 2];
  memcpy(s3, s2, 8 * (size_t)reps); qsort(s3, (size_t)reps, 8, cmp); uint64_t m2 = s3[(reps - 1) / 2];
  const uint64_t off = (uint64_t)1 << 62;
  int n = 0;
  for (int r = 0; r < reps; r++) if (s1[r] <= m1 && s2[r] <= m2) s3[n++] = s2[r] + off - s1[r];
  if (n < 3) { n = 0; for (int r = 0; r < reps; r++) s3[n++] = s2[r] + off - s1[r]; }
  qsort(s3, (size_t)n, 8, cmp);
  *p10 = ((double)s3[(n - 1) / 10] - (double)off) / (double)calls;
  *p50 = ((double)s3[(n - 1) / 2] - (double)off) / (double)calls;
}
/* the harness's method (time_pair): samples of `calls` calls each, long beside the counter's step;
   percentiles of the per-sample difference over the quiet samples. In ticks per call. */
static void time_pair(void (*f1)(void), void (*f2)(void), int reps, double *p10, double *p50) {
  for (int w = 0; w < 3; w++) { f1(); f2(); }
  uint64_t d = UINT64_MAX;
  for (int w = 0; w < 8; w++) {
    uint64_t a = now(); f1(); uint64_t b = now(); f2(); uint64_t c = now();
    if (c - b > b - a && (c - b) - (b - a) < d) d = (c - b) - (b - a);
  }
  uint64_t calls = 1;
  if (d == UINT64_MAX || d == 0) d = 1;
  while (calls < 4096 && calls * d < 400 * resolution) calls *= 2;
  uint64_t *s1 = malloc(8 * (size_t)reps), *s2 = malloc(8 * (size_t)reps), *s3 = malloc(8 * (size_t)reps);
  for (int r = 0; r < reps; r++) {
    uint64_t a = now();
    for (uint64_t k = 0; k < calls; k++) f1();
    uint64_t b = now();
    for (uint64_t k = 0; k < calls; k++) f2();
    uint64_t c = now();
    s1[r] = b - a; s2[r] = c - b;
  }
  percentiles(s1, s2, s3, reps, calls, p10, p50);
  free(s1); free(s2); free(s3);
}

/* the harness's time_lengths for the kernel: every length of one entry once per sample, in the
   harness's shuffled orders, `calls` calls each; the Theil–Sen slope per sample (slope.h), in
   ticks per iteration */
static void time_kernel(void (*b)(long, long), int reps, double *p10, double *p50) {
  int k = nlen, order[SLOPE_MAX_LENGTHS];
  for (int w = 0; w < 3; w++) for (int i = 0; i < k; i++) b(elems[i], 1);
  uint64_t d = UINT64_MAX;
  for (int w = 0; w < 8; w++) {
    uint64_t a = now(); b(elems[0], 1); uint64_t m = now(); b(elems[k - 1], 1); uint64_t c = now();
    if (c - m > m - a && (c - m) - (m - a) < d) d = (c - m) - (m - a);
  }
  long calls = 1;
  uint64_t seed = SLOPE_SEED;
  if (d == UINT64_MAX || d == 0) d = 1;
  while (calls < 4096 && (uint64_t)calls * d < 400 * resolution) calls *= 2;
  uint64_t *samples = malloc(8 * (size_t)reps * (size_t)k);
  double *scratch = malloc(sizeof(double) * SLOPE_SCRATCH(reps, k));
  if (!samples || !scratch) { perror("malloc"); exit(2); }
  for (int r = 0; r < reps; r++) {
    slope_order(order, k, &seed);
    for (int j = 0; j < k; j++) {
      int i = order[j];
      uint64_t a = now();
      b(elems[i], calls);
      samples[(size_t)r * (size_t)k + (size_t)i] = now() - a;
    }
  }
  slope_percentiles(iters, k, samples, reps, (uint64_t)calls, scratch, p10, p50);
  free(samples); free(scratch);
}

static void setup(long n) {
  const char *kinds = ARRAYS;
  int count = (int)strlen(kinds);
  long stagger = 4096 / count / 64 * 64;
  if (stagger < 64) stagger = 64;
  for (int k = 0; k < count; k++) {
    size_t el = kinds[k] == 'b' ? 1 : kinds[k] == 'c' ? 16 : kinds[k] == 'u' ? 4 : 8;
    size_t bytes = kinds[k] == 'u' ? 4096 : (size_t)n * el + 4096;
    size_t map = (bytes + (size_t)stagger * (size_t)k + 4095) & ~(size_t)4095;
    uint8_t *m = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) { perror("mmap"); exit(2); }
    uint8_t *p = m + stagger * k;
    arr[k] = p;
    size_t count_el = kinds[k] == 'u' ? 1024 : kinds[k] == 'c' ? (size_t)n * 2 : (size_t)n;
    for (size_t j = 0; j < count_el; j++) {
      uint64_t v = kinds[k] == 'v' ? 1 + j % 13 : 1 + j % 127;
      switch (kinds[k]) {
        case 'd': case 'c': ((double *)p)[j] = (double)v; break;
        case 'b': p[j] = (uint8_t)v; break;
        case 'u': ((uint32_t *)p)[j] = (uint32_t)v; break;
        default: ((int64_t *)p)[j] = (int64_t)v; break;
      }
    }
  }
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "count")) {
    n1 = atol(argv[2]);
    setup(n1);
    batch0(n1, 1);
    return 0;
  }
  if (argc < 5 || argc > 3 + SLOPE_MAX_LENGTHS || strcmp(argv[1], "time")) {
    fprintf(stderr, "usage: driver time REPS N1:I1 N2:I2 … | driver count N\n");
    return 2;
  }
  int reps = atoi(argv[2]);
  nlen = argc - 3;
  long most = 0;
  for (int i = 0; i < nlen; i++) {
    char *end = NULL;
    elems[i] = strtol(argv[3 + i], &end, 10);
    iters[i] = *end == ':' ? strtoull(end + 1, &end, 10) : 0;
    if (*end || elems[i] < 1 || iters[i] < 1) { fprintf(stderr, "driver: bad length %s\n", argv[3 + i]); return 2; }
    if (elems[i] > most) most = elems[i];
  }
  if (reps < 10) { fprintf(stderr, "driver: bad repetitions\n"); return 2; }
  setup(most);
  resolution = UINT64_MAX;
  for (int i = 0; i < 2000; i++) { uint64_t a = now(), b = now(); while (b == a) b = now(); if (b - a < resolution) resolution = b - a; }
  double c1, c1m, c2, c2m, k10, k50, entry[LEADS], ignored;
  time_pair(chain1, chain2, reps, &c1, &c1m);
  /* each entry briefly (its median), then the fastest with all the repetitions, as the harness does */
  int best = 0, brief = reps / LEADS > 10 ? reps / LEADS : 10;
  for (int k = 0; k < LEADS; k++) {
    time_kernel(batches[k], brief, &ignored, &entry[k]);
    if (entry[k] < entry[best]) best = k;
  }
  time_kernel(batches[best], reps, &k10, &k50);
  time_pair(chain1, chain2, reps, &c2, &c2m);
  printf("{\"ticksPerCycle\":[%.6f,%.6f],\"p10\":%.3f,\"p50\":%.3f,\"resolution\":%llu,\"lead\":%d,\"entry\":[", c1 / 1000,
         c2 / 1000, k10, k50, (unsigned long long)resolution, best);
  for (int k = 0; k < LEADS; k++) printf("%s%.3f", k ? "," : "", entry[k]);
  printf("]}\n");
  return 0;
}
