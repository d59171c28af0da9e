/* vec.h: explicit SIMD vectors (GCC/clang vector extensions) sized for the build target, so a
 * marked loop is packed code even though the marker asm stops the auto-vectoriser. */
#ifndef UOPSCOPE_VEC_H
#define UOPSCOPE_VEC_H
#include <string.h>

#if defined(__AVX512F__)
#define VBYTES 64
#elif defined(__AVX__)
#define VBYTES 32
#else
#define VBYTES 16
#endif

typedef double vdouble __attribute__((vector_size(VBYTES)));
typedef float vfloat __attribute__((vector_size(VBYTES)));
#define VLEN_D (VBYTES / 8)
#define VLEN_F (VBYTES / 4)

static inline vdouble vload_d(const double *p) { vdouble v; memcpy(&v, p, sizeof v); return v; }
static inline void vstore_d(double *p, vdouble v) { memcpy(p, &v, sizeof v); }
static inline vfloat vload_f(const float *p) { vfloat v; memcpy(&v, p, sizeof v); return v; }
#endif
