/* sum reduction over floats */
#include "../marks.h"
float sum_float(const float *a, long n) {
  float s = 0.0f;
  for (long i = 0; i < n; i++) {
    IACA_START;
    s += a[i];
  }
  IACA_END;
  return s;
}
