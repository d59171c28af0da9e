/* 3D 7-point stencil, innermost loop */
#include "../marks.h"
#define N 128
void stencil3d(double (*restrict b)[N][N], double (*restrict a)[N][N], double c0, double c1, long k, long j) {
  for (long i = 1; i < N - 1; i++) {
    IACA_START;
    b[k][j][i] = c0 * a[k][j][i] + c1 * (a[k][j][i - 1] + a[k][j][i + 1] + a[k][j - 1][i] +
                                        a[k][j + 1][i] + a[k - 1][j][i] + a[k + 1][j][i]);
  }
  IACA_END;
}
