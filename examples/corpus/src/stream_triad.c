/* STREAM triad: a[i] = b[i] + s * c[i] */
#include "../marks.h"
void stream_triad(double *restrict a, const double *restrict b, const double *restrict c, double s, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    a[i] = b[i] + s * c[i];
  }
  IACA_END;
}
