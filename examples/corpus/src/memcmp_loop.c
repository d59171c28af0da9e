/* compare two byte strings, return the index of the first difference */
#include "../marks.h"
long memcmp_loop(const unsigned char *a, const unsigned char *b, long n) {
  long i = 0;
  while (i < n && a[i] == b[i]) {
    IACA_START;
    i++;
  }
  IACA_END;
  return i;
}
