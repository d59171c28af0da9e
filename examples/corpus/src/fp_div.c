/* floating-point division per element */
#include "../marks.h"
void fp_div(double *restrict c, const double *restrict a, const double *restrict b, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    c[i] = a[i] / b[i];
  }
  IACA_END;
}
