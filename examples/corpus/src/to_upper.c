/* ASCII upper-case conversion of a byte string */
#include "../marks.h"
void to_upper(unsigned char *s, long n) {
  for (long i = 0; i < n; i++) {
    IACA_START;
    unsigned char c = s[i];
    s[i] = (unsigned char)(c - 'a') < 26 ? c - 32 : c;
  }
  IACA_END;
}
