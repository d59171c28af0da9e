/* dot product with explicit target-width vectors, two accumulators */
#include "../marks.h"
#include "../vec.h"
double dot_vec(const double *a, const double *b, long n) {
  vdouble s0 = {0}, s1 = {0};
  long i = 0;
  for (; i + 2 * VLEN_D <= n; i += 2 * VLEN_D) {
    IACA_START;
    s0 += vload_d(a + i) * vload_d(b + i);
    s1 += vload_d(a + i + VLEN_D) * vload_d(b + i + VLEN_D);
  }
  IACA_END;
  s0 += s1;
  double r = 0.0;
  for (int k = 0; k < VLEN_D; k++) r += s0[k];
  return r;
}
