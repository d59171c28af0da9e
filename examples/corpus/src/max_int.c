/* maximum of an int array (conditional move) */
#include "../marks.h"
int max_int(const int *a, long n) {
  int m = a[0];
  for (long i = 1; i < n; i++) {
    IACA_START;
    int v = a[i];
    m = v > m ? v : m;
  }
  IACA_END;
  return m;
}
