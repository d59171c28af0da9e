/* STREAM copy: c[i] = a[i] */
#include "../marks.h"
void stream_copy(double *restrict c, const double *restrict a, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    c[i] = a[i];
  }
  IACA_END;
}
