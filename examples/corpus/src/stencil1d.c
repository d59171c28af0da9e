/* 1D 3-point stencil */
#include "../marks.h"
void stencil1d(double *restrict b, const double *restrict a, long n) {
  for (long i = 1; i < n - 1; i++) {
    IACA_START;
    b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
  }
  IACA_END;
}
