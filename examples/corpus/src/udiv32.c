/* unsigned 32-bit division by a run-time divisor */
#include "../marks.h"
void udiv32(unsigned *restrict q, const unsigned *restrict a, unsigned d, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    q[i] = a[i] / d;
  }
  IACA_END;
}
