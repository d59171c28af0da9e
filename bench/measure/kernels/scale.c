/* scale: d[i] = a * s[i] */
void scale(double *restrict d, const double *restrict s, long n) {
  const double a = 3.0;
  for (long i = 0; i < n; i++) d[i] = a * s[i];
}
