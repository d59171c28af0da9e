/* division by an array: q[i] = a[i] / b[i] */
void divide(long *restrict q, const long *restrict a, const long *restrict b, long n) {
  for (long i = 0; i < n; i++) q[i] = a[i] / b[i];
}
