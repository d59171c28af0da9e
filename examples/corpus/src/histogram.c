/* byte histogram */
#include "../marks.h"
void histogram(unsigned *restrict hist, const unsigned char *restrict p, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    hist[p[i]]++;
  }
  IACA_END;
}
