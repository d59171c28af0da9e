/* linked-list traversal: sum of values (pointer chasing) */
#include "../marks.h"
struct node { struct node *next; long value; };
long list_walk(const struct node *p) {
  long s = 0;
  while (p) {
    IACA_START;
    s += p->value;
    p = p->next;
  }
  IACA_END;
  return s;
}
