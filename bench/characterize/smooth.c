/* An ordinary loop with scalar SSE (a smoothed, clamped running sum over two arrays), the one
   docs/characterize.md times `uopscope data measure` on: gcc -O2 -c smooth.c, then
   uopscope data measure smooth.o */
double smooth(const double *a, const double *b, double *out, const int *w, long n) {
  double s = 0.0, prev = 0.0;
  for (long i = 0; i < n; i++) {
    double x = a[i] * 0.75 + b[i] * 0.25;
    double y = x - prev;
    if (y < 0.0) y = -y;
    prev = x;
    s += y * (double)w[i];
    out[i] = s > 100.0 ? 100.0 : s;
  }
  return s;
}
