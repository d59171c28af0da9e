/* complex multiply: c[i] = a[i] * b[i] */
typedef struct { double re, im; } cplx;
void cmul(cplx *restrict c, const cplx *restrict a, const cplx *restrict b, long n) {
  for (long i = 0; i < n; i++) {
    double re = a[i].re * b[i].re - a[i].im * b[i].im;
    double im = a[i].re * b[i].im + a[i].im * b[i].re;
    c[i].re = re;
    c[i].im = im;
  }
}
