/* float sum with explicit target-width vectors */
#include "../marks.h"
#include "../vec.h"
vfloat sum_float_vec(const float *a, long n) {
  vfloat s = {0};
  for (long i = 0; i + VLEN_F <= n; i += VLEN_F) {
    IACA_START;
    s += vload_f(a + i);
  }
  IACA_END;
  return s;
}
