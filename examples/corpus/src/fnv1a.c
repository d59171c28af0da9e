/* FNV-1a 64-bit hash of a byte string */
#include "../marks.h"
unsigned long fnv1a(const unsigned char *p, long n) {
  unsigned long h = 0xcbf29ce484222325UL;
  if (n <= 0) return h;
  for (long i = 0; i < n; i++) {
    IACA_START;
    h ^= p[i];
    h *= 0x100000001b3UL;
  }
  IACA_END;
  return h;
}
