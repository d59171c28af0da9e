/* murmur3 64-bit finaliser applied to each element */
#include "../marks.h"
void murmur_mix(unsigned long *k, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    unsigned long x = k[i];
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdUL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53UL;
    x ^= x >> 33;
    k[i] = x;
  }
  IACA_END;
}
