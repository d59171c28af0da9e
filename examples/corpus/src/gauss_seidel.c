/* Gauss-Seidel 2D sweep (in place, loop-carried through a[j][i-1]) */
#include "../marks.h"
#define N 1024
void gauss_seidel(double (*a)[N], long j) {
  for (long i = 1; i < N - 1; i++) {
    IACA_START;
    a[j][i] = (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]) * 0.25;
  }
  IACA_END;
}
