/* CRC-32 (reflected, polynomial 0xEDB88320), bit at a time, no table */
#include "../marks.h"
unsigned crc32_bitwise(unsigned crc, const unsigned char *p, long n) {
  if (n <= 0) return crc;
  crc = ~crc;
  for (long i = 0; i < n * 8; i++) {
    IACA_START;
    unsigned bit = (p[i >> 3] >> (i & 7)) & 1u;
    unsigned mask = -((crc ^ bit) & 1u);
    crc = (crc >> 1) ^ (0xEDB88320u & mask);
  }
  IACA_END;
  return ~crc;
}
