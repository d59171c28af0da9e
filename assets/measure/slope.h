/*
 * How the timings of a loop at several lengths become the cost of one iteration: shared by the
 * measurement harness (assets/measure/harness.c) and the validation driver
 * (bench/measure/driver.c), so that both turn their timings into cycles per iteration the same
 * way. No allocation and no libc beyond <stdint.h> (the harness runs this under a seccomp filter
 * that forbids it).
 *
 * Each repetition times every length once (`calls` calls each, in an order shuffled per
 * repetition); its figure is the Theil–Sen slope of those points, the median of the slopes of
 * all pairs of lengths. A call costs a fixed amount besides its iterations, and on Zen 4 that
 * amount steps by about 26 cycles with the exact trip count (docs/measure.md, "The two that
 * disagree"): the difference of two lengths is off by that step whenever the two land in
 * different states, while the median of the pairwise slopes over lengths spread from a quarter
 * of the longest to the longest is not moved by a step that is not correlated with the length.
 */
#include <stddef.h>
#include <stdint.h>

#define SLOPE_MAX_LENGTHS 16
/* scratch doubles slope_percentiles needs for `reps` repetitions of k lengths */
#define SLOPE_SCRATCH(reps, k) (2 * (size_t)(reps) + (size_t)(k) * ((size_t)(k) - 1) / 2 + (size_t)(k))

static void slope_sort(double *a, int n) {
  for (int gap = n / 2; gap > 0; gap /= 2)
    for (int i = gap; i < n; i++) {
      double x = a[i];
      int j = i;
      for (; j >= gap && a[j - gap] > x; j -= gap) a[j] = a[j - gap];
      a[j] = x;
    }
}

static double slope_median_sorted(const double *a, int n) {
  return n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
}

/* The Theil–Sen slope of the points (len[i], t[i]), i < k: the median of the slopes of every pair
   of distinct lengths. `pairs` holds k (k - 1) / 2 doubles. */
static double slope_theil_sen(const uint64_t *len, const double *t, int k, double *pairs) {
  int m = 0;
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++)
      if (len[j] != len[i]) pairs[m++] = (t[j] - t[i]) / ((double)len[j] - (double)len[i]);
  if (m == 0) return 0;
  slope_sort(pairs, m);
  return slope_median_sorted(pairs, m);
}

/* The order of the k lengths in the next repetition: a Fisher–Yates shuffle driven by xorshift64
   from `state` (the harness and the driver start it at the same seed, so they time the lengths
   in the same orders). */
#define SLOPE_SEED 0x9E3779B97F4A7C15ULL
static void slope_order(int *order, int k, uint64_t *state) {
  for (int i = 0; i < k; i++) order[i] = i;
  for (int i = k - 1; i > 0; i--) {
    uint64_t x = *state;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    *state = x;
    int j = (int)(x % (uint64_t)(i + 1)), tmp = order[i];
    order[i] = order[j]; order[j] = tmp;
  }
}

/* samples[r * k + i]: ticks of `calls` calls at length len[i] in repetition r. Each repetition's
   Theil–Sen slope, in ticks per iteration; then the 10th and 50th percentile of those over the
   quiet repetitions: those whose total time is at most the median total (contention only slows
   a run, and a disturbed short length would make a figure too low). */
static void slope_percentiles(const uint64_t *len, int k, const uint64_t *samples, int reps, uint64_t calls,
                              double *scratch, double *p10, double *p50) {
  double *fig = scratch, *tot = scratch + reps, *pairs = tot + reps, *t = pairs + (size_t)k * (size_t)(k - 1) / 2;
  for (int r = 0; r < reps; r++) {
    double sum = 0;
    for (int i = 0; i < k; i++) { t[i] = (double)samples[(size_t)r * (size_t)k + (size_t)i] / (double)calls; sum += t[i]; }
    tot[r] = sum;
  }
  slope_sort(tot, reps);
  double mid = tot[(reps - 1) / 2];
  int n = 0;
  for (int r = 0; r < reps; r++) {
    double sum = 0;
    for (int i = 0; i < k; i++) { t[i] = (double)samples[(size_t)r * (size_t)k + (size_t)i] / (double)calls; sum += t[i]; }
    if (sum <= mid) fig[n++] = slope_theil_sen(len, t, k, pairs);
  }
  slope_sort(fig, n);
  *p10 = fig[(n - 1) / 10];
  *p50 = fig[(n - 1) / 2];
}
