/* strlen: scan bytes until NUL */
#include "../marks.h"
long strlen_loop(const char *s) {
  long i = 0;
  if (s[0] == 0) return 0;
  while (s[i] != 0) {
    IACA_START;
    i++;
  }
  IACA_END;
  return i;
}
