/* daxpy: y[i] += a * x[i] */
#include "../marks.h"
void daxpy(double *restrict y, const double *restrict x, double a, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    y[i] += a * x[i];
  }
  IACA_END;
}
