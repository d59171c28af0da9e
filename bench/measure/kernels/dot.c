/* dot: the sum of x[i] * y[i] (in order: a chain of additions) */
double dot(const double *restrict x, const double *restrict y, long n) {
  double s = 0;
  for (long i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}
