/* toupper: ASCII lower case to upper case, in place */
void to_upper(unsigned char *s, long n) {
  for (long i = 0; i < n; i++) {
    unsigned char c = s[i];
    s[i] = (unsigned char)(c - 'a') < 26 ? c - 32 : c;
  }
}
