/* insertion sort: the inner shifting loop for one key */
#include "../marks.h"
void insertion_sort_step(int *a, long i) {
  int key = a[i];
  long j = i - 1;
  while (j >= 0 && a[j] > key) {
    IACA_START;
    a[j + 1] = a[j];
    j--;
  }
  IACA_END;
  a[j + 1] = key;
}
