/* inclusive prefix sum of 64-bit integers */
#include "../marks.h"
void prefix_sum(long *restrict out, const long *restrict in, long n) {
  long s = 0;
  for (long i = 0; i < n; i++) {
    IACA_START;
    s += in[i];
    out[i] = s;
  }
  IACA_END;
}
