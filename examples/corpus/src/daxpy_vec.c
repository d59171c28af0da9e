/* daxpy with explicit target-width vectors */
#include "../marks.h"
#include "../vec.h"
void daxpy_vec(double *restrict y, const double *restrict x, double a, long n) {
  for (long i = 0; i + VLEN_D <= n; i += VLEN_D) {
    IACA_START;
    vstore_d(y + i, vload_d(y + i) + a * vload_d(x + i));
  }
  IACA_END;
}
