/* copy: d[i] = s[i] (built with AVX2: a vmovupd ymm copy) */
void copy(double *restrict d, const double *restrict s, long n) {
  for (long i = 0; i < n; i++) d[i] = s[i];
}
