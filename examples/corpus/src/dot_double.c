/* dot product of two double vectors */
#include "../marks.h"
double dot_double(const double *a, const double *b, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++) {
    IACA_START;
    s += a[i] * b[i];
  }
  IACA_END;
  return s;
}
