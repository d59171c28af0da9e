/* CRC-32, byte at a time with a 256-entry table */
#include "../marks.h"
unsigned crc32_table(const unsigned *table, unsigned crc, const unsigned char *p, long n) {
  crc = ~crc;
  for (long i = 0; i < n; i++) {
    IACA_START;
    crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  }
  IACA_END;
  return ~crc;
}
