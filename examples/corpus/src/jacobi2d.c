/* Jacobi 2D: out-of-place average of the four neighbours and the centre */
#include "../marks.h"
#define N 1024
void jacobi2d(double (*restrict b)[N], double (*restrict a)[N], long j) {
  for (long i = 1; i < N - 1; i++) {
    IACA_START;
    b[j][i] = 0.2 * (a[j][i] + a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]);
  }
  IACA_END;
}
