/* byte-wise copy loop */
#include "../marks.h"
void memcpy_loop(unsigned char *restrict d, const unsigned char *restrict s, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    d[i] = s[i];
  }
  IACA_END;
}
