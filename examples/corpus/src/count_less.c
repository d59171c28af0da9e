/* count the elements below a threshold (SETcc and add) */
#include "../marks.h"
long count_less(const int *a, long n, int t) {
  long c = 0;
  if (n <= 0) return 0;
  for (long i = 0; i < n; i++) {
    IACA_START;
    c += a[i] < t;
  }
  IACA_END;
  return c;
}
