/* 2D 5-point stencil, innermost loop over one row (thesis ch. 4 example) */
#include "../marks.h"
#define N 1024
void stencil2d(double (*restrict b)[N], double (*restrict a)[N], double s, long j) {
  for (long i = 1; i < N - 1; i++) {
    IACA_START;
    b[j][i] = (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]) * s;
  }
  IACA_END;
}
