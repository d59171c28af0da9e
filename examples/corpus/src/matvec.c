/* matrix-vector product, inner dot of one row */
#include "../marks.h"
void matvec(double *restrict y, const double *restrict A, const double *restrict x, long n, long row) {
  double s = 0.0;
  if (n <= 0) return;
  const double *r = A + row * n;
  for (long i = 0; i < n; i++) {
    IACA_START;
    s += r[i] * x[i];
  }
  IACA_END;
  y[row] = s;
}
