/* 32-bit integer multiply-accumulate inner loop (i-k-j order) */
#include "../marks.h"
void int_matmul(int *restrict c, const int *restrict b, int aik, long n) {
  for (long j = 0; j < n; j++) {
    IACA_START;
    c[j] += aik * b[j];
  }
  IACA_END;
}
