/* sum reduction over doubles */
#include "../marks.h"
double sum_double(const double *a, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++) {
    IACA_START;
    s += a[i];
  }
  IACA_END;
  return s;
}
