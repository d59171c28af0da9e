/* STREAM triad with explicit target-width vectors (packed code on every target) */
#include "../marks.h"
#include "../vec.h"
void triad_vec(double *restrict a, const double *restrict b, const double *restrict c, double s, long n) {
  for (long i = 0; i + VLEN_D <= n; i += VLEN_D) {
    IACA_START;
    vstore_d(a + i, vload_d(b + i) + s * vload_d(c + i));
  }
  IACA_END;
}
