/* merge step of merge sort: merge two sorted runs while both have elements */
#include "../marks.h"
long merge(long *restrict out, const long *restrict a, long na, const long *restrict b, long nb) {
  long i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    IACA_START;
    long x = a[i], y = b[j];
    int t = x <= y;
    out[k++] = t ? x : y;
    i += t;
    j += !t;
  }
  IACA_END;
  return k;
}
