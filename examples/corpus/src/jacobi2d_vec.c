/* Jacobi 2D row update with explicit target-width vectors */
#include "../marks.h"
#include "../vec.h"
#define N 1024
void jacobi2d_vec(double (*restrict b)[N], double (*restrict a)[N], long j) {
  for (long i = 1; i + VLEN_D <= N - 1; i += VLEN_D) {
    IACA_START;
    vdouble v = vload_d(&a[j][i]) + vload_d(&a[j][i - 1]) + vload_d(&a[j][i + 1]) +
                vload_d(&a[j - 1][i]) + vload_d(&a[j + 1][i]);
    vstore_d(&b[j][i], 0.2 * v);
  }
  IACA_END;
}
