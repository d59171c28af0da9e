/* square root per element */
#include "../marks.h"
void sqrt_loop(double *restrict b, const double *restrict a, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    b[i] = __builtin_sqrt(a[i]);
  }
  IACA_END;
}
