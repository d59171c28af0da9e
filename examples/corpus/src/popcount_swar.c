/* population count of an array, portable bit tricks (SWAR) */
#include "../marks.h"
long popcount_swar(const unsigned long *a, long n) {
  long c = 0;
  for (long i = 0; i < n; i++) {
    IACA_START;
    unsigned long x = a[i];
    x = x - ((x >> 1) & 0x5555555555555555UL);
    x = (x & 0x3333333333333333UL) + ((x >> 2) & 0x3333333333333333UL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
    c += (long)((x * 0x0101010101010101UL) >> 56);
  }
  IACA_END;
  return c;
}
