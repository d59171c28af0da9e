/* polynomial evaluation by Horner's rule (latency-bound multiply-add chain) */
#include "../marks.h"
double horner(const double *c, long n, double x) {
  double r = 0.0;
  if (n <= 0) return r;
  for (long i = n - 1; i >= 0; i--) {
    IACA_START;
    r = r * x + c[i];
  }
  IACA_END;
  return r;
}
