/* matrix-matrix product, i-k-j order: inner loop c[i][j] += a[i][k] * b[k][j] */
#include "../marks.h"
void matmul(double *restrict c, const double *restrict a, const double *restrict b, long n, long i, long k) {
  double aik = a[i * n + k];
  for (long j = 0; j < n; j++) {
    IACA_START;
    c[i * n + j] += aik * b[k * n + j];
  }
  IACA_END;
}
