/* daxpy: y[i] += a * x[i] */
void daxpy(double *restrict y, const double *restrict x, long n) {
  const double a = 3.0;
  for (long i = 0; i < n; i++) y[i] += a * x[i];
}
