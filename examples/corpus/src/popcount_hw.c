/* population count with the POPCNT instruction (function compiled for popcnt on every target) */
#include "../marks.h"
__attribute__((target("popcnt")))
long popcount_hw(const unsigned long *a, long n) {
  long c = 0;
  if (n <= 0) return 0;
  for (long i = 0; i < n; i++) {
    IACA_START;
    c += __builtin_popcountl(a[i]);
  }
  IACA_END;
  return c;
}
