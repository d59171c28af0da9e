/* signed 64-bit division and remainder per element */
#include "../marks.h"
void int_div(long *restrict q, long *restrict r, const long *restrict a, const long *restrict b, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
  }
  IACA_END;
}
