/* 64-bit word fill loop */
#include "../marks.h"
void memset_loop(unsigned long *d, unsigned long v, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    d[i] = v;
  }
  IACA_END;
}
