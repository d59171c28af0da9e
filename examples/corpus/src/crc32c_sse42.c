/* CRC-32C with the SSE4.2 CRC32 instruction; the function is compiled for SSE4.2 on every
 * target (target attribute), so call it only where the CPU has SSE4.2. */
#include "../marks.h"
__attribute__((target("sse4.2")))
unsigned long crc32c_sse42(unsigned long crc, const unsigned long *p, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    crc = __builtin_ia32_crc32di(crc, p[i]);
  }
  IACA_END;
  return crc;
}
