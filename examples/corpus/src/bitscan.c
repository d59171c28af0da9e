/* visit every set bit of a word (count trailing zeros, clear lowest set bit) */
#include "../marks.h"
long bitscan(unsigned long w, long *out) {
  long k = 0;
  if (!w) return 0;
  while (w) {
    IACA_START;
    out[k++] = __builtin_ctzl(w);
    w &= w - 1;
  }
  IACA_END;
  return k;
}
