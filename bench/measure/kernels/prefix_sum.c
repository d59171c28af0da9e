/* prefix sum: out[i] = in[0] + ... + in[i] */
void prefix_sum(long *restrict out, const long *restrict in, long n) {
  long acc = 0;
  for (long i = 0; i < n; i++) {
    acc += in[i];
    out[i] = acc;
  }
}
