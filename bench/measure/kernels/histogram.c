/* histogram: counts of byte keys (the driver's keys are distinct over 127 elements) */
void histogram(unsigned *restrict h, const unsigned char *restrict k, long n) {
  for (long i = 0; i < n; i++) h[k[i]]++;
}
