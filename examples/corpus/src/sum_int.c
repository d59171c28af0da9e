/* sum reduction over 32-bit ints into a 64-bit accumulator */
#include "../marks.h"
long sum_int(const int *a, long n) {
  long s = 0;
  if (n <= 0) return 0;
  for (long i = 0; i < n; i++) {
    IACA_START;
    s += a[i];
  }
  IACA_END;
  return s;
}
