/* daxpy with 512-bit vectors (built for x86-64-v4, -mprefer-vector-width=512) */
void daxpy512(double *restrict y, const double *restrict x, long n) {
  const double a = 3.0;
  for (long i = 0; i < n; i++) y[i] += a * x[i];
}
