/* branch-free binary search (lower bound) */
#include "../marks.h"
long binary_search(const long *a, long n, long key) {
  const long *base = a;
  while (n > 1) {
    IACA_START;
    long half = n / 2;
    base = base[half - 1] < key ? base + half : base;
    n -= half;
  }
  IACA_END;
  return (base - a) + (*base < key);
}
